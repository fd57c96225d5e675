"""Digital tables' counted results on the online site: published as their
outcome (ranks, figures, rank keys per seat), never their moves, deal or
state, and checked online by the game's engine like an import checks a
sheet — the online standings are the laptop's."""

from __future__ import annotations

import gzip
import json
import uuid

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import ENGINES
from scoring.exchange.export import export_tournament
from scoring.models import Submission
from tests.examples import examples
from tests.factories import TournamentFactory
from tests.mirror.mirror_helpers import approved_key, body, envelope, play_digital_round
from tests.mirror.test_mirror import post, public_state, standings_rows
from tournaments.mirror import snapshot
from tournaments.mirror.models import MirroredTournament
from tournaments.models import Round, Table, Tournament
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


def digital_tournament(owner, game: str, rounds: int = 1) -> Tournament:
    t = TournamentFactory(owner=owner, game=game, digital_tables=True, rounds=3, public=True)
    for k in range(rounds):
        play_digital_round(t, players=2 * t.table_size if k == 0 else None, seed=31 * k)
    return t


def digital_results(t: Tournament) -> list:
    return list(
        Submission.objects.filter(table__round__tournament=t, status=Submission.CONFIRMED)
        .order_by("table__round__number", "table__number")
        .values_list("ranks", "figures")
    )


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_a_digital_tables_counted_result_reaches_the_online_standings(
    client, organizer, online_key, game
):
    laptop = digital_tournament(organizer, game)
    assert laptop.round_set.get().status == Round.COMPLETE
    data = envelope(laptop, source=uuid.uuid4(), version=1)
    # what travels: the outcome, never the deal, the moves or the game's state
    for table in data["sections"]["round:1"]["tables"]:
        assert table["digital"]
        assert not {"state", "actions", "secret", "seed"} & set(table)
        [counted] = table["submissions"]
        assert counted["source"] == "digital" and counted["sheet"] == {}
        assert set(counted["details"]) <= {"rank_keys", "bot_seats", "time_called"}
    response = post(client, body(data), online_key)
    assert response.status_code == 200, response.content
    online = Tournament.objects.get(pk=response.json()["tournament"])
    assert digital_results(online) == digital_results(laptop)
    assert standings_rows(online) == standings_rows(laptop)
    assert set(Table.objects.filter(round__tournament=online).values_list("status", flat=True)) == {
        Table.DONE
    }
    assert public_state(online) == public_state(laptop)


def test_the_next_digital_round_arrives_as_a_delta(client, organizer, online_key):
    laptop = digital_tournament(organizer, "quartett")
    source = uuid.uuid4()
    first = post(client, body(envelope(laptop, source=source, version=1)), online_key).json()
    online = Tournament.objects.get(pk=first["tournament"])
    play_digital_round(laptop, seed=77)
    delta = envelope(laptop, source=source, version=2, held=first["hashes"])
    assert "round:2" in delta["sections"] and "round:1" not in delta["sections"]
    assert post(client, body(delta), online_key).json()["applied"]
    assert standings_rows(online) == standings_rows(laptop)
    assert digital_results(online) == digital_results(laptop)


def forge(data: dict, change) -> dict:
    """The publication with the first digital result changed by ``change``."""
    counted = data["sections"]["round:1"]["tables"][0]["submissions"][0]
    change(counted)
    data["hashes"]["round:1"] = snapshot.digest(data["sections"]["round:1"])
    return data


def swap_first_two(counted):
    """The first seat's rank swapped with the first seat of another rank (two
    tied seats swapped would change nothing); all tied: the first one lower."""
    ranks = counted["ranks"]
    other = next((k for k in range(1, len(ranks)) if ranks[k] != ranks[0]), None)
    if other is None:
        ranks[0] += 1
    else:
        ranks[0], ranks[other] = ranks[other], ranks[0]


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (swap_first_two, "details"),  # ranks the rank keys don't give
        (lambda c: c["ranks"].append(1), "ranks"),  # a seat too many
        (lambda c: c.update(ranks=[1] * (len(c["ranks"]) - 1) + [3]), "ranks"),
        (lambda c: c.update(figures=["viele"] * len(c["figures"])), "figures"),
        (lambda c: c.update(status="pending"), "source"),  # only a counted one is told
    ],
)
def test_a_forged_digital_outcome_is_refused_and_changes_nothing(
    client, organizer, online_key, change, where
):
    laptop = digital_tournament(organizer, "quartett")
    source = uuid.uuid4()
    first = post(client, body(envelope(laptop, source=source, version=1)), online_key).json()
    online = Tournament.objects.get(pk=first["tournament"])
    before = public_state(online)
    forged = forge(envelope(laptop, source=source, version=2), change)
    response = post(client, body(forged), online_key)
    assert response.status_code == 422, response.content
    assert f"tables[0].submissions[0].{where}" in response.json()["error"]
    assert public_state(online) == before
    assert MirroredTournament.objects.get(source=source).version == 1


def test_an_outcome_of_a_table_played_on_paper_is_still_checked_by_its_sheet(
    client, organizer, online_key
):
    """Told outcomes are for digital tables only: a paper table's result
    claiming the engine's source is refused."""
    from tests.mirror.mirror_helpers import laptop_tournament

    laptop = laptop_tournament(organizer)
    data = envelope(laptop, source=uuid.uuid4(), version=1)
    counted = data["sections"]["round:1"]["tables"][0]["submissions"][0]
    counted.update(source="digital", sheet={})
    data["hashes"]["round:1"] = snapshot.digest(data["sections"]["round:1"])
    response = post(client, body(data), online_key)
    assert response.status_code == 422
    assert not MirroredTournament.objects.exists()


@settings(max_examples=examples(30), deadline=None)
@given(
    ranks=st.lists(st.integers(-1, 6), min_size=0, max_size=6),
    figures=st.lists(st.one_of(st.integers(-5, 40), st.floats(), st.text(max_size=3))),
    keys=st.lists(st.lists(st.integers(0, 9), max_size=3), max_size=6),
)
def test_every_engine_judges_any_told_outcome_without_crashing(ranks, figures, keys):
    """The engine's check of a told outcome answers with problems or none,
    whatever the values; an outcome it accepts is a sound ranking."""
    for engine in ENGINES.values():
        for players in range(engine.min_players, engine.max_players + 1):
            problems = engine.check_outcome(players, ranks, figures, {"rank_keys": keys})
            if not problems:
                assert len(ranks) == players == len(figures)
                assert sorted(ranks)[0] == 1


def test_the_published_body_holds_no_card_of_a_digital_table(organizer):
    laptop = digital_tournament(organizer, "quartett")
    sections = snapshot.public_sections(export_tournament(laptop))
    text = gzip.decompress(body({"s": sections})).decode()
    table = laptop.round_set.get().tables.order_by("number").first()
    for secret in (table.secret, str(digital.deal_seed(table))):
        assert secret and secret not in text
    assert "state" not in json.loads(text)["s"]["round:1"]["tables"][0]
