"""What a seat's polls know from the shared cache, so "nothing new" costs no
query: the table and round a seat link leads to, and the play-screen version
of every digital table of a round.

Built on the round's shared cache (:mod:`tournaments.live`: Redis in
production, a file cache on the embedded default, a short copy in each
process). A link's table and round never change for the link, but a link can
be revoked: the round is kept for 10–15 minutes and the table for 60–90 s
(drawn per entry, so a room's phones don't expire together), and both are
forgotten at once when the link is re-issued or its player drops
(:func:`forget_seats`). The table versions
are kept for :data:`tournaments.live.FRESH` seconds and dropped at once by
any save of the round, one of its tables or a seat's bot flag (the receivers
below, connected from the app's config).
"""

from __future__ import annotations

import random
import re
import time

from django.core.cache import cache
from django.db.models.signals import post_delete, post_save

from tournaments import bus, live
from tournaments.models import Round, Seat, Table

#: what a seat link's key can look like (tournaments.play.links: 22 URL-safe
#: characters); anything else never becomes a cache key
_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")


def seat_round(token: str) -> int | None:
    """The round id a seat link's clock shows, as the cache knows it."""
    if not _TOKEN.fullmatch(token):
        return None
    return live.shared_get(f"live:seat:{token}", live.LOCAL_STABLE_SECONDS)


#: seconds a link's table is kept: drawn for each entry between these, so
#: the phones of a room that joined in the same minute do not all go back to
#: the database in the same second a minute later (each phone pays one query
#: about every 75 s, spread evenly). Short: a link whose seating changed
#: without a re-issue (a draft taken back) is checked again within 90 s.
LINK_SECONDS = (60.0, 90.0)
#: the same for a link's round, which never changes for the link (a
#: re-issued link or a dropped player is forgotten at once)
LINK_ROUND_SECONDS = (600.0, 900.0)


def link_seconds(span: tuple[float, float] = LINK_SECONDS) -> float:
    return random.uniform(*span)


def remember_seat_round(token: str, round_id: int) -> None:
    # a link revoked meanwhile is forgotten at once (forget_seats)
    if _TOKEN.fullmatch(token):
        cache.set(f"live:seat:{token}", round_id, link_seconds(LINK_ROUND_SECONDS))


def seat_table(token: str) -> tuple[int, int, str, int] | None:
    """(table id, round id, seat key, player id) of a seat link whose poll
    was answered, as the cache knows it. The seat key (``screen.seat_key``:
    table and position) is compared with the one the polling page shows: a
    page of a seat the link no longer leads to never gets a "nothing new";
    the player is compared with the one the table's seat holds now before a
    new screen is drawn without the link's query."""
    if not _TOKEN.fullmatch(token):
        return None
    known = live.shared_get(f"live:seat-table:{token}", live.LOCAL_STABLE_SECONDS)
    if not isinstance(known, tuple | list) or len(known) != 4:
        return None  # unknown, or an entry of an older form (no seat, no player)
    return tuple(known)


def remember_seat_table(
    token: str, table_id: int, round_id: int, seat: str, player_id: int
) -> None:
    if _TOKEN.fullmatch(token):
        cache.set(f"live:seat-table:{token}", (table_id, round_id, seat, player_id), link_seconds())


def forget_seats(tokens) -> None:
    """Forget what the cache knows of these seat links (re-issued, or their
    player dropped): their next poll is checked against the database."""
    tokens = list(tokens)
    bus.links_revoked(tokens)  # their open streams end
    live.forget([f"live:seat:{t}" for t in tokens] + [f"live:seat-table:{t}" for t in tokens])


def _versions_key(round_id: int) -> str:
    return f"live:table-versions:{round_id}"


def table_version(table_id: int, round_id: int, compute) -> str | None:
    """A digital table's play-screen version. ``compute(round_id)`` gives the
    versions of all the round's digital tables in one query; they are kept
    together for :data:`~tournaments.live.FRESH` seconds (any save of one of
    the round's tables drops them at once), so "nothing new" costs no query
    and the whole round one query a second."""
    key = _versions_key(round_id)
    cached = live.shared_get(key)
    if cached is not None and time.time() - cached[1] < live.FRESH and table_id in cached[0]:
        return cached[0][table_id]
    versions = compute(round_id)
    cache.set(key, (versions, time.time()), live.KEEP)
    live.local_put(key, (versions, time.time()))
    return versions.get(table_id)


# -- invalidation ----------------------------------------------------------------


def _round_saved(sender, instance, **kwargs):
    # a pause or a close changes every digital table's screen
    live.drop(_versions_key(instance.pk))
    bus.round_changed(instance.pk)


def _table_saved(sender, instance, **kwargs):
    if instance.round_id:
        live.drop(_versions_key(instance.round_id))
        if instance.digital:
            bus.table_changed(instance.pk)


def _seat_saved(sender, instance, **kwargs):
    # a seat given to the bot or handed back changes its table's screens
    if kwargs.get("created") or (
        kwargs.get("update_fields") and "bot" not in kwargs["update_fields"]
    ):
        return
    round_id = Table.objects.filter(pk=instance.table_id).values_list("round_id", flat=True).first()
    if round_id is not None:
        live.drop(_versions_key(round_id))
        bus.table_changed(instance.table_id)


def connect() -> None:
    """Called once from the app config: changes saved through the models drop
    the round's table versions."""
    post_save.connect(_seat_saved, sender=Seat, dispatch_uid="play-seat")
    post_save.connect(_round_saved, sender=Round, dispatch_uid="play-round")
    post_delete.connect(_round_saved, sender=Round, dispatch_uid="play-round-del")
    post_save.connect(_table_saved, sender=Table, dispatch_uid="play-table")
    post_delete.connect(_table_saved, sender=Table, dispatch_uid="play-table-del")
