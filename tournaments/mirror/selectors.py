"""The mirror's reads: the entries the online site offers a laptop, the
publishing state the organizer's overview shows, the keys of an account, and
a tournament's public season tables (the laptop's, computed; the online
site's, as the laptop published them)."""

from __future__ import annotations

from django.db.models import Count, F, Max, Q, Sum
from django.utils import timezone

from scoring.models import Submission
from scoring.season import selectors as season_selectors
from scoring.season.models import Series
from tournaments.mirror import snapshot
from tournaments.mirror.models import (
    MirroredTournament,
    MirrorLink,
    MirrorPublication,
    PublishingKey,
)
from tournaments.models import Bye, ClockActivation, Player, Round, Seat, Table, Tournament
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


SEASON = "season"


def _series_of(tournament: Tournament):
    return Series.objects.filter(tournaments=tournament, public=True).order_by("created_at", "pk")


def season_table(series: Series) -> dict:
    """A series' public season standings as plain data (the shape
    ``snapshot.check_seasons`` describes): what its public season page shows."""
    rows, tournaments = season_selectors.series_standings(series)
    index = {t.pk: i for i, t in enumerate(tournaments)}
    table = []
    for row in rows:
        cells = [None] * len(tournaments)
        for result in row.results:
            cells[index[result.event]] = {
                "points": snapshot.season_points(result.points),
                "counted": bool(result.counted),
            }
        table.append(
            {
                "place": row.place,
                "shared": bool(row.shared),
                "name": row.person.name,
                "club": row.person.club,
                "total": snapshot.season_points(row.total),
                "played": row.played,
                "cells": cells,
            }
        )
    return {
        "name": series.name,
        "best": series.best,
        "minimum": series.minimum,
        "tournaments": [t.name for t in tournaments],
        "rows": table,
    }


def tournament_seasons(tournament: Tournament) -> list[dict]:
    """The public season tables of the series ``tournament`` belongs to (only
    for a public tournament): on the online site the ones its laptop
    published with it, elsewhere computed from the series here."""
    mirror = MirroredTournament.objects.filter(tournament=tournament).first()
    if mirror is not None:
        stored = mirror.stored.filter(name=SEASON).values_list("content", flat=True).first()
        return stored or []
    if not tournament.public:
        return []
    return [season_table(series) for series in _series_of(tournament)]


def has_seasons(tournament: Tournament) -> bool:
    """Whether the tournament's public pages have a season page."""
    mirror = MirroredTournament.objects.filter(tournament=tournament).first()
    if mirror is not None:
        return mirror.stored.filter(name=SEASON).exists()
    return tournament.public and _series_of(tournament).exists()


def season_pages(seasons: list[dict]) -> list[dict]:
    """Season tables in the shape of the season standings' table template."""
    return [
        {
            "series": {"name": s["name"], "best": s["best"], "minimum": s["minimum"]},
            "tournaments": [{"name": name} for name in s["tournaments"]],
            "table": [
                {
                    "row": {**row, "ranked": row["place"] is not None, "person": row},
                    "cells": row["cells"],
                }
                for row in s["rows"]
            ],
        }
        for s in seasons
    ]


def completed_round_versions(tournament: Tournament) -> dict[int, tuple]:
    """Each completed round's content version (round number → a tuple that
    changes whenever anything in the round's public sections can have
    changed: the round's fields, its tables, who sits where, its results
    and their confirmations, its clock, its byes). A handful of grouped
    queries, whatever the tournament's size."""
    rounds = {
        r["id"]: r
        for r in Round.objects.filter(tournament=tournament, status=Round.COMPLETE).values()
    }
    if not rounds:
        return {}
    ids = list(rounds)

    def grouped(queryset, field: str, **figures) -> dict:
        rows = queryset.values(field).annotate(**figures).order_by(field)
        return {row.pop(field): tuple(sorted(row.items())) for row in rows}

    tables = grouped(
        Table.objects.filter(round_id__in=ids),
        "round_id",
        n=Count("pk"),
        done=Count("pk", filter=Q(status=Table.DONE)),
        extra=Sum("extra_seconds"),
        deadline=Max("deadline"),
        called=Max("time_called_at"),
        last=Max("pk"),
    )
    seats = grouped(
        Seat.objects.filter(table__round_id__in=ids),
        "table__round_id",
        n=Count("pk"),
        who=Sum(F("player_id") * (F("position") + 1)),
        where=Sum(F("player_id") * F("table_id")),
        bots=Count("pk", filter=Q(bot=True) | Q(bot_played=True)),
    )
    results = grouped(
        Submission.objects.filter(table__round_id__in=ids),
        "table__round_id",
        n=Count("pk"),
        last=Max("pk"),
        counted=Count("pk", filter=Q(status=Submission.CONFIRMED)),
        which=Sum("pk", filter=Q(status=Submission.CONFIRMED)),
    )
    clock = grouped(
        ClockActivation.objects.filter(round_id__in=ids), "round_id", n=Count("pk"), last=Max("pk")
    )
    byes = grouped(
        Bye.objects.filter(round_id__in=ids), "round_id", n=Count("pk"), who=Sum("player_id")
    )
    return {
        r["number"]: (
            tuple(sorted((k, str(v)) for k, v in r.items())),
            tables.get(pk),
            seats.get(pk),
            results.get(pk),
            clock.get(pk),
            byes.get(pk),
        )
        for pk, r in rounds.items()
    }
