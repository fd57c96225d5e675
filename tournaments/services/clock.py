"""The round clock's mechanics: activations, the derived deadline, the
check every before-time write makes, and the problems the clock met on its own.

The database is the truth: every activation is a row (who, when by the
database clock), the deadline derived from them (``tournaments.clock``) is
stored on the round (and on a table with its own extension). The round's
transitions that use them — start, pause, more time, time called (one
compare-and-set ``UPDATE`` — "running and deadline <= now" → time called —
whose winner alone runs the side effects), the end — are
``tournaments.services.round_life``. Celery only wakes the close up: a task
scheduled for the deadline (re-scheduled whenever it moves; a stale one finds
nothing to do) and a beat sweep every second (``round_life.sweep``) that
closes whatever is overdue, e.g. after a worker died holding the scheduled task.
"""

from __future__ import annotations

import logging
import math
from datetime import UTC, datetime

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments import clock as pure
from tournaments.authors import author
from tournaments.models import MAX_ROUND_MINUTES, ClockActivation, Round, Table
from tournaments.services import deadlines
from tournaments.services.deadlines import (  # noqa: F401 - the clock's primitives, re-exported
    TimeIsUp,
    db_now,
    lock_before_time,
    playing_deadline,
)
from tournaments.services.errors import ServiceError

log = logging.getLogger(__name__)

#: rounds closed or tables closed by these wake-up calls (ClockActivation.reason)
VIA_TASK, VIA_SWEEP = "task", "sweep"


# -- activations ---------------------------------------------------------------


def _derive(rnd: Round) -> pure.Clock:
    acts = [
        pure.Activation(kind=a.kind, at=a.at, seconds=a.seconds, table=a.table_id)
        for a in rnd.activations.order_by("at", "pk")
    ]
    return pure.derive(acts, rnd.minutes * 60)


def locked_round(rnd: Round) -> Round:
    return Round.objects.select_for_update().select_related("tournament").get(pk=rnd.pk)


def activate(
    rnd: Round, kind: str, *, by, seconds: float = 0, table: Table | None = None, reason: str = ""
) -> pure.Clock:
    """Append one activation to the locked round ``rnd`` and store the
    deadlines derived from all of them; schedule the closes on commit."""
    now = db_now()
    if rnd.status == Round.RUNNING and rnd.deadline is not None and rnd.deadline <= now:
        raise TimeIsUp(_("Time is up: the round is being closed."))
    before = _derive(rnd)
    try:
        clock = pure.step(
            before,
            pure.Activation(kind=kind, at=now, seconds=seconds, table=table.pk if table else None),
        )
    except pure.ClockError:
        raise ServiceError(
            _("The clock can't do that now (the round is %(status)s).")
            % {"status": rnd.get_status_display()}
        ) from None
    ClockActivation.objects.create(
        round=rnd,
        table=table,
        kind=kind,
        seconds=int(seconds),
        reason=reason,
        by=author(by),
        at=now,
    )
    _store(rnd, clock)
    return clock


def stored_round(status: str, clock: pure.Clock) -> dict:
    """A round's clock fields as stored after ``clock`` (the one definition:
    the activations' writes and the import's check). ``status``: the
    round's status before (a complete round stays complete)."""
    return {
        "status": status if status == Round.COMPLETE else clock.status,
        "deadline": clock.deadline if clock.status in (pure.RUNNING, pure.TIME_CALLED) else None,
        "remaining_seconds": clock.remaining if clock.status != pure.RUNNING else None,
    }


def stored_table(clock: pure.Clock, table) -> dict:
    """A table's clock fields as stored after ``clock`` (``table``: its key
    in the activations; a table without an extension keeps its defaults)."""
    return {
        "extra_seconds": int(clock.table_extra.get(table, 0)),
        "deadline": clock.table_deadline(table),
    }


def _store(rnd: Round, clock: pure.Clock) -> None:
    for name, value in stored_round(rnd.status, clock).items():
        setattr(rnd, name, value)
    rnd.save(update_fields=["status", "deadline", "remaining_seconds"])
    scheduled = []
    for table in rnd.tables.filter(pk__in=list(clock.table_extra)):
        for name, value in stored_table(clock, table.pk).items():
            setattr(table, name, value)
        table.save(update_fields=["extra_seconds", "deadline"])
        if table.deadline is not None and table.time_called_at is None:
            scheduled.append((table.pk, table.deadline))
    if rnd.status == Round.RUNNING:
        deadline = rnd.deadline
        transaction.on_commit(lambda: deadlines.schedule("clock.close_round", rnd.pk, deadline))
    for table_id, deadline in scheduled:
        transaction.on_commit(
            lambda t=table_id, d=deadline: deadlines.schedule("clock.close_table", t, d)
        )


