"""Trumpet: trick-taking race to the Great Hall. See ``engine.py`` for the rules."""

from games.trumpet.engine import (
    Trumpet,
    card_info,
    cards_of,
    led_colour,
    load_board,
    load_deck,
    trick_winner,
    validate_board,
    validate_deck,
)

ENGINE = Trumpet()

__all__ = [
    "ENGINE",
    "Trumpet",
    "card_info",
    "cards_of",
    "led_colour",
    "load_board",
    "load_deck",
    "trick_winner",
    "validate_board",
    "validate_deck",
]
