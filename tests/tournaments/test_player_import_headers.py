"""A player list's header line, as club spreadsheets write it: first and
last names in two columns are joined into the name (German and English,
any case, spacing or "_"/"-"), and a header that is not understood is named
in the error instead of its column being read as the rating."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.examples import examples
from tournaments.player_import import HEADER_ALIASES, header_word, parse_players

FIRST = ["Vorname", "First name", "firstname", "FIRST_NAME", "Given name", "Rufname"]
LAST = ["Nachname", "Last name", "lastname", "Last_Name", "Surname", "Familienname"]
CLUB = ["Verein", "Club", "KLUB"]
RATING = ["Wertung", "DWZ", "Elo", "Rating"]
YEAR = ["Geburtsjahr", "Jahrgang", "Birth year", "birth_year", "Geb.-Jahr", "Jg."]


def spelled(word: str):
    """``word`` as a spreadsheet may write it: any case, spaces around,
    its separators as spaces, "_" or "-"."""
    return st.tuples(
        st.lists(st.booleans(), min_size=len(word), max_size=len(word)),
        st.sampled_from(["", " ", "  "]),
        st.sampled_from(["", " ", "   "]),
        st.sampled_from([" ", "_", "-", "  "]),
    ).map(
        lambda t: (
            t[1]
            + "".join(
                c.upper() if up else c.lower() for c, up in zip(word, t[0], strict=True)
            ).replace(" ", t[3])
            + t[2]
        )
    )


# a cell's text: letters (accents too), inner spaces, hyphens; no separator
names = (
    st.text(
        alphabet=st.sampled_from("abcdefghijklmnopqrstuvwxyzäöüßÄÖÜŁłŞşéÉ -'"),
        min_size=1,
        max_size=30,
    )
    .map(lambda s: " ".join(s.split()))
    .filter(lambda s: s and s[0].isalpha())
)


@pytest.mark.parametrize(
    ("text", "name", "club"),
    [
        ("Vorname;Nachname;Verein\nThomas;Müller;SC Nord\n", "Thomas Müller", "SC Nord"),
        ("First name;Last name;Club\nIris;Täubner;TV Süd\n", "Iris Täubner", "TV Süd"),
        ("Nachname;Vorname;Verein\nŞahin;Ayşe;SK Ost\n", "Ayşe Şahin", "SK Ost"),
        # German club lists call the surname "Name" beside "Vorname"
        ("Name;Vorname;Verein\nNowak;Łukasz;SV West\n", "Łukasz Nowak", "SV West"),
        (" VORNAME ; nach-name ;verein\nÖzge;Öztürk;\n", "Özge Öztürk", ""),
        # a running number is read past, never as a rating
        ("Nr.;Vorname;Nachname;Verein\n1;Thomas;Müller;SC Nord\n", "Thomas Müller", "SC Nord"),
    ],
)
def test_first_and_last_name_columns_are_joined(text, name, club):
    rows, errors = parse_players(text)
    assert errors == []
    assert [(r.name, r.club) for r in rows] == [(name, club)]


def test_the_issue_list_reads_without_a_rating_error():
    """The list that answered "Zeile 1: Wertung „Verein“ ist keine ganze Zahl"."""
    text = "Vorname;Nachname;Verein\nThomas;Müller;SC Nord\nThomas;Müller;TV Süd\n"
    with translation.override("de"):
        rows, errors = parse_players(text)
    assert errors == []
    assert [(r.line, r.name, r.club) for r in rows] == [
        (2, "Thomas Müller", "SC Nord"),
        (3, "Thomas Müller", "TV Süd"),
    ]


def test_a_header_not_understood_is_named_not_read_as_rating():
    with translation.override("de"):
        rows, errors = parse_players("Name;Verein;Wertung2\nAnna Schmidt;SK Nord;1500\n")
    assert [e.line for e in errors] == [1]
    assert "Spalte „Wertung2“ wird nicht erkannt" in errors[0].message
    assert "ganze Zahl" not in errors[0].message


def test_a_column_named_twice_is_refused():
    rows, errors = parse_players("Name;Verein;Club\nAnna;A;B\n")
    assert any("“Verein” and “Club” are the same column" in e.message for e in errors)


@given(
    order=st.permutations(["first", "last", "club", "rating", "year"]),
    words=st.fixed_dictionaries(
        {
            "first": st.sampled_from(FIRST).flatmap(spelled),
            "last": st.sampled_from(LAST).flatmap(spelled),
            "club": st.sampled_from(CLUB).flatmap(spelled),
            "rating": st.sampled_from(RATING).flatmap(spelled),
            "year": st.sampled_from(YEAR).flatmap(spelled),
        }
    ),
    sep=st.sampled_from([";", ",", "\t"]),
    people=st.lists(
        st.tuples(names, names, names, st.integers(0, 3000), st.integers(1930, 2015)),
        min_size=1,
        max_size=5,
        unique_by=lambda p: (f"{p[0]} {p[1]}".casefold(), p[2].casefold()),
    ),
)
@settings(max_examples=examples(150), deadline=None)
def test_any_header_spelling_and_order_reads_every_column(order, words, sep, people):
    lines = [sep.join(words[c] for c in order)]
    for first, last, club, rating, year in people:
        cell = {"first": first, "last": last, "club": club, "rating": rating, "year": year}
        lines.append(sep.join(str(cell[c]) for c in order))
    rows, errors = parse_players("\n".join(lines) + "\n")
    assert errors == []
    assert [(r.name, r.club, r.rating, r.birth_year) for r in rows] == [
        (f"{first} {last}", club, rating, year) for first, last, club, rating, year in people
    ]


@given(
    unknown=st.text(alphabet=st.characters(categories=("L", "N")), min_size=1, max_size=20).filter(
        lambda w: header_word(w) not in HEADER_ALIASES
    ),
    value=st.text(alphabet="abcxyz0123456789", min_size=1, max_size=8),
)
@settings(max_examples=examples(100), deadline=None)
def test_an_unknown_header_is_named_and_its_cells_never_read_as_rating(unknown, value):
    rows, errors = parse_players(f"Vorname;Nachname;{unknown}\nAnna;Schmidt;{value}\n")
    assert [e.line for e in errors] == [1]
    assert f"“{unknown}” is not recognised" in errors[0].message
    assert all(r.rating is None for r in rows)


@pytest.mark.django_db
def test_the_import_page_previews_a_first_and_last_name_list(client, organizer, tournament):
    client.force_login(organizer)
    url = reverse("player_import", args=[tournament.pk])
    text = "Vorname;Nachname;Verein\nThomas;Müller;SC Nord\nŁukasz;Nowak;SV West\n"
    response = client.post(url, {"text": text}, HTTP_ACCEPT_LANGUAGE="de")
    page = response.content.decode()
    assert "Thomas Müller" in page and "Łukasz Nowak" in page
    assert "keine ganze Zahl" not in page
    response = client.post(url, {"text": text, "confirm": "1"})
    assert response.status_code == 302
    assert sorted(tournament.players.values_list("name", "club")) == [
        ("Thomas Müller", "SC Nord"),
        ("Łukasz Nowak", "SV West"),
    ]
