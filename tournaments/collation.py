"""How names sort: German alphabetical order (DIN 5007, variant 1), one rule
for every page, select, the projector and the PDFs.

Letters with accents or other marks sort as their base letter ("Şahin" next
to "Sahin", "Łukasz" among the L, "Müller" as "Muller"), "ß" as "ss", case is
ignored; names that are equal so far keep a stable, deterministic order.
Pure: no Django.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from typing import TypeVar

T = TypeVar("T")

# letters Unicode does not decompose into a base letter and a mark
_BASE = str.maketrans(
    {"ł": "l", "ø": "o", "đ": "d", "ħ": "h", "ı": "i", "ŀ": "l", "æ": "ae", "œ": "oe", "þ": "th"}
)


def fold(text: str) -> str:
    """``text`` as it is compared: lower case, marks removed ("Şahin" → "sahin")."""
    base = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in base if not unicodedata.combining(ch)).translate(_BASE)


def name_key(name: str) -> tuple[str, str, str]:
    """Sort key of a full name, in the order it is written."""
    return fold(name), name.casefold(), name


def surname(name: str) -> str:
    """The surname of a name written "Given Surname" (its last word)."""
    parts = name.split()
    return parts[-1] if parts else ""


def surname_key(name: str) -> tuple[str, str, str, str]:
    """Sort key by surname, then the whole name."""
    return (fold(surname(name)),) + name_key(name)


def sort_by_name(items: Iterable[T], name: Callable[[T], str], *, by_surname=False) -> list[T]:
    """``items`` in alphabetical order of ``name(item)`` (or of its surname)."""
    key = surname_key if by_surname else name_key
    return sorted(items, key=lambda item: key(name(item)))
