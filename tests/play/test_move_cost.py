"""What a move costs the server: a player's move at a busy event is one
short transaction and one drawing of his screen, not a query for each
question the service asks (issue 37: 50 tables × 4 phones)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import digital_table
from tournaments.models import Seat, TableAction
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
        with django_assert_max_num_queries(13):
            answer = client.post(
                url,
                {"action": action, "seen": str(played), "s": f"{table.pk}.{seat}"},
                HTTP_HX_REQUEST="true",
            )
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
