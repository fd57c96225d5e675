"""Rules engines of the five games. Pure Python: no Django import here.

    from games import ENGINES, get_engine
    engine = get_engine("quartett")

See ``games/base.py`` for the interface (its names are binding) and
``games/RULES.md`` for the rules each engine plays.
"""

from __future__ import annotations

import importlib

from games.base import (  # noqa: F401 - the package's public names
    REGISTRY,
    DeckError,
    Engine,
    IllegalAction,
    Problem,
    Record,
    SheetError,
    TableResult,
)

GAME_IDS = ("quartett", "terra_trumpf", "trumpet", "monddaemmerung", "altruismus")


def _load_engines() -> dict[str, Engine]:
    return {game_id: importlib.import_module(f"games.{game_id}").ENGINE for game_id in GAME_IDS}


#: the engines by id (the same dict as ``games.base.REGISTRY``)
ENGINES: dict[str, Engine] = REGISTRY
ENGINES.update(_load_engines())


def get_engine(game_id: str) -> Engine:
    try:
        return ENGINES[game_id]
    except KeyError:
        raise KeyError(f"unknown game {game_id!r}; known: {', '.join(ENGINES)}") from None
