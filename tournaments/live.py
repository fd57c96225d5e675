"""What every viewer of a round sees alike, computed once and served from the
shared cache: the clock status partial that every projector, public round
page and player's phone polls.

An entry holds what the partial needs that the database knows (status,
deadline, time left while stopped, tables done, the public flags that decide
who may see it) and the offset between the database clock and this box's
clock. The countdown itself is computed per request from the deadline and the
server time (``server_ms``), so a cached entry is never "a second behind".

An entry is fresh for :data:`FRESH` seconds; after that one request (the one
that wins a short lock) recomputes it while the others still serve the
previous one, so a thousand phones polling cause about one computation per
second per round. Every clock change deletes the entry at once and again
after its commit (the model signals below and :func:`clock_changed` from the
services' bulk updates), so a start, pause or close shows on the next poll.

The cache is Django's default cache: Redis in production (shared by every
web box), a file cache on the embedded default (shared by every process on
the laptop). Nothing is kept in a process.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime

from django.core.cache import cache
from django.db import transaction
from django.db.models.functions import Now
from django.db.models.signals import post_delete, post_save
from django.dispatch import Signal

from tournaments import bus, providers
from tournaments.clock import from_db
from tournaments.models import Round, Table, Tournament

#: seconds between an open clock's polls. clock.js counts down locally from
#: the deadline, so the poll only has to notice a pause, an extension or the
#: close: 3 s shows those within 3 s (the aim: 2–5 s) at a third of the
#: requests of polling every second; a closed round with open tables polls
#: every CLOSED_POLL_SECONDS, a finished one not at all.
POLL_SECONDS = 3
CLOSED_POLL_SECONDS = 10
#: seconds an entry is served without recomputing (changes delete it at once)
FRESH = 1.0
#: seconds an entry is kept at all (a stale one is served while one recomputes)
KEEP = 120
CLOSED = ("time_called", "complete")


#: seconds a process reuses what it read from the shared cache before asking
#: it again: a thousand polls a second then cost each process a few cache
#: reads a second. A change made in this process drops its copy at once;
#: other processes see it within this time (plus the poll interval).
LOCAL_SECONDS = 0.25
#: the same for what never changes for a key (a link's table and round)
LOCAL_STABLE_SECONDS = 30.0
_local: dict[str, tuple[float, object]] = {}


def _local_get(key: str):
    hit = _local.get(key)
    if hit is not None and hit[0] > time.monotonic():
        return hit[1]
    return None


def local_put(key: str, value, seconds: float = LOCAL_SECONDS) -> None:
    if len(_local) > 20000:
        _local.clear()
    _local[key] = (time.monotonic() + seconds, value)


def shared_get(key: str, seconds: float = LOCAL_SECONDS):
    value = _local_get(key)
    if value is None:
        value = cache.get(key)
        if value is not None:
            local_put(key, value, seconds)
    return value


def drop(key: str) -> None:
    """Drop an entry here and in the shared cache, now and after the commit."""
    _local.pop(key, None)
    cache.delete(key)

    def again():
        _local.pop(key, None)
        cache.delete(key)

    transaction.on_commit(again)


def forget_local() -> None:
    """Forget this process's copies (tests: each starts from an empty cache)."""
    _local.clear()


def _key(round_id: int) -> str:
    return f"live:clock:{round_id}"


def _round_key(tournament_id: int, number: int) -> str:
    return f"live:round:{tournament_id}:{number}"


# -- the entry ---------------------------------------------------------------------


def _compute(round_id: int) -> dict | None:
    rnd = (
        Round.objects.select_related("tournament")
        .only(
            "pk",
            "number",
            "status",
            "published",
            "minutes",
            "deadline",
            "remaining_seconds",
            "tournament__id",
            "tournament__public",
        )
        # the database's clock, the one every deadline is set by
        .annotate(db_time=Now())
        .filter(pk=round_id)
        .first()
    )
    if rnd is None:
        return None
    now = from_db(rnd.db_time)
    if rnd.status == Round.RUNNING and rnd.deadline:
        left = None  # counted per request from the deadline
    elif rnd.status in CLOSED:
        left = 0.0
    elif rnd.remaining_seconds is not None:
        left = float(rnd.remaining_seconds)
    else:
        left = float(rnd.minutes * 60)
    open_tables = []
    total = 0
    for number, status, counted in (
        Table.objects.filter(round_id=round_id)
        .annotate(counted=providers.has_result())
        .order_by("number")
        .values_list("number", "status", "counted")
    ):
        total += 1
        if not (counted or status == Table.DONE):
            open_tables.append(number)
    wall = time.time()
    return {
        "round_id": rnd.pk,
        "tournament_id": rnd.tournament.pk,
        "number": rnd.number,
        "public": rnd.tournament.public,
        "published": rnd.published,
        "status": rnd.status,
        "minutes": rnd.minutes,
        "closed": rnd.status in CLOSED,
        "deadline_ms": int(rnd.deadline.timestamp() * 1000) if rnd.deadline else None,
        "left": left,
        "tables_total": total,
        "tables_done": total - len(open_tables),
        "open_tables": open_tables,
        # the database clock minus this box's clock (ms): server_ms per request
        "offset_ms": now.timestamp() * 1000 - wall * 1000,
        "computed": wall,
    }


