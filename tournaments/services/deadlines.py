"""The clock's primitives, below everything that writes results or moves:
the database clock, the deadline a table plays to (``table_plays_to``), the
lock every write that must happen before time takes, and the wake-up call to
the clock queue.

Results (``scoring.services``) and digital tables
(``tournaments.play.tables``) use these; the clock itself
(``tournaments.services.clock``: activations, the close, the sweep) sits
above them and calls both.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.conf import settings
from django.db import connection
from django.utils.translation import gettext as _

from tournaments.clock import from_db
from tournaments.models import Round, Table
from tournaments.prepared import PreparedQuery
from tournaments.services.errors import ServiceError

log = logging.getLogger(__name__)


class TimeIsUp(ServiceError):
    """A write that must happen before time arrived after the deadline."""


def db_now() -> datetime:
    """The database clock, aware (one clock for every web process and worker).
    PostgreSQL: ``clock_timestamp()`` — the real time, also inside a long
    transaction; SQLite: the same process's clock, to the millisecond."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {db_now_sql(connection)}", [])
        (value,) = cursor.fetchone()
    return from_db(value)


def db_now_sql(conn) -> str:
    """:func:`db_now`'s clock as an SQL expression, for a statement with
    parameters that reads it beside other figures (its ``%`` doubled;
    ``from_db`` turns its value into a time)."""
    if conn.vendor == "postgresql":
        return "clock_timestamp()"
    return "strftime('%%Y-%%m-%%d %%H:%%M:%%f', 'now')"


def table_plays_to(table: Table, rnd: Round) -> datetime | None:
    """The deadline a table plays to, the one definition: its own (an
    extension for this table) or else its round's; None while neither has
    one (the round's clock has not started, or is paused)."""
    return table.deadline or rnd.deadline


def playing_deadline(table: Table, rnd: Round) -> datetime | None:
    """The deadline a table plays to now (:func:`table_plays_to`) while the
    round runs; after the round's time was called only a table's own later
    deadline; None when the table is not on the clock."""
    if rnd.status == Round.RUNNING:
        return table_plays_to(table, rnd)
    if rnd.status == Round.TIME_CALLED:
        return table.deadline
    return None


def lock_round_shared(round_id: int) -> Round:
    """Inside a transaction: the round, locked against change but not against
    readers that lock it alike (PostgreSQL's FOR SHARE). A move holds this and
    its table's row lock: moves at other tables of the round go on at the same
    time, while a pause, an extension or time called (each an UPDATE of the
    round, which waits for every share) waits for the moves under way and they
    for it. SQLite writes one transaction at a time anyway."""
    found = _ROUND_OF_MOVE(round_id)  # every move reads it: one statement, compiled once
    if not found:
        raise Round.DoesNotExist(f"no round {round_id}")
    return found[0]


_ROUND_OF_MOVE = PreparedQuery(
    lambda round_id: Round.objects.select_related("tournament").filter(pk=round_id),
    share_lock=Round,
)


def lock_before_time(table: Table, rnd: Round | None = None) -> Table:
    """Inside a transaction: lock the table's round and the table, and refuse
    with :class:`TimeIsUp` unless the table is still playing on the clock —
    the round is running (or time was called for the round but this table has
    its own later deadline) — and the database clock is before the table's
    deadline (its own extension, else the round's). Returns the locked table."""
    locked = lock_table(table, rnd)
    check_before_time(locked, locked.round)
    return locked


def lock_table(table: Table, rnd: Round | None = None) -> Table:
    """Inside a transaction: the table's round shared (:func:`lock_round_shared`;
    ``rnd``: the round the caller holds already) and the table exclusively,
    the round set on it. Whether time was called is read under the locks."""
    if rnd is None:
        rnd = lock_round_shared(table.round_id)
    locked = Table.objects.select_for_update().get(pk=table.pk)
    locked.round = rnd
    return locked


def check_before_time(locked: Table, rnd: Round, now: datetime | None = None) -> None:
    """:func:`lock_before_time`'s refusals for a table the caller has locked
    already (with its round held by :func:`lock_round_shared`); ``now``: the
    database clock read under those locks (read here when not given)."""
    if locked.time_called_at is not None:
        raise TimeIsUp(_("Time is up for table %(table)s.") % {"table": locked.number})
    deadline = playing_deadline(locked, rnd)
    if deadline is None:
        raise TimeIsUp(_("The round is not running."))
    if (db_now() if now is None else now) >= deadline:
        raise TimeIsUp(_("Time is up for table %(table)s.") % {"table": locked.number})


def schedule(task: str, object_id: int, eta: datetime | None = None) -> None:
    """Send a wake-up call to the clock queue (after commit). A lost call is
    covered by the sweep, so a broker that is down only logs."""
    from tournaments.celery import app

    try:
        app.send_task(task, args=[object_id], eta=eta, queue=settings.CLOCK_QUEUE)
    except Exception:  # the sweep closes it; the organizer's click must not fail
        log.exception("could not schedule %s(%s) at %s", task, object_id, eta)
