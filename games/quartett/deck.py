"""Quartett decks: the data format, its validation and the shipped decks.

A deck is JSON (a file in ``games/quartett/decks/<name>.json`` or a dict an
organiser supplies as ``options["deck"]``)::

    {"name": "Space",
     "attributes": [
        {"key": "distance", "label": "Distance to Earth",
         "direction": "higher", "unit": "light years"},
        {"key": "first_contact", "label": "First contact",
         "direction": "earlier", "unit": "year"},
        ...],
     "cards": [
        {"id": "Q-SP01", "name": "Veyra Prime",
         "values": {"distance": 412.5, "first_contact": "2150 AD", ...}},
        ...]}

- ``attributes``: at least one; ``key`` a unique non-empty string; ``label``
  (defaults to the key) and ``unit`` (defaults to "") strings; ``direction``
  one of ``"higher"`` (higher is better), ``"lower"`` (lower is better) or
  ``"earlier"`` (a year, earlier is better).
- ``cards``: at least one; ``id`` a unique non-empty string that is not also a
  card name, an attribute key/label/unit or a text value (views show those,
  and ids must stay distinctive: use e.g. ``"Q-Sol"``, not ``"Sol"``);
  ``name`` a non-empty string; ``values`` gives every attribute (and only the
  deck's attributes) a value.
- A value is a number (``12``, ``0.8``, or a string ``"0,8"``/``"0.8"``), or
  ``"unbekannt"``/``"unknown"`` or ``"nicht definierbar"``/``"not definable"``
  (or ``null``, read as unknown). Unknown and not-definable values lose
  against every known value; two of them are equal.
- Years (direction ``"earlier"``) are ``"2150 AD"`` (also ``"2150 n. Chr."``
  or a bare number ``2150``, read as AD), ``"1290 NGZ"`` or ``"50 BC"``
  (``"v. Chr."``). They are compared in NGZ: 3588 AD = 1 NGZ, so
  NGZ = AD − 3587 (and 1 BC = AD 0).

``parse_deck(data)`` validates such a dict and returns the normalised deck
(the same shape, plus ``"strength"``: per card id the list of comparable
values in attribute order, bigger is better, ``None`` for unknown/not
definable). Every problem raises ``DeckError`` with a message saying what and
where. ``load_deck(name_or_dict)`` resolves a shipped deck name or parses a
dict, with a cache.
"""

from __future__ import annotations

import json
import re
from collections import OrderedDict
from pathlib import Path

from games.base import DeckError

DECK_DIR = Path(__file__).parent / "decks"
DEFAULT_DECK = "space"
DIRECTIONS = ("higher", "lower", "earlier")
UNKNOWN_WORDS = {"unbekannt", "unknown", "nicht definierbar", "not definable", "n/a", "?"}
#: 3588 AD = 1 NGZ
NGZ_OFFSET = 3587

_YEAR_RE = re.compile(
    r"^\s*(-?\d+)\s*(ad|n\.?\s*chr\.?|ngz|bc|v\.?\s*chr\.?)?\s*$",
    re.IGNORECASE,
)


def shipped_decks() -> list[str]:
    """Names of the deck files shipped in ``games/quartett/decks``."""
    return sorted(p.stem for p in DECK_DIR.glob("*.json"))


def is_unknown(value) -> bool:
    return value is None or (isinstance(value, str) and value.strip().lower() in UNKNOWN_WORDS)


def year_to_ngz(value) -> int:
    """A year as NGZ: ``"2150 AD"`` -> -1437, ``"1290 NGZ"`` -> 1290.
    Raises ValueError when it can't be read."""
    if isinstance(value, bool):
        raise ValueError(value)
    if isinstance(value, int):
        return value - NGZ_OFFSET
    if isinstance(value, float) and value.is_integer():
        return int(value) - NGZ_OFFSET
    if not isinstance(value, str):
        raise ValueError(value)
    m = _YEAR_RE.match(value)
    if not m:
        raise ValueError(value)
    year = int(m.group(1))
    era = (m.group(2) or "ad").lower().replace(" ", "").replace(".", "")
    if era == "ngz":
        return year
    if era in ("bc", "vchr"):
        year = 1 - year
    return year - NGZ_OFFSET


def read_number(value) -> float | int:
    if isinstance(value, bool):
        raise ValueError(value)
    if isinstance(value, (int, float)):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(value)
        return value
    if isinstance(value, str):
        text = value.strip().replace(",", ".")
        try:
            number = float(text)
        except ValueError:
            raise ValueError(value) from None
        if number != number or number in (float("inf"), float("-inf")):
            raise ValueError(value)
        return int(number) if number.is_integer() and "." not in text else number
    raise ValueError(value)


def strength(value, direction: str):
    """The comparable value (bigger is better) or None (unknown/not definable)."""
    if is_unknown(value):
        return None
    if direction == "earlier":
        return -year_to_ngz(value)
    number = read_number(value)
    return number if direction == "higher" else -number


def _text(obj, what: str, *, default=None) -> str:
    if obj is None and default is not None:
        return default
    if not isinstance(obj, str) or not obj.strip():
        raise DeckError(f"{what} must be a non-empty text")
    return obj.strip()


