"""Terra Trumpf, "all against all / team against team"; see ``engine.py``."""

from games.terra_trumpf.bots import SmartBot
from games.terra_trumpf.cards import Deck, load_deck, parse_deck, shipped_decks
from games.terra_trumpf.engine import MixedSetsError, TerraTrumpf, team_list

ENGINE = TerraTrumpf()

__all__ = [
    "ENGINE",
    "Deck",
    "MixedSetsError",
    "SmartBot",
    "TerraTrumpf",
    "load_deck",
    "parse_deck",
    "shipped_decks",
    "team_list",
]
