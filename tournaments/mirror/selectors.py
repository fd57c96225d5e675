"""The mirror's reads: the entries the online site offers a laptop, the
publishing state the organizer's overview shows, the keys of an account."""

from __future__ import annotations

from django.utils import timezone

from tournaments.mirror.models import (
    MirroredTournament,
    MirrorLink,
    MirrorPublication,
    PublishingKey,
)
from tournaments.models import Player, Tournament
from tournaments.registrations import selectors as registration_selectors
from tournaments.registrations.models import Registration

CONFIRMED, WAITLISTED, WITHDRAWN = "confirmed", "waitlisted", "withdrawn"


def entries_for_laptop(tournament: Tournament) -> list[dict]:
    """The tournament's entries for a laptop: its registrations (confirmed,
    waitlisted, withdrawn, in order of arrival, keyed by the registration's
    public key), then every player the organizer added by hand, "confirmed"
    while active and "withdrawn" once dropped; a ``key`` stays the same."""
    entries = registration_selectors.entries_for_laptop(tournament)
    registered = Registration.objects.filter(tournament_id=tournament.pk, player__isnull=False)
    players = (
        Player.objects.filter(tournament=tournament)
        .exclude(pk__in=registered.values("player_id"))
        .order_by("pk")
    )
    entries += [
        {
            "key": f"p{p.pk}",
            "name": p.name,
            "club": p.club,
            "birth_year": p.birth_year,
            "rating": p.rating,
            "status": WITHDRAWN if p.dropped else CONFIRMED,
            "position": i,
        }
        for i, p in enumerate(players, len(entries) + 1)
    ]
    return entries


def tournaments_for_laptop(user) -> list[dict]:
    """The tournaments a laptop may fetch entries from: the account's own,
    not archived, not themselves mirrored from a laptop."""
    rows = (
        Tournament.objects.filter(owner=user, archived_at=None, mirrored_from=None)
        .order_by("-pk")
        .values("pk", "name")[:200]
    )
    return [{"id": r["pk"], "name": r["name"]} for r in rows]


def is_mirrored(tournament: Tournament) -> bool:
    return MirroredTournament.objects.filter(tournament=tournament).exists()


def keys_of(user) -> list[PublishingKey]:
    return list(PublishingKey.objects.filter(user=user))


def link_of(user) -> MirrorLink | None:
    return MirrorLink.objects.filter(owner=user).first()


def status(tournament: Tournament) -> dict | None:
    """What the overview says about publishing this tournament, or None when
    it isn't published: "online: published 8 s ago", or "offline since 14:02
    — 23 changes waiting" with the last error in words."""
    pub = MirrorPublication.objects.filter(tournament=tournament).select_related("link").first()
    if pub is None or (not pub.active and pub.published_at is None):
        return None  # never published (registrations fetched only)
    now = timezone.now()
    ago = int((now - pub.published_at).total_seconds()) if pub.published_at else None
    if not pub.active:
        state = "stopped"
    elif pub.offline_since is not None:
        state = "offline"
    elif pub.published_at is None:
        state = "starting"
    else:
        state = "online"
    return {
        "state": state,
        "ago": ago,
        "offline_since": pub.offline_since,
        "waiting": pub.waiting,
        "last_error": pub.last_error,
        "online_url": pub.online_url,
        "site_url": pub.link.site_url,
        "publication": pub,
    }
