"""Every PDF the tournament prints, in German and English, with the longest
names, clubs, tournament names and venues the forms allow (and three
players called "Thomas Müller"), read back with pdfplumber: no text box
overlaps or touches another, no text crosses a grid line or leaves its
column or the printable area, no text is smaller than 8 pt, a long name is
printed in full (wrapped) or, where a print cuts, ends in a visible "…",
and numbers follow the language (3,375 in German, never 3.375).

Pure drawing (no database): every document renders in well under a second.
"""

from __future__ import annotations

import functools
import re
from decimal import Decimal

import pytest
from django.utils import translation
from django.utils.translation import gettext
from reportlab.lib.pagesizes import A4

from games import ENGINES
from scoring.printing.certificates import render_certificates
from scoring.printing.lists import (
    render_round_results,
    render_seating_by_name,
    render_seating_by_table,
    render_standings,
    render_table_cards,
    surname_first,
)
from scoring.printing.season import render_season
from scoring.printing.sheets import render_score_sheets
from scoring.printing.slips import render_seat_slip
from tests.scoring import pdf_layout
from tournaments.limits import MAX_NAME, MAX_ROUNDS, MAX_TABLES


def longest(words: str) -> str:
    """``words`` repeated to the longest text a name, club or tournament may be."""
    text = words
    while len(text) < MAX_NAME:
        text += " " + words
    return text[:MAX_NAME].rstrip()


LONG_NAME = longest("Maximilian Freiherr von und zu Übelacker-Schönbrunn")
SOLID_NAME = ("Wolfeschlegelsteinhausenbergerdorffüßling" * 5)[:MAX_NAME]  # no space at all
LONG_CLUB = longest("Skat- und Quartettfreunde Übelacker-Schönbrunn 1897 e. V.")
LONG_TOURNAMENT = longest(
    "Quartett-Vereinsturnier Januar 2026 der Skat- und Quartettfreunde Übelacker-Schönbrunn"
)
LONG_VENUE = longest("Vereinsheim Übelacker-Schönbrunner Straße 1897, 50679 Köln-Deutz")
TOURNAMENT = {
    "name": LONG_TOURNAMENT,
    "game": "Monddämmerung",
    "date": "21. November 2026",
    "venue": LONG_VENUE,
}
PEOPLE = [
    (LONG_NAME, LONG_CLUB),
    ("Thomas Müller", "SC Köln"),
    ("Thomas Müller", LONG_CLUB),
    ("Thomas Müller", ""),
    (SOLID_NAME, SOLID_NAME),
    ("Ayşe Şahin", ""),
    ("Łukasz Wróblewski", "TSV Bonn"),
    ("Zoë Ødegaard", ""),
    ("Jürgen Weiß", "SC Köln"),
    ("Iris Täubner", "Kartenclub Ehrenfeld"),
    ("Ömer Kaya", ""),
    ("Bernd Ćosić", "SC Köln"),
]
LONG_TEXTS = (LONG_NAME, SOLID_NAME, LONG_CLUB)
ROUND = MAX_ROUNDS


def players(count: int, start: int = 0) -> list[dict]:
    return [
        {"id": k, "name": PEOPLE[k % len(PEOPLE)][0], "club": PEOPLE[k % len(PEOPLE)][1]}
        for k in range(start, start + count)
    ]


def tables_of(sizes: list[int], *, first: int = MAX_TABLES - 3) -> list[dict]:
    """Tables of these sizes, numbered up to the largest table number; the
    first holds the long names and the three Thomas Müllers."""
    out, k = [], 0
    for i, size in enumerate(sizes):
        seated = players(size, k)
        k += size
        for seat, p in enumerate(seated, 1):
            p["seat"] = seat
            p["url"] = f"https://turnier.example.org/s/{'x' * 43}{first + i}{seat}/"
        out.append({"id": i, "round": ROUND, "number": first + i, "players": seated})
    return out


SEATED = tables_of([4, 4, 4, 3, 3])


