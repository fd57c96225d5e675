"""Bots in the seats of digital tables: the organizer gives a seat to the
game's bot before or during play and hands it back; the bot moves from its
seat's view and legal actions only, after every move that makes it due, so a
table never stalls; an idle seat is shown and taken over with one press; a
result with a bot seat is marked."""

import re
from datetime import timedelta

import pytest
from django.urls import reverse

from games import get_engine
from scoring.models import Submission
from tests.examples import examples
from tests.factories import deal_secret, digital_table
from tournaments.models import ClockActivation, Seat, TableAction
from tournaments.play import bots, watch
from tournaments.play import tables as digital
from tournaments.play.screen import move as play_move
from tournaments.services import ServiceError, clock, round_life

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("inline_bots")]


def make_round(organizer, game="quartett", players=2, secret=None):
    """Round 1 of a digital tournament seated through the services, not
    started: one table, ``Spieler 0`` at seat 0 and so on (``secret``: a
    fixed deal, see ``deal_secret``)."""
    table = digital_table(
        organizer, game, players, start=False, publish=False, round_minutes=30, secret=secret
    )
    return table.round, table


def state_of(table):
    table.refresh_from_db()
    return table.round.tournament.engine.load(table.state)


def human_moves_until_over(table, human_seats, limit=3000):
    engine = table.round.tournament.engine
    for _ in range(limit):
        state = state_of(table)
        if engine.is_over(state):
            return state
        to_act = [s for s in engine.to_act(state) if s in human_seats]
        assert to_act, "the table waits for a bot seat: it stalled"
        seat = to_act[0]
        digital.table_move(table=table, seat=seat, action=engine.legal_actions(state, seat)[0])
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(
    "game,players",
    [
        ("quartett", 2),
        ("terra_trumpf", 3),
        ("trumpet", 3),
        ("monddaemmerung", 3),
        ("altruismus", 3),
    ],
)
def test_a_bot_given_a_seat_before_play_plays_it_to_the_end(organizer, game, players):
    rnd, table = make_round(organizer, game=game, players=players)
    bots.seat_to_bot(table=table, position=players - 1)
    round_life.round_start(round=rnd, by=organizer)
    state = human_moves_until_over(table, set(range(players - 1)))
    engine = get_engine(game)
    assert engine.is_over(state)
    bot_rows = TableAction.objects.filter(table=table, seat=players - 1)
    assert bot_rows.exists() and all(r.by_bot for r in bot_rows)
    assert not TableAction.objects.filter(table=table, seat__lt=players - 1, by_bot=True).exists()
    result = Submission.objects.get(table=table, status=Submission.CONFIRMED)
    assert result.details["bot_seats"] == [players - 1]
    assert result.ranks == list(engine.result(state).ranks)


def test_the_bot_sees_only_its_seats_view_and_legal_actions(organizer, monkeypatch):
    rnd, table = make_round(organizer, game="monddaemmerung", players=3)
    engine = get_engine("monddaemmerung")
    seen, hiding = [], []
    real = bots._bot_for

    class Spy:
        def __init__(self, inner):
            self.inner = inner

        def choose(self, view, legal):
            state = state_of(table)
            seat = engine.to_act(state)[0]
            assert view == engine.view(state, seat)
            assert legal == engine.legal_actions(state, seat)
            hidden = set(engine.hidden(state, seat))
            # (on the last trick the others may hold nothing this seat can't see)
            hiding.append(bool(hidden))
            assert not hidden & set(str(view).split("'")), "a hidden card leaked to the bot"
            seen.append(seat)
            return self.inner.choose(view, legal)

    monkeypatch.setattr(bots, "_bot_for", lambda t, e, n: Spy(real(t, e, n)))
    bots.seat_to_bot(table=table, position=1)
    bots.seat_to_bot(table=table, position=2)
    round_life.round_start(round=rnd, by=organizer)
    human_moves_until_over(table, {0})
    assert seen and set(seen) == {1, 2}
    assert any(hiding), "other seats held cards the bot's seat must not see"


