"""A seat link belongs to one player in one round, for good.

A drop re-seats the tables of a published round that has not started and
renumbers their positions; a link bound to a position would then show another
player's seat and hand. These tests run the real services on PostgreSQL:
every other player's link still shows their own seat and hand, the dropped
player's link can't act, self-reported results are confirmed only as the
confirming player's own seat, and a draft's links don't act.
"""

from __future__ import annotations

from html import unescape

import pytest
from django.urls import reverse

from scoring.models import Confirmation, Submission
from tests.play.test_play import buttons, hand_ids, shown_cards
from tests.scoring.test_result_entry import post_data
from tournaments import services
from tournaments.models import Round, Seat, TableAction
from tournaments.play import links
from tournaments.services import deadlines, round_life
from tournaments.services import seating as seating_services

pytestmark = pytest.mark.django_db

NAMES = ["Ayşe Şahin", "Łukasz Wróbel", "Jürgen Weiß", "Zoë Berg", "Anna", "Ben", "Cem", "Dana"]


@pytest.fixture(autouse=True)
def no_broker(monkeypatch):
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)


def seated_round(organizer, *, digital=True, self_report=False, publish=True):
    t = services.tournament_create(
        owner=organizer,
        name="Bindung",
        game="quartett",
        digital_tables=digital,
        self_report=self_report,
        allowed_sizes=[3, 4],
        table_size=4,
    )
    for name in NAMES:
        p = services.player_add(tournament=t, by=organizer, name=name)
        services.player_set_checked_in(player=p, checked_in=True, by=organizer)
    rnd = seating_services.round_seat(tournament=t, by=organizer)
    if publish:
        rnd = seating_services.seating_publish(round=rnd, by=organizer)
    tokens = links.seat_keys(
        rnd.pk, Seat.objects.filter(table__round=rnd).values_list("player_id", flat=True)
    )
    return t, rnd, tokens


def first_seat(rnd) -> Seat:
    return Seat.objects.select_related("player").get(table__round=rnd, table__number=1, position=0)


def page(client, token):
    return client.get(reverse("seat_link", args=[token]))


def test_after_a_drop_every_link_shows_its_own_seat_and_hand(client, organizer, require_postgres):
    t, rnd, tokens = seated_round(organizer)
    before = {s.player_id: (s.table_id, s.position) for s in Seat.objects.filter(table__round=rnd)}
    dropped = first_seat(rnd).player
    services.player_drop(player=dropped, by=organizer)
    after = {s.player_id: (s.table_id, s.position) for s in Seat.objects.filter(table__round=rnd)}
    # the drop renumbered seats: a position-bound link would now be someone else's
    assert any(before[pid] != where for pid, where in after.items())
    round_life.round_start(round=rnd, by=organizer)

    engine = t.engine
    for seat in Seat.objects.filter(table__round=rnd).select_related("player", "table"):
        state = engine.load(seat.table.state)
        html = page(client, tokens[seat.player_id]).content.decode()
        text = unescape(html)
        assert (
            f"{seat.player.name}: round 1, table {seat.table.number}, seat {seat.position + 1}"
            in (text)
        )
        mine = engine.view(state, seat.position)
        shown = shown_cards(html)
        assert hand_ids(mine) and hand_ids(mine) <= shown
        others = set().union(
            *(
                hand_ids(engine.view(state, j))
                for j in range(state["players"])
                if j != seat.position
            )
        )
        assert not (others & shown)
        assert sorted(buttons(html)) == sorted(engine.legal_actions(state, seat.position))

    # the dropped player's link says so and can't act anywhere
    token = tokens[dropped.pk]
    response = page(client, token)
    assert response.status_code == 403
    assert "You have left the tournament" in unescape(response.content.decode())
    for name in ("seat_play", "seat_clock"):
        assert client.get(reverse(name, args=[token])).status_code == 403
    table = Seat.objects.filter(table__round=rnd).first().table
    state = engine.load(table.state)
    for seat_no in engine.to_act(state):
        for action in engine.legal_actions(state, seat_no)[:1]:
            response = client.post(reverse("seat_move", args=[token]), {"action": action})
            assert response.status_code == 403
    assert not TableAction.objects.filter(table__round=rnd).exists()


