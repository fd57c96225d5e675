"""The organizer re-issues a player's seat link in the browser; the player's
open page with the old link reloads to "This link has been replaced", and the
new link plays on."""

from __future__ import annotations

import pytest

from tests.factories import digital_table
from tournaments.models import Seat
from tournaments.play import links
from tournaments.services import deadlines

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Ayşe Şahin", "Łukasz Wróbel"]


def test_a_reissued_link_stops_the_open_page_and_the_new_one_plays(
    browser, live_server, organizer, monkeypatch, tmp_path
):
    from playwright.sync_api import expect

    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)  # no worker
    table = digital_table(
        organizer, "quartett", 2, name="Digitalabend", names=NAMES, round_minutes=30
    )
    t = table.round.tournament
    seat = Seat.objects.select_related("player").get(table=table, position=0)
    old = links.seat_token(seat)

    player = browser.new_context(locale="en-GB").new_page()
    player.set_default_timeout(15_000)
    player.goto(f"{live_server.url}/p/{old}/")
    expect(player.locator("#play")).to_contain_text("Your turn.")

    orga = browser.new_context(locale="en-GB").new_page()
    orga.set_default_timeout(15_000)
    orga.goto(f"{live_server.url}/accounts/login/")
    orga.fill("#id_username", "orga")
    orga.fill("#id_password", "pw-orga-12345")
    orga.click("form.card button[type=submit]")
    orga.wait_for_url(f"{live_server.url}/tournaments/")
    orga.goto(f"{live_server.url}/tournaments/{t.pk}/rounds/1/seating/")
    orga.locator("#seat-links summary").first.click()
    item = orga.locator("[data-seat-link]", has_text=NAMES[0])
    item.locator("button:has-text('Re-issue link')").click()
    expect(orga.locator("body")).to_contain_text("New seat link for Ayşe Şahin issued")
    orga.locator("#seat-links summary").first.click()
    expect(orga.locator("[data-seat-link]", has_text=NAMES[0])).to_contain_text(
        "re-issued once, by orga"
    )
    orga.screenshot(path=str(tmp_path / "seat-links.png"), full_page=True)

    # the player's open page polls, is told to reload, and says why
    expect(player.locator("h1")).to_have_text("This link has been replaced", timeout=10_000)
    new = links.seat_token(seat)
    assert new != old
    player.goto(f"{live_server.url}/p/{new}/")
    expect(player.locator("#play")).to_contain_text("Your turn.")
