"""Rounds that end when the last sheet is in, and results without the clock,
in the browser, in German on a phone (390×844): a
Quartett sheet whose players still hold cards goes in with one press in a
round whose clock was never started; and when the last sheet of a running
round is in, the overview ends the round with one press and names the next
step, while the projector (1920×1080) stops counting down and says
"Runde 1 beendet" without a reload."""

from __future__ import annotations

import time

import pytest

from scoring import services as results
from scoring.models import Submission
from tests.browser.sessions import logged_in_context
from tests.factories import (
    LONG_CLUBS,
    LONG_NAMES,
    PlayerFactory,
    TournamentFactory,
    seated_round,
)
from tournaments.live import POLL_SECONDS
from tournaments.models import Round
from tournaments.services import deadlines, round_life

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
PROJECTOR = {"width": 1920, "height": 1080}
#: a finished game at a table of three: two players out, one holds every card
QUARTETT_CARDS = 30


@pytest.fixture(autouse=True)
def _no_broker(monkeypatch):
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)  # no worker


def quartett_round(organizer, *, rounds=1, start=False) -> Round:
    """Round 1 of a Quartett tournament with three tables of three, its
    seating published."""
    t = TournamentFactory(
        owner=organizer,
        name="Quartett-Vereinsturnier Januar 2027",
        allowed_sizes=[3],
        table_size=3,
        rounds=rounds,
    )
    players = [
        PlayerFactory(tournament=t, name=name, club=club)
        for name, club in zip(LONG_NAMES, LONG_CLUBS, strict=True)
    ]
    order = [players[k : k + 3] for k in range(0, 9, 3)]
    return seated_round(t, order=order, publish=True, start=start)


def no_sideways_scroll(page) -> bool:
    return page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )


def entry_path(rnd: Round, table: int) -> str:
    return f"/tournaments/{rnd.tournament_id}/rounds/{rnd.number}/tables/{table}/result/"


