"""What a person sees of issue 36's prints and numbers, in German on a
phone (390×844): a digital Quartett card writes "250.000 Lichtjahre" and
"1,9 g"; the check-in poster's print preview (print media) shows no site
menu and Chromium prints it on one A4 page."""

from __future__ import annotations

import copy
import io
import re
from pathlib import Path

import pdfplumber
import pytest

from tests.browser.sessions import logged_in_context
from tests.factories import digital_table
from tests.play.test_deck_texts import deck
from tournaments.models import Seat
from tournaments.play.links import seat_token
from tournaments.registrations import services as registrations
from tournaments.services import deadlines

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
SHOTS = Path("/tmp/prints")


def shot(page, name):
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def test_a_german_digital_card_writes_german_numbers(browser, live_server, organizer, monkeypatch):
    from playwright.sync_api import expect

    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)  # no worker
    own = copy.deepcopy(deck("quartett", "space"))
    for card in own["cards"]:
        card["values"]["distance"] = 250000
        card["values"]["gravity"] = 1.9
    table = digital_table(
        organizer,
        "quartett",
        2,
        name="Digitalabend",
        names=["Ayşe Şahin", "Jürgen Weiß"],
        game_options={"deck": own},
        round_minutes=30,
    )
    context = browser.new_context(locale="de-DE", viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/p/{seat_token(Seat.objects.get(table=table, position=0))}/")
    card = page.locator(".play-card").first
    expect(card).to_contain_text("250.000 Lichtjahre")
    expect(card).to_contain_text("1,9 g")
    text = card.inner_text()
    assert "250000" not in text and "1.9" not in text
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "card-de")
    context.close()


def test_the_check_in_poster_prints_on_one_page_without_the_menu(
    browser, live_server, organizer, tournament
):
    from playwright.sync_api import expect

    registrations.announcement_save(tournament=tournament, by=organizer, cap=8)
    context = logged_in_context(browser, live_server, organizer, locale="de-DE", viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/registrations/poster/")
    expect(page.locator("header.top")).to_be_visible()  # on screen: the site's menu
    page.emulate_media(media="print")
    expect(page.locator("header.top")).to_be_hidden()
    expect(page.locator(".poster h1")).to_have_text("Herbstturnier")
    expect(page.locator(".qr--poster svg")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shot(page, "poster-print-preview-de")
    pdf = page.pdf(format="A4", print_background=True)
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        pages = [p.extract_text() or "" for p in doc.pages]
    assert len(pages) == 1, pages
    assert "Herbstturnier" in pages[0]
    assert re.search(rf"/t/{tournament.pk}/check-in/", pages[0])
    for menu in ("Meine Turniere", "Abmelden", "Turnierleiter"):
        assert menu not in pages[0]
    context.close()
