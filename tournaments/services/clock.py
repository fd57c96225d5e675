"""The round clock: activations, the derived deadline, the close, and the
check every before-time write makes."""

from __future__ import annotations

from datetime import UTC, datetime

from django.db import connection
from django.utils.translation import gettext as _

from tournaments.models import Round, Table
from tournaments.services import ServiceError


class TimeIsUp(ServiceError):
    """A write that must happen before time arrived after the deadline."""


def db_now() -> datetime:
    """The database clock, aware (one clock for every web process and worker).
    PostgreSQL: ``clock_timestamp()`` — the real time, also inside a long
    transaction; SQLite: the same process's clock, to the millisecond."""
    if connection.vendor == "postgresql":
        sql = "SELECT clock_timestamp()"
    else:
        sql = "SELECT strftime('%Y-%m-%d %H:%M:%f', 'now')"
    with connection.cursor() as cursor:
        cursor.execute(sql)
        (value,) = cursor.fetchone()
    if isinstance(value, str):
        value = datetime.fromisoformat(value).replace(tzinfo=UTC)
    return value


def lock_before_time(table: Table) -> Table:
    """Inside a transaction: lock the table's round and the table, and refuse
    with :class:`TimeIsUp` unless the round is running and the database clock
    is before the table's deadline (its own extension, else the round's).
    Returns the locked table."""
    rnd = Round.objects.select_for_update().get(pk=table.round_id)
    locked = Table.objects.select_for_update().get(pk=table.pk)
    deadline = locked.deadline or rnd.deadline
    if rnd.status != Round.RUNNING or deadline is None:
        raise TimeIsUp(_("The round is not running."))
    if db_now() >= deadline:
        raise TimeIsUp(_("Time is up for table %(table)s.") % {"table": locked.number})
    return locked