def test_an_unfinished_sheet_goes_in_when_the_clock_never_started(browser, live_server, organizer):
    rnd = quartett_round(organizer)
    table = rnd.tables.get(number=1)
    context = logged_in_context(
        browser, live_server, organizer, locale="de-DE", viewport=PHONE, bypass_csp=True
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(live_server.url + entry_path(rnd, 1))
        for seat, cards in enumerate([12, 10, 8]):  # everyone still holds cards
            page.fill(f'input[name="sheet-s{seat}_cards"]', str(cards))
        page.screenshot(path="/tmp/rounds-unstarted-entry-phone.png", full_page=True)
        page.keyboard.press("Enter")  # "Speichern, nächster Tisch"
        page.wait_for_url(f"**{entry_path(rnd, 2)}")
        page.get_by_text("Tisch 1: Version 1 gespeichert und gewertet.").wait_for()
        text = page.locator("body").inner_text()
        assert "Ist dieses Spiel wirklich vor Zeitende" not in text
        assert "Die Runde läuft nicht" not in text
        assert no_sideways_scroll(page)
        page.screenshot(path="/tmp/rounds-unstarted-saved-phone.png", full_page=True)
    finally:
        context.close()
    sub = Submission.objects.get(table=table)
    assert sub.status == Submission.CONFIRMED and sub.figures == [12, 10, 8]
    assert Round.objects.get(pk=rnd.pk).status == Round.SEATED  # nothing started by itself


def test_the_last_sheet_in_the_overview_ends_the_round_and_the_projector_shows_it(
    browser, live_server, organizer
):
    rnd = quartett_round(organizer, start=True)
    tid = rnd.tournament_id
    tables = list(rnd.tables.order_by("number"))
    for table in tables[:2]:  # two sheets are in already
        results.result_submit(
            table=table,
            sheet={"s0_cards": QUARTETT_CARDS, "s1_out": True, "s1_out_order": 1,
                   "s2_out": True, "s2_out_order": 2},
            by=organizer,
            expected_version=None,
        )  # fmt: skip
    hall = browser.new_context(locale="de-DE", viewport=PROJECTOR, bypass_csp=True)
    projector = hall.new_page()
    phone_context = logged_in_context(
        browser, live_server, organizer, locale="de-DE", viewport=PHONE, bypass_csp=True
    )
    phone = phone_context.new_page()
    for p in (projector, phone):
        p.set_default_timeout(15_000)
    try:
        projector.goto(f"{live_server.url}/t/{tid}/rounds/1/projector/")
        shown = projector.locator("[data-big-time]")
        projector.wait_for_function(
            "document.querySelector('[data-big-time]').textContent.includes(':')"
        )
        assert shown.inner_text().startswith("4")  # counting down from 45 minutes

        # the last sheet, typed on the phone: every table has its result
        phone.goto(live_server.url + entry_path(rnd, 3))
        phone.fill('input[name="sheet-s0_cards"]', str(QUARTETT_CARDS))
        for seat, order in ((1, 1), (2, 2)):
            phone.check(f'input[name="sheet-s{seat}_out"]')
            phone.fill(f'input[name="sheet-s{seat}_out_order"]', str(order))
        phone.keyboard.press("Enter")
        phone.get_by_text("Alle Tische der Runde 1 haben jetzt ein Ergebnis.").wait_for()
        assert Round.objects.get(pk=rnd.pk).status == Round.RUNNING  # the clock alone waits
        # where the last sheet led, the press is offered at once
        assert (
            phone.locator("#end-round").get_by_role("button", name="Runde 1 beenden").is_visible()
        )
        assert no_sideways_scroll(phone)
        phone.screenshot(path="/tmp/rounds-last-sheet-phone.png", full_page=True)

        # the round page offers the same press
        phone.goto(f"{live_server.url}/tournaments/{tid}/rounds/1/")
        phone.locator("#end-round").get_by_role("button", name="Runde 1 beenden").wait_for()
        phone.get_by_text("Alle Tische der Runde 1 haben ihr Ergebnis.").wait_for()
        # the press fits the phone (the round's table list is not checked here)
        box = phone.locator("#end-round").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        phone.screenshot(path="/tmp/rounds-round-page-end-phone.png", full_page=True)

        # the overview names the step and ends the round with one press
        phone.goto(f"{live_server.url}/tournaments/{tid}/")
        step = phone.locator("#next-step")
        step.get_by_text(
            "Alle Tische der Runde 1 haben ihr Ergebnis: Runde jetzt beenden."
        ).wait_for()
        assert "Spielberichte fehlen" not in step.inner_text()
        assert no_sideways_scroll(phone)
        phone.screenshot(path="/tmp/rounds-overview-end-phone.png", full_page=True)
        step.get_by_role("button", name="Runde 1 beenden").click()
        pressed = time.monotonic()
        phone.get_by_text("Runde 1 ist beendet.").wait_for()
        step = phone.locator("#next-step")
        step.get_by_text("Alle Runden sind abgeschlossen").wait_for()
        assert step.get_by_role("button", name="Turnier beenden").is_visible()
        assert no_sideways_scroll(phone)
        phone.screenshot(path="/tmp/rounds-overview-finish-phone.png", full_page=True)
        closed = Round.objects.get(pk=rnd.pk)
        assert closed.status == Round.COMPLETE
        assert closed.activations.get(kind="time_called").by == organizer

        # the projector learns it within a poll, without a reload
        projector.wait_for_selector(
            "[data-clock][data-status=complete]", timeout=(POLL_SECONDS + 2) * 1000
        )
        projector.wait_for_function(
            "document.querySelector('[data-big-time]').textContent === 'Runde 1 beendet'",
            timeout=3000,
        )
        lag = time.monotonic() - pressed
        assert lag <= POLL_SECONDS + 2, lag  # within one poll of the press
        assert projector.locator("[data-big-signal]").inner_text() == ""  # no "Zeit!"
        assert projector.locator("[data-clock-time]").inner_text() == "Runde 1 beendet"
        fits = projector.evaluate(
            "[...document.querySelectorAll('[data-big-time], [data-clock-time]')]"
            ".every(e => e.scrollWidth <= e.clientWidth + 1)"
            " && document.documentElement.scrollWidth <= window.innerWidth"
        )
        assert fits
        projector.screenshot(path="/tmp/rounds-projector-ended.png")
        before = shown.inner_text()
        projector.wait_for_timeout(1500)
        assert shown.inner_text() == before  # no countdown any more
    finally:
        phone_context.close()
        hall.close()
    assert not round_life.sweep()["rounds"]
