"""The projector: the big clock counts down in the browser, shows "5 minutes
left", stops within one poll (3 s) when the organizer pauses, and shows "Time!"
when the round is closed — without a reload."""

import time

import pytest

from tests import factories
from tests.factories import PlayerFactory, TournamentFactory
from tests.timetravel import travel
from tournaments.live import POLL_SECONDS
from tournaments.models import Round
from tournaments.services import deadlines, round_life

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def tournament(organizer):
    """A Quartett tournament at tables of two."""
    return TournamentFactory(owner=organizer, name="Herbstturnier", allowed_sizes=[2], table_size=2)


def two_tables(tournament) -> Round:
    """Round 1 seated through the services, a draft: Anna Şahin and Bernd
    Łukasz at table 1, Clara and Dieter at table 2."""
    names = [["Anna Şahin", "Bernd Łukasz"], ["Clara", "Dieter"]]
    order = [[PlayerFactory(tournament=tournament, name=n) for n in pair] for pair in names]
    return factories.seated_round(tournament, order=order, publish=False)


def test_projector_counts_down_stops_on_pause_and_shows_time(
    page, live_server, tournament, organizer, monkeypatch
):
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)  # no worker: the test closes
    rnd = two_tables(tournament)
    round_life.round_start(round=rnd, by=organizer, seconds=303)
    page.goto(f"{live_server.url}/t/{tournament.pk}/rounds/1/projector/")
    shown = page.locator("[data-clock-time]")
    signal = page.locator("[data-clock-signal]")

    # counts down in the browser
    first = shown.inner_text()
    assert first.startswith("5:0"), first
    time.sleep(1.3)
    assert shown.inner_text() != first
    # "5 minutes left" appears as the clock passes 5:00
    page.wait_for_function(
        "document.querySelector('[data-clock-signal]').textContent.includes('5 minutes left')",
        timeout=6000,
    )
    assert page.locator("[data-clock].clock--five").count() == 1

    # the organizer pauses: every browser stops within one poll
    poll_ms = (POLL_SECONDS + 1) * 1000
    round_life.round_pause(round=rnd, by=organizer)
    paused_at = time.monotonic()
    page.wait_for_selector("[data-clock][data-status=paused]", timeout=poll_ms)
    assert time.monotonic() - paused_at <= POLL_SECONDS + 1
    stopped = shown.inner_text()
    time.sleep(1.5)
    assert shown.inner_text() == stopped
    assert "Paused" in page.locator(".clock-state").inner_text()

    # resumed, the time runs out and the round is closed: "Time!" without reload
    round_life.round_resume(round=rnd, by=organizer)
    page.wait_for_selector("[data-clock][data-status=running]", timeout=poll_ms)
    travel(rnd, 400)
    assert round_life.sweep()["rounds"] == 1
    page.wait_for_selector("[data-clock][data-status=time_called]", timeout=poll_ms)
    assert signal.inner_text() == "Time!"
    assert shown.inner_text() == "0:00"
    assert "Tables done: 0 of 2" in page.locator("[data-clock]").inner_text()


@pytest.mark.parametrize("show", ["clock", "seating", "standings", "tables"])
def test_the_projector_of_an_hour_long_round_fits_a_phone(
    browser, live_server, tournament, organizer, monkeypatch, show
):
    """Opened on a 390 px phone in German, a round of 75 minutes ("1:15:00"
    in the header and on the big clock) of a long-named tournament: no slide
    scrolls sideways."""
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)
    tournament.name = "Quartett-Vereinsturnier Januar 2027"
    tournament.save(update_fields=["name"])
    rnd = two_tables(tournament)
    round_life.round_start(round=rnd, by=organizer, seconds=75 * 60)
    context = browser.new_context(
        locale="de-DE", viewport={"width": 390, "height": 844}, bypass_csp=True
    )
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/t/{tournament.pk}/rounds/1/projector/?show={show}")
        page.wait_for_selector(f"[data-slide={show}]:not([hidden])")
        assert page.locator("[data-clock-time]").inner_text().startswith("1:1")
        page.screenshot(path=f"/tmp/phones/projector-hour-{show}.png")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, width
    finally:
        context.close()
