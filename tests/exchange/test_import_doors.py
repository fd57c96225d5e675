"""Imports are doors like forms: a tournament export that
a form or service of this site would not have written is refused as a whole,
with the place and a translated message, and nothing is stored; a file that
is accepted shows on every page — the tournament's, its organizer's roster
people and season — without a server error.

The property tests start from the export of a small tournament played
through the services (``tests/scoring/played.py``), break it anywhere
(``tests/scoring/mutate.py``) and import it."""

from __future__ import annotations

import contextlib
import copy
import json
import random

import pytest
from django.db import transaction
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from scoring import services as results
from scoring.exchange.export import export_tournament
from scoring.exchange.format import ImportRefused
from scoring.exchange.importer import import_tournament
from scoring.models import Confirmation, Submission
from scoring.season import services as series_services
from scoring.season.models import Series
from tests.examples import examples
from tests.scoring import mutate, played
from tournaments.models import Player, Round, Seat, Table, TableAction, Tournament
from tournaments.roster_models import Person
from tournaments.services import ServiceError, roster, round_life

pytestmark = pytest.mark.django_db

INTERNALS = ("relation", "column", "null value", "constraint", "IntegrityError", "violates")


def counts():
    return tuple(
        m.objects.count()
        for m in (Tournament, Player, Round, Table, Seat, TableAction, Submission, Confirmation)
    )


def as_file(doc) -> bytes:
    return json.dumps(doc, ensure_ascii=False).encode()


def refused(doc, owner) -> list[str]:
    """The problems of a file the import refuses (it must), nothing stored."""
    before = counts()
    with pytest.raises(ImportRefused) as info:
        import_tournament(data=as_file(doc), owner=owner)
    assert counts() == before
    errors = info.value.errors
    assert errors and not any(word in " ".join(errors) for word in INTERNALS), errors
    return errors


# the played tournaments' exports, built once per worker: playing a tournament
# through the services is the expensive part of these tests, and only the file is
# used (imported into another organizer's account); each test gets its own copy
_EXPORTS: dict[str, bytes] = {}


def _export_once(build, organizer) -> dict:
    if build.__name__ not in _EXPORTS:
        _EXPORTS[build.__name__] = as_file(export_tournament(build(organizer)))
    return json.loads(_EXPORTS[build.__name__])


@pytest.fixture
def paper(organizer):
    return _export_once(played.paper_tournament, organizer)


@pytest.fixture
def digital(organizer):
    return _export_once(played.digital_tournament, organizer)


def changed(doc, path, value):
    doc = copy.deepcopy(doc)
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return doc


def first_result(doc, status="confirmed"):
    """(round index, table index, submission index) of the first such result."""
    for i, r in enumerate(doc["rounds"]):
        for j, t in enumerate(r["tables"]):
            for k, s in enumerate(t["submissions"]):
                if s["status"] == status:
                    return i, j, k
    raise AssertionError(f"no {status} result")


# -- the attacks of the issue, each refused at its place ---------------------------


def test_settings_go_through_the_settings_forms_rules(paper, other_user):
    errors = refused(changed(paper, ("tournament", "tiebreaks"), ["points", "points"]), other_user)
    assert any(e.startswith("tournament.tiebreaks") and "only once" in e for e in errors), errors
    for name, value in [
        ("allowed_sizes", [1, 9]),
        ("table_size", 6),
        ("round_minutes", 0),
        ("rounds", 99),
        ("grace_seconds", 10**6),
        ("points_scheme", "fancy"),
        ("game_options", {"deck": "no such deck"}),
        ("game_options", {"colour": "red"}),
        ("tiebreaks", ["luck"]),
        ("tiebreaks", ["points"] * 7),
        ("bot_fill", True),
    ]:
        errors = refused(changed(paper, ("tournament", name), value), other_user)
        assert any(e.startswith(f"tournament.{name}") for e in errors), (name, errors)


def test_a_result_must_be_what_the_games_rules_make_of_its_sheet(paper, other_user):
    i, j, k = first_result(paper)
    where = f"rounds[{i}].tables[{j}].submissions[{k}]"
    sub = ("rounds", i, "tables", j, "submissions", k)
    ranks = paper["rounds"][i]["tables"][j]["submissions"][k]["ranks"]
    for field, value, place in [
        ("ranks", [*ranks[:-1], "x"], "ranks"),
        ("ranks", list(reversed(ranks)), "ranks"),
        ("figures", [], "figures"),
        ("details", {"x": 1}, "details"),
        ("sheet", {"s0_cards": -3}, "sheet.s0_cards"),
        ("sheet", ["x"], "sheet"),
        ("by_seat", 7, "by_seat"),
        ("source", "player", "by_seat"),
        ("source", "digital", "source"),
    ]:
        errors = refused(changed(paper, (*sub, field), value), other_user)
        assert any(e.startswith(f"{where}.{place}") for e in errors), (field, errors)


