"""The online site's door for publications: it takes exactly the public
sections a laptop writes (``tournaments.mirror.snapshot``) and refuses any
other field — a deal's secret, a game's state or moves, a rating, who
entered a result — with a 422 that names it, storing nothing."""

from __future__ import annotations

import uuid

import pytest

from scoring.exchange.export import export_tournament
from scoring.models import Submission
from tests.mirror.mirror_helpers import approved_key, body, envelope, laptop_tournament
from tests.mirror.test_mirror import post
from tests.mirror.test_mirror_digital import digital_tournament
from tournaments.mirror import snapshot
from tournaments.mirror.models import MirroredTournament
from tournaments.models import Player, Round, Table, TableAction, Tournament
from tournaments.play import tables as digital
from tournaments.services import deadlines

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_broker(monkeypatch):
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)
    monkeypatch.setattr(digital, "send_bot_task", lambda *a, **k: None)


@pytest.fixture
def online_key(other_user):
    _row, key = approved_key(user=other_user, name="laptop")
    return key


def rehash(data: dict) -> dict:
    data["hashes"] = {**data["hashes"], **snapshot.hashes(data["sections"])}
    return data


def stored_online(owner) -> tuple:
    """What the online site holds of ``owner``'s mirrors: tournaments,
    deal secrets and moves."""
    tables = Table.objects.filter(round__tournament__owner=owner)
    return (
        Tournament.objects.filter(owner=owner).count(),
        tables.exclude(secret="").count(),
        TableAction.objects.filter(table__in=tables).count(),
    )


def test_a_publication_with_deal_secrets_states_and_moves_is_refused(
    client, organizer, other_user, online_key
):
    laptop = digital_tournament(organizer, "quartett")
    full = export_tournament(laptop)
    data = envelope(laptop, source=uuid.uuid4(), version=1)
    tables = data["sections"]["round:1"]["tables"]
    for sent, kept in zip(tables, full["rounds"][0]["tables"], strict=True):
        sent.update(secret=kept["secret"], state=kept["state"], actions=kept["actions"])
    secrets = sum(1 for t in tables if t["secret"])
    moves = sum(len(t["actions"]) for t in tables)
    assert secrets >= 2 and moves > 0  # the deal is the secret's: a game may be short
    response = post(client, body(rehash(data)), online_key)
    assert response.status_code == 422, response.content
    error = response.json()["error"]
    assert error.startswith("The publication carries fields that are not public:")
    for field in (
        "round:1.tables[0].secret",
        "round:1.tables[0].state",
        "round:1.tables[1].actions",
    ):
        assert field in error, error
    assert stored_online(other_user) == (0, 0, 0)
    assert not MirroredTournament.objects.exists()


FORGED = [
    ("tournament", ("players", 0), "rating", 2100, "tournament.players[0].rating"),
    ("tournament", ("players", 0), "birth_year", 1961, "tournament.players[0].birth_year"),
    ("tournament", ("players", 0), "checked_in", True, "tournament.players[0].checked_in"),
    ("tournament", (), "notes", "private", "tournament.notes"),
    ("tournament", ("tournament",), "owner", "orga", "tournament.tournament.owner"),
    ("round:1", (), "seating_scores", {"1": 3}, "round:1.seating_scores"),
    ("round:1", ("seating_stats",), "seed", 77, "round:1.seating_stats.seed"),
    ("round:1", ("tables", 0, "submissions", 0), "by", "orga", "submissions[0].by"),
    (
        "round:1",
        ("tables", 0, "submissions", 0),
        "from_address",
        "10.0.0.7",
        "submissions[0].from_address",
    ),
    ("round:1", ("tables", 0, "submissions", 0), "reason", "typo", "submissions[0].reason"),
    ("round:1", ("tables", 0), "seed", 12345, "round:1.tables[0].seed"),
    ("clock:1", ("activations", 0), "by", "orga", "clock:1.activations[0].by"),
    ("clock:1", ("round",), "clock_problem", {"code": "x"}, "clock:1.round.clock_problem"),
]


@pytest.mark.parametrize(("section", "at", "field", "value", "named"), FORGED)
def test_any_field_that_is_not_public_is_refused_by_name(
    client, organizer, other_user, online_key, section, at, field, value, named
):
    laptop = laptop_tournament(organizer)
    data = envelope(laptop, source=uuid.uuid4(), version=1)
    target = data["sections"][section]
    for step in at:
        target = target[step]
    target[field] = value
    response = post(client, body(rehash(data)), online_key)
    assert response.status_code == 422, response.content
    assert named in response.json()["error"]
    assert not Tournament.objects.filter(owner=other_user).exists()
    assert not Player.objects.filter(tournament__owner=other_user).exists()


def test_a_digital_results_details_beyond_its_outcome_are_refused(client, organizer, online_key):
    laptop = digital_tournament(organizer, "quartett")
    data = envelope(laptop, source=uuid.uuid4(), version=1)
    counted = data["sections"]["round:1"]["tables"][0]["submissions"][0]
    counted["details"]["hands"] = [[1, 2], [3]]
    response = post(client, body(rehash(data)), online_key)
    assert response.status_code == 422
    assert "round:1.tables[0].submissions[0].details.hands" in response.json()["error"]


def test_what_the_laptop_sends_is_exactly_public_and_is_applied(
    client, organizer, other_user, online_key
):
    """The laptop's own sections pass the door, and the online copy holds no
    secret, move, rating or author."""
    laptop = digital_tournament(organizer, "quartett")
    Player.objects.filter(tournament=laptop).update(rating=1800, birth_year=1970)
    data = envelope(laptop, source=uuid.uuid4(), version=1)
    settings_fields = list(data["sections"]["tournament"]["tournament"])
    for name, content in data["sections"].items():
        assert snapshot.not_public(name, content, settings=settings_fields) == [], name
    response = post(client, body(data), online_key)
    assert response.status_code == 200, response.content
    online = Tournament.objects.get(pk=response.json()["tournament"])
    assert stored_online(other_user) == (1, 0, 0)
    assert not online.players.exclude(rating=None).exists()
    assert not Submission.objects.filter(table__round__tournament=online).exclude(by=None).exists()
    assert online.round_set.get().status == Round.COMPLETE
