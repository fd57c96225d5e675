"""The final standings PDF and the certificates, read back with pdfplumber
(issue 36): where a word does not fit its line it breaks after a hyphen or
at a syllable's end by German hyphenation ("Spielgemein-" / "schaft"), never
inside a syllable ("Spielgemeinsc" / "haft", "Lindenstra" / "ße")."""

from __future__ import annotations

import io
from decimal import Decimal

import pdfplumber
import pyphen
import pytest
from django.utils import translation
from django.utils.translation import gettext

from scoring.printing.certificates import render_certificates
from scoring.printing.lists import render_standings

CLUBS = [
    "Spielgemeinschaft Lindenstraße 4",
    "Kartenspielfreunde Oberschleißheim",
    "Donaudampfschifffahrtsgesellschaft",
    "Quartettfreunde Übelacker-Schönbrunn",
]
NAMES = [
    "Maximiliane Wolfeschlegelsteinhausen",
    "Bartholomäus Übelacker-Schönbrunn",
    "Zoë Ødegaard",
    "Friederike Kartenspielfreundin",
]
KNOWN = {w for text in CLUBS + NAMES for w in text.split()}
HYPHENATION = pyphen.Pyphen(lang="de_DE")


def breaks(pdf: bytes, *, centred: bool = False) -> list[tuple[str, str]]:
    """Every (head, next) where a line's last word ends with a hyphen after a
    letter and the line under it goes on: at the same left edge (a table's
    cell) or, for ``centred`` lines, the next line's first word."""
    out = []
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        for page in doc.pages:
            words = page.extract_words(keep_blank_chars=False, use_text_flow=True)
            for w in words:
                text = w["text"]
                if len(text) < 2 or not (text.endswith("-") and text[-2].isalpha()):
                    continue
                below = [
                    v
                    for v in words
                    if 0 < v["top"] - w["top"] < 2.2 * (w["bottom"] - w["top"])
                    and (centred or abs(v["x0"] - w["x0"]) < 2)
                ]
                if below:
                    top = min(v["top"] for v in below)
                    line = [v for v in below if abs(v["top"] - top) < 1]
                    out.append((text, min(line, key=lambda v: v["x0"])["text"]))
    return out


def tokens(pdf: bytes) -> set[str]:
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        return {
            w["text"].strip("(),")
            for page in doc.pages
            for w in page.extract_words(use_text_flow=True)
        }


#: the documents' own words that are also parts of the test's names and clubs
OWN_WORDS = {"Quartett", "der"}


def where(head: str, rest: str) -> bool:
    """True when ``head`` + ``rest`` is broken after a hyphen of the word or
    at one of its syllables' ends."""
    for word in KNOWN:
        for off in range(len(word)):
            if word.startswith(head, off) and word[off + len(head) - 1] == "-":
                return True  # after the word's own hyphen
            cut = off + len(head) - 1
            if word.startswith(head[:-1], off) and word.startswith(rest.rstrip("-")[:3], cut):
                return cut in HYPHENATION.positions(word)
    raise AssertionError(f"{head!r} / {rest!r} is no part of a known word")


def standings_pdf() -> bytes:
    rows = [
        {
            "place": k + 1,
            "name": name,
            "club": club,
            "final": gettext("%(stage)s, place %(n)s") % {"stage": gettext("Semi-final"), "n": 1},
            "points": Decimal(9 - k) / 2,
            "figures": 1234 - k,
            "opponents": Decimal("13.5"),
            "wins": 3,
            "head_to_head": 0,
            "rating": 1650,
            "games": 5,
        }
        for k, (name, club) in enumerate(zip(NAMES, CLUBS, strict=True))
    ]
    columns = [
        ("place", gettext("Place")),
        ("name", gettext("Player")),
        ("final", gettext("Final stage")),
        ("club", gettext("Club")),
        ("points", gettext("Points")),
        ("figures", gettext("Figures")),
        ("opponents", gettext("Opp. avg")),
        ("wins", gettext("Wins")),
        ("head_to_head", gettext("H2H")),
        ("rating", gettext("Rating")),
        ("games", gettext("Games")),
    ]
    return render_standings(
        {"name": "Herbstturnier"}, rows, columns=columns, final=True, gettext=gettext
    )


def certificates_pdf() -> bytes:
    winners = [
        {"place": k + 1, "name": f"{name} {name}", "club": f"{club} {club} {club}", "points": "4,5"}
        for k, (name, club) in enumerate(zip(NAMES, CLUBS, strict=True))
    ]
    tournament = {
        "name": "Vereinsmeisterschaft der Spielgemeinschaft Lindenstraße 4",
        "game": "Quartett",
        "date": "21. November 2026",
        "venue": "Vereinsheim Spielgemeinschaft Lindenstraße 4, Oberschleißheim",
    }
    return render_certificates(tournament, winners, gettext=gettext, decimal_separator=",")


@pytest.mark.parametrize(
    ("document", "centred"), [(standings_pdf, False), (certificates_pdf, True)]
)
def test_a_word_breaks_only_at_a_hyphen_or_a_syllables_end(document, centred):
    with translation.override("de"):
        found = breaks(document(), centred=centred)
    assert found, "the test's texts are chosen so that some word has to break"
    for head, rest in found:
        assert where(head, rest), (head, rest)
    # and no word is broken without its hyphen ("Spielgemeinsc" / "haft"):
    # every piece of a name or club on the page is a whole word, a part
    # before or after a hyphen, or one of the breaks above
    with translation.override("de"):
        printed = tokens(document())
    parts = {p for w in KNOWN for p in w.replace("-", "- ").split()} | KNOWN
    allowed = parts | {h for h, _r in found} | {r for _h, r in found} | OWN_WORDS
    pieces = {t for t in printed if len(t) >= 3 and any(t in w for w in KNOWN)}
    assert pieces - allowed == set()