def parse_deck(data) -> dict:
    """Validate a deck dict (format in the module docstring) and return it
    normalised, with ``"strength"`` per card id. Raises ``DeckError``."""
    if not isinstance(data, dict):
        raise DeckError("a deck must be a JSON object with name, attributes and cards")
    name = _text(data.get("name"), "the deck's name")
    attrs_in = data.get("attributes")
    if not isinstance(attrs_in, list) or not attrs_in:
        raise DeckError(f"deck {name!r}: 'attributes' must be a non-empty list")
    attributes = []
    seen_keys: set[str] = set()
    for i, a in enumerate(attrs_in):
        if not isinstance(a, dict):
            raise DeckError(f"deck {name!r}: attribute #{i + 1} must be an object")
        key = _text(a.get("key"), f"deck {name!r}: attribute #{i + 1}'s key")
        if key in seen_keys:
            raise DeckError(f"deck {name!r}: attribute key {key!r} is used twice")
        seen_keys.add(key)
        direction = a.get("direction")
        if direction not in DIRECTIONS:
            raise DeckError(
                f"deck {name!r}: attribute {key!r} has direction {direction!r}; "
                f"use one of {', '.join(DIRECTIONS)}"
            )
        label = _text(a.get("label"), f"deck {name!r}: attribute {key!r}'s label", default=key)
        unit = a.get("unit", "")
        if unit is None:
            unit = ""
        if not isinstance(unit, str):
            raise DeckError(f"deck {name!r}: attribute {key!r}'s unit must be a text")
        attributes.append({"key": key, "label": label, "direction": direction, "unit": unit})
    cards_in = data.get("cards")
    if not isinstance(cards_in, list) or not cards_in:
        raise DeckError(f"deck {name!r}: 'cards' must be a non-empty list")
    cards = []
    strengths: dict[str, list] = {}
    for i, c in enumerate(cards_in):
        if not isinstance(c, dict):
            raise DeckError(f"deck {name!r}: card #{i + 1} must be an object")
        cid = _text(c.get("id"), f"deck {name!r}: card #{i + 1}'s id")
        if cid in strengths:
            raise DeckError(f"deck {name!r}: card id {cid!r} is used twice")
        cname = _text(c.get("name"), f"deck {name!r}: card {cid!r}'s name")
        values_in = c.get("values")
        if not isinstance(values_in, dict):
            raise DeckError(f"deck {name!r}: card {cid!r} needs 'values' (an object)")
        extra = sorted(str(k) for k in values_in if k not in seen_keys)
        if extra:
            raise DeckError(
                f"deck {name!r}: card {cid!r} has values for unknown attribute(s) {', '.join(extra)}"
            )
        values = {}
        row = []
        for a in attributes:
            key = a["key"]
            if key not in values_in:
                raise DeckError(f"deck {name!r}: card {cid!r} lacks a value for {key!r}")
            raw = values_in[key]
            try:
                row.append(strength(raw, a["direction"]))
            except ValueError:
                kind = (
                    "year (e.g. '2150 AD' or '1290 NGZ')"
                    if a["direction"] == "earlier"
                    else "number"
                )
                raise DeckError(
                    f"deck {name!r}: card {cid!r}: {key!r} value {raw!r} is not a {kind}, "
                    f"'unbekannt' or 'nicht definierbar'"
                ) from None
            values[key] = "unbekannt" if raw is None else raw
        strengths[cid] = row
        cards.append({"id": cid, "name": cname, "values": values})
    shown = {c["name"] for c in cards}
    for a in attributes:
        shown.update((a["key"], a["label"], a["unit"]))
    for c in cards:
        shown.update(v for v in c["values"].values() if isinstance(v, str))
    clash = sorted(cid for cid in strengths if cid in shown)
    if clash:
        raise DeckError(
            f"deck {name!r}: card id(s) {', '.join(map(repr, clash[:5]))} also appear as a "
            f"name, attribute or value; use distinctive ids such as 'Q-{clash[0]}'"
        )
    return {"name": name, "attributes": attributes, "cards": cards, "strength": strengths}


_CACHE: OrderedDict = OrderedDict()
_CACHE_SIZE = 32


def load_deck(deck=None) -> dict:
    """A parsed deck: ``deck`` is a shipped deck's name (default "space") or a
    dict in the deck format. Cached; raises ``DeckError``."""
    if deck is None:
        deck = DEFAULT_DECK
    if isinstance(deck, str):
        key = ("name", deck)
    elif isinstance(deck, dict):
        key = ("obj", id(deck))
        hit = _CACHE.get(key)
        if hit is not None and hit[0] is deck:
            return hit[1]
        try:
            key = ("json", json.dumps(deck, sort_keys=True))
        except (TypeError, ValueError):
            raise DeckError("a deck must be plain JSON data") from None
    else:
        raise DeckError(f"options['deck'] must be a deck name or a deck object, not {deck!r}")
    hit = _CACHE.get(key)
    if hit is None:
        if key[0] == "name":
            path = DECK_DIR / f"{deck}.json"
            if not re.fullmatch(r"[a-z0-9_-]+", deck) or not path.is_file():
                raise DeckError(
                    f"unknown deck {deck!r}; shipped decks: {', '.join(shipped_decks())}"
                )
            with path.open(encoding="utf-8") as f:
                data = json.load(f)
        else:
            data = deck
        hit = (deck, parse_deck(data))
        _CACHE[key] = hit
    if isinstance(deck, dict):
        _CACHE[("obj", id(deck))] = (deck, hit[1])
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return hit[1]
