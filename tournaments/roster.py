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

Merged entries: a person merged into another points to it (``merged_into``);
:func:`resolve_merges` is the one walk along those links, linear and
bounded by the number of entries, so a cycle (a forged import, a hand edit)
still ends it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping
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


def resolve_merges(merged_into: Mapping) -> tuple[dict, list[list]]:
    """The one walk along merge links (entry → the entry it was merged into,
    or None). Returns ``kept`` (every entry → the entry it counts as: the end
    of its chain) and the cycles found (each a list of entries, in link order,
    starting with its smallest).

    A link to an entry not in the mapping (dangling) ends the chain where it
    is. A cycle, which no merge makes but a forged file or a hand edit can
    hold, ends the walk too: its entries, and those merged into them, count
    as the cycle's smallest entry. Each entry is visited once: linear in the
    number of entries, whatever the links."""
    kept: dict = {}
    cycles: list[list] = []
    for start in merged_into:
        if start in kept:
            continue
        path: list = []
        on_path: dict = {}
        node = start
        while True:
            if node in kept:
                result = kept[node]
                break
            on_path[node] = len(path)
            path.append(node)
            target = merged_into.get(node)
            if target is None or target not in merged_into:
                result = node
                break
            if target in on_path:
                cycle = path[on_path[target] :]
                low = cycle.index(min(cycle))
                cycles.append(cycle[low:] + cycle[:low])
                result = cycle[low]
                break
            node = target
        for entry in path:
            kept[entry] = result
    return kept, cycles