def clock_entry(round_id: int) -> dict | None:
    """The round's cached entry (None: no such round). Queries only when the
    entry is missing, or stale and this request won the recompute lock."""
    key = _key(round_id)
    entry = shared_get(key)
    if entry is not None:
        if time.time() - entry["computed"] < FRESH:
            return entry
        if not cache.add(key + ":lock", 1, timeout=5):
            return entry  # another request is recomputing: serve this one meanwhile
    entry = _compute(round_id)
    if entry is None:
        cache.delete_many([key, key + ":lock"])
        return None
    cache.set(key, entry, KEEP)
    local_put(key, entry)
    cache.set(_round_key(entry["tournament_id"], entry["number"]), round_id, KEEP)
    cache.delete(key + ":lock")
    return entry


def clock_entry_now(round_id: int) -> dict | None:
    """The round's entry read from the database now, and kept for the polls:
    what a push sends after a change, which a copy kept in this process
    (up to LOCAL_SECONDS old) may predate."""
    entry = _compute(round_id)
    key = _key(round_id)
    if entry is None:
        forget([key])
        return None
    cache.set(key, entry, KEEP)
    local_put(key, entry)
    cache.set(_round_key(entry["tournament_id"], entry["number"]), round_id, KEEP)
    return entry


def round_id_of(tournament_id: int, number: int) -> int | None:
    """The round id of a tournament's round number as the cache knows it
    (None: not known yet — the caller asks the database)."""
    if not (0 < tournament_id < 2**31 and 0 < number < 2**15):  # no such round: ask nobody
        return None
    return shared_get(_round_key(tournament_id, number), LOCAL_STABLE_SECONDS)


def forget(keys) -> None:
    """Forget these entries here and in the shared cache (now only)."""
    keys = list(keys)
    if keys:
        cache.delete_many(keys)
        for key in keys:
            _local.pop(key, None)


#: the counts the last five minutes are said with ("1 minute left" … "5 minutes left")
MINUTE_COUNTS = (1, 2, 3, 4, 5)


def clock_context(entry: dict) -> dict:
    """The status partial's context at this moment, from an entry."""
    now_ms = time.time() * 1000 + entry["offset_ms"]
    left = entry["left"]
    if left is None:
        left = max(0.0, (entry["deadline_ms"] - now_ms) / 1000)
    seconds = int(-(-left // 1))
    running = entry["status"] == "running"
    return {
        "status": entry["status"],
        "number": entry["number"],
        "closed": entry["closed"],
        # every table has its result and the round is over ("Round 4 ended"),
        # at its deadline or before it
        "ended": entry["status"] == "complete",
        "deadline_ms": entry["deadline_ms"] if entry["deadline_ms"] is not None else "",
        "server_ms": int(now_ms),
        "server_time": datetime.fromtimestamp(now_ms / 1000, UTC),
        "left": left,
        "left_text": format_seconds(seconds),
        # "5 minutes left" only makes sense in a round that had more than 5
        "five_ok": entry.get("minutes", 0) > 5,
        "five_minutes": running and 0 < left <= 300 and entry.get("minutes", 0) > 5,
        # the minutes left as the time shows them, rounded up: "3 minutes
        # left" at 2:54, "5" at 4:01 (the browser counts them down itself)
        "minutes_left": min(5, max(1, -(-seconds // 60))),
        "minute_counts": MINUTE_COUNTS,
        "tables_total": entry["tables_total"],
        "tables_done": entry["tables_done"],
        "open_tables": entry["open_tables"],
        # nothing left to wait for: the poll stops (htmx status 286)
        "finished": entry["status"] == "complete" or (entry["closed"] and not entry["open_tables"]),
        "poll_seconds": CLOSED_POLL_SECONDS if entry["closed"] else POLL_SECONDS,
    }


def format_seconds(seconds: int) -> str:
    h, rest = divmod(max(0, seconds), 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


# -- invalidation ----------------------------------------------------------------


#: sent with ``round_id`` whenever a round's clock or tables changed (the
#: mirror wing publishes the change: ``tournaments.mirror.dirty``)
round_changed = Signal()


def clock_changed(round_id: int) -> None:
    """The round's clock or its tables changed: drop the entry now and again
    after the commit (a poll between the two may have cached the old rows);
    the live screens of the round hear of it after the commit."""
    drop(_key(round_id))
    round_changed.send(sender=None, round_id=round_id)
    bus.round_changed(round_id)


def _round_saved(sender, instance, **kwargs):
    clock_changed(instance.pk)


def _table_saved(sender, instance, **kwargs):
    if not instance.round_id:
        return
    if set(kwargs.get("update_fields") or ()) == {"state"}:
        # a move: the round's entry holds no table's state, so it stays (a
        # game's end marks its table done and calls clock_changed itself);
        # the table's own screens hear of it from the seat wing's receiver.
        # At 100 moves a second a drop here had every clock poll of the
        # round read the database again.
        return
    clock_changed(instance.round_id)


def _tournament_saved(sender, instance, **kwargs):
    # its public flag decides who sees the rounds' clocks
    if kwargs.get("created"):
        return
    for round_id in Round.objects.filter(tournament_id=instance.pk).values_list("pk", flat=True):
        clock_changed(round_id)


def connect() -> None:
    """Called once from the app config: changes saved through the models drop
    the entries; bulk updates call :func:`clock_changed` themselves."""
    post_save.connect(_round_saved, sender=Round, dispatch_uid="live-round")
    post_delete.connect(_round_saved, sender=Round, dispatch_uid="live-round-del")
    post_save.connect(_table_saved, sender=Table, dispatch_uid="live-table")
    post_delete.connect(_table_saved, sender=Table, dispatch_uid="live-table-del")
    post_save.connect(_tournament_saved, sender=Tournament, dispatch_uid="live-tournament")
