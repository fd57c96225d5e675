"""Writes: every change to tournaments and players goes through the modules
of this package.

Keyword-only arguments, one transaction each; a refused change raises
``ServiceError`` with a translated message and changes nothing.

The functions most callers need are re-exported here, so
``from tournaments import services; services.player_add(...)`` keeps working;
they live in ``tournaments.py``, ``players.py``, ``teams.py`` and
``scorekeepers.py`` beside ``seating.py``, ``clock.py``, ``tables.py`` and the
others.
"""

from __future__ import annotations

from tournaments.services.errors import ServiceError
from tournaments.services.players import (
    player_add,
    player_drop,
    player_readd,
    player_remove,
    player_set_checked_in,
    players_check_in,
    players_import,
)
from tournaments.services.scorekeepers import (
    invite_accept,
    invite_check,
    invite_create,
    invite_revoke,
    scorekeeper_add,
    scorekeeper_remove,
)
from tournaments.services.teams import team_register
from tournaments.services.tournaments import game_defaults, tournament_create

__all__ = [
    "ServiceError",
    "game_defaults",
    "invite_accept",
    "invite_check",
    "invite_create",
    "invite_revoke",
    "player_add",
    "player_drop",
    "player_readd",
    "player_remove",
    "player_set_checked_in",
    "players_check_in",
    "players_import",
    "scorekeeper_add",
    "scorekeeper_remove",
    "team_register",
    "tournament_create",
]
