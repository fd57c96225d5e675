"""CSV files speak their reader's language in the header row too: a German
file says "Name;Verein;Geburtsjahr", an English one keeps the field names
("name,club,birth_year"); the JSON export is the machine format, keyed by the
field names in every language. The player import reads our own players CSV
back in either language."""

import csv
import io
import json

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.exchange.views import HEADERS
from scoring.standings import listings
from tests.scoring import handmade
from tests.season.test_season import season  # noqa: F401 (a fixture: two tournaments of a series)
from tournaments.player_import import parse_players

pytestmark = pytest.mark.django_db

GERMAN_HEADERS = {
    "players": [
        "Spieler-ID",
        "Name",
        "Verein",
        "Spielstärke",
        "Geburtsjahr",
        "Team",
        "Eingecheckt",
        "Ausgeschieden",
        "Erste Runde",
    ],
    "seatings": ["Runde", "Tisch", "Sitz", "Spieler-ID", "Name", "Verein"],
    "results": [
        "Runde",
        "Tisch",
        "Sitz",
        "Spieler-ID",
        "Name",
        "Rang",
        "Spielwert",
        "Punkte",
        "Freilos",
        "Version",
        "Bot",
    ],
    "standings": [
        "Platz",
        "Geteilt",
        "Spieler-ID",
        "Name",
        "Verein",
        "Punkte",
        "Spielwerte",
        "Gegnerschnitt",
        "Siege",
        "Direkter Vergleich",
        "Spielstärke",
        "Spiele",
        "Freilose",
        "Ausgeschieden",
        "Turnierphase",
        "Platz in der Turnierphase",
        "Bot-Spiele",
    ],
}


@pytest.fixture
def made(tournament, organizer):
    return handmade.build(tournament, organizer)


def download(client, tournament, what, fmt, language):
    client.cookies["django_language"] = language
    response = client.get(reverse("export", args=[tournament.pk, what, fmt]))
    assert response.status_code == 200
    return response.content


def rows(content: bytes, language: str) -> list[list[str]]:
    delimiter = ";" if language == "de" else ","
    return list(csv.reader(io.StringIO(content.decode("utf-8-sig")), delimiter=delimiter))


@pytest.mark.parametrize("what", sorted(listings.EXPORTS))
def test_a_german_csv_has_german_headers_and_an_english_one_english(
    client, organizer, made, tournament, what
):
    client.force_login(organizer)
    german = rows(download(client, tournament, what, "csv", "de"), "de")
    english = rows(download(client, tournament, what, "csv", "en"), "en")
    assert german[0] == GERMAN_HEADERS[what]
    assert english[0] == HEADERS[what]
    # the same cells below the header (numbers with the language's separator)
    assert len(german) == len(english) > 1
    assert [[c.replace(",", ".") for c in row] for row in german[1:]] == [
        [c.replace(",", ".") for c in row] for row in english[1:]
    ]


@pytest.mark.parametrize("what", sorted(listings.EXPORTS))
def test_the_json_export_is_the_same_in_every_language(client, organizer, made, tournament, what):
    client.force_login(organizer)
    german = json.loads(download(client, tournament, what, "json", "de"))
    english = json.loads(download(client, tournament, what, "json", "en"))
    assert german == english
    assert list(german[0]) == HEADERS[what]


def test_every_column_has_a_german_title_and_keeps_its_english_name():
    keys = {key for header in HEADERS.values() for key in header}
    keys |= {"place", "name", "club", "total", "played"}  # the season's
    assert keys <= set(listings.CSV_TITLES)
    with translation.override("de"):
        german = {key: listings.csv_title(key) for key in keys}
        assert listings.csv_title("t3") == "Turnier 3"
        assert listings.csv_title("t3_counts") == "Turnier 3 zählt"
    with translation.override("en"):
        assert {key: listings.csv_title(key) for key in keys} == {key: key for key in keys}
        assert listings.csv_title("t3") == "t3"
    assert all(title != key and title[0].isupper() for key, title in german.items()), german
    assert len(set(german.values())) >= len(keys) - 1  # "id" and "player_id" are one thing


def test_the_season_csv_has_german_headers(client, organizer, season):  # noqa: F811
    client.force_login(organizer)
    url = reverse("series_csv", args=[season["series"].pk])
    client.cookies["django_language"] = "de"
    german = rows(client.get(url).content, "de")
    assert german[0] == [
        "Platz",
        "Name",
        "Verein",
        "Gesamt",
        "Gespielt",
        "Turnier 1",
        "Turnier 1 zählt",
        "Turnier 2",
        "Turnier 2 zählt",
    ]
    client.cookies["django_language"] = "en"
    english = rows(client.get(url).content, "en")
    assert english[0] == [
        "place",
        "name",
        "club",
        "total",
        "played",
        "t1",
        "t1_counts",
        "t2",
        "t2_counts",
    ]


@pytest.mark.parametrize("language", ["de", "en"])
def test_our_own_players_csv_imports_again_in_either_language(
    client, organizer, made, tournament, language
):
    client.force_login(organizer)
    content = download(client, tournament, "players", "csv", language)
    exported = rows(content, language)[1:]
    imported, errors = parse_players(content.decode("utf-8-sig"))
    assert errors == []
    assert [(r.name, r.club) for r in imported] == [(row[1], row[2]) for row in exported]
    assert len(imported) == len(tournament.players.all())


def test_an_unknown_column_beside_export_columns_is_still_named(organizer):
    _rows, errors = parse_players(
        "Spieler-ID;Name;Verein;Lieblingsfarbe\n1;Iris Täubner;SC Köln;blau\n"
    )
    assert [e.line for e in errors] == [1] and "Lieblingsfarbe" in str(errors[0].message)
