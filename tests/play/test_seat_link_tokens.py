"""Whatever string arrives as a seat token — damaged, guessed, of the old
signed format, or another link's — it is refused with a clear page, never a
500, and never leads to a seat."""

from __future__ import annotations

import string

import pytest
from django.core import signing
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import sheet_links
from tests.examples import examples
from tests.play.test_play import make_table
from tournaments.models import Seat
from tournaments.play import links

pytestmark = pytest.mark.django_db

URL_SAFE = string.ascii_letters + string.digits + "-_.:~"


@pytest.fixture(autouse=True)
def no_broker(monkeypatch):
    from tournaments.services import deadlines

    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)


@settings(
    max_examples=examples(60),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(token=st.text(min_size=1, max_size=80))
def test_any_string_resolves_to_nothing(organizer, token):
    access = links.resolve_seat(token)
    assert not access.ok and access.seat is None


@settings(
    max_examples=examples(40),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(token=st.text(alphabet=URL_SAFE, min_size=1, max_size=60))
def test_any_token_in_the_url_gets_a_clear_page(client, organizer, token):
    for name in ("seat_link", "seat_play", "seat_clock"):
        response = client.get(reverse(name, args=[token]))
        assert response.status_code == 404
        assert "This link is not valid" in response.content.decode()


def test_a_near_miss_of_a_real_key_is_refused(client, organizer):
    _rnd, table = make_table(organizer)
    seat = Seat.objects.get(table=table, position=0)
    key = links.seat_token(seat)
    old_format = signing.Signer(salt="turnierleiter.seat").sign(f"{table.pk}.0")
    for bad in (
        key[:-1],
        key + "A",
        key.upper(),
        key.lower(),
        old_format,
        sheet_links.table_token(table.pk),
    ):
        if bad == key:
            continue
        assert links.resolve_seat(bad).seat is None
        assert client.get(reverse("seat_link", args=[bad])).status_code == 404
    assert links.resolve_seat(key).seat == seat


def test_control_characters_in_the_url_are_refused_on_postgresql(client, require_postgres):
    for bad in ("%00", "abc%00def", "x" * 30 + "%00"):
        response = client.get(f"/p/{bad}/")
        assert response.status_code == 404