def url_for(table):
    return f"https://turnier.example.org/t/9/r/{ROUND}/table/{table['number']}/?sig={'Zm9v' * 12}"


def standings_rows() -> list[dict]:
    rows = []
    for k, (name, club) in enumerate(PEOPLE):
        rows.append(
            {
                "place": f"{k + 1}=" if k in (4, 5) else k + 1,
                "name": name + (f" ({gettext('dropped')})" if k == 7 else ""),
                "club": club,
                "points": Decimal("3.375") * (12 - k),
                "figures": 1234 - k,
                "opponents": Decimal("13.5") - k,
                "wins": 30 - k,
                "head_to_head": Decimal("0.5"),
                "games": 30,
            }
        )
    return rows


def standings_columns() -> list[tuple[str, str]]:
    return [
        ("place", gettext("Place")),
        ("name", gettext("Player")),
        ("club", gettext("Club")),
        ("points", gettext("Points")),
        ("figures", gettext("Figures")),
        ("opponents", gettext("Opp. avg")),
        ("wins", gettext("Wins")),
        ("games", gettext("Games")),
    ]


COUNTS = {
    "planned": 4,
    "rounds": [{"number": n, "tables": 18, "done": 18} for n in (1, 2, 3, 4)],
}


def results_tables() -> list[dict]:
    tables = tables_of([4, 4, 3])
    for t in tables[:2]:
        for s, p in enumerate(t["players"]):
            p.update(rank=s + 1, figure=Decimal("12.5") - s, points=Decimal("3.375") - s)
    return tables


def variants(game: str) -> dict[str, dict]:
    """The game's sheet for every choice of its options (Terra Trumpf
    values or points), named by the choice that differs from the default."""
    engine = ENGINES[game]
    default = engine.default_options()
    out = {game: default}
    for option in engine.options_schema():
        for choice in option.get("choices", ()):
            value = choice[0] if isinstance(choice, (list, tuple)) else choice
            if value != default.get(option["name"]):
                out[f"{game}-{value}"] = {**default, option["name"]: value}
    return out


# what the documents are: (kind, render, cutting allowed, two columns)
def _sheets(game, options, machine_readable=True):
    engine = ENGINES[game]
    sizes = [engine.min_players, engine.max_players]  # the narrowest and the fullest
    return lambda: render_score_sheets(
        {**TOURNAMENT, "id": 999_999},
        ROUND,
        tables_of(sizes),
        engine_id=game,
        options=options,
        base_url_for_table=url_for,
        gettext=gettext,
        machine_readable=machine_readable,
    )


def separator() -> str:
    """The active language's decimal separator: the pure drawing is told it,
    as ``scoring.printing.documents`` tells it."""
    from django.utils.formats import get_format

    return get_format("DECIMAL_SEPARATOR")


