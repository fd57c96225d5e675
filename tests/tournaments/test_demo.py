"""The demo looks like a real evening: rounds that ran their full length and
games that were really played (not every table tied with all cards in hand)."""

import pytest
from django.core.management import call_command

from scoring.models import Submission
from scoring.standings.selectors import standings
from tournaments.models import ClockActivation, Tournament
from tournaments.services import deadlines


@pytest.mark.django_db
def test_demo_rounds_have_real_lengths_and_played_results(settings, tmp_path, monkeypatch):
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)
    settings.VAR_DIR = tmp_path
    call_command("demo", "--players", "16", "--played", "2", "--seed", "3")
    demo = Tournament.objects.get()
    rounds = list(demo.round_set.order_by("number"))
    assert [r.status for r in rounds] == ["complete", "complete"]
    for rnd in rounds:
        start = ClockActivation.objects.get(round=rnd, kind="start", table=None)
        ran = (rnd.time_called_at - start.at).total_seconds()
        assert abs(ran - rnd.minutes * 60) <= 5, ran
    results = list(Submission.objects.filter(table__round__in=rounds, status="confirmed"))
    assert len(results) == 8
    # most tables have a single winner, and the figures differ between players
    decided = [s for s in results if sorted(s.ranks).count(1) == 1]
    assert len(decided) >= len(results) // 2
    assert sum(1 for s in results if len(set(s.figures)) > 1) >= len(results) * 3 // 4
    # standings are spread out, not everyone on the same points
    points = {row.points for row in standings(demo)}
    assert len(points) >= 4
