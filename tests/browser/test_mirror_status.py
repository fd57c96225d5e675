"""The organizer's overview says at a glance how publishing goes, on a
phone too (German, 390×844): offline since when, how many changes wait,
the last error in words."""

from __future__ import annotations

import datetime as dt
import os

import pytest
from django.utils import timezone

from tests.browser.sessions import logged_in_context
from tournaments.mirror.models import MirrorLink, MirrorPublication

pytestmark = pytest.mark.django_db(transaction=True)

SHOTS = os.environ.get("TURNIERLEITER_SHOTS", "/tmp/mirror/shots")


def test_the_overview_shows_offline_since_and_changes_waiting_on_a_phone(
    browser, live_server, tournament, organizer
):
    link = MirrorLink.objects.create(
        owner=organizer, site_url="https://turnier.example.org", key="tlk_secret-never-shown"
    )
    since = timezone.now() - dt.timedelta(minutes=12)
    MirrorPublication.objects.create(
        tournament=tournament,
        link=link,
        version=24,
        published_version=1,
        published_at=since,
        offline_since=since,
        last_error="Die Online-Seite ist nicht erreichbar (kein Internet, oder die Seite ist ausgefallen).",
    )
    context = logged_in_context(
        browser, live_server, organizer, locale="de-DE", viewport={"width": 390, "height": 844}
    )
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
        status = page.locator("#mirror-status")
        text = status.inner_text()
        assert f"offline seit {timezone.localtime(since):%H:%M}" in text
        assert "23 Änderungen warten" in text
        assert "nicht erreichbar" in text
        assert "tlk_secret" not in page.content()
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        os.makedirs(SHOTS, exist_ok=True)
        status.screenshot(path=os.path.join(SHOTS, "mirror-status-phone-de.png"))
    finally:
        context.close()
