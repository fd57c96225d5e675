"""Altruismus: see ``engine.py`` for the rules summary and the rulings."""

from games.altruismus.engine import (
    SYMBOLS,
    AltruismusEngine,
    card_number,
    colour_bonus,
    load_deck,
    load_deck_file,
    score_collection,
    validate_deck,
)

ENGINE = AltruismusEngine()

__all__ = [
    "ENGINE",
    "SYMBOLS",
    "AltruismusEngine",
    "card_number",
    "colour_bonus",
    "load_deck",
    "load_deck_file",
    "score_collection",
    "validate_deck",
]
