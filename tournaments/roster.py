"""Matching names to the club roster (pure: no Django import).

A name typed at the check-in desk or imported from a list is compared with the
roster's people:

- ``exact``: the same name (ignoring case and surrounding or doubled spaces)
  and the same club, or the same name when either club is empty;
- ``near``: the same after folding German spellings and accents
  (``Jürgen Groß`` = ``Juergen Gross`` = ``Jurgen Gross``), or a close spelling
  (a similarity ratio of at least :data:`NEAR_RATIO`), or the same name with
  another club;
- otherwise no match: a new person.

Nothing is linked by this module; the organizer confirms every suggestion.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from difflib import SequenceMatcher

NEAR_RATIO = 0.88
EXACT, NEAR, NEW = "exact", "near", "new"

_FOLD = str.maketrans(
    {
        "ä": "ae",
        "ö": "oe",
        "ü": "ue",
        "ß": "ss",
        "ł": "l",
        "đ": "d",
        "ø": "o",
        "æ": "ae",
        "œ": "oe",
        "ı": "i",
    }
)


def plain(text: str) -> str:
    """Lower case, single spaces."""
    return " ".join(text.casefold().split())


def folded(text: str) -> str:
    """Folded spelling: umlauts as ae/oe/ue, ß as ss, accents dropped, so
    "Jürgen Groß", "Juergen Gross" and "Jurgen Gross" fold alike (a "ue"
    also folds to "u": both spellings of the umlaut meet)."""
    text = plain(text).translate(_FOLD)
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    return text.replace("ae", "a").replace("oe", "o").replace("ue", "u")


@dataclass(frozen=True, slots=True)
class Candidate:
    id: object
    name: str
    club: str = ""


@dataclass(frozen=True, slots=True)
class Match:
    kind: str  # EXACT, NEAR or NEW
    candidates: tuple = ()  # the matching people, best first

    @property
    def best(self):
        return self.candidates[0] if self.candidates else None


def match(name: str, club: str, people: Iterable[Candidate]) -> Match:
    """How a typed name and club match the roster."""
    name_p, club_p, name_f = plain(name), plain(club), folded(name)
    exact, near = [], []
    for person in people:
        p_name, p_club = plain(person.name), plain(person.club)
        if p_name == name_p and (p_club == club_p or not p_club or not club_p):
            exact.append(person)
            continue
        p_folded = folded(person.name)
        if p_folded == name_f:
            near.append((1.0, person))
            continue
        ratio = SequenceMatcher(None, p_folded, name_f).ratio()
        if ratio >= NEAR_RATIO:
            near.append((ratio, person))
    if exact:
        exact.sort(key=lambda p: (plain(p.club) != club_p, str(p.id)))
        return Match(EXACT, tuple(exact))
    if near:
        near.sort(key=lambda rp: (-rp[0], str(rp[1].id)))
        return Match(NEAR, tuple(p for _, p in near))
    return Match(NEW)
