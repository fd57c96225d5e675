"""Looking at a digital table from outside: the spectator view (public
information only, polled cheaply, linked from the public round page) and the
review of a table's record move by move — the organizer sees every seat's
hand, the public replay no hidden card at any step."""

import re

import pytest
from django.urls import reverse

from games import get_engine
from tests.examples import examples
from tests.factories import DIGITAL_GAMES, digital_table
from tournaments.models import Table, TableAction
from tournaments.play import bots
from tournaments.play import tables as digital
from tournaments.services import round_life

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("inline_bots")]

CARD = re.compile(r'data-card="([^"]*)"')


def make_round(organizer, game="quartett", players=2):
    """Round 1 of a digital tournament seated and published through the
    services, not started: one table, ``Spielerin 0`` at seat 0 and so on."""
    table = digital_table(
        organizer,
        game,
        players,
        start=False,
        names=[f"Spielerin {pos}" for pos in range(players)],
        name=f"Finale {game}",
        round_minutes=30,
    )
    return table.round, table


def cards_on(html: str) -> set[str]:
    return set(CARD.findall(html))


def hands(engine, state) -> set[str]:
    zones = engine.zones(state)
    return {c for name, cards in zones.items() if name.startswith("hand:") for c in cards}


def test_the_spectator_view_shows_the_table_but_no_ones_cards(client, organizer):
    rnd, table = make_round(organizer, game="monddaemmerung", players=3)
    t = rnd.tournament
    public = client.get(reverse("round_public", args=[t.pk, 1])).content.decode()
    watch_url = reverse("table_watch", args=[t.pk, 1, 1])
    assert watch_url in public  # linked from the public round page
    page = client.get(watch_url).content.decode()
    assert "The game starts when the organizer starts the round." in page

    bots.seat_to_bot(table=table, position=1)
    bots.seat_to_bot(table=table, position=2)
    round_life.round_start(round=rnd, by=organizer)
    engine = get_engine("monddaemmerung")
    table.refresh_from_db()
    state = engine.load(table.state)
    page = client.get(watch_url).content.decode()
    for name in ("Spielerin 0", "Spielerin 1", "Spielerin 2"):
        assert name in page
    assert "bot" in page
    assert not cards_on(page) & set(engine.hidden(state, None))
    assert not cards_on(page) & hands(engine, state)  # nothing played yet

    # the poll: 204 while nothing changed, the new board after a move
    board = reverse("table_watch_board", args=[t.pk, 1, 1])
    version = re.search(r'data-version="([^"]+)"', page).group(1)
    assert client.get(board, {"v": version}).status_code == 204
    seat = engine.to_act(state)[0]
    digital.table_move(table=table, seat=seat, action=engine.legal_actions(state, seat)[0])
    response = client.get(board, {"v": version})
    assert response.status_code == 200
    table.refresh_from_db()
    state = engine.load(table.state)
    assert not cards_on(response.content.decode()) & set(engine.hidden(state, None))


def test_the_spectator_view_of_a_hidden_tournament_is_not_public(client, organizer):
    rnd, table = make_round(organizer)
    t = rnd.tournament
    t.public = False
    t.save()
    assert client.get(reverse("table_watch", args=[t.pk, 1, 1])).status_code == 404
    assert client.get(reverse("table_review_public", args=[t.pk, 1, 1])).status_code == 404
    client.force_login(organizer)
    assert client.get(reverse("table_watch", args=[t.pk, 1, 1])).status_code == 200
    # no such table, a paper table
    assert client.get(reverse("table_watch", args=[t.pk, 1, 5])).status_code == 404
    Table.objects.filter(pk=table.pk).update(digital=False)
    assert client.get(reverse("table_watch", args=[t.pk, 1, 1])).status_code == 404


