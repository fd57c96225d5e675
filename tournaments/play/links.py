"""A player's seat link: issued, re-issued and resolved to the player's seat.

A seat link belongs to ONE player in ONE round, for good: its token is a
random key stored in a :class:`~tournaments.play.models.SeatLink` row bound to that
player and round — never to a table position, which a re-seat can change. The
seat is looked up from the player and round whenever the link is used, so a
drop, a swap or a move that renumbers positions can never hand one player's
cards or vote to another. Re-issuing a link revokes the old key at once (who
and when stay on its row). Tokens of the old format (``<table>.<seat>:<sig>``)
match no key and are refused with a clear page.
"""

from __future__ import annotations

import re
import secrets
from dataclasses import dataclass

from django.db import IntegrityError, transaction
from django.db.models import Subquery
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.authors import author
from tournaments.models import Player, Round, Seat
from tournaments.play import poll_cache
from tournaments.play.models import SeatLink
from tournaments.prepared import PreparedQuery
from tournaments.services.errors import ServiceError

#: random bytes of a seat key (16 → 22 URL-safe characters, 128 bits)
KEY_BYTES = 16
_KEY_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,40}")


# -- seat links: issue -----------------------------------------------------------


def _new_key() -> str:
    return secrets.token_urlsafe(KEY_BYTES)


def seat_keys(round_id: int, player_ids, *, by=None) -> dict[int, str]:
    """The active seat key of each player in the round, issuing the missing
    ones (race-safe: one active key per player and round is a constraint)."""
    wanted = set(player_ids)
    if not wanted:
        return {}
    keys = dict(
        SeatLink.objects.filter(
            round_id=round_id, player_id__in=wanted, revoked_at__isnull=True
        ).values_list("player_id", "key")
    )
    missing = wanted - keys.keys()
    if missing:
        SeatLink.objects.bulk_create(
            [
                SeatLink(round_id=round_id, player_id=pid, key=_new_key(), issued_by=author(by))
                for pid in sorted(missing)
            ],
            ignore_conflicts=True,
        )
        keys.update(
            SeatLink.objects.filter(
                round_id=round_id, player_id__in=missing, revoked_at__isnull=True
            ).values_list("player_id", "key")
        )
    return keys


def seat_token(seat: Seat) -> str:
    """The token of a seat's player in that round (issued when needed)."""
    round_id = seat.table.round_id
    return seat_keys(round_id, [seat.player_id])[seat.player_id]


@transaction.atomic
def seat_link_reissue(*, round: Round, player: Player, by) -> SeatLink:  # noqa: A002
    """A new link for one player in one round; the old one stops working at
    once (its row keeps who revoked it and when)."""
    rnd = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    if player.tournament_id != rnd.tournament_id:
        raise ServiceError(_("This player is not in this tournament."))
    if not (
        Seat.objects.filter(table__round=rnd, player=player).exists()
        or SeatLink.objects.filter(round=rnd, player=player).exists()
    ):
        raise ServiceError(
            _("%(name)s has no seat in round %(n)s.") % {"name": player.name, "n": rnd.number}
        )
    now = timezone.now()
    old = SeatLink.objects.filter(round=rnd, player=player, revoked_at__isnull=True)
    poll_cache.forget_seats(old.values_list("key", flat=True))
    old.update(revoked_at=now, revoked_by=author(by))
    try:
        with transaction.atomic():
            return SeatLink.objects.create(
                round=rnd, player=player, key=_new_key(), issued_by=author(by)
            )
    except IntegrityError:  # pragma: no cover - a key collision of 128 random bits
        raise ServiceError(_("The link could not be issued; try again.")) from None


# -- seat links: resolve ---------------------------------------------------------

OK = "ok"
INVALID = "invalid"  # damaged, unknown or of the old format
REPLACED = "replaced"  # re-issued: this key was revoked
LEFT = "left"  # the player has dropped out
NOT_PUBLISHED = "not_published"  # the round's seating is still a draft
NOT_SEATED = "not_seated"  # the player has no seat in that round (now)
ARCHIVED = "archived"  # the tournament is archived