DOCUMENTS = {
    **{
        f"sheets-{name}": (_sheets(game, options), True, False)
        for game in sorted(ENGINES)
        for name, options in variants(game).items()
    },
    **{f"sheets-a5-{game}": (_sheets(game, None, False), True, False) for game in sorted(ENGINES)},
    "seating-by-table": (
        lambda: render_seating_by_table(TOURNAMENT, ROUND, SEATED, gettext=gettext),
        False,
        True,
    ),
    "seating-by-name": (
        lambda: render_seating_by_name(TOURNAMENT, ROUND, SEATED, gettext=gettext),
        False,
        True,
    ),
    "table-cards": (
        lambda: render_table_cards(TOURNAMENT, SEATED[:1], gettext=gettext),
        True,
        False,
    ),
    "seat-slip": (
        lambda: render_seat_slip(
            TOURNAMENT,
            round_number=ROUND,
            table_number=MAX_TABLES,
            seat_number=6,
            player_name=LONG_NAME,
            url=SEATED[0]["players"][0]["url"],
            gettext=gettext,
        ),
        True,
        False,
    ),
    "standings": (
        lambda: render_standings(
            TOURNAMENT,
            standings_rows(),
            columns=standings_columns(),
            round_no=4,
            gettext=gettext,
            counts=COUNTS,
            decimal_separator=separator(),
        ),
        False,
        False,
    ),
    "final-standings": (
        lambda: render_standings(
            TOURNAMENT,
            standings_rows(),
            columns=standings_columns(),
            round_no=4,
            gettext=gettext,
            final=True,
            counts=COUNTS,
            decimal_separator=separator(),
        ),
        False,
        False,
    ),
    "certificates": (
        lambda: render_certificates(
            TOURNAMENT,
            [
                {"place": 1, "name": LONG_NAME, "club": LONG_CLUB, "points": Decimal("40.5")},
                {"place": 2, "name": SOLID_NAME, "club": SOLID_NAME, "points": 39},
                {"place": 3, "name": "Thomas Müller", "club": "SC Köln", "points": None},
            ],
            gettext=gettext,
            counts=COUNTS,
            decimal_separator=separator(),
        ),
        False,
        False,
    ),
    "season": (
        lambda: render_season(
            {"name": LONG_TOURNAMENT},
            [LONG_TOURNAMENT, SOLID_NAME, "Februar"] + [f"Turnier {k}" for k in range(4, 13)],
            [
                {
                    "place": k + 1,
                    "name": name,
                    "club": club,
                    "total": Decimal("103.375") - k,
                    "played": 12,
                    "results": ["3.375", "(1.5)", Decimal("12.25"), ("0.5", False)] + ["10"] * 8,
                }
                for k, (name, club) in enumerate(PEOPLE)
            ],
            gettext=gettext,
            decimal_separator=separator(),
        ),
        False,
        False,
    ),
    "round-results": (
        lambda: render_round_results(
            TOURNAMENT,
            ROUND,
            results_tables(),
            figure_label="cards held",
            gettext=gettext,
            decimal_separator=separator(),
        ),
        False,
        False,
    ),
}


@functools.cache
def printed(kind: str, language: str) -> list[pdf_layout.Page]:
    """The document's pages as pdfplumber reads them (rendered once per test run)."""
    with translation.override(language):
        return pdf_layout.read(DOCUMENTS[kind][0]())


def printed_in_full_or_cut(text: str, printed: str, *, may_cut: bool) -> bool:
    """``text`` is in the print in full (wrapped lines run on; a word broken
    at a syllable's end carries its hyphen there), or — where the print cuts —
    from its start up to a "…"."""
    want = text.replace(" ", "")
    for m in re.finditer(re.escape(want[:6]), printed):
        i, k = m.start(), 0
        while k < len(want) and i < len(printed):
            if printed[i] == want[k]:
                k += 1
            elif not (printed[i] == "-" and k and want[k - 1].isalpha() and want[k].isalpha()):
                break
            i += 1
        if k == len(want):
            return True
        if may_cut and printed[i : i + 1] == "…":
            return True
    return False


@pytest.mark.parametrize("language", ["de", "en"])
@pytest.mark.parametrize("kind", sorted(DOCUMENTS))
def test_no_text_overlaps_crosses_a_rule_or_leaves_the_page(kind, language):
    pages = printed(kind, language)
    _render, may_cut, two_columns = DOCUMENTS[kind]
    gutters = (A4[1] / 2,) if two_columns else ()  # the seating lists: landscape
    assert pdf_layout.problems(pages, gutters=gutters) == []
    assert min(pdf_layout.font_sizes(pages)) >= 8
    text = pdf_layout.stream_text(pages)
    for long in (LONG_NAME, SOLID_NAME, LONG_TOURNAMENT):
        if kind == "seating-by-name" and long != LONG_TOURNAMENT:
            long = surname_first(long)  # the list by surname writes "Surname, Given"
        if kind in ("standings", "final-standings", "seating-by-name", "seating-by-table"):
            assert printed_in_full_or_cut(long, text, may_cut=False), (kind, long[:30])
        elif long.replace(" ", "")[:12] in text:
            assert printed_in_full_or_cut(long, text, may_cut=may_cut), (kind, long[:30])