#: the longest extension at once (seconds)
MAX_EXTENSION = 12 * 3600


def extension_seconds(minutes=None, seconds=None) -> int:
    """An extension in whole seconds (activations store whole seconds), 1 s
    to 12 h; else a :class:`ServiceError` that says why (the extensions'
    writes and the import's check of a clock log)."""
    value = seconds if seconds is not None else (minutes or 0) * 60
    if not value or value <= 0:
        raise ServiceError(_("Give a positive number of minutes."))
    if value > MAX_EXTENSION:
        raise ServiceError(_("An extension can be at most 12 hours."))
    return math.ceil(value)


def start_seconds(seconds) -> int:
    """A round's length at its start in whole seconds: some time, at most
    the longest round; else a :class:`ServiceError`."""
    length = math.ceil(seconds)
    if length <= 0:
        raise ServiceError(_("A round needs some time."))
    if length > MAX_ROUND_MINUTES * 60:
        raise ServiceError(_("Between 1 and %(max)s minutes.") % {"max": MAX_ROUND_MINUTES})
    return length


# -- problems the clock met on its own (shown on the round page) ---------------

#: ``Round.clock_problem["code"]``: what the clock could not do by itself
START_FAILED, CLOSE_FAILED, TABLE_CLOSE_FAILED, FINISH_FAILED = (
    "start_failed",
    "close_failed",
    "table_close_failed",
    "finish_failed",
)


def problem_text(rnd: Round) -> str:
    """The clock's problem on this round in the reader's language ("" if none)."""
    problem = rnd.clock_problem or {}
    texts = {
        START_FAILED: _(
            "The scheduled start of this round failed and was cancelled: %(detail)s "
            "Fix the cause, then start the round by hand or schedule it again."
        ),
        CLOSE_FAILED: _(
            "The clock could not close this round at its deadline: %(detail)s "
            "It keeps trying every second; results can still be entered."
        ),
        TABLE_CLOSE_FAILED: _(
            "The clock could not call time at a table with extra time: %(detail)s "
            "It keeps trying every second."
        ),
        FINISH_FAILED: _(
            "A digital table could not be finished after time: %(detail)s "
            "It keeps trying every second."
        ),
    }
    text = texts.get(problem.get("code"))
    return text % {"detail": problem.get("detail", "")} if text else ""


def _detail(exc: BaseException) -> str:
    if isinstance(exc, ServiceError):
        return str(exc)[:300]
    return f"{type(exc).__name__}: {exc}"[:300]


def mark_problem(round_id: int, code: str, exc: BaseException, *, cancel_start=False) -> None:
    """Record on the round why the clock failed (its own transaction; the
    failed work was rolled back). Never raises: marking is best effort."""
    try:
        with transaction.atomic():
            fields = {
                "clock_problem": {
                    "code": code,
                    "at": datetime.now(UTC).isoformat(timespec="seconds"),
                    "detail": _detail(exc),
                }
            }
            if cancel_start:
                fields["starts_at"] = None
            Round.objects.filter(pk=round_id).update(**fields)
    except Exception:
        log.exception("could not mark the clock problem of round %s", round_id)


def clear_problem(round_id: int) -> None:
    try:
        Round.objects.filter(pk=round_id, clock_problem__has_key="code").update(clock_problem={})
    except Exception:
        log.exception("could not clear the clock problem of round %s", round_id)


def guarded(round_id: int, code: str, work, *args, **kwargs):
    """Run one round's clock work on its own: an exception is logged and marked
    on that round (``code``) and answers False, so the caller (the sweep, a
    task) goes on with the others. The work runs in its own transaction
    (a savepoint inside an outer one), so a failure changes nothing."""
    try:
        with transaction.atomic():
            done = work(*args, **kwargs)
    except Exception as exc:
        log.exception("clock: %s for round %s failed", code, round_id)
        mark_problem(round_id, code, exc)
        return False
    if done:
        clear_problem(round_id)
    return done


def round_of_table(table_id: int) -> int | None:
    return Table.objects.filter(pk=table_id).values_list("round_id", flat=True).first()
