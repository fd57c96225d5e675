"""Reads: the queries the pages show, one place each."""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from tournaments.models import Player, Tournament


def public_tournaments(limit: int = 50) -> QuerySet[Tournament]:
    return Tournament.objects.filter(public=True)[:limit]


def tournaments_of(user) -> QuerySet[Tournament]:
    """The tournaments a user organizes or keeps score in, with player counts."""
    return (
        Tournament.objects.filter(Q(owner=user) | Q(scorekeepers=user))
        .distinct()
        .annotate(player_count=Count("players", distinct=True))
    )


def player_counts(tournament: Tournament) -> dict:
    return tournament.players.aggregate(
        total=Count("pk"),
        checked_in=Count("pk", filter=Q(checked_in=True, dropped=False)),
        dropped=Count("pk", filter=Q(dropped=True)),
    )


def players_of(tournament: Tournament, *, active_only: bool = False) -> QuerySet[Player]:
    players = tournament.players.select_related("team").order_by("name", "club")
    return players.filter(dropped=False) if active_only else players


def registered_names(tournament: Tournament) -> set[tuple[str, str]]:
    """(name, club) of every registered player, for the import's duplicate check."""
    return set(tournament.players.values_list("name", "club"))