@pytest.mark.parametrize("kind", sorted(DOCUMENTS))
def test_german_prints_write_decimal_commas(kind):
    text = "\n".join(box.text for page in printed(kind, "de") for box in page.boxes)
    assert not [m.group() for m in pdf_layout.ENGLISH_DECIMAL.finditer(text)]
    if kind in ("standings", "final-standings", "season", "round-results"):
        assert "3,375" in text
    if kind == "certificates":
        assert "40,5" in text


#: what each German print says about the rounds (or tournaments) it is about or counts
ROUNDS_SAID = {
    "sheets": ["Runde 30 · Tisch 997"],
    "seating-by-table": ["Runde 30"],
    "seating-by-name": ["Runde 30"],
    "table-cards": ["Runde 30 · Tisch 997 · Sitz 1"],  # a seat link holds for one round
    "seat-slip": ["Runde 30 · Tisch 1000 · Sitz 6"],
    "standings": ["Tabelle nach Runde 4 von 4", "Gezählt: Runden 1–4."],
    "final-standings": ["Endstand nach Runde 4 von 4", "Gezählt: Runden 1–4."],
    "certificates": ["Endstand nach Runde 4 von 4"],
    "season": ["Gezählt: Turniere 1–12."],
    "round-results": ["Ergebnisse der Runde 30", "Tische mit Ergebnis: 2 von 3."],
}


@pytest.mark.parametrize("kind", sorted(DOCUMENTS))
def test_every_print_says_which_rounds_it_is_about(kind):
    text = pdf_layout.stream_text(printed(kind, "de"))
    for said in ROUNDS_SAID[kind.split("-")[0] if kind.startswith("sheets") else kind]:
        assert said.replace(" ", "") in text


def test_german_standings_headers_each_have_their_own_place():
    (first, *_rest) = printed("final-standings", "de")
    words = [box.text for box in first.boxes]
    for header in ("Punkte", "Spielwerte", "Gegn.-Schnitt", "Siege", "Spiele", "Verein"):
        assert header in words or header in "".join(words)
    assert "Endstand nach Runde 4 von 4" in words
    assert "Gezählt: Runden 1–4." in " ".join(words)


def test_the_names_list_tells_players_of_one_name_apart_by_their_club():
    pages = printed("seating-by-name", "de")
    text = pdf_layout.stream_text(pages)
    assert "Müller,Thomas(SCKöln)" in text
    assert ("Müller,Thomas(" + LONG_CLUB.replace(" ", "")) in text
    # the one without a club: the name alone on its line, surname first
    assert "Müller, Thomas" in [box.text for page in pages for box in page.boxes]


def test_a_table_of_the_seating_stays_in_one_column():
    """With so many tables that the list fills several columns, every column
    starts with a table's first seat: its number and seat 1 on one line."""
    tables = [
        {
            "number": n,
            "players": [
                {"name": LONG_NAME[: 20 + 9 * s], "club": "SC Köln", "seat": s + 1}
                for s in range(4 + n % 3)
            ],
        }
        for n in range(1, 21)
    ]
    with translation.override("de"):
        pdf = render_seating_by_table(TOURNAMENT, 3, tables, gettext=gettext)
    pages = pdf_layout.read(pdf)
    assert len(pages) > 1
    starts = 0
    for page in pages:
        for half in (0, 1):
            column = [b for b in page.boxes if (b.x0 > page.width / 2) == bool(half)]
            header = [b for b in column if b.text == "Tisch"]
            if not header:
                continue
            body = [b for b in column if b.top > header[0].bottom + 1]
            first = min(b.top for b in body)
            line = sorted((b for b in body if abs(b.top - first) < 1), key=lambda b: b.x0)
            assert line[0].text.isdigit() and line[1].text == "1", [b.text for b in line]
            starts += 1
    assert starts >= 3
