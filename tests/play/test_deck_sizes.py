"""A deck too small for the tournament's table sizes is refused — at upload
and whenever the sizes or the deck change — with a clear, translated message.
The engine decides whether it can deal (rules stay in games/)."""

from __future__ import annotations

import json
from html import unescape
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation

import games
from tournaments import services

pytestmark = pytest.mark.django_db

SPACE = Path(games.__file__).parent / "quartett" / "decks" / "space.json"


def small_deck(cards: int) -> bytes:
    deck = json.loads(SPACE.read_text())
    deck["cards"] = deck["cards"][:cards]
    deck["name"] = f"Mini {cards}"
    return json.dumps(deck).encode()


def create(client, deck: bytes, **fields):
    data = {
        "name": "Q",
        "game": "quartett",
        "rounds": 4,
        "round_minutes": 60,
        "points_scheme": "placement",
        "deck_file": SimpleUploadedFile("deck.json", deck),
    } | fields
    return client.post(reverse("tournament_create"), data)


def test_a_deck_too_small_for_the_tables_is_refused_at_upload(client, organizer):
    client.force_login(organizer)
    response = create(client, small_deck(3))  # the usual sizes go up to 5
    assert response.status_code == 200
    html = unescape(response.content.decode())
    assert "The deck can't be dealt at tables of 5 players" in html
    assert not organizer.owned_tournaments.exists()


def test_the_message_is_german_for_german_organizers(client, organizer):
    client.force_login(organizer)
    with translation.override("de"):
        response = client.post(
            reverse("tournament_create"),
            {
                "name": "Q",
                "game": "quartett",
                "rounds": 4,
                "round_minutes": 60,
                "points_scheme": "placement",
                "deck_file": SimpleUploadedFile("deck.json", small_deck(3)),
            },
            HTTP_ACCEPT_LANGUAGE="de",
        )
    html = unescape(response.content.decode())
    assert "Das Kartenspiel kann an Tischen mit 5 Spielern nicht ausgeteilt werden" in html


def test_a_small_deck_fits_small_tables_until_the_sizes_grow(client, organizer):
    client.force_login(organizer)
    response = create(client, small_deck(3), allowed_sizes=[3], table_size=3)
    assert response.status_code == 302
    t = organizer.owned_tournaments.get()
    assert len(t.game_options["deck"]["cards"]) == 3
    response = client.post(
        reverse("tournament_edit", args=[t.pk]),
        {
            "name": "Q",
            "game": "quartett",
            "rounds": 4,
            "round_minutes": 60,
            "points_scheme": "placement",
            "allowed_sizes": [3, 4],
            "table_size": 3,
            "opt_deck": "__uploaded__",
        },
    )
    assert response.status_code == 200
    assert "The deck can't be dealt at tables of 4 players" in unescape(response.content.decode())
    t.refresh_from_db()
    assert t.allowed_sizes == [3]


def test_the_service_refuses_it_too(organizer):
    deck = json.loads(small_deck(2))
    with pytest.raises(ValidationError) as info:
        services.tournament_create(
            owner=organizer, name="Q", game="quartett", game_options={"deck": deck}
        )
    assert "can't be dealt" in str(info.value)
