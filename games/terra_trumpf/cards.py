"""Terra Trumpf card lists: the deck file format, ``parse_deck`` and ``load_deck``.

A deck is JSON (shipped decks live in ``games/terra_trumpf/decks/<name>.json``;
an organiser may pass the same structure as ``options["deck"]``)::

    {"name": "Tiere (fictional)",
     "sets": [                                   # physical card sets, in order
       {"name": "Land & Fresh Water",
        "categories": [                          # animal categories of the set
          {"key": "bigcats",                     # unique in the deck; used in
                                                 # actions ("alpha:bigcats")
           "label": "Big cats",                  # shown to players
           "cards": [                            # exactly 5 cards
             {"id": "TT-bigcats-1",              # unique in the deck
              "name": "Marsh Lion",
              "value": 2850},                    # the "Wert": an integer >= 0
             ...]},
          ...]},
       ...]}

Rules checked by ``parse_deck`` (each failure raises ``DeckError`` saying what
and where): the top level is an object with a non-empty "name" and a non-empty
list "sets"; every set has a "name" and a non-empty list "categories"; every
category has a "key" (letters, digits, ``_`` and ``-``), a "label" and exactly
5 cards; every card has a non-empty string "id", a string "name" and an integer
"value" (not a bool, not a float) of at least 0; category keys and card ids are
unique in the whole deck, and a card id may not equal any category key, label
or card name (views carry those strings next to card ids). Whether the deck has
enough categories for a player count is checked when a game is set up
(``categories_needed``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from games.base import DeckError

DECK_DIR = Path(__file__).parent / "decks"
CARDS_PER_CATEGORY = 5
CATEGORIES_PER_PLAYER = 3
_KEY_RE = re.compile(r"^[A-Za-z0-9_-]+$")


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    value: int
    category: str
    set_index: int


@dataclass(frozen=True)
class Category:
    key: str
    label: str
    set_index: int
    cards: tuple[Card, ...]

    @property
    def total(self) -> int:
        return sum(c.value for c in self.cards)


@dataclass(frozen=True)
class CardSet:
    name: str
    categories: tuple[Category, ...]


@dataclass(frozen=True)
class Deck:
    name: str
    sets: tuple[CardSet, ...]

    @property
    def categories(self) -> dict[str, Category]:
        return {c.key: c for s in self.sets for c in s.categories}

    @property
    def category_count(self) -> int:
        return sum(len(s.categories) for s in self.sets)


def shipped_decks() -> list[str]:
    """Names of the deck files shipped with the game."""
    return sorted(p.stem for p in DECK_DIR.glob("*.json"))


def categories_needed(players: int) -> int:
    return CATEGORIES_PER_PLAYER * players


def _text(value, where: str, what: str, *, empty_ok: bool = False) -> str:
    if not isinstance(value, str) or (not empty_ok and not value.strip()):
        raise DeckError(f"{where}: {what} must be a non-empty text")
    return value


def parse_deck(data) -> Deck:
    """Validate a deck in the documented format; raises ``DeckError``."""
    if not isinstance(data, dict):
        raise DeckError("a deck must be an object with 'name' and 'sets'")
    name = _text(data.get("name"), "deck", "'name'")
    sets = data.get("sets")
    if not isinstance(sets, list) or not sets:
        raise DeckError("deck: 'sets' must be a non-empty list of card sets")
    keys: set[str] = set()
    ids: set[str] = set()
    words: set[str] = set()  # category keys, labels and card names
    out_sets = []
    for si, raw_set in enumerate(sets):
        where = f"set {si + 1}"
        if not isinstance(raw_set, dict):
            raise DeckError(f"{where}: must be an object with 'name' and 'categories'")
        set_name = _text(raw_set.get("name"), where, "'name'")
        cats = raw_set.get("categories")
        if not isinstance(cats, list) or not cats:
            raise DeckError(f"{where} ({set_name}): 'categories' must be a non-empty list")
        out_cats = []
        for ci, raw_cat in enumerate(cats):
            cwhere = f"{where}, category {ci + 1}"
            if not isinstance(raw_cat, dict):
                raise DeckError(f"{cwhere}: must be an object with 'key', 'label' and 'cards'")
            key = raw_cat.get("key")
            if not isinstance(key, str) or not _KEY_RE.match(key):
                raise DeckError(
                    f"{cwhere}: 'key' must be a non-empty text of letters, digits, '_' or '-'"
                )
            cwhere = f"category {key!r}"
            if key in keys:
                raise DeckError(f"{cwhere}: the key is used twice in the deck")
            keys.add(key)
            label = _text(raw_cat.get("label"), cwhere, "'label'")
            words.update((key, label))
            cards = raw_cat.get("cards")
            if not isinstance(cards, list) or len(cards) != CARDS_PER_CATEGORY:
                got = len(cards) if isinstance(cards, list) else "no list of"
                raise DeckError(
                    f"{cwhere}: needs exactly {CARDS_PER_CATEGORY} cards, has {got} cards"
                )
            out_cards = []
            for ki, raw in enumerate(cards):
                kwhere = f"{cwhere}, card {ki + 1}"
                if not isinstance(raw, dict):
                    raise DeckError(f"{kwhere}: must be an object with 'id', 'name' and 'value'")
                cid = _text(raw.get("id"), kwhere, "'id'")
                kwhere = f"{cwhere}, card {cid!r}"
                if cid in ids:
                    raise DeckError(f"{kwhere}: duplicate card id")
                ids.add(cid)
                cname = _text(raw.get("name"), kwhere, "'name'")
                words.add(cname)
                value = raw.get("value")
                if isinstance(value, bool) or not isinstance(value, int):
                    raise DeckError(f"{kwhere}: 'value' must be a whole number, not {value!r}")
                if value < 0:
                    raise DeckError(f"{kwhere}: 'value' must not be negative")
                out_cards.append(Card(cid, cname, value, key, si))
            out_cats.append(Category(key, label, si, tuple(out_cards)))
        out_sets.append(CardSet(set_name, tuple(out_cats)))
    clash = sorted(ids & words)
    if clash:
        raise DeckError(
            f"card id(s) {clash[:5]} equal a category key, label or card name; "
            f"use distinctive ids such as 'TT-<category>-1'"
        )
    return Deck(name, tuple(out_sets))


@lru_cache(maxsize=16)
def _load_shipped(name: str) -> Deck:
    path = DECK_DIR / f"{name}.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise DeckError(f"deck file {path.name} is not valid JSON: {exc}") from None
    return parse_deck(data)


def load_deck(deck) -> Deck:
    """A shipped deck by name, or a deck given as data (see ``parse_deck``)."""
    if isinstance(deck, Deck):
        return deck
    if isinstance(deck, str):
        if deck not in shipped_decks():
            raise DeckError(f"unknown deck {deck!r}; shipped decks: {', '.join(shipped_decks())}")
        return _load_shipped(deck)
    if isinstance(deck, dict):
        return parse_deck(deck)
    raise DeckError("options['deck'] must be a shipped deck name or a deck object")