@pytest.mark.parametrize("game,players", DIGITAL_GAMES)
def test_the_review_shows_every_hand_to_the_organizer_and_none_to_the_public(
    client, organizer, game, players
):
    rnd, table = make_round(organizer, game=game, players=players)
    t = rnd.tournament
    for pos in range(players):
        bots.seat_to_bot(table=table, position=pos)
    round_life.round_start(round=rnd, by=organizer)
    table.refresh_from_db()
    engine = get_engine(game)
    assert engine.is_over(engine.load(table.state))
    rows = list(TableAction.objects.filter(table=table).order_by("number"))
    states = digital.replay_states(table, rows)
    assert states[-1] == engine.load(table.state)

    organizer_url = reverse("table_review", args=[t.pk, 1, 1])
    public_url = reverse("table_review_public", args=[t.pk, 1, 1])
    assert client.get(organizer_url).status_code == 302  # to the login page
    # every step of the public replay: no card from any hand, nothing hidden
    steps = range(len(states)) if len(states) <= 80 else range(0, len(states), len(states) // 60)
    for step in steps:
        html = client.get(public_url, {"step": step}).content.decode()
        shown = cards_on(html)
        assert f'data-step="{step}"' in html
        assert not shown & set(engine.hidden(states[step], None)), f"step {step}"
        # a card in a hand shows only when the engine's public view shows it
        # (Quartett's last comparison: both cards were turned face up)
        public = set(re.findall(r"'([^']+)'", str(engine.view(states[step], None))))
        assert shown & hands(engine, states[step]) <= public, f"step {step}"
    client.force_login(organizer)
    for step in (0, len(states) // 2):
        html = client.get(organizer_url, {"step": step}).content.decode()
        for pos in range(players):
            own = engine.view(states[step], pos).get("hand") or []
            own = list(own.keys()) if isinstance(own, dict) else own
            section = html.split(f'data-seat="{pos + 1}"', 1)[1].split("review-seat", 1)[0]
            assert set(own) <= cards_on(section), f"seat {pos + 1}'s hand at step {step}"
    # a bad step number shows the end, never an error
    for bad in ("-3", "x", "99999"):
        assert client.get(organizer_url, {"step": bad}).status_code == 200


def test_any_step_number_shows_a_step_of_the_record(client, organizer):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    rnd, table = make_round(organizer, game="quartett", players=2)
    for pos in range(2):
        bots.seat_to_bot(table=table, position=pos)
    round_life.round_start(round=rnd, by=organizer)
    last = TableAction.objects.filter(table=table).count()
    url = reverse("table_review_public", args=[rnd.tournament.pk, 1, 1])

    @settings(max_examples=examples(40), deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.one_of(st.integers(-(10**6), 10**6).map(str), st.text(max_size=12)))
    def check(step):
        response = client.get(url, {"step": step})
        assert response.status_code == 200
        shown = int(re.search(r'data-step="(\d+)"', response.content.decode()).group(1))
        assert 0 <= shown <= last

    check()


def test_the_spectator_view_stops_polling_when_the_game_is_over(client, organizer):
    rnd, table = make_round(organizer, game="quartett", players=2)
    watch_url = reverse("table_watch", args=[rnd.tournament.pk, 1, 1])
    assert "hx-get" in client.get(watch_url).content.decode()  # waits for the deal
    for pos in range(2):
        bots.seat_to_bot(table=table, position=pos)
    round_life.round_start(round=rnd, by=organizer)  # the bots play the game to its end
    page = client.get(watch_url).content.decode()
    assert "Result" in page and "hx-get" not in page


def test_a_move_made_while_the_spectator_view_is_built_shows_at_the_next_poll(
    organizer, monkeypatch
):
    """The projector's poll must not keep an old board under a version that
    already counts a move made while the board was read."""
    from tournaments.play import watch

    rnd, table = make_round(organizer)
    round_life.round_start(round=rnd, by=organizer)
    engine = get_engine("quartett")
    original = watch._seats
    moved = []

    def seats_then_a_move(t):
        if not moved:
            table.refresh_from_db()
            state = engine.load(table.state)
            seat = engine.to_act(state)[0]
            digital.table_move(table=table, seat=seat, action=engine.legal_actions(state, seat)[0])
            moved.append(seat)
        return original(t)

    monkeypatch.setattr(watch, "_seats", seats_then_a_move)
    screen = watch.spectator_screen(table)
    monkeypatch.setattr(watch, "_seats", original)
    assert moved
    assert screen["version"] != watch.spectator_version(table)