def test_seating_reasons_go_through_their_codes(paper, other_user):
    for value, message in [
        (["x"], "expected a reason"),
        ([{"code": "luck", "params": {}}], "unknown reason luck"),
        ([{"code": "bye", "params": {"player": 1, "count": "x", "rule": "drawn"}}], "count"),
        ([{"code": "bye", "params": {"player": 1, "rule": "drawn"}}], "lacks its count"),
    ]:
        errors = refused(changed(paper, ("rounds", 0, "tables", 0, "why"), value), other_user)
        assert any(e.startswith("rounds[0].tables[0].why[0]") and message in e for e in errors), (
            value,
            errors,
        )
    errors = refused(
        changed(paper, ("rounds", 0, "seating_stats", "bye_why"), [{"code": "bye"}]), other_user
    )
    assert any(e.startswith("rounds[0].seating_stats.bye_why[0]") for e in errors), errors
    errors = refused(changed(paper, ("rounds", 0, "seating_stats", "mode"), ["x"]), other_user)
    assert any(e.startswith("rounds[0].seating_stats.mode") for e in errors), errors


def test_the_seating_and_the_rounds_hold_together(paper, other_user):
    seats = paper["rounds"][0]["tables"][0]["seats"]
    other = paper["rounds"][0]["tables"][1]["seats"][0]["player"]
    for doc, place in [
        (
            changed(paper, ("rounds", 0, "tables", 0, "seats", 0, "player"), other),
            "seats[0].player",
        ),
        (changed(paper, ("rounds", 0, "tables", 0, "seats", 0, "position"), 9), "tables[0].seats"),
        (changed(paper, ("rounds", 0, "tables", 0, "seats"), seats[:1]), "tables[0].seats"),
        (changed(paper, ("rounds", 1, "number"), 5), "rounds"),
        (changed(paper, ("rounds", 0, "minutes"), 0), "rounds[0].minutes"),
    ]:
        errors = refused(doc, other_user)
        assert any(place in e for e in errors), (place, errors)


def test_a_digital_table_must_replay_from_its_record(digital, other_user):
    table = ("rounds", 0, "tables", 0)
    actions = digital["rounds"][0]["tables"][0]["actions"]
    state = digital["rounds"][0]["tables"][0]["state"]
    k = next(k for k, s in enumerate(digital["rounds"][0]["tables"][0]["submissions"]))
    ranks = digital["rounds"][0]["tables"][0]["submissions"][k]["ranks"]
    for path, value, place in [
        ((*table, "actions"), actions[:-1], "rounds[0].tables[0].state"),
        (
            (*table, "actions"),
            [actions[1], actions[0], *actions[2:]],
            "rounds[0].tables[0].actions",
        ),
        ((*table, "secret"), "0" * 64, "rounds[0].tables[0]"),  # another deal
        ((*table, "state"), {**state, "players": 5}, "rounds[0].tables[0].state"),
        ((*table, "state"), "x", "rounds[0].tables[0].state"),
        (
            (*table, "submissions", k, "ranks"),
            list(reversed(ranks)),
            "rounds[0].tables[0].submissions",
        ),
        ((*table, "digital"), False, "rounds[0].tables[0].state"),
    ]:
        errors = refused(changed(digital, path, value), other_user)
        assert any(e.startswith(place) for e in errors), (path, errors)


def test_every_check_speaks_the_users_language(paper, other_user):
    from django.utils import translation

    with translation.override("de"):
        errors = refused(
            changed(paper, ("tournament", "tiebreaks"), ["points", "points"]), other_user
        )
        errors += refused(changed(paper, ("rounds", 0, "tables", 0, "why"), ["x"]), other_user)
    text = " ".join(errors)
    assert "nur einmal" in text and "Grund" in text, errors


def test_a_valid_export_comes_back_as_it_left(paper, digital, other_user):
    for doc in (paper, digital):
        new = import_tournament(data=as_file(doc), owner=other_user)
        again = export_tournament(new)
        assert {**again, "exported_at": None} == {**doc, "exported_at": None}


@pytest.mark.parametrize(
    "flag", ["scans_at_once", "confirmation_required", "close_when_done", "rounds_side_by_side"]
)
def test_every_yes_no_setting_comes_back_as_it_left(paper, other_user, flag):
    """Each yes/no setting of the settings list, also "confirm read sheets
    at once", goes out and in again; a value that is not true/false is
    refused at its place."""
    doc = changed(paper, ("tournament", flag), True)
    new = import_tournament(data=as_file(doc), owner=other_user)
    assert getattr(new, flag) is True
    assert export_tournament(new)["tournament"][flag] is True
    errors = refused(changed(paper, ("tournament", flag), "yes"), other_user)
    assert any(e.startswith(f"tournament.{flag}") for e in errors), errors


