"""Players sign up on their phones (390×844, German): register and see the
place count drop, join the waitlist when the places are taken, withdraw and
watch the first waiting player move up; check in with the personal link;
leave between rounds; the organizer's list with its log."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.factories import seated_round
from tournaments import services as tournament_services
from tournaments.models import Player, Round
from tournaments.registrations import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
SHOTS = Path("/tmp/signup")


def phone(browser):
    context = browser.new_context(locale="de-DE", viewport=PHONE, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def fits(page):
    """No sideways scrolling on the phone."""
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def sign_up(page, url, name, club):
    page.goto(url)
    page.fill("#id_name", name)
    page.fill("#id_club", club)
    page.check("#id_consent_public")
    page.locator("#register button[type=submit]").click()
    page.wait_for_url("**/r/**")
    return page.url.split("?")[0]


def test_players_register_wait_withdraw_move_up_check_in_and_leave(
    browser, live_server, organizer, tournament, settings
):
    from playwright.sync_api import expect

    settings.REGISTRATION_MIN_SECONDS = 0
    services.announcement_save(
        tournament=tournament, by=organizer, cap=2, public_names=True, venue="Vereinsheim"
    )
    public = f"{live_server.url}/t/{tournament.pk}/register/"

    anna = phone(browser)
    anna.goto(public)
    expect(anna.locator(".places")).to_have_text("Noch 2 Plätze frei (von 2)")
    fits(anna)
    shot(anna, "register-form")
    anna_link = sign_up(anna, public, "Anna Ährens", "SC Bonn")
    expect(anna.locator("#status")).to_contain_text("Dein Platz ist bestätigt")
    expect(anna.locator("#keep svg")).to_be_visible()  # the QR code to keep
    fits(anna)
    shot(anna, "personal-link")
    anna.goto(public)
    expect(anna.locator(".places")).to_have_text("Noch 1 Platz frei (von 2)")
    expect(anna.locator("table.list")).to_contain_text("Anna Ährens")

    bernd = phone(browser)
    bernd_link = sign_up(bernd, public, "Bernd Brandt", "TV Köln")
    bernd.goto(public)
    expect(bernd.locator(".places")).to_contain_text("Alle Plätze sind vergeben")
    expect(bernd.locator("#register h2")).to_have_text("Auf die Warteliste")

    cem = phone(browser)
    cem_link = sign_up(cem, public, "Cem Yılmaz", "SC Bonn")
    expect(cem.locator("#status")).to_contain_text("Du stehst auf der Warteliste: Nummer 1.")
    shot(cem, "waitlist")

    # Anna withdraws (asked once); Cem moves up and sees it on his link
    anna.goto(anna_link)
    anna.locator("#status button:has-text('Anmeldung zurückziehen')").click()
    expect(anna.locator("h1")).to_have_text("Deine Anmeldung zurückziehen?")
    anna.locator("button:has-text('Ja, zurückziehen')").click()
    expect(anna.locator("#status")).to_contain_text("Du hast deine Anmeldung zurückgezogen.")
    cem.goto(cem_link)
    expect(cem.locator("#status")).to_contain_text("Dein Platz ist bestätigt")

    # at the door: self check-in once the organizer opens it
    expect(cem.locator("#status button:has-text('Einchecken')")).to_have_count(0)
    services.check_in_open(tournament=tournament, open=True, by=organizer)
    cem.goto(cem_link)
    cem.locator("#status button:has-text('Einchecken')").click()
    expect(cem.locator("#status")).to_contain_text("Du bist eingecheckt.")
    shot(cem, "checked-in")
    assert Player.objects.get(name="Cem Yılmaz").checked_in

    # the organizer's list with its log, on a phone too
    orga = phone(browser)
    orga.goto(f"{live_server.url}/accounts/login/")
    orga.fill("#id_username", "orga")
    orga.fill("#id_password", "pw-orga-12345")
    orga.click("form.card button[type=submit]")
    orga.wait_for_url(f"{live_server.url}/tournaments/")
    orga.goto(f"{live_server.url}/tournaments/{tournament.pk}/registrations/")
    cem_row = orga.locator(".reg-row", has_text="Cem Yılmaz")
    expect(cem_row).to_contain_text("auf die Warteliste gesetzt")
    expect(cem_row).to_contain_text("von der Warteliste nachgerückt")
    expect(cem_row).to_contain_text("eingecheckt")
    expect(orga.locator(".reg-row", has_text="Anna Ährens")).to_contain_text("zurückgezogen")
    expect(orga.locator("#announcement")).to_contain_text("2 von 2 Plätzen vergeben")
    fits(orga)
    shot(orga, "organizer-list")

    # between rounds: Bernd leaves with his link
    tournament_services.player_add(tournament=tournament, by=organizer, name="Dora Dietz")
    Player.objects.filter(tournament=tournament).update(checked_in=True)
    seated_round(tournament, start=True)
    bernd.goto(bernd_link)
    bernd.locator("#status button:has-text('Turnier verlassen')").click()
    bernd.locator("button:has-text('Ja, verlassen')").click()
    expect(bernd.locator(".messages")).to_contain_text("Runde 1 wird gespielt")
    assert not Player.objects.get(name="Bernd Brandt").dropped
    Round.objects.filter(tournament=tournament).update(status=Round.COMPLETE)
    bernd.locator("#status button:has-text('Turnier verlassen')").click()
    expect(bernd.locator("h1")).to_have_text("Turnier verlassen?")
    bernd.locator("button:has-text('Ja, verlassen')").click()
    expect(bernd.locator("#status")).to_contain_text("Du hast das Turnier verlassen.")
    fits(bernd)
    shot(bernd, "left")
    assert Player.objects.get(name="Bernd Brandt").dropped
    orga.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    expect(orga.locator("#left-themselves")).to_contain_text("Bernd Brandt")
    shot(orga, "overview-left")


def test_the_check_in_poster_fills_the_projector_with_its_code(
    browser, live_server, organizer, tournament
):
    from playwright.sync_api import expect

    services.announcement_save(tournament=tournament, by=organizer, cap=8)
    context = browser.new_context(
        locale="de-DE", viewport={"width": 1920, "height": 1080}, bypass_csp=True
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "orga")
    page.fill("#id_password", "pw-orga-12345")
    page.click("form.card button[type=submit]")
    page.wait_for_url(f"{live_server.url}/tournaments/")
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/registrations/poster/")
    expect(page.locator(".poster")).to_contain_text("Checke mit deinem Handy ein")
    box = page.locator(".qr--poster svg").bounding_box()
    assert box["height"] >= 400 and box["y"] + box["height"] <= 1080  # big, and on screen
    expect(page.locator(".join-url")).to_contain_text(f"/t/{tournament.pk}/check-in/")
    shot(page, "poster-projector")
    context.close()
