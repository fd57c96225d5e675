"""Monddämmerung deck files: format, loading and validation.

A deck is a JSON file in ``games/monddaemmerung/decks/<name>.json`` (the
tournament option ``{"deck": "<name>"}``; names are ``[a-z0-9_-]+``)::

    {
      "format": "monddaemmerung-deck/1",
      "name": "Standard",                              # shown to organisers
      "colours": ["yellow", "red", "green", "blue"],   # the colours, in this order
      "numbers": 18,                                   # every colour has 1..numbers
      "moons": ["full", "empty", "half", "sickle", "blood", "eclipse"],
      "moon_cards": 2,                                 # numbered cards per moon
      "one": {"id": "MD-ONE", "name": "Der Allereinzigste"},
      "cards": [                                       # the numbered cards
        {"id": "MD-Y01", "colours": ["yellow"], "number": 1, "moon": null},
        {"id": "MD-YG02", "colours": ["yellow", "green"], "number": 2, "moon": null},
        ...
      ]
    }

Each numbered card has a unique string id, one or two distinct colours from
``colours``, a ``number`` and a ``moon`` (one of ``moons`` or null). A
two-coloured card has ONE number that counts in both of its colours.

Validated on load (``DeckError`` with the reason otherwise):

- every colour holds every number 1..``numbers`` exactly once, counting a
  two-coloured card in both colours (the standard deck: 4 colours x 18 = 72
  colour numbers on 63 cards, so 9 cards carry two colours);
- each moon is on exactly ``moon_cards`` numbered cards (standard: 6 x 2 = 12);
- the One has its own id; ids are unique, non-empty strings.

``load_deck(name)`` returns a ``Deck`` (cached); ``parse_deck(data)`` checks
already-read JSON data (used for organiser imports and tests).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from games.base import DeckError

DECK_DIR = Path(__file__).parent / "decks"
FORMAT = "monddaemmerung-deck/1"
_NAME = re.compile(r"^[a-z0-9_-]+$")


@dataclass(frozen=True)
class Card:
    id: str
    colours: tuple[str, ...]
    number: int
    moon: str | None


@dataclass
class Deck:
    name: str
    colours: tuple[str, ...]
    moons: tuple[str, ...]
    one: str
    one_name: str
    cards: dict[str, Card]  # numbered cards by id, in file order
    #: JSON-safe card data by id (the One included), shared by views
    public: dict[str, dict] = field(default_factory=dict)

    def ids(self) -> list[str]:
        return [*self.cards, self.one]

    def as_list(self) -> list[dict]:
        return [{"id": cid, **self.public[cid]} for cid in self.ids()]


def _fail(msg: str):
    raise DeckError(f"Monddämmerung deck: {msg}")


def parse_deck(data) -> Deck:
    """A ``Deck`` from JSON data; ``DeckError`` saying what is wrong otherwise."""
    if not isinstance(data, dict):
        _fail("the file must hold a JSON object")
    if data.get("format") != FORMAT:
        _fail(f"format must be {FORMAT!r}, not {data.get('format')!r}")
    colours = data.get("colours")
    if (
        not isinstance(colours, list)
        or not colours
        or not all(isinstance(c, str) and c for c in colours)
        or len(set(colours)) != len(colours)
    ):
        _fail("'colours' must be a list of distinct colour names")
    numbers = data.get("numbers")
    if not isinstance(numbers, int) or isinstance(numbers, bool) or numbers < 1:
        _fail("'numbers' must be a positive whole number")
    moons = data.get("moons")
    if not isinstance(moons, list) or not all(isinstance(m, str) and m for m in moons):
        _fail("'moons' must be a list of moon names")
    unknown = set(moons) - {"full", "empty", "half", "sickle", "blood", "eclipse"}
    if unknown:
        _fail(
            f"unknown moon(s) {sorted(unknown)}; known: full, empty, half, sickle, blood, eclipse"
        )
    per_moon = data.get("moon_cards")
    if not isinstance(per_moon, int) or isinstance(per_moon, bool) or per_moon < 0:
        _fail("'moon_cards' must be a whole number")
    one = data.get("one")
    if not isinstance(one, dict) or not isinstance(one.get("id"), str) or not one["id"]:
        _fail("'one' must be an object with the One's 'id'")
    raw = data.get("cards")
    if not isinstance(raw, list):
        _fail("'cards' must be a list")
    cards: dict[str, Card] = {}
    slots: dict[tuple[str, int], str] = {}
    moon_count = dict.fromkeys(moons, 0)
    for i, c in enumerate(raw):
        if not isinstance(c, dict):
            _fail(f"card #{i + 1} is not an object")
        cid = c.get("id")
        if not isinstance(cid, str) or not cid:
            _fail(f"card #{i + 1} has no id")
        if cid in cards or cid == one["id"]:
            _fail(f"card id {cid!r} is used twice")
        cols = c.get("colours")
        if (
            not isinstance(cols, list)
            or not 1 <= len(cols) <= 2
            or len(set(cols)) != len(cols)
            or not all(col in colours for col in cols)
        ):
            _fail(f"card {cid!r}: 'colours' must be one or two distinct colours of {colours}")
        num = c.get("number")
        if not isinstance(num, int) or isinstance(num, bool) or not 1 <= num <= numbers:
            _fail(f"card {cid!r}: 'number' must be 1 to {numbers}")
        moon = c.get("moon")
        if moon is not None and moon not in moon_count:
            _fail(f"card {cid!r}: unknown moon {moon!r}")
        if moon is not None:
            moon_count[moon] += 1
        for col in cols:
            if (col, num) in slots:
                _fail(f"{col} {num} is on two cards ({slots[(col, num)]!r} and {cid!r})")
            slots[(col, num)] = cid
        cards[cid] = Card(cid, tuple(cols), num, moon)
    for col in colours:
        missing = [n for n in range(1, numbers + 1) if (col, n) not in slots]
        if missing:
            _fail(f"{col} lacks the number(s) {missing}: every colour needs 1 to {numbers}")
    for moon, count in moon_count.items():
        if count != per_moon:
            _fail(f"the {moon} moon is on {count} cards, not {per_moon}")
    deck = Deck(
        name=str(data.get("name") or "deck"),
        colours=tuple(colours),
        moons=tuple(moons),
        one=one["id"],
        one_name=str(one.get("name") or "Der Allereinzigste"),
        cards=cards,
    )
    for cid, c in cards.items():
        deck.public[cid] = {"colours": list(c.colours), "number": c.number, "moon": c.moon}
    deck.public[deck.one] = {"colours": [], "number": None, "moon": None, "one": True}
    return deck


@lru_cache(maxsize=16)
def load_deck(name: str) -> Deck:
    """The deck file ``decks/<name>.json``, validated; ``ValueError`` for a
    bad name, ``DeckError`` for a file that can't be used."""
    if not isinstance(name, str) or not _NAME.match(name):
        raise ValueError(f"deck name must be letters, digits, '-' or '_', not {name!r}")
    path = DECK_DIR / f"{name}.json"
    if not path.is_file():
        known = ", ".join(sorted(p.stem for p in DECK_DIR.glob("*.json")))
        raise ValueError(f"unknown Monddämmerung deck {name!r}; known: {known}")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DeckError(f"Monddämmerung deck {name!r} can't be read: {exc}") from exc
    return parse_deck(data)


def deck_names() -> list[str]:
    return sorted(p.stem for p in DECK_DIR.glob("*.json"))
