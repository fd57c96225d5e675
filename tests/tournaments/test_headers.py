"""Content-Security-Policy on every page, templates it can hold, and
Cache-Control: no-store on every private page."""

import re
from pathlib import Path

import pytest
from django.urls import reverse

from scoring.sheet_links import table_token
from tests.factories import seated_round
from tests.seat_tokens import token_for

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = sorted((ROOT / "templates").rglob("*.html"))


def test_templates_have_no_inline_script_handlers_or_styles():
    bad = []
    for path in TEMPLATES:
        text = path.read_text(encoding="utf-8")
        name = str(path.relative_to(ROOT))
        for tag in re.findall(r"<script\b[^>]*>", text):
            if "src=" not in tag:
                bad.append(f"{name}: inline script")
        for pattern, what in [
            (r"\son[a-z]+\s*=", "event handler attribute"),
            (r"\bhx-on[:-]", "hx-on attribute"),
            (r"\sstyle\s*=", "style attribute"),
            (r"<style\b", "style element"),
            (r"javascript:", "javascript: URL"),
            (r"""hx-(vals|headers)\s*=\s*['"]\s*js:""", "js: expression"),
        ]:
            if re.search(pattern, text):
                bad.append(f"{name}: {what}")
        if "{% htmx_script" in text and "components/htmx_config.html" not in text:
            bad.append(f"{name}: htmx without its CSP config")
    assert bad == []


@pytest.mark.django_db
def test_every_page_carries_the_policy(client, organizer, tournament):
    for url in ["/", reverse("login"), reverse("signup"), f"/t/{tournament.pk}/"]:
        response = client.get(url)
        policy = response["Content-Security-Policy"]
        assert "default-src 'self'" in policy and "script-src 'self'" in policy
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert "frame-ancestors 'none'" in policy


@pytest.fixture
def seated(tournament, organizer):
    """Table 1 of round 1 of ``tournament``: Anna, Bernd and Clara, seated and
    published through the services."""
    rnd = seated_round(tournament, players=3, names=["Anna", "Bernd", "Clara"])
    return rnd.tables.get(number=1)


def no_store(response) -> bool:
    return "no-store" in response.get("Cache-Control", "")


@pytest.mark.django_db
def test_seat_and_sheet_links_are_never_stored(client, seated):
    response = client.get(reverse("seat_link", args=[token_for(seated, 0)]))
    assert response.status_code == 200 and no_store(response)
    response = client.get(reverse("sheet_link", args=[table_token(seated.pk)]))
    assert no_store(response)


@pytest.mark.django_db
def test_every_logged_in_page_is_never_stored(client, organizer, tournament, seated):
    client.force_login(organizer)
    t = tournament.pk
    for url in [
        reverse("tournament_list"),
        reverse("tournament_detail", args=[t]),
        reverse("player_list", args=[t]),
        reverse("round_detail", args=[t, 1]),
        reverse("standings", args=[t]),
        reverse("export", args=[t, "players", "csv"]),
        f"/t/{t}/",  # a public page seen while logged in shows the user's name
    ]:
        response = client.get(url)
        assert response.status_code == 200, url
        assert no_store(response), url


@pytest.mark.django_db
def test_public_pages_for_strangers_may_be_cached(client, tournament):
    assert not no_store(client.get(f"/t/{tournament.pk}/"))
