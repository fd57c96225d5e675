"""Writes for a tournament's players: registering (one by one or imported),
removing, checking in and out, dropping and re-adding. Each change a player
goes through after registration is logged as a ``PlayerEvent``."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournaments import limits, signals
from tournaments.authors import author
from tournaments.models import Player, PlayerEvent, Tournament
from tournaments.player_import import ImportRow
from tournaments.services.errors import ServiceError
from tournaments.services.seating import reseat_dropped_player


def _room_for(tournament: Tournament, adding: int) -> None:
    """Refuse players beyond ``limits.MAX_PLAYERS``; the tournament row is
    locked so two adds at once can't both squeeze past the limit."""
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    message = limits.players_message(tournament.players.count(), adding)
    if message:
        raise ServiceError(message)


def _log(player: Player, kind: str, by) -> None:
    PlayerEvent.objects.create(player=player, kind=kind, by=author(by))


@transaction.atomic
def players_import(*, tournament: Tournament, rows: list[ImportRow], by) -> list[Player]:
    """Save an import that ``parse_players`` found valid, all or nothing."""
    _room_for(tournament, len(rows))
    late = _next_round(tournament)
    players = [
        Player(
            tournament=tournament,
            name=r.name,
            club=r.club,
            rating=r.rating,
            birth_year=r.birth_year,
            first_round=late,
        )
        for r in rows
    ]
    try:
        with transaction.atomic():
            created = Player.objects.bulk_create(players)
    except IntegrityError:
        raise ServiceError(_("Some of these players were registered meanwhile.")) from None
    if late > 1:
        for p in Player.objects.filter(tournament=tournament, first_round=late):
            _log(p, PlayerEvent.LATE_ENTRY, by)
    return created


def _duplicate_message(player: Player) -> str:
    if player.club:
        return _("%(name)s of %(club)s is already registered.") % {
            "name": player.name,
            "club": player.club,
        }
    return _("%(name)s is already registered.") % {"name": player.name}


def _next_round(tournament: Tournament) -> int:
    last = tournament.round_set.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


@transaction.atomic
def player_add(*, tournament: Tournament, by, **fields) -> Player:
    """Register one player; after round 1 has been seated it is a late entry."""
    _room_for(tournament, 1)
    player = Player(tournament=tournament, first_round=_next_round(tournament), **fields)
    try:
        player.full_clean()
    except ValidationError as exc:
        raise ServiceError(" ".join(exc.messages)) from None
    try:
        with transaction.atomic():
            player.save()
    except IntegrityError:
        raise ServiceError(_duplicate_message(player)) from None
    if player.late_entry:
        _log(player, PlayerEvent.LATE_ENTRY, by)
    return player


@transaction.atomic
def players_rating_confirm(*, tournament: Tournament, player_ids: list[int] | None, by) -> int:
    """The organizer confirms the ratings players typed themselves (those of
    ``player_ids``, or all with None): from now on they break ties and seed
    round 1 by rating. Returns how many were confirmed."""
    players = tournament.players.select_for_update().filter(
        rating__isnull=False, rating_confirmed=False
    )
    if player_ids is not None:
        players = players.filter(pk__in=player_ids)
    confirmed = list(players.only("pk", "tournament_id"))
    for player in confirmed:  # saved one by one: the standings' listeners hear of it
        player.rating_confirmed = True
        player.save(update_fields=["rating_confirmed"])
    return len(confirmed)


@transaction.atomic
def player_remove(*, player: Player, by) -> None:
    if player.tournament.has_started:
        raise ServiceError(
            _("%(name)s has played in this tournament and can only be dropped, not removed.")
            % {"name": player.name}
        )
    player.delete()


@transaction.atomic
def player_set_checked_in(*, player: Player, checked_in: bool, by) -> Player:
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.dropped and checked_in:
        raise ServiceError(
            _("%(name)s has dropped out and must be re-added first.") % {"name": player.name}
        )
    if player.checked_in != checked_in:
        player.checked_in = checked_in
        player.save(update_fields=["checked_in"])
        _log(player, PlayerEvent.CHECK_IN if checked_in else PlayerEvent.CHECK_OUT, by)
    return player


@transaction.atomic
def player_drop(*, player: Player, by) -> Player:
    player = Player.objects.select_for_update().get(pk=player.pk)
    if not player.dropped:
        player.dropped = True
        player.checked_in = False
        player.save(update_fields=["dropped", "checked_in"])
        _log(player, PlayerEvent.DROP, by)
        # the player's links answer "you have left" at their next poll
        signals.player_dropped.send(sender=Player, player=player)
        # seated in a round that has not started: the player leaves it
        reseat_dropped_player(player=player, by=by)
    return player


@transaction.atomic
def player_readd(*, player: Player, by) -> Player:
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.dropped:
        player.dropped = False
        player.save(update_fields=["dropped"])
        _log(player, PlayerEvent.READD, by)
    return player


@transaction.atomic
def players_check_in(*, tournament: Tournament, player_ids=None, by) -> int:
    """Check in many players at once at the door: those of ``player_ids``, or
    everyone not yet checked in when it is None. Dropped players stay out.
    Returns how many were checked in now."""
    players = tournament.players.select_for_update().filter(checked_in=False, dropped=False)
    if player_ids is not None:
        players = players.filter(pk__in=list(player_ids))
    chosen = list(players)
    if not chosen:
        return 0
    Player.objects.filter(pk__in=[p.pk for p in chosen]).update(checked_in=True)
    PlayerEvent.objects.bulk_create(
        PlayerEvent(player=p, kind=PlayerEvent.CHECK_IN, by=author(by)) for p in chosen
    )
    return len(chosen)
