"""The day's next step and its confirmations, in German on a phone
(390×844): the overview after the last round names the final, with
finishing as the alternative; a seated round's page links to its prints;
closing check-in asks once, naming who is dropped, and closes registration;
finishing early asks once, naming the rounds not played."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse

from tests.browser.sessions import logged_in_context
from tests.browser.test_axe import ALSO, BLOCKING, violations
from tests.factories import seated_round
from tests.finals.test_finals import play_round, quartett
from tournaments.registrations import services as registrations
from tournaments.registrations.services import Entry

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
SHOTS = Path("/tmp/next_step")


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def fits(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def accessible(page, axe_source):
    """The confirmation pages answer a POST, so the page walk of test_axe
    (GET only) does not reach them: axe checks them here by its rules."""
    found = [v for v in violations(page, axe_source) if v["impact"] in BLOCKING or v["id"] in ALSO]
    assert found == [], found


def test_next_steps_and_confirmations_on_the_phone(browser, live_server, organizer, axe_source):
    from playwright.sync_api import expect

    context = logged_in_context(browser, live_server, organizer, locale="de-DE", viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    base = live_server.url

    # after the last round: the overview names the final, finishing beside it
    done = quartett(organizer, rounds=1, name="Quartett-Abend")
    play_round(done)
    page.goto(base + reverse("tournament_detail", args=[done.pk]))
    step = page.locator("#next-step")
    expect(step).to_contain_text("teilen Sie das Finale ein")
    expect(step.get_by_role("button", name="Turnier beenden")).to_be_visible()
    fits(page)
    shot(page, "overview-final")
    step.get_by_role("link", name="Finale ein").click()
    page.wait_for_url("**" + reverse("final_stage", args=[done.pk]))

    # a seated round's page links to its prints, which deliver PDFs
    seated = quartett(organizer, rounds=2, name="Quartett-Nachmittag")
    rnd = seated_round(seated, publish=True)
    page.goto(base + reverse("round_detail", args=[seated.pk, rnd.number]))
    prints = page.locator("#round-prints")
    expect(prints).to_contain_text("Runde 1 ist eingeteilt")
    for name in ("Spielberichte", "Sitzplan nach Tischen"):
        href = prints.get_by_role("link", name=name).get_attribute("href")
        response = page.request.get(f"{base}{href}")
        assert response.status == 200 and response.headers["content-type"] == "application/pdf"
    fits(page)
    shot(page, "round-prints")

    # closing check-in: asked once, naming who is dropped; registration closes
    door = quartett(organizer, players=0, rounds=1, name="Quartett-Turnier")
    registrations.announcement_save(tournament=door, by=organizer, cap=8)
    for name in ("Anna Ährens", "Bernd Brandt", "Clara Christ"):
        registrations.register(tournament=door, entry=Entry(name=name), by=organizer)
    door.players.filter(name="Anna Ährens").update(checked_in=True)
    page.goto(base + reverse("registration_list", args=[door.pk]))
    page.get_by_role("button", name="Check-in schließen und Nichterschienene streichen").click()
    confirm = page.locator("#no-shows")
    expect(confirm).to_contain_text("2 Personen haben nicht eingecheckt")
    expect(confirm.locator("li")).to_have_text(["Bernd Brandt", "Clara Christ"])
    fits(page)
    accessible(page, axe_source)
    shot(page, "close-check-in")
    confirm.get_by_role("button", name="Ja, Check-in schließen und streichen").click()
    expect(page.locator("body")).to_contain_text("Check-in und Anmeldung sind geschlossen")
    assert not registrations.selectors.announcement_of(door).open

    # finishing early: asked once, naming the rounds not played
    early = quartett(organizer, rounds=3, name="Quartett-Frühschluss")
    play_round(early)
    page.goto(base + reverse("tournament_detail", args=[early.pk]))
    page.locator("#next-step").get_by_role("button", name="Turnier beenden").click()
    ask = page.locator("#finish-confirm")
    expect(ask).to_contain_text("Die Runden 2, 3 wurden nicht gespielt")
    fits(page)
    accessible(page, axe_source)
    shot(page, "finish-early")
    ask.get_by_role("button", name="Ja, Turnier beenden").click()
    expect(page.locator("#next-step")).to_contain_text("Beendet")
    context.close()
