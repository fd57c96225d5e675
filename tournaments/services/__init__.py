"""Writes: every change to tournaments and players goes through here.

Keyword-only arguments, one transaction each; a refused change raises
``ServiceError`` with a translated message and changes nothing.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games import ENGINES
from tournaments import limits, live
from tournaments.models import (
    DEFAULT_TIEBREAKS,
    Player,
    PlayerEvent,
    SeatLink,
    Team,
    Tournament,
)
from tournaments.player_import import ImportRow
from tournaments.services.errors import ServiceError
from tournaments.services.seating import reseat_dropped_player


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


def _room_for(tournament: Tournament, adding: int) -> None:
    """Refuse players beyond ``limits.MAX_PLAYERS``; the tournament row is
    locked so two adds at once can't both squeeze past the limit."""
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    message = limits.players_message(tournament.players.count(), adding)
    if message:
        raise ServiceError(message)


def _log(player: Player, kind: str, by) -> None:
    PlayerEvent.objects.create(player=player, kind=kind, by=by if by and by.pk else None)


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
            _log(p, "late_entry", by)
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
        _log(player, "late_entry", by)
    return player


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
        _log(player, "check_in" if checked_in else "check_out", by)
    return player


@transaction.atomic
def player_drop(*, player: Player, by) -> Player:
    player = Player.objects.select_for_update().get(pk=player.pk)
    if not player.dropped:
        player.dropped = True
        player.checked_in = False
        player.save(update_fields=["dropped", "checked_in"])
        _log(player, "drop", by)
        # the player's links answer "you have left" at their next poll
        live.forget_seats(
            list(SeatLink.objects.filter(player=player).values_list("key", flat=True))
        )
        # seated in a round that has not started: the player leaves it (issue 4)
        reseat_dropped_player(player=player, by=by)
    return player


@transaction.atomic
def player_readd(*, player: Player, by) -> Player:
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.dropped:
        player.dropped = False
        player.save(update_fields=["dropped"])
        _log(player, "readd", by)
    return player


@transaction.atomic
def team_register(*, tournament: Tournament, name: str, members: list[Player]) -> Team:
    if not tournament.team_mode:
        raise ServiceError(_("This tournament is not played in teams."))
    if len(members) != 2 or members[0].pk == members[1].pk:
        raise ServiceError(_("A team has two different players."))
    if any(m.tournament_id != tournament.pk for m in members):
        raise ServiceError(_("Both players must be registered in this tournament."))
    taken = [m.name for m in members if m.team_id]
    if taken:
        raise ServiceError(_("Already in a team: %(names)s") % {"names": ", ".join(sorted(taken))})
    if Team.objects.filter(tournament=tournament, name__iexact=name).exists():
        raise ServiceError(_("A team named %(name)s exists already.") % {"name": name})
    team = Team.objects.create(tournament=tournament, name=name)
    Player.objects.filter(pk__in=[m.pk for m in members]).update(team=team)
    return team


@transaction.atomic
def scorekeeper_add(*, tournament: Tournament, username: str):
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise ServiceError(_("No account named %(name)s.") % {"name": username})
    if user.pk == tournament.owner_id:
        raise ServiceError(_("The organizer can already do everything a scorekeeper can."))
    tournament.scorekeepers.add(user)
    return user


@transaction.atomic
def scorekeeper_remove(*, tournament: Tournament, user_id: int) -> None:
    tournament.scorekeepers.remove(user_id)


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
    author = by if by and by.pk else None
    PlayerEvent.objects.bulk_create(
        PlayerEvent(player=p, kind="check_in", by=author) for p in chosen
    )
    return len(chosen)