def test_a_seat_given_to_the_bot_during_play_and_handed_back(organizer):
    # a fixed deal: with a random one the bot, winning every trick it
    # announces, could end the game before the player is back
    rnd, table = make_round(organizer, game="quartett", players=2, secret=deal_secret(6))
    round_life.round_start(round=rnd, by=organizer)
    engine = get_engine("quartett")
    state = state_of(table)
    waiting = engine.to_act(state)[0]
    # the player to act leaves: the bot takes over at once and moves
    before = TableAction.objects.filter(table=table).count()
    bots.seat_to_bot(table=table, position=waiting)
    assert TableAction.objects.filter(table=table, by_bot=True, seat=waiting).exists()
    assert TableAction.objects.filter(table=table).count() > before
    # while the bot plays the seat, the player's own move is refused, with a reason
    state = state_of(table)
    if waiting in engine.to_act(state):  # only when the human already moved
        pytest.fail("the bot left its seat to act")
    seat = Seat.objects.get(table=table, position=waiting)
    assert "bot plays this seat" in play_move(seat, "announce:speed")
    # handed back: the bot stops; the player moves again, as do the others
    bots.seat_to_player(table=table, position=waiting)
    seat.refresh_from_db()
    assert not seat.bot
    handed_back = TableAction.objects.filter(table=table).count()
    for _ in range(6):
        state = state_of(table)
        mover = engine.to_act(state)[0]
        digital.table_move(table=table, seat=mover, action=engine.legal_actions(state, mover)[0])
    later = TableAction.objects.filter(table=table, number__gte=handed_back)
    assert later.count() == 6 and not later.filter(by_bot=True).exists()


def test_with_a_pause_each_bot_move_is_its_own_task_after_the_pause(
    organizer, settings, inline_bots, monkeypatch
):
    settings.DIGITAL_BOT_DELAY = 1.5
    sent = []
    monkeypatch.setattr(digital, "send_bot_task", lambda t, d: sent.append((t, d)))
    rnd, table = make_round(organizer, game="monddaemmerung", players=3)
    bots.seat_to_bot(table=table, position=1)
    bots.seat_to_bot(table=table, position=2)
    round_life.round_start(round=rnd, by=organizer)
    engine = get_engine("monddaemmerung")
    for _ in range(6):
        state = state_of(table)
        if 0 in engine.to_act(state):
            sent.clear()
            digital.table_move(table=table, seat=0, action=engine.legal_actions(state, 0)[0])
            if 0 not in engine.to_act(state_of(table)):  # a bot is due: woken after its pause
                assert sent == [(table.pk, 1.5)]
        else:
            assert bots.bot_move(table_id=table.pk) == 1  # one move per task
    # a duplicate or stale wake-up call changes nothing
    state = state_of(table)
    if 0 in engine.to_act(state):
        n = TableAction.objects.filter(table=table).count()
        assert bots.bot_move(table_id=table.pk) == 0
        assert TableAction.objects.filter(table=table).count() == n


def test_the_bot_sweep_wakes_a_bot_whose_call_was_lost(organizer, settings, monkeypatch):
    sent = []
    monkeypatch.setattr(digital, "send_bot_task", lambda t, d: sent.append(t))
    settings.DIGITAL_BOT_DELAY = 0
    rnd, table = make_round(organizer, game="quartett", players=2)
    round_life.round_start(round=rnd, by=organizer)
    engine = get_engine("quartett")
    waiting = engine.to_act(state_of(table))[0]
    bots.seat_to_bot(table=table, position=waiting)  # the call is "lost" (not run)
    assert sent == [table.pk]
    TableAction.objects.filter(table=table).update(at="2000-01-01T00:00:00Z")
    assert bots.bot_sweep() == 1
    bots.bot_move(table_id=table.pk)
    assert waiting not in engine.to_act(state_of(table))


def test_no_bot_moves_while_the_round_is_paused(organizer):
    rnd, table = make_round(organizer, game="quartett", players=2)
    round_life.round_start(round=rnd, by=organizer)
    round_life.round_pause(round=rnd, by=organizer)
    engine = get_engine("quartett")
    waiting = engine.to_act(state_of(table))[0]
    bots.seat_to_bot(table=table, position=waiting)
    assert not TableAction.objects.filter(table=table).exists()


def test_the_same_move_sent_twice_is_applied_once(organizer):
    rnd, table = make_round(organizer, game="quartett", players=2)
    round_life.round_start(round=rnd, by=organizer)
    engine = get_engine("quartett")
    state = state_of(table)
    seat = engine.to_act(state)[0]
    action = engine.legal_actions(state, seat)[0]
    seat_row = Seat.objects.get(table=table, position=seat)
    assert play_move(seat_row, action, "0") == ""
    error = play_move(seat_row, action, "0")
    assert error  # refused with a message
    assert TableAction.objects.filter(table=table).count() == 1
    assert play_move(seat_row, action, "garbage")  # a forged number: refused, no 500
    assert TableAction.objects.filter(table=table).count() == 1


