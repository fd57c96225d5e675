"""Writes for a tournament itself: creating one with a game's defaults."""

from __future__ import annotations

from django.db import transaction

from games import ENGINES
from tournaments import limits
from tournaments.models import DEFAULT_TIEBREAKS, Tournament
from tournaments.services.errors import ServiceError


def game_defaults(game: str) -> dict:
    """Sensible tournament settings for a game: tables of 4 where the game
    allows it, one size either side allowed, the game's default options."""
    engine = ENGINES[game]
    lo, hi = engine.min_players, engine.max_players
    preferred = min(max(4, lo), hi)
    allowed = list(range(max(lo, preferred - 1), min(hi, preferred + 1) + 1))
    return {
        "table_size": preferred,
        "allowed_sizes": allowed,
        "game_options": engine.default_options(),
        "tiebreaks": list(DEFAULT_TIEBREAKS),
        "points_scheme": "placement",
    }


@transaction.atomic
def tournament_create(*, owner, name: str, game: str, **fields) -> Tournament:
    full = limits.tournaments_message(Tournament.objects.filter(owner=owner).count())
    if full:
        raise ServiceError(full)
    values = game_defaults(game)
    values.update({k: v for k, v in fields.items() if v is not None})
    tournament = Tournament(owner=owner, name=name, game=game, **values)
    tournament.full_clean()
    tournament.save()
    return tournament
