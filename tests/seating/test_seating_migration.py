"""Migration 0012: earlier seating log rows get their tournament (through
their round), so the log of a tournament is one query after the upgrade."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("tournaments", "0007_seating_change_kinds")]
AFTER = [("tournaments", "0012_seating_round1_by_rating")]


def test_earlier_log_rows_get_their_tournament():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    user = old.get_model("auth", "User").objects.create(username="alt")
    t = old.get_model("tournaments", "Tournament").objects.create(
        owner_id=user.pk, name="Alt", game="quartett"
    )
    rnd = old.get_model("tournaments", "Round").objects.create(tournament=t, number=1)
    change = old.get_model("tournaments", "SeatingChange").objects.create(round=rnd, kind="seat")

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    row = new.get_model("tournaments", "SeatingChange").objects.get(pk=change.pk)
    assert row.tournament_id == t.pk and row.round_id == rnd.pk
    tournament = new.get_model("tournaments", "Tournament").objects.get(pk=t.pk)
    assert tournament.round1_seating == "random"
    # back to the latest state for the tests that follow
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
