"""An import's clock is checked by the clock's own rules
(``tournaments.services.clock``): each activation's seconds as the service
takes them, no time beyond this site's clock, the log replayed through the
pure clock, and the round's status, deadline and time left and each table's
extension and deadline what the service stores after that log. A file that
breaks one is refused with the place and the message, and nothing is
stored."""

from __future__ import annotations

import json

import pytest
from django.utils import translation

from scoring.exchange.export import export_tournament
from scoring.exchange.importer import import_tournament
from tests.exchange.test_import_doors import as_file, changed, refused
from tests.scoring import played

pytestmark = pytest.mark.django_db


@pytest.fixture
def paper(organizer):
    """Rounds 1 and 2 complete, round 3 running with table 1 extended."""
    return json.loads(as_file(export_tournament(played.paper_tournament(organizer))))


def activation(doc, round_index: int, kind: str) -> int:
    return next(i for i, a in enumerate(doc["rounds"][round_index]["clock"]) if a["kind"] == kind)


def test_an_extension_of_minus_a_billion_seconds_is_refused(paper, other_user):
    k = activation(paper, 2, "extend")
    for seconds, message in [
        (-(10**9), "Give a positive number of minutes."),
        (0, "Give a positive number of minutes."),
        (10**9, "An extension can be at most 12 hours."),
    ]:
        errors = refused(changed(paper, ("rounds", 2, "clock", k, "seconds"), seconds), other_user)
        assert f"rounds[2].clock[{k}].seconds: {message}" in errors, errors
    errors = refused(
        changed(paper, ("rounds", 2, "tables", 0, "extra_seconds"), -(10**9)), other_user
    )
    assert any(
        e.startswith("rounds[2].tables[0].extra_seconds: not the extension the clock's log gives")
        for e in errors
    ), errors


def test_a_deadline_in_the_year_9999_is_refused(paper, other_user):
    far = "9999-12-31T23:59:59+00:00"
    errors = refused(changed(paper, ("rounds", 2, "deadline"), far), other_user)
    assert any(
        e.startswith("rounds[2].deadline: not the deadline the clock's log gives") for e in errors
    ), errors
    # a start far in the future would make that deadline the log's: the
    # log's times can't lie beyond this site's clock
    start = activation(paper, 2, "start")
    doc = changed(paper, ("rounds", 2, "clock", start, "at"), "9999-12-31T23:00:00+00:00")
    errors = refused(doc, other_user)
    assert any(
        e.startswith(f"rounds[2].clock[{start}].at: 9999-12-31T23:00:00+00:00 is later than")
        for e in errors
    ), errors
    errors = refused(changed(paper, ("rounds", 2, "tables", 0, "deadline"), far), other_user)
    assert any(e.startswith("rounds[2].tables[0].deadline") for e in errors), errors


def test_a_round_marked_running_although_complete_is_refused(paper, other_user):
    assert paper["rounds"][0]["status"] == "complete"
    errors = refused(changed(paper, ("rounds", 0, "status"), "running"), other_user)
    assert "rounds[0].status: running, but the clock's log gives time called" in errors, errors
    # nor can a round be complete whose time was never called
    doc = changed(paper, ("rounds", 2, "status"), "complete")
    errors = refused(doc, other_user)
    assert "rounds[2].status: complete, but the clock's log gives running" in errors, errors


def test_a_clock_log_the_clock_could_not_have_written_is_refused(paper, other_user):
    log = paper["rounds"][0]["clock"]
    start = activation(paper, 0, "start")
    twice = changed(paper, ("rounds", 0, "clock"), [log[start], *log])
    errors = refused(twice, other_user)
    assert any("the clock can't do this here" in e for e in errors), errors
    errors = refused(changed(paper, ("rounds", 0, "clock", start, "seconds"), 0), other_user)
    assert f"rounds[0].clock[{start}].seconds: A round needs some time." in errors, errors


def test_the_clocks_refusals_speak_german(paper, other_user):
    k = activation(paper, 2, "extend")
    with translation.override("de"):
        errors = refused(changed(paper, ("rounds", 2, "clock", k, "seconds"), -(10**9)), other_user)
        errors += refused(changed(paper, ("rounds", 0, "status"), "running"), other_user)
    text = " | ".join(errors)
    assert "Minuten" in text and "läuft" in text, text


def test_a_played_tournament_passes_the_clocks_check(paper, other_user):
    new = import_tournament(data=as_file(paper), owner=other_user)
    again = export_tournament(new)
    assert {**again, "exported_at": None} == {**paper, "exported_at": None}
