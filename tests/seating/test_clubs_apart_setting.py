"""The tournament's "keep club-mates apart" setting: offered in the settings
form, carried by export and import, and what each round's seating form starts
from (still changeable for a single round)."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from scoring.exchange.export import export_json, export_tournament
from scoring.exchange.importer import import_tournament
from tests.factories import PlayerFactory
from tournaments.forms import TournamentForm

pytestmark = pytest.mark.django_db


def _box(page: str) -> str:
    start = page.index('name="clubs_apart"')
    return page[page.rindex("<input", 0, start) : page.index(">", start)]


def test_the_settings_form_offers_clubs_apart(client, tournament, organizer):
    assert "clubs_apart" in TournamentForm().fields
    client.force_login(organizer)
    page = client.get(reverse("tournament_edit", args=[tournament.pk])).content.decode()
    assert 'name="clubs_apart"' in page


def test_the_round_form_starts_from_the_tournaments_setting(client, tournament, organizer):
    for k in range(8):
        PlayerFactory(tournament=tournament, name=f"P{k}", club="AB"[k % 2], checked_in=True)
    client.force_login(organizer)
    url = reverse("round_list", args=[tournament.pk])
    assert "checked" not in _box(client.get(url).content.decode())
    tournament.clubs_apart = True
    tournament.save(update_fields=["clubs_apart"])
    assert "checked" in _box(client.get(url).content.decode())
    # team mode: no such choice, as before
    tournament.team_mode = True
    tournament.save(update_fields=["team_mode"])
    assert 'name="clubs_apart"' not in client.get(url).content.decode()


def test_export_and_import_carry_clubs_apart(tournament, other_user):
    tournament.clubs_apart = True
    tournament.save(update_fields=["clubs_apart"])
    doc = json.loads(export_json(tournament))
    assert doc["tournament"]["clubs_apart"] is True
    new = import_tournament(data=export_json(tournament).encode(), owner=other_user)
    assert new.clubs_apart
    assert export_tournament(new)["tournament"]["clubs_apart"] is True
