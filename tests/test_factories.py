"""The test factories build rounds the way an organizer does: seated by the
seating service (logged), brought into a given seat order by swaps on the
draft, published, started and closed by the clock."""

import pytest

from tests.factories import (
    PlayerFactory,
    TournamentFactory,
    deal_secret,
    digital_table,
    seated_round,
)
from tournaments.models import Round
from tournaments.services import deadlines

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_broker(monkeypatch):
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)


def seating(rnd):
    return [
        [s.player.name for s in table.seats.order_by("position")]
        for table in rnd.tables.order_by("number")
    ]


def test_a_given_seat_order_is_reached_by_the_organizers_swaps(organizer):
    t = TournamentFactory(owner=organizer, allowed_sizes=[3], table_size=3)
    players = [PlayerFactory(tournament=t, name=f"P{k}") for k in range(6)]
    wanted = [[players[5], players[0], players[3]], [players[1], players[4], players[2]]]
    rnd = seated_round(t, order=wanted, time_called=True)
    assert seating(rnd) == [[p.name for p in table] for table in wanted]
    kinds = list(rnd.seating_changes.order_by("pk").values_list("kind", flat=True))
    assert kinds[0] == "seat" and kinds[-1] == "publish"
    assert rnd.status == Round.TIME_CALLED and rnd.published


def test_players_not_checked_in_are_left_out_of_the_seating(organizer):
    t = TournamentFactory(owner=organizer, allowed_sizes=[3], table_size=3)
    for k in range(3):
        PlayerFactory(tournament=t, name=f"P{k}")
    PlayerFactory(tournament=t, name="Away", checked_in=False)
    rnd = seated_round(t, publish=False)
    assert sorted(seating(rnd)[0]) == ["P0", "P1", "P2"] and not rnd.published


def test_a_digital_table_is_dealt_when_its_round_starts(organizer):
    table = digital_table(organizer, "trumpet", 3, seed=11)
    assert table.state is not None and table.round.status == Round.RUNNING
    # the same seating seed seats the same way but never decides the cards
    again = digital_table(organizer, "trumpet", 3, seed=11)
    assert again.state != table.state
    # a test that needs a known game passes the deal secret
    known = digital_table(organizer, "trumpet", 3, secret=deal_secret(11))
    same = digital_table(organizer, "trumpet", 3, secret=deal_secret(11))
    assert known.secret == deal_secret(11) and same.state == known.state
