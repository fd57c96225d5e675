"""What a move costs the server: a player's move at a busy event is one
short transaction and one drawing of his screen, not a query for each
question the service asks (issue 37: 50 tables × 4 phones)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import PlayerFactory, digital_table
from tournaments import live
from tournaments.models import Player, Seat, TableAction
from tournaments.play import tables as digital
from tournaments.play.links import seat_token
from tournaments.services import deadlines

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_broker(monkeypatch):
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)


def test_a_move_and_its_new_screen_take_at_most_thirteen_queries(
    client, organizer, django_assert_max_num_queries
):
    # the link's check 1, the move's transaction 9 with its savepoint and
    # release (the round shared, the table locked, the clock, the bot seats,
    # the log's figures, the action, the state), the new screen 2; before:
    # 17 (the table read twice, the bot seats twice, the log counted thrice)
    table = digital_table(organizer, "trumpet", 4, round_minutes=60)
    engine = table.round.tournament.engine
    for played in range(3):
        table.refresh_from_db()
        state = engine.load(table.state)
        seat = engine.to_act(state)[0]
        url = reverse("seat_move", args=[seat_token(Seat.objects.get(table=table, position=seat))])
        action = engine.legal_actions(state, seat)[0]
        data = {"action": action, "seen": str(played), "s": f"{table.pk}.{seat}"}
        if played == 0:
            # the first move warms what a running process keeps (Django's
            # content types, compiled lookups), whichever tests ran before
            answer = client.post(url, data, HTTP_HX_REQUEST="true")
        else:
            with django_assert_max_num_queries(13):
                answer = client.post(url, data, HTTP_HX_REQUEST="true")
        assert answer.status_code == 200
        assert TableAction.objects.filter(table=table).count() == played + 1
    # the same move sent again from the same screen is still played once
    answer = client.post(
        url,
        {"action": action, "seen": str(played), "s": f"{table.pk}.{seat}"},
        HTTP_HX_REQUEST="true",
    )
    assert answer.status_code == 200 and 'role="alert"' in answer.content.decode()
    assert TableAction.objects.filter(table=table).count() == 3
    assert list(TableAction.objects.filter(table=table).values_list("number", flat=True)) == [
        0,
        1,
        2,
    ]


def poll_url(table, position):
    return reverse("seat_play", args=[seat_token(Seat.objects.get(table=table, position=position))])


def poll(client, table, position, shown, url=None):
    url = url or poll_url(table, position)
    return client.get(url, {"v": shown, "s": f"{table.pk}.{position}"}, HTTP_HX_REQUEST="true")


def move_once(table):
    table.refresh_from_db()
    engine = table.round.tournament.engine
    state = engine.load(table.state)
    seat = engine.to_act(state)[0]
    digital.table_move(table=table, seat=seat, action=engine.legal_actions(state, seat)[0])


def test_a_known_links_poll_draws_the_new_screen_without_the_links_query(
    client, organizer, django_assert_max_num_queries
):
    table = digital_table(organizer, "trumpet", 4, round_minutes=60)
    first = poll(client, table, 2, "x")  # the link checked once, then known to the cache
    assert first.status_code == 200
    move_once(table)
    live.forget_local()  # another web process: the shared cache is asked
    url = poll_url(table, 2)
    # the round's versions 1, the table's snapshot 2 (before: the link's query too)
    with django_assert_max_num_queries(3):
        drawn = poll(client, table, 2, "x", url)
    assert drawn.status_code == 200
    assert f'data-seat="{table.pk}.2"' in drawn.content.decode()
    assert 'name="seen" value="1"' in drawn.content.decode() or "play-form" not in (
        drawn.content.decode()
    )


def test_a_known_link_whose_seat_went_to_another_player_is_checked_again(client, organizer):
    table = digital_table(organizer, "trumpet", 4, round_minutes=60)
    token = seat_token(Seat.objects.get(table=table, position=0))
    assert poll(client, table, 0, "x").status_code == 200
    # the seat given to someone else behind the cache's back (no re-issue)
    newcomer = PlayerFactory(tournament=table.round.tournament, name="Neu")
    Seat.objects.filter(table=table, position=0).update(player=newcomer)
    move_once(table)
    live.forget_local()
    url = reverse("seat_play", args=[token])
    answer = client.get(url, {"v": "x", "s": f"{table.pk}.0"}, HTTP_HX_REQUEST="true")
    assert 'data-seat="' not in answer.content.decode()  # never that seat's screen


def test_a_known_link_of_a_player_who_dropped_is_checked_again(client, organizer):
    table = digital_table(organizer, "trumpet", 4, round_minutes=60)
    assert poll(client, table, 1, "x").status_code == 200
    # dropped behind the cache's back (the service forgets the link at once)
    Player.objects.filter(pk=Seat.objects.get(table=table, position=1).player_id).update(
        dropped=True
    )
    move_once(table)
    live.forget_local()
    answer = poll(client, table, 1, "x")
    assert 'data-seat="' not in answer.content.decode()


def test_a_card_on_the_seat_screen_reads_as_the_card_template_draws_it():
    from django.template.loader import render_to_string

    from tournaments.play.templatetags.play_cards import card_face

    for card in (
        {"title": "Rot 7", "lines": ["Trumpf", "<b>& Co</b>"]},
        {"title": "Ass <i>", "lines": []},
        {"title": "Q", "lines": None},
    ):
        assert card_face(card) == render_to_string("play/card.html", {"card": card})
