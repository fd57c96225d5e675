"""The round clock as pure data: the deadline derived from the append-only
activations (no Django import; ``tournaments.services.clock`` loads, calls
and stores).

An activation is ``(kind, at, seconds, table)``:

- ``start``: the clock starts; ``seconds`` is the round's length;
- ``pause`` / ``resume``: the clock stops / goes on;
- ``extend``: ``seconds`` more for the whole round (``table`` None) or for one
  table only (``table`` = its id), while seated, running or paused;
- ``time_called``: the round (``table`` None) or one table was closed.

While the clock runs, the deadline is the last start/resume plus the time
left then; while it is stopped, only the time left counts. A table's own
deadline is the round's plus the table's extensions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

#: the clock's states (a round's statuses, besides "complete")
SEATED, RUNNING, PAUSED, TIME_CALLED = "seated", "running", "paused", "time_called"
#: the kinds of activation (the one list; ``ClockActivation`` labels them)
START, PAUSE, RESUME, EXTEND = "start", "pause", "resume", "extend"
KINDS = (START, PAUSE, RESUME, EXTEND, TIME_CALLED)


@dataclass(frozen=True)
class Activation:
    kind: str
    at: datetime
    seconds: float = 0
    table: int | None = None


@dataclass
class Clock:
    status: str = SEATED
    #: when the round's time is up (only while running)
    deadline: datetime | None = None
    #: the time left (while seated or paused; while running: at ``since``)
    remaining: float = 0.0
    #: when the clock last started or resumed (while running)
    since: datetime | None = None
    #: extra seconds per table id
    table_extra: dict[int, float] = field(default_factory=dict)
    time_called_at: datetime | None = None
    #: round extensions given before the start (added at the start)
    early_extra: float = 0.0

    def table_deadline(self, table: int) -> datetime | None:
        """The table's own deadline, or None when it has no extension (or the
        clock is not running)."""
        extra = self.table_extra.get(table, 0)
        if not extra or self.deadline is None:
            return None
        return self.deadline + timedelta(seconds=extra)

    def left(self, now: datetime) -> float:
        """Seconds left at ``now`` (never negative)."""
        if self.status == RUNNING and self.deadline is not None:
            return max(0.0, (self.deadline - now).total_seconds())
        if self.status == TIME_CALLED:
            return 0.0
        return max(0.0, self.remaining)


def from_db(value: datetime | str) -> datetime:
    """A time as the database hands it back, aware — the one place its text
    is parsed: PostgreSQL gives an aware datetime; SQLite gives text in UTC
    (``Now()``, ``strftime``), read here as UTC."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    return value if value.tzinfo else value.replace(tzinfo=UTC)


class ClockError(ValueError):
    """An activation that the clock's state does not allow."""


def derive(activations: list[Activation], length_seconds: float = 0) -> Clock:
    """The clock after ``activations`` (in order). ``length_seconds`` is the
    time shown before the start (the start activation carries the real one)."""
    c = Clock(remaining=float(length_seconds))
    for a in activations:
        c = step(c, a)
    return c


def step(c: Clock, a: Activation) -> Clock:
    """The clock after one more activation; ``ClockError`` if it can't apply."""
    c = Clock(
        status=c.status,
        deadline=c.deadline,
        remaining=c.remaining,
        since=c.since,
        table_extra=dict(c.table_extra),
        time_called_at=c.time_called_at,
        early_extra=c.early_extra,
    )
    kind = a.kind
    if kind == TIME_CALLED:
        if a.table is None:
            if c.status == RUNNING:
                c.remaining = max(0.0, (c.deadline - a.at).total_seconds())
            c.status, c.time_called_at, c.since = TIME_CALLED, a.at, None
        return c
    if c.status == TIME_CALLED:
        if kind == EXTEND and a.table is not None:
            c.table_extra[a.table] = c.table_extra.get(a.table, 0) + a.seconds
            return c
        raise ClockError("time has been called")
    if kind == START:
        if c.status != SEATED:
            raise ClockError("the round has started already")
        c.remaining = float(a.seconds) + c.early_extra
        c.early_extra = 0.0
        c.status, c.since = RUNNING, a.at
        c.deadline = a.at + timedelta(seconds=c.remaining)
    elif kind == PAUSE:
        if c.status != RUNNING:
            raise ClockError("the clock is not running")
        c.remaining = max(0.0, (c.deadline - a.at).total_seconds())
        c.status, c.deadline, c.since = PAUSED, None, None
    elif kind == RESUME:
        if c.status != PAUSED:
            raise ClockError("the clock is not paused")
        c.status, c.since = RUNNING, a.at
        c.deadline = a.at + timedelta(seconds=c.remaining)
    elif kind == EXTEND:
        if a.table is not None:
            c.table_extra[a.table] = c.table_extra.get(a.table, 0) + a.seconds
        elif c.status == RUNNING:
            c.deadline = c.deadline + timedelta(seconds=a.seconds)
            c.remaining = (c.deadline - c.since).total_seconds()
        elif c.status == SEATED:
            c.early_extra += a.seconds
            c.remaining += a.seconds
        else:
            c.remaining += a.seconds
    else:
        raise ClockError(f"unknown activation {kind!r}")
    return c


# -- the close before the clock ran out ------------------------------------------

#: ``ClockActivation.reason`` of a round closed because every table has its
#: result: by the organizer's press, or by itself when the last result came in
#: (the tournament's setting)
EARLY, LAST_RESULT = "early", "last_result"
#: why a round can't be closed that way (reason codes)
NOT_OPEN, DRAFT, NO_TABLES, OPEN_TABLES = "not_open", "draft", "no_tables", "open_tables"


def close_refusal(status: str, *, published: bool, tables: int, open_tables: int) -> str | None:
    """Why a round can't be closed now because every table has its result
    (a reason code), or None when it can: it is seated (its seating
    published: the clock need not have started), running or paused, it has
    tables and none of them lacks its result. A round whose time was called
    completes with its last result anyway."""
    if status not in (SEATED, RUNNING, PAUSED):
        return NOT_OPEN
    if status == SEATED and not published:
        return DRAFT
    if tables <= 0:
        return NO_TABLES
    if open_tables > 0:
        return OPEN_TABLES
    return None