@dataclass(frozen=True)
class SeatAccess:
    """What a seat token leads to: ``state`` says whether the link may act
    (``OK``); ``seat`` is the player's seat in the round when there is one."""

    state: str
    link: SeatLink | None = None
    seat: Seat | None = None

    @property
    def ok(self) -> bool:
        return self.state == OK


def _seat_of_link(token: str):
    """The seat a link's player has in the link's round, with the player,
    table, round and tournament and the link's revocation, in one query: the
    link's player and round as subqueries on its key — a join through the
    link cost PostgreSQL ~4 ms to plan each time, this under 1 ms."""
    link = SeatLink.objects.filter(key=token)
    return (
        Seat.objects.select_related("player", "table__round__tournament")
        .filter(
            player_id=Subquery(link.values("player_id")[:1]),
            table__round_id=Subquery(link.values("round_id")[:1]),
        )
        .annotate(link_revoked_at=Subquery(link.values("revoked_at")[:1]))
        .order_by()[:1]
    )


#: compiled once per process: every phone's poll and move asks it
_SEAT_OF_LINK = PreparedQuery(_seat_of_link, kinds=(str,))


def resolve_seat(token: str) -> SeatAccess:
    """The player's own seat for a seat token, and whether it may act."""
    if not _KEY_SHAPE.fullmatch(token or ""):  # also keeps NUL & co. from the database
        return SeatAccess(INVALID)
    # the usual case in one query (every phone polls)
    found = _SEAT_OF_LINK(token)
    seat = found[0] if found else None
    if (
        seat is not None
        and seat.link_revoked_at is None
        and not seat.player.dropped
        and seat.table.round.published
        and seat.table.round.tournament.archived_at is None
    ):
        return SeatAccess(OK, None, seat)
    link = SeatLink.objects.select_related("player", "round__tournament").filter(key=token).first()
    if link is None:
        return SeatAccess(INVALID)
    if link.revoked_at is not None:
        return SeatAccess(REPLACED, link)
    tournament = link.round.tournament
    if tournament.archived_at is not None:
        return SeatAccess(ARCHIVED, link)
    if link.player.dropped:
        return SeatAccess(LEFT, link)
    if seat is None:
        return SeatAccess(NOT_SEATED, link)
    if not link.round.published:
        return SeatAccess(NOT_PUBLISHED, link, seat)
    return SeatAccess(OK, link, seat)


def seats_now(tokens) -> dict[str, tuple[int, int]]:
    """Where each of these seat links leads now, ``token → (table id,
    position)``, for the links that may act (as :func:`resolve_seat` says
    ``OK``); a link that can't (revoked, the player left, the seating taken
    back to a draft, no seat, archived) is missing. Two queries however many
    links: what an open stream checks before each redraw."""
    tokens = [t for t in set(tokens) if _KEY_SHAPE.fullmatch(t or "")]
    if not tokens:
        return {}
    rows = SeatLink.objects.filter(
        key__in=tokens,
        revoked_at__isnull=True,
        player__dropped=False,
        round__published=True,
        round__tournament__archived_at__isnull=True,
    ).values_list("key", "player_id", "round_id")
    by_player = {(player, rnd): key for key, player, rnd in rows}
    if not by_player:
        return {}
    seats = Seat.objects.filter(
        player_id__in={p for p, _r in by_player},
        table__round_id__in={r for _p, r in by_player},
    ).values_list("player_id", "table__round_id", "table_id", "position")
    out = {}
    for player, rnd, table, position in seats:
        key = by_player.get((player, rnd))
        if key is not None:
            out[key] = (table, position)
    return out


# -- the link's path -------------------------------------------------------------


def seat_path(key: str) -> str:
    return reverse("seat_link", args=[key])