def test_the_round_page_shows_idle_seats_and_one_press_gives_one_to_the_bot(
    client, organizer, settings
):
    # Trumpet for 4: the bot plays its one card and the game waits for the
    # next player (in Quartett for 2 a bot that keeps asking right may end
    # the game before the page shows its "hand back" button)
    rnd, table = make_round(organizer, game="trumpet", players=4)
    round_life.round_start(round=rnd, by=organizer)
    engine = get_engine("trumpet")
    waiting = engine.to_act(state_of(table))[0]
    client.force_login(organizer)
    url = reverse("round_digital", args=[rnd.tournament.pk, 1])

    settings.DIGITAL_IDLE_SECONDS = 3600
    rows = watch.digital_seats(rnd)[0]["seats"]
    assert not any(r["idle"] for r in rows)

    settings.DIGITAL_IDLE_SECONDS = 60
    rows = watch.digital_seats(rnd)[0]["seats"]
    assert not any(r["idle"] for r in rows)  # the round just started
    # two minutes later, nobody has moved: the player the game waits for is idle
    ClockActivation.objects.filter(round=rnd).update(at=clock.db_now() - timedelta(seconds=120))
    rows = watch.digital_seats(rnd)[0]["seats"]
    assert [r["idle"] for r in rows] == [pos == waiting for pos in range(4)]
    page = client.get(url).content.decode()
    assert "idle for" in page and "Give to the bot" in page

    press = reverse("seat_bot", args=[rnd.tournament.pk, 1, 1, waiting])
    response = client.post(press, {"to": "bot"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert "The bot plays for Spieler" in response.content.decode()
    assert Seat.objects.get(table=table, position=waiting).bot
    assert TableAction.objects.filter(table=table, seat=waiting, by_bot=True).exists()
    assert "Hand back to Spieler" in response.content.decode()

    response = client.post(press, {"to": "player"})
    assert response.status_code == 302
    assert not Seat.objects.get(table=table, position=waiting).bot


def test_bad_hand_over_requests_change_nothing(client, organizer, other_user):
    rnd, table = make_round(organizer, game="quartett", players=2)
    t = rnd.tournament
    round_life.round_start(round=rnd, by=organizer)
    press = reverse("seat_bot", args=[t.pk, 1, 1, 0])
    # not the organizer
    client.force_login(other_user)
    assert client.post(press, {"to": "bot"}).status_code == 403
    # a scorekeeper may look but not hand seats over
    t.scorekeepers.add(other_user)
    assert client.get(reverse("round_digital", args=[t.pk, 1])).status_code == 200
    assert client.post(press, {"to": "bot"}).status_code == 403
    client.force_login(organizer)
    # an unknown choice, a seat that does not exist, a table that does not exist
    response = client.post(press, {"to": "robot"}, follow=True)
    assert "Choose the bot or the player." in response.content.decode()
    response = client.post(reverse("seat_bot", args=[t.pk, 1, 1, 7]), {"to": "bot"}, follow=True)
    assert "has no such seat" in response.content.decode()
    assert client.post(reverse("seat_bot", args=[t.pk, 1, 9, 0]), {"to": "bot"}).status_code == 404
    assert client.get(press).status_code == 405
    assert not Seat.objects.filter(table=table, bot=True).exists()
    # a paper table has no bot seats
    table.digital = False
    table.save()
    assert client.post(press, {"to": "bot"}).status_code == 404


def test_a_seat_of_a_finished_game_cannot_be_given_to_the_bot(organizer):
    rnd, table = make_round(organizer, game="quartett", players=2)
    bots.seat_to_bot(table=table, position=1)
    round_life.round_start(round=rnd, by=organizer)
    human_moves_until_over(table, {0})
    with pytest.raises(ServiceError):
        bots.seat_to_player(table=table, position=1)


def test_a_result_with_a_bot_seat_counts_for_its_player_and_is_marked(client, organizer):
    from scoring.standings import listings

    rnd, table = make_round(organizer, game="quartett", players=2)
    bots.seat_to_bot(table=table, position=1)
    round_life.round_start(round=rnd, by=organizer)
    state = human_moves_until_over(table, {0})
    t = rnd.tournament
    ranks = get_engine("quartett").result(state).ranks
    players = {s.position: s.player for s in Seat.objects.filter(table=table)}
    rows = {r["player_id"]: r for r in listings.standings_rows(t)}
    # the ruling (README): the bot stands in; the seat's player gets the seat's place
    assert rows[players[1].pk]["bot_games"] == 1
    assert rows[players[0].pk]["bot_games"] == 0
    assert rows[players[1].pk]["games"] == 1 == rows[players[0].pk]["games"]
    winner = players[ranks.index(1)]
    assert rows[winner.pk]["place"] == 1
    exported = {r["seat"]: r for r in listings.export_results(t)}
    assert exported[2]["bot"] is True and exported[1]["bot"] is False
    assert {r["name"]: r["bot_games"] for r in listings.export_standings(t)} == {
        players[0].name: 0,
        players[1].name: 1,
    }
    client.force_login(organizer)
    page = client.get(reverse("standings", args=[t.pk])).content.decode()
    row = page.split(f'id="standing-{players[1].pk}"', 1)[1].split("</tr>", 1)[0]
    assert "tag-bot" in row
    row = page.split(f'id="standing-{players[0].pk}"', 1)[1].split("</tr>", 1)[0]
    assert "tag-bot" not in row
    # the CSV exports carry the mark too (English files: comma-separated)
    import csv as csvmod

    def rows(what):
        response = client.get(reverse("export", args=[t.pk, what, "csv"]))
        return list(csvmod.reader(response.content.decode("utf-8-sig").splitlines()))

    results = rows("results")
    assert results[0][-1] == "bot"
    assert sorted(r[-1] for r in results[1:]) == ["0", "1"]
    standings = rows("standings")
    assert standings[0][-1] == "bot_games"
    assert sorted(r[-1] for r in standings[1:]) == ["0", "1"]


def test_whatever_screen_number_a_move_carries_it_plays_at_most_once(organizer):
    from hypothesis import HealthCheck, assume, given, settings
    from hypothesis import strategies as st

    rnd, table = make_round(organizer, game="trumpet", players=3)
    round_life.round_start(round=rnd, by=organizer)
    engine = get_engine("trumpet")

    @settings(max_examples=examples(40), deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.one_of(st.integers(-5, 500).map(str), st.text(max_size=8), st.none()))
    def check(seen):
        state = state_of(table)
        assume(not engine.is_over(state))
        before = TableAction.objects.filter(table=table).count()
        seat = engine.to_act(state)[0]
        action = engine.legal_actions(state, seat)[0]
        row = Seat.objects.get(table=table, position=seat)
        # the move plays when the screen is this table's and the seat has not
        # moved since it (other seats' moves in between don't matter)
        try:
            n = int(seen)
        except (TypeError, ValueError):
            n = None
        current = seen in (None, "") or (
            n is not None
            and 0 <= n <= before
            and not TableAction.objects.filter(table=table, seat=seat, number__gte=n).exists()
        )
        error = play_move(row, action, seen)
        after = TableAction.objects.filter(table=table).count()
        assert after == before + (1 if current else 0), (seen, seat, before, error)
        assert bool(error) != current  # refused with a message, or played
        if current and seen:  # the same screen sent again: refused, nothing changes
            assert play_move(row, action, seen)
            assert TableAction.objects.filter(table=table).count() == after

    check()


def test_the_players_page_learns_at_once_that_the_bot_plays_the_seat(client, organizer):
    from tests.seat_tokens import token_for

    rnd, table = make_round(organizer, game="quartett", players=2)
    round_life.round_start(round=rnd, by=organizer)
    engine = get_engine("quartett")
    idle = 1 - engine.to_act(state_of(table))[0]  # not to act: the bot won't move yet
    url = reverse("seat_play", args=[token_for(table, idle)])
    page = client.get(url).content.decode()
    version = re.search(r'data-version="([^"]+)"', page).group(1)
    assert client.get(url, {"v": version}).status_code == 204
    bots.seat_to_bot(table=table, position=idle)
    page = client.get(url, {"v": version})
    assert page.status_code == 200
    assert "The bot plays your seat now." in page.content.decode()
    assert 'name="action"' not in page.content.decode()