def test_every_seating_mode_round_trips(organizer, other_user):
    """What every seating mode writes (its figures, reasons and log) passes
    the import's checks: by rating (spread and Swiss), mixing, Swiss with
    club-mates apart, a swap on the draft."""
    from tests.factories import PlayerFactory, TournamentFactory
    from tests.timetravel import past_deadline
    from tournaments.services import seating

    rng = random.Random(5)
    t = TournamentFactory(owner=organizer, game="quartett", rounds=4, allowed_sizes=[3, 4])
    for k in range(11):
        PlayerFactory(tournament=t, name=f"P{k}", club="ABC"[k % 3], rating=1000 + 50 * k)
    for mode, apart in [("rating_spread", False), ("mixing", False), ("swiss", True)]:
        rnd = seating.round_seat(tournament=t, by=organizer, mode=mode, clubs_apart=apart)
        a, b = rnd.tables.get(number=1).seats.order_by("position")[:2]
        seating.seating_swap(round=rnd, player_a=a.player, player_b=b.player, by=organizer)
        rnd = round_life.round_start(round=rnd, by=organizer)
        past_deadline(rnd)
        round_life.round_time_up(rnd.pk, via="test")
        for table in rnd.tables.order_by("number"):
            sheet = played.quartett_sheet(t, table.seats.count(), rng)
            results.result_submit(table=table, sheet=sheet, by=organizer, expected_version=None)
    by_rating = TournamentFactory(owner=organizer, game="quartett", allowed_sizes=[3, 4])
    for k in range(7):
        PlayerFactory(tournament=by_rating, name=f"Q{k}", rating=None if k == 3 else 900 + k)
    seating.round_seat(tournament=by_rating, by=organizer, mode="rating_swiss")
    for tournament in (t, by_rating):
        doc = json.loads(as_file(export_tournament(tournament)))
        new = import_tournament(data=as_file(doc), owner=other_user)
        again = export_tournament(new)
        assert {**again, "exported_at": None} == {**doc, "exported_at": None}


# -- the attack as a property ----------------------------------------------------------


def _link_to_roster(tournament, owner, series):
    """Every player to the owner's roster person of the same name (new ones
    added), and the tournament into the series: so the person pages and the
    season read it."""
    people = {(p.name, p.club): p for p in Person.objects.filter(owner=owner, merged_into=None)}
    for player in tournament.players.all():
        try:
            person = people.get((player.name, player.club))
            if person is None:
                person = roster.person_from_player(player=player, by=owner)
            else:
                roster.player_attach_person(player=player, person=person, by=owner)
        except ServiceError:
            continue
    with contextlib.suppress(ServiceError):
        series_services.series_add_tournament(series=series, tournament=tournament, by=owner)


@pytest.fixture
def club_of_other(paper, other_user):
    """The importing organizer already ran the same tournament (imported
    intact, linked to the roster, in a public series): a bad import must not
    break their pages either."""
    first = import_tournament(data=as_file(paper), owner=other_user)
    series = series_services.series_save(
        series=Series(owner=other_user, name="Saison", game="quartett", public=True)
    )
    _link_to_roster(first, other_user, series)
    return series


def test_an_imported_tournament_shows_on_every_page(paper, digital, other_user, club_of_other):
    """The whole sweep once: every page of both tournaments, every round."""
    new = import_tournament(data=as_file(digital), owner=other_user)
    first = Tournament.objects.get(owner=other_user, game="quartett")
    visited = played.pages(other_user, [first, new])
    assert len(visited) > 250
    assert not [(url, status) for url, status in visited if status >= 500]


def touched_rounds(doc, done) -> list[int]:
    """The round numbers a change touched (round 1 always): whose details the
    property renders beside every round's main pages."""
    out = {1}
    for _op, path in done:
        if path[0] == "rounds" and len(path) > 1 and isinstance(path[1], int):
            out.add(path[1] + 1)
            rounds = doc.get("rounds") if isinstance(doc, dict) else None
            if isinstance(rounds, list) and path[1] < len(rounds):
                number = (
                    rounds[path[1]].get("number") if isinstance(rounds[path[1]], dict) else None
                )
                if isinstance(number, int):
                    out.add(number)
    return sorted(out)


@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
@given(data=st.data())
def test_any_broken_export_is_refused_or_every_page_shows_it(
    paper, other_user, club_of_other, data
):
    doc, done = data.draw(mutate.mutated(paper))
    before = counts()
    with transaction.atomic():
        try:
            new = import_tournament(data=as_file(doc), owner=other_user)
        except ImportRefused as exc:
            event("refused")
            assert counts() == before, done
            assert exc.errors and not any(w in " ".join(exc.errors) for w in INTERNALS), done
        else:
            event("accepted")
            _link_to_roster(new, other_user, club_of_other)
            errors = played.server_errors(other_user, [new], rounds=touched_rounds(doc, done))
            assert not errors, (done, errors)
        transaction.set_rollback(True)  # forget an accepted variant for the next one