def test_a_drop_during_the_round_stops_that_link_only(client, organizer, require_postgres):
    t, rnd, tokens = seated_round(organizer)
    round_life.round_start(round=rnd, by=organizer)
    engine = t.engine
    seat = first_seat(rnd)
    state = engine.load(seat.table.state)
    to_act = engine.to_act(state)[0]
    actor = Seat.objects.get(table=seat.table, position=to_act)
    services.player_drop(player=actor.player, by=organizer)
    action = engine.legal_actions(state, to_act)[0]
    response = client.post(reverse("seat_move", args=[tokens[actor.player_id]]), {"action": action})
    assert response.status_code == 403
    assert not TableAction.objects.exists()
    # the others keep playing through their own links
    other = Seat.objects.filter(table=seat.table).exclude(pk=actor.pk).first()
    assert page(client, tokens[other.player_id]).status_code == 200


def test_self_reports_are_confirmed_only_as_the_confirming_players_own_seat(
    client, organizer, require_postgres
):
    t, rnd, tokens = seated_round(organizer, digital=False, self_report=True)
    dropped = first_seat(rnd).player
    services.player_drop(player=dropped, by=organizer)  # renumbers table 1
    round_life.round_start(round=rnd, by=organizer)
    table = rnd.tables.get(number=1)
    seats = list(table.seats.select_related("player").order_by("position"))
    sheet = valid_sheet(t, len(seats))
    reporter, *confirmers = seats
    response = client.post(
        reverse("seat_link", args=[tokens[reporter.player_id]]), post_data(sheet)
    )
    assert response.status_code == 302, unescape(response.content.decode())
    sub = Submission.objects.get(table=table)
    assert sub.by_seat == reporter.position

    # the dropped player's link can't confirm (for anyone)
    response = client.post(
        reverse("seat_link", args=[tokens[dropped.pk]]), {"action": "confirm", "version": "1"}
    )
    assert response.status_code == 403
    assert set(Confirmation.objects.values_list("by_seat", flat=True)) == {reporter.position}

    for seat in confirmers:
        client.post(
            reverse("seat_link", args=[tokens[seat.player_id]]),
            {"action": "confirm", "version": "1"},
        )
    assert sorted(Confirmation.objects.values_list("by_seat", flat=True)) == [
        s.position for s in seats
    ]
    sub.refresh_from_db()
    assert sub.status == Submission.CONFIRMED


def valid_sheet(tournament, n: int) -> dict:
    """A Quartett sheet the engine accepts: the cards in play (dealt evenly)
    held in different counts."""
    engine = tournament.engine
    in_play = len(engine.deck(n, tournament.game_options or {})) // n * n
    cards = [in_play // n + 2 * (n - 1 - i) for i in range(n)]
    cards[-1] += in_play - sum(cards)
    sheet = {f"s{i}_cards": c for i, c in enumerate(cards)}
    engine.check_sheet(n, sheet, tournament.game_options or {})
    return sheet


def test_links_of_a_draft_do_not_act(client, organizer, require_postgres):
    t, rnd, tokens = seated_round(organizer, publish=False)
    assert not Round.objects.get(pk=rnd.pk).published
    token = next(iter(tokens.values()))
    response = page(client, token)
    assert response.status_code == 403
    assert "The seating is not published yet" in unescape(response.content.decode())
    response = client.post(reverse("seat_move", args=[token]), {"action": "announce:x"})
    assert response.status_code == 403
    seating_services.seating_publish(round=rnd, by=organizer)
    assert page(client, token).status_code == 200
