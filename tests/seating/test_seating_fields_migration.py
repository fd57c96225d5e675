"""Migration 0015: what the app relies on of a round's seating (mode, seed,
teams rule, the standings it was seated by, the mixing plan's seed) moves out
of ``seating_stats`` into the round's own fields, and back when reversed; an
older export file is read the same way."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scoring.exchange.export import export_tournament
from scoring.exchange.format import ImportRefused
from scoring.exchange.importer import import_tournament
from tests.factories import TournamentFactory
from tournaments.models import Round

BEFORE = [("tournaments", "0014_table_deal_secret")]
AFTER = [("tournaments", "0015_round_seating_fields")]

OLD_STATS = {
    "mode": "mixing",
    "seed": 41,
    "teams": "apart",
    "scores": {"7": 3.0},
    "plan_seed": 99,
    "repeat_pairs": 2,
    "bye_why": [],
}


def _migrate(target):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)
    return executor.loader.project_state(target).apps


@pytest.mark.django_db(transaction=True)
def test_the_seating_fields_are_filled_from_the_old_figures_and_given_back():
    old = _migrate(BEFORE)
    user = old.get_model("auth", "User").objects.create(username="alt")
    t = old.get_model("tournaments", "Tournament").objects.create(
        owner_id=user.pk, name="Alt", game="quartett"
    )
    Round = old.get_model("tournaments", "Round")
    seated = Round.objects.create(tournament=t, number=1, seating_stats=OLD_STATS)
    bare = Round.objects.create(tournament=t, number=2, seating_stats={"mode": "nonsense"})

    new = _migrate(AFTER).get_model("tournaments", "Round")
    rnd = new.objects.get(pk=seated.pk)
    assert (rnd.seating_mode, rnd.seating_seed, rnd.seating_teams) == ("mixing", 41, "apart")
    assert (rnd.seating_scores, rnd.plan_seed) == ({"7": 3.0}, 99)
    assert rnd.seating_stats == {"repeat_pairs": 2, "bye_why": []}
    other = new.objects.get(pk=bare.pk)
    assert (other.seating_mode, other.seating_seed, other.seating_scores) == ("", 0, None)

    back = _migrate(BEFORE).get_model("tournaments", "Round")
    assert back.objects.get(pk=seated.pk).seating_stats == OLD_STATS
    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.mark.django_db
def test_an_older_export_with_the_seating_in_its_figures_imports_into_the_fields(organizer):
    tournament = TournamentFactory(owner=organizer)
    Round.objects.create(tournament=tournament, number=1)
    doc = export_tournament(tournament)
    for name in ("seating_mode", "seating_seed", "seating_teams", "seating_scores", "plan_seed"):
        del doc["rounds"][0][name]
    doc["rounds"][0]["seating_stats"] = OLD_STATS
    copy = import_tournament(data=doc, owner=organizer)
    rnd = copy.round_set.get()
    assert (rnd.seating_mode, rnd.seating_seed, rnd.seating_teams) == ("mixing", 41, "apart")
    assert (rnd.seating_scores, rnd.plan_seed) == ({"7": 3.0}, 99)
    assert rnd.seating_stats == {"repeat_pairs": 2, "bye_why": []}


@pytest.mark.django_db
@pytest.mark.parametrize("scores", [[1, 2], {"7": "three"}, {"seven": 3.0}, {"7": True}])
def test_an_import_refuses_standings_that_are_not_points_by_player(organizer, scores):
    tournament = TournamentFactory(owner=organizer)
    Round.objects.create(tournament=tournament, number=1)
    doc = export_tournament(tournament)
    doc["rounds"][0]["seating_scores"] = scores
    with pytest.raises(ImportRefused) as refused:
        import_tournament(data=doc, owner=organizer)
    assert any("rounds[0].seating_scores" in e for e in refused.value.errors)
