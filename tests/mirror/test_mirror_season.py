"""The season page on the online site: a public tournament published with
the public season standings of the series it belongs to, shown on the
mirrored tournament's season page the same as on the laptop's."""

from __future__ import annotations

import re
import uuid

import pytest
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.season import services as series_services
from scoring.season.models import Series
from tests.examples import examples
from tests.mirror.mirror_helpers import approved_key, body, laptop_tournament
from tests.mirror.test_mirror import post
from tournaments.mirror import publish, snapshot
from tournaments.mirror.models import MirroredTournament
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def online_key(other_user):
    _row, key = approved_key(user=other_user, name="laptop")
    return key


def season_of(owner, *tournaments, public=True, name="Vereinsmeisterschaft 2026"):
    series = series_services.series_save(
        series=Series(owner=owner, name=name, game="quartett", public=public)
    )
    for t in tournaments:
        series_services.series_add_tournament(series=series, tournament=t, by=owner)
    return series


def envelope_with_seasons(tournament, *, source, version, held=None) -> dict:
    sections = publish.build(tournament)  # as the laptop builds it
    hashes = snapshot.hashes(sections)
    held = held or {}
    return {
        "format": "turnierleiter.mirror",
        "source": str(source),
        "version": version,
        "hashes": hashes,
        "sections": {n: c for n, c in sections.items() if held.get(n) != hashes[n]},
    }


def season_rows(page: str) -> list[list[str]]:
    """The season table's rows as the visitor reads them (cells' text)."""
    table = page.split('class="list standings season"')[1].split("</table>")[0]
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", table.split("<tbody>")[1], re.S)
    return [
        [
            re.sub(r"<[^>]+>|\s+", " ", cell).strip()
            for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        ]
        for row in rows
    ]


def test_the_season_page_online_shows_the_laptops_season(client, organizer, online_key):
    spring = laptop_tournament(organizer, rounds=2, name="Frühjahrsturnier")
    autumn = laptop_tournament(organizer, rounds=1, name="Herbstturnier")
    season_of(organizer, spring, autumn)
    data = envelope_with_seasons(autumn, source=uuid.uuid4(), version=1)
    assert "season" in data["sections"]
    response = post(client, body(data), online_key)
    assert response.status_code == 200, response.content
    online = Tournament.objects.get(pk=response.json()["tournament"])
    laptop_page = client.get(reverse("tournament_season", args=[autumn.pk])).content.decode()
    online_page = client.get(reverse("tournament_season", args=[online.pk])).content.decode()
    assert season_rows(online_page) == season_rows(laptop_page)
    # nobody linked to the roster: each entry is a row of its own
    assert len(season_rows(online_page)) == spring.players.count() + autumn.players.count()
    for page in (laptop_page, online_page):
        assert "Vereinsmeisterschaft 2026" in page and "Frühjahrsturnier" in page
    # the tournament's public page links to it, on both sites
    season_url = reverse("tournament_season", args=[online.pk])
    assert season_url in client.get(reverse("tournament_public", args=[online.pk])).content.decode()


def test_a_result_changes_the_season_online_with_the_next_publication(
    client, organizer, online_key
):
    from tests.mirror.mirror_helpers import play_round

    spring = laptop_tournament(organizer, rounds=1, name="Frühjahrsturnier")
    autumn = laptop_tournament(organizer, rounds=1, name="Herbstturnier")
    season_of(organizer, spring, autumn)
    source = uuid.uuid4()
    first = post(client, body(envelope_with_seasons(autumn, source=source, version=1)), online_key)
    online = Tournament.objects.get(pk=first.json()["tournament"])
    before = season_rows(
        client.get(reverse("tournament_season", args=[online.pk])).content.decode()
    )
    play_round(autumn, shift=3)
    delta = envelope_with_seasons(autumn, source=source, version=2, held=first.json()["hashes"])
    assert "season" in delta["sections"] and "tournament" not in delta["sections"]
    assert post(client, body(delta), online_key).json()["applied"]
    after = season_rows(client.get(reverse("tournament_season", args=[online.pk])).content.decode())
    laptop = season_rows(
        client.get(reverse("tournament_season", args=[autumn.pk])).content.decode()
    )
    assert after == laptop and after != before


def test_a_private_series_or_tournament_publishes_no_season(client, organizer, online_key):
    spring = laptop_tournament(organizer, rounds=1, name="Frühjahrsturnier")
    season_of(organizer, spring, public=False)
    data = envelope_with_seasons(spring, source=uuid.uuid4(), version=1)
    assert "season" not in data["sections"]
    online = post(client, body(data), online_key).json()["tournament"]
    assert client.get(reverse("tournament_season", args=[online])).status_code == 404
    assert client.get(reverse("tournament_season", args=[spring.pk])).status_code == 404
    hidden = laptop_tournament(organizer, rounds=1, name="Geschlossene Runde")
    hidden.public = False
    hidden.save()
    season_of(organizer, hidden, name="Offene Saison")
    assert "season" not in publish.build(hidden)


def malformed(season: list) -> list[list]:
    """Season sections a forged publication might carry."""
    first = season[0]
    row = first["rows"][0]
    return [
        [],
        [first | {"rows": [row | {"played": row["played"] + 1}]}],
        [first | {"rows": [row | {"place": 7}, row]}],
        [first | {"rows": [row | {"total": "1e999"}]}],
        [first | {"rows": [row | {"cells": row["cells"][:-1]}]}],
        [first | {"rows": [row | {"name": "x" * 300}]}],
        [first | {"rows": [row | {"secret": "no"}]}],
        [first | {"best": 0}],
        "Saison",
    ]


def test_a_malformed_season_refuses_the_publication_and_changes_nothing(
    client, organizer, online_key
):
    spring = laptop_tournament(organizer, rounds=1, name="Frühjahrsturnier")
    season_of(organizer, spring)
    source = uuid.uuid4()
    good = envelope_with_seasons(spring, source=source, version=1)
    first = post(client, body(good), online_key).json()
    stored = MirroredTournament.objects.get(source=source).stored.get(name="season").content
    for k, forged_season in enumerate(malformed(good["sections"]["season"])):
        forged = envelope_with_seasons(spring, source=source, version=2 + k)
        forged["sections"]["season"] = forged_season
        forged["hashes"]["season"] = snapshot.digest(forged_season)
        response = post(client, body(forged), online_key)
        assert response.status_code == 422, (k, response.content)
        mirror = MirroredTournament.objects.get(source=source)
        assert mirror.version == 1 and mirror.hashes == first["hashes"]
        assert mirror.stored.get(name="season").content == stored


@settings(max_examples=examples(60), deadline=None)
@given(
    value=st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=5),
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
        ),
        max_leaves=8,
    )
)
def test_any_season_value_is_judged_without_crashing(value):
    assert snapshot.check_seasons(value) in (True, False)
    if snapshot.check_seasons(value):
        assert isinstance(value, list) and value
