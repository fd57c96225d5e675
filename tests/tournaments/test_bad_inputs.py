"""Bad inputs that once answered 500, outside the player import and the
tournament import: each answers with a clear message and changes nothing."""

import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoring.models import Submission
from scoring.printing.models import PrintJob
from tests.factories import seated_round
from tests.seat_tokens import token_for
from tournaments import services
from tournaments.models import Tournament
from tournaments.params import parse_int

pytestmark = pytest.mark.django_db

DECK = Path(__file__).resolve().parents[2] / "games" / "quartett" / "decks" / "space.json"
ODD_NUMBERS = ["²", "٣", "１", " 7", "+7", "-1", "1_000", "7.0", "9" * 30, "0x10", ""]


def test_parse_int_takes_ascii_digits_only():
    assert parse_int("12") == 12 and parse_int("0") == 0
    for value in ODD_NUMBERS:
        assert parse_int(value) is None, value
    assert parse_int(None) is None and parse_int(["1"]) is None
    assert parse_int("5", minimum=6) is None


@pytest.fixture
def seated(tournament, organizer):
    """Table 1 of round 1 of ``tournament``: Anna, Bernd and Clara, seated and
    published through the services."""
    rnd = seated_round(tournament, players=3, names=["Anna", "Bernd", "Clara"])
    return rnd.tables.get(number=1)


@pytest.mark.parametrize("value", ["²", "٣", "99999999999999999999", "x", "0"])
def test_odd_round_numbers_get_a_page_that_says_so(client, organizer, tournament, seated, value):
    client.force_login(organizer)
    t = tournament.pk
    for url in [
        reverse("standings", args=[t]),
        reverse("print_standings", args=[t]),
    ]:
        response = client.get(url, {"round": value})
        assert response.status_code == 404, url
        assert "is not a round of this tournament" in response.content.decode()
    response = client.post(reverse("print_job_start", args=[t]), {"kind": "sheets", "round": value})
    assert response.status_code == 404
    assert not PrintJob.objects.exists()
    client.logout()
    response = client.get(reverse("standings_public", args=[t]), {"round": value})
    assert response.status_code == 404
    assert "is not a round of this tournament" in response.content.decode()


def test_the_message_is_german_in_german(client, tournament, seated):
    client.cookies["django_language"] = "de"
    response = client.get(reverse("standings_public", args=[tournament.pk]), {"round": "²"})
    assert "ist keine Runde dieses Turniers" in response.content.decode()


def test_seat_link_confirm_with_an_odd_version(client, tournament, seated, settings):
    tournament.self_report = True
    tournament.save()
    url = reverse("seat_link", args=[token_for(seated, 0)])
    for value in ["²", "٣", "9" * 30, ""]:
        response = client.post(url, {"action": "confirm", "version": value})
        assert response.status_code in (400, 403, 404), value
    assert not Submission.objects.exists()


def _deck_post(client, content: bytes):
    return client.post(
        reverse("tournament_create"),
        {
            "name": "Q",
            "game": "quartett",
            "rounds": 4,
            "round_minutes": 60,
            "points_scheme": "placement",
            "deck_file": SimpleUploadedFile("deck.json", content),
        },
    )


def test_a_deeply_nested_deck_is_refused(client, organizer):
    client.force_login(organizer)
    for content in [
        b"[" * 100_000 + b"]" * 100_000,
        json.dumps({"name": [[[[[[[[[[]]]]]]]]]] * 5}).encode(),
    ]:
        response = _deck_post(client, content)
        assert response.status_code == 200
    nested = b'{"name": "x", "cards": ' + b"[" * 50_000 + b"]" * 50_000 + b"}"
    response = _deck_post(client, nested)
    assert response.status_code == 200 and "nested" in response.content.decode()
    assert not Tournament.objects.exists()


def test_a_nul_in_a_card_name_is_refused(client, organizer):
    client.force_login(organizer)
    deck = json.loads(DECK.read_text("utf-8"))
    deck["cards"][0]["name"] = "Mars\x00"
    response = _deck_post(client, json.dumps(deck).encode())
    assert response.status_code == 200 and "NUL" in response.content.decode()
    assert not Tournament.objects.exists()


def test_the_tournament_form_caps_the_rounds(client, organizer):
    client.force_login(organizer)
    response = client.post(
        reverse("tournament_create"),
        {
            "name": "Q",
            "game": "quartett",
            "rounds": 31,
            "round_minutes": 60,
            "points_scheme": "placement",
        },
    )
    assert response.status_code == 200 and "Between 1 and 30 rounds." in response.content.decode()
    with pytest.raises(Exception) as info:
        services.tournament_create(owner=organizer, name="X", game="quartett", rounds=500)
    assert "30" in str(info.value)
    assert not Tournament.objects.exists()


def test_print_jobs_pile_up_only_to_a_limit(client, organizer, tournament, seated, monkeypatch):
    from tournaments import limits

    monkeypatch.setattr(limits, "MAX_OPEN_PRINT_JOBS", 3)
    client.force_login(organizer)
    url = reverse("print_job_start", args=[tournament.pk])
    statuses = [client.post(url, {"kind": "sheets", "round": "1"}).status_code for _ in range(5)]
    assert statuses[:3] == [302, 302, 302] and statuses[3:] == [429, 429]
    assert PrintJob.objects.count() == 3
