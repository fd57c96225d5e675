"""A helper invited in one step, in German on phones (390×844): the
organizer invites "Monika" by name and sees the link and its QR code once;
on Monika's phone the link opens a short form that makes her account, and
she lands in the tournament as its scorekeeper (issue 36, point 1)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse

from tests.browser.sessions import logged_in_context
from tournaments import services

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
SHOTS = Path("/tmp/helper_invite")


def fits(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_helper_invited_by_name_joins_from_her_phone(browser, live_server, organizer):
    from playwright.sync_api import expect

    SHOTS.mkdir(parents=True, exist_ok=True)
    t = services.tournament_create(owner=organizer, name="Vereinsturnier", game="quartett")
    context = logged_in_context(
        browser, live_server, organizer, locale="de-DE", viewport=PHONE, bypass_csp=True
    )
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(live_server.url + reverse("scorekeepers", args=[t.pk]))
    invite = page.locator('form:has(input[name="invite"])')
    invite.locator('input[name="name"]').fill("Monika")
    invite.get_by_role("button", name="Einladung erstellen").click()
    expect(page.get_by_role("heading", name="Einladung für Monika")).to_be_visible()
    assert page.locator(".qr--link svg").count() == 1
    link = page.locator("#invite-link").input_value()
    assert "/join/" in link
    fits(page)
    page.screenshot(path=str(SHOTS / "invitation.png"), full_page=True)
    context.close()

    helper = browser.new_context(locale="de-DE", viewport=PHONE, bypass_csp=True)
    phone = helper.new_page()
    phone.set_default_timeout(20_000)
    phone.goto(link)
    assert phone.evaluate("document.documentElement.lang") == "de"
    expect(phone.locator("body")).to_contain_text("Vereinsturnier")
    form = phone.locator('form:has(input[name="password1"])')
    form.locator('input[name="password1"]').fill("Kartenspiel-26")
    form.locator('input[name="password2"]').fill("Kartenspiel-26")
    fits(phone)
    phone.screenshot(path=str(SHOTS / "join.png"), full_page=True)
    form.locator('button[type="submit"]').click()
    phone.wait_for_url(f"**{reverse('tournament_detail', args=[t.pk])}")
    expect(phone.locator("h1")).to_contain_text("Vereinsturnier")
    assert t.scorekeepers.filter(username__iexact="monika").exists()
    # the same link a second time: a page that says so, nothing changes
    other = browser.new_context(locale="de-DE", viewport=PHONE, bypass_csp=True)
    again = other.new_page()
    answer = again.goto(link)
    assert answer.status == 410
    assert t.scorekeepers.count() == 1
    other.close()
    helper.close()
