"""Seating lists hang on a wall (issue 36): players by surname in German
order (DIN 5007: "Ødegaard" as "Odegaard", "Şahin" as "Sahin"), written
"Surname, Given", in type read from two metres (18 pt); in the standings a
club never runs into the points beside it ("TSV Blau-0"). Read back with
pdfplumber."""

from __future__ import annotations

import io
from decimal import Decimal

import pdfplumber
from django.utils import translation
from django.utils.translation import gettext
from reportlab.lib.units import mm

from scoring.printing.lists import render_seating_by_name, render_seating_by_table, render_standings

PEOPLE = [
    ("Thomas Müller", "SC Köln"),
    ("Ayşe Şahin", "TSV Blau-Weiß Ehrenfeld"),
    ("Łukasz Wróblewski", ""),
    ("Iris Täubner", "Kartenclub Ehrenfeld"),
    ("Ömer Kaya", ""),
    ("Bernd Ćosić", "SC Köln"),
    ("Zoë Ødegaard", ""),
    ("Chloé Dupont", "TSV Blau"),
    ("Anna Mueller", "TSV Blau"),
]
TABLES = [
    {"number": t + 1, "players": [{"name": n, "club": c} for n, c in PEOPLE[t * 3 : t * 3 + 3]]}
    for t in range(3)
]


def words(pdf: bytes):
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        return [w for page in doc.pages for w in page.extract_words(extra_attrs=["size"])]


def test_the_names_list_is_by_surname_in_german_order_in_wall_type():
    with translation.override("de"):
        pdf = render_seating_by_name({"name": "Herbstturnier"}, 3, TABLES, gettext=gettext)
    found = [w for w in words(pdf) if w["text"].endswith(",")]
    surnames = [w["text"].rstrip(",") for w in found]
    assert surnames == [
        "Ćosić",
        "Dupont",
        "Kaya",
        "Mueller",
        "Müller",
        "Ødegaard",
        "Şahin",
        "Täubner",
        "Wróblewski",
    ]
    assert min(w["size"] for w in found) >= 17.99


def test_the_seating_by_table_is_in_wall_type():
    with translation.override("de"):
        pdf = render_seating_by_table({"name": "Herbstturnier"}, 3, TABLES, gettext=gettext)
    names = [w for w in words(pdf) if w["text"] in {"Müller", "Şahin", "Kaya"}]
    assert len(names) == 3 and min(w["size"] for w in names) >= 17.99


def test_a_club_never_runs_into_the_points_beside_it():
    rows = [
        {
            "place": k + 1,
            "name": name,
            "club": club or "TSV Blau-Weiß",
            "points": Decimal(k % 3),
            "figures": 40 - k,
            "opponents": Decimal("3.5"),
            "wins": 3,
            "head_to_head": 0,
            "games": 3,
        }
        for k, (name, club) in enumerate(PEOPLE)
    ]
    columns = [
        ("place", "Platz"),
        ("name", "Spieler"),
        ("club", "Verein"),
        ("points", "Punkte"),
        ("figures", "Spielwerte"),
        ("opponents", "Gegn.-Schnitt"),
        ("wins", "Siege"),
        ("head_to_head", "DV"),
        ("games", "Spiele"),
    ]
    pdf = render_standings({"name": "T"}, rows, columns=columns, final=True)
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        page = doc.pages[0]
        head = next(w for w in page.extract_words() if w["text"] == "Punkte")
        club_words = [
            w
            for w in page.extract_words()
            if w["top"] > head["bottom"] and w["x0"] < head["x0"] and w["x1"] > head["x0"] - 80
        ]
        points = [
            w
            for w in page.extract_words()
            if w["top"] > head["bottom"] and w["x0"] >= head["x0"] - 1 and w["x1"] <= head["x1"] + 1
        ]
    assert points and club_words
    right_of_clubs = max(w["x1"] for w in club_words)
    left_of_points = min(w["x0"] for w in points)
    assert left_of_points - right_of_clubs >= 3 * mm
