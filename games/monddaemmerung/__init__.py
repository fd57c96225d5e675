"""Monddämmerung: ``RULES.md`` for the rules, ``engine.py`` for how they are
played and the finer rulings, ``deck.py`` for the deck file format,
``sheet.py`` for paper sheets."""

from games.monddaemmerung.bots import SmartBot
from games.monddaemmerung.deck import Card, Deck, load_deck, parse_deck
from games.monddaemmerung.engine import MonddaemmerungEngine

ENGINE = MonddaemmerungEngine()

__all__ = ["ENGINE", "Card", "Deck", "MonddaemmerungEngine", "SmartBot", "load_deck", "parse_deck"]
