"""Reads of the registration wing: the public page, a personal link, the
organizer's list with its log, and the entries the laptop fetches."""

from __future__ import annotations

import re

from django.db.models import Count, Q

from tournaments import roster
from tournaments.collation import sort_by_name
from tournaments.models import Player, PlayerEvent, Round, Tournament
from tournaments.registrations import rules
from tournaments.registrations.models import (
    Announcement,
    Registration,
    RegistrationEvent,
    token_hash,
)
from tournaments.roster_models import Person

_TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,64}")

#: the statuses the laptop knows: no-shows and rejections count as withdrawn
_LAPTOP_STATUS = {
    Registration.CONFIRMED: "confirmed",
    Registration.WAITLISTED: "waitlisted",
}


def announcement_of(tournament: Tournament) -> Announcement | None:
    return Announcement.objects.filter(tournament_id=tournament.pk).first()


def counts(tournament: Tournament, announcement: Announcement) -> dict:
    """Confirmed, waiting and the places left."""
    row = Registration.objects.filter(tournament_id=tournament.pk).aggregate(
        confirmed=Count("pk", filter=Q(status=Registration.CONFIRMED)),
        waiting=Count("pk", filter=Q(status=Registration.WAITLISTED)),
    )
    return row | {"left": rules.places_left(announcement.cap, row["confirmed"])}


def public_names(tournament: Tournament, announcement: Announcement) -> list[dict]:
    """Who is registered, as the public may see it: only with the
    organizer's setting, and only those who agreed."""
    if not announcement.public_names:
        return []
    return list(
        Registration.objects.filter(
            tournament_id=tournament.pk, status=Registration.CONFIRMED, consent_public=True
        )
        .order_by("position")
        .values("name", "club")
    )


def by_token(token: str) -> Registration | None:
    """The registration a personal link's token belongs to, or None (a
    damaged, forged or replaced link)."""
    if not _TOKEN_SHAPE.fullmatch(token or ""):
        return None
    return (
        Registration.objects.select_related("tournament", "player", "tournament__announcement")
        .filter(token_hash=token_hash(token))
        .first()
    )


def waiting_place(reg: Registration) -> int | None:
    """The registration's place on the waitlist (1: next to move up)."""
    if reg.status != Registration.WAITLISTED:
        return None
    return (
        Registration.objects.filter(
            tournament_id=reg.tournament_id,
            status=Registration.WAITLISTED,
            position__lt=reg.position,
        ).count()
        + 1
    )


def may_leave_now(reg: Registration) -> bool:
    """The tournament has begun and the player is in it: "leave" is offered."""
    return (
        reg.player is not None
        and not reg.player.dropped
        and Round.objects.filter(tournament_id=reg.tournament_id).exists()
    )


def organizer_list(tournament: Tournament) -> list[dict]:
    """Every registration in order, with its log and, for one not linked to
    the roster, the roster's people of the same name after folding as a hint."""
    regs = list(
        Registration.objects.filter(tournament_id=tournament.pk)
        .select_related("player", "person", "twin")
        .order_by("position")
    )
    events: dict = {}
    for e in RegistrationEvent.objects.filter(
        registration__tournament_id=tournament.pk
    ).select_related("by"):
        events.setdefault(e.registration_id, []).append(e)
    # a roster person of the same name after folding ("Juergen Gross" for
    # "Jürgen Groß"), found by a dict: the list stays linear in its length
    similar: dict = {}
    for name, club in Person.objects.filter(
        owner_id=tournament.owner_id, merged_into__isnull=True
    ).values_list("name", "club"):
        similar.setdefault(roster.folded(name), []).append(f"{name} ({club})" if club else name)
    rows, waiting = [], 0
    for reg in regs:
        if reg.status == Registration.WAITLISTED:
            waiting += 1
        near = similar.get(reg.name_key, [])[:3] if reg.person_id is None else []
        rows.append(
            {
                "reg": reg,
                "waiting_place": waiting if reg.status == Registration.WAITLISTED else None,
                "events": events.get(reg.pk, []),
                "near": near,
            }
        )
    return rows


def left_by_themselves(tournament: Tournament) -> list[dict]:
    """Players who left through their link since the last round was seated
    (the organizer's next step names them)."""
    last = Round.objects.filter(tournament_id=tournament.pk).order_by("-number").first()
    events = PlayerEvent.objects.filter(
        player__tournament_id=tournament.pk, kind=PlayerEvent.DROP, by__isnull=True, imported_by=""
    )
    if last is not None:
        events = events.filter(at__gte=last.created_at)
    return [
        {"name": e.player.name, "club": e.player.club, "at": e.at}
        for e in events.select_related("player").order_by("at")
        if e.player.dropped
    ]


def entries_for_laptop(tournament: Tournament) -> list[dict]:
    """The registrations as plain JSON-safe data, in order of arrival, for
    the laptop to fetch: a stable public key (never the link's secret),
    the entry and its status (no-shows and rejections as "withdrawn")."""
    return [
        {
            "key": key,
            "name": name,
            "club": club,
            "birth_year": birth_year,
            "rating": rating,
            "status": _LAPTOP_STATUS.get(status, "withdrawn"),
            "position": position,
        }
        for key, name, club, birth_year, rating, status, position in Registration.objects.filter(
            tournament_id=tournament.pk
        )
        .order_by("position")
        .values_list("key", "name", "club", "birth_year", "rating", "status", "position")
    ]


def no_show_players(tournament: Tournament):
    """The players closing check-in drops: not checked in, not dropped."""
    return Player.objects.filter(tournament_id=tournament.pk, checked_in=False, dropped=False)


def no_shows(tournament: Tournament) -> list[Player]:
    """Who closing check-in would drop, in order of name."""
    return sort_by_name(no_show_players(tournament), lambda p: p.name)
