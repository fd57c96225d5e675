"""Quartett tournament: see ``engine.py`` for the rules and rulings and
``deck.py`` for the deck format."""

from games.quartett.bots import SmartBot
from games.quartett.deck import load_deck, parse_deck, shipped_decks, year_to_ngz
from games.quartett.engine import QuartettEngine, ranking

ENGINE = QuartettEngine()

__all__ = [
    "ENGINE",
    "QuartettEngine",
    "SmartBot",
    "load_deck",
    "parse_deck",
    "ranking",
    "shipped_decks",
    "year_to_ngz",
]
