"""The round clock: activations, the derived deadline, the close, and the
check every before-time write makes.

The database is the truth: every activation is a row (who, when by the
database clock), the deadline derived from them (``tournaments.clock``) is
stored on the round (and on a table with its own extension), and the close is
one compare-and-set ``UPDATE`` — "running and deadline <= now" → time called —
whose winner alone runs the side effects. Celery only wakes the close up: a
task scheduled for the deadline (re-scheduled whenever it moves; a stale one
finds nothing to do) and a beat sweep every second (``sweep``) that closes
whatever is overdue, e.g. after a worker died holding the scheduled task.
"""

from __future__ import annotations

import logging
import math
from datetime import UTC, datetime

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.services import round_close_when_done, round_complete_if_done
from tournaments import clock as pure
from tournaments import live
from tournaments.authors import author
from tournaments.models import MAX_ROUND_MINUTES, ClockActivation, Round, Table
from tournaments.play import tables as table_services
from tournaments.selectors import earlier_open_round, missing_results
from tournaments.services import deadlines
from tournaments.services.deadlines import (  # noqa: F401 - the clock's primitives, re-exported
    TimeIsUp,
    db_now,
    lock_before_time,
    playing_deadline,
)
from tournaments.services.errors import ServiceError
from tournaments.services.seating import seating_publish

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


def _locked_round(rnd: Round) -> Round:
    return Round.objects.select_for_update().select_related("tournament").get(pk=rnd.pk)


def _activate(
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


@transaction.atomic
def round_start(*, round: Round, by, seconds: float | None = None) -> Round:  # noqa: A002
    """Start the clock (``seconds``: the round's length, default its minutes).
    A seating still in draft is published; digital tables deal their game."""
    rnd = _locked_round(round)
    if rnd.status != Round.SEATED:
        raise ServiceError(_("Round %(n)s has started already.") % {"n": rnd.number})
    if not rnd.tables.exists():
        raise ServiceError(_("Round %(n)s has no tables.") % {"n": rnd.number})
    blocker = start_blocker(rnd)
    if blocker:
        raise ServiceError(blocker)
    if not rnd.published:
        rnd = seating_publish(round=rnd, by=by)
    length = start_seconds(rnd.minutes * 60 if seconds is None else seconds)
    _activate(rnd, ClockActivation.START, by=by, seconds=length)
    table_services.tables_deal(round=rnd)
    return rnd


def start_blocker(rnd: Round) -> str:
    """Why ``rnd`` can't start now ("" when it can): an earlier round has not
    ended, and the tournament does not run rounds side by side."""
    if rnd.tournament.rounds_side_by_side:
        return ""
    earlier = earlier_open_round(rnd)
    if earlier is None:
        return ""
    missing = len(missing_results(earlier))
    params = {"n": earlier.number, "m": rnd.number, "missing": missing}
    if missing:
        text = ngettext(
            "Round %(n)s is still running (%(missing)s table without a result): round "
            "%(m)s can start once it has ended. To run rounds side by side, switch that "
            "on in the tournament's settings.",
            "Round %(n)s is still running (%(missing)s tables without a result): round "
            "%(m)s can start once it has ended. To run rounds side by side, switch that "
            "on in the tournament's settings.",
            missing,
        )
    else:
        text = _(
            "Round %(n)s has not ended yet, although every table has its result: end it "
            "on its page first (“End round %(n)s”), then start round %(m)s."
        )
    return text % params


@transaction.atomic
def round_close(*, round: Round, by) -> Round:  # noqa: A002
    """End the round now because every table has its result (one press),
    whether its clock runs, is paused or never started. The clock's
    compare-and-set close, logged with who and when; the round is complete.
    Refused with the reason while a table has no result, for a draft seating,
    and once the round's time was called (it completes with its last result)."""
    rnd = _locked_round(round)
    refusal = round_close_when_done(round_id=rnd.pk, by=by, via=pure.EARLY)
    if refusal == pure.OPEN_TABLES:
        numbers = missing_results(rnd)
        shown = ", ".join(str(n) for n in numbers[:20]) + (" …" if len(numbers) > 20 else "")
        raise ServiceError(
            ngettext(
                "Table %(tables)s has no result yet: round %(n)s can end once every "
                "table has its result.",
                "Tables %(tables)s have no result yet: round %(n)s can end once every "
                "table has its result.",
                len(numbers),
            )
            % {"tables": shown, "n": rnd.number}
        )
    if refusal == pure.DRAFT:
        raise ServiceError(
            _("The seating of round %(n)s is a draft: publish it first.") % {"n": rnd.number}
        )
    if refusal == pure.NO_TABLES:
        raise ServiceError(_("Round %(n)s has no tables.") % {"n": rnd.number})
    if refusal is not None and rnd.status == Round.TIME_CALLED:
        raise ServiceError(
            _("Time has been called in round %(n)s: it ends by itself with its last result.")
            % {"n": rnd.number}
        )
    if refusal is not None:
        raise ServiceError(_("Round %(n)s has ended already.") % {"n": rnd.number})
    rnd.refresh_from_db()
    return rnd


@transaction.atomic
def round_pause(*, round: Round, by) -> Round:  # noqa: A002
    rnd = _locked_round(round)
    if rnd.status != Round.RUNNING:
        raise ServiceError(_("The clock is not running."))
    _activate(rnd, ClockActivation.PAUSE, by=by)
    return rnd


@transaction.atomic
def round_resume(*, round: Round, by) -> Round:  # noqa: A002
    rnd = _locked_round(round)
    if rnd.status != Round.PAUSED:
        raise ServiceError(_("The clock is not paused."))
    _activate(rnd, ClockActivation.RESUME, by=by)
    return rnd


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


@transaction.atomic
def round_extend(*, round: Round, by, minutes: float | None = None, seconds=None) -> Round:  # noqa: A002
    """More time for the whole round (seated, running or paused)."""
    value = extension_seconds(minutes, seconds)
    rnd = _locked_round(round)
    if rnd.status not in (Round.SEATED, Round.RUNNING, Round.PAUSED):
        raise ServiceError(_("Time has been called: the round can't be extended."))
    _activate(rnd, ClockActivation.EXTEND, by=by, seconds=value)
    return rnd


@transaction.atomic
def table_extend(
    *, table: Table, by, minutes: float | None = None, seconds=None, reason: str = ""
) -> Table:
    """More time for one table only (a judge call, a late start): it gets its
    own deadline, later than the round's, and is closed then."""
    value = extension_seconds(minutes, seconds)
    rnd = _locked_round(table.round)
    locked = Table.objects.select_for_update().get(pk=table.pk)
    if rnd.status == Round.COMPLETE or locked.time_called_at is not None:
        raise ServiceError(
            _("Time has been called at table %(table)s already.") % {"table": locked.number}
        )
    now = db_now()
    if locked.deadline is not None and locked.deadline <= now:
        raise TimeIsUp(_("Time is up for table %(table)s.") % {"table": locked.number})
    _activate(rnd, ClockActivation.EXTEND, by=by, seconds=value, table=locked, reason=reason[:200])
    locked.refresh_from_db()
    return locked


@transaction.atomic
def round_schedule_start(*, round: Round, at: datetime | None, by) -> Round:  # noqa: A002
    """Start the round by itself at ``at`` (None: no scheduled start)."""
    rnd = _locked_round(round)
    if rnd.status != Round.SEATED:
        raise ServiceError(_("Round %(n)s has started already.") % {"n": rnd.number})
    if at is not None and at <= db_now():
        raise ServiceError(_("Choose a start time in the future."))
    rnd.starts_at = at
    rnd.save(update_fields=["starts_at"])
    if at is not None:
        transaction.on_commit(lambda: deadlines.schedule("clock.start_round", rnd.pk, at))
    return rnd


def start_due_round(round_id: int) -> bool:
    """Start a round whose scheduled start has come (task and sweep).

    Any failure — a refusal (:class:`ServiceError`) or anything else, e.g. a
    deck the engine can't deal — cancels the scheduled start, is logged and
    marked on the round (:data:`START_FAILED`) for the organizer to see, and
    never reaches the caller: the sweep goes on with every other round."""
    try:
        with transaction.atomic():
            rnd = Round.objects.select_for_update().filter(pk=round_id).first()
            if rnd is None or rnd.status != Round.SEATED or rnd.starts_at is None:
                return False
            if rnd.starts_at > db_now():
                return False
            round_start(round=rnd, by=None)
    except Exception as exc:  # one round's failure must not stop the others
        log.exception("scheduled start of round %s failed", round_id)
        _mark_problem(round_id, START_FAILED, exc, cancel_start=True)
        return False
    _clear_problem(round_id)
    return True


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


def _mark_problem(round_id: int, code: str, exc: BaseException, *, cancel_start=False) -> None:
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


def _clear_problem(round_id: int) -> None:
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
        _mark_problem(round_id, code, exc)
        return False
    if done:
        _clear_problem(round_id)
    return done


# -- the close -------------------------------------------------------------------


def close_round(round_id: int, *, via: str = "") -> bool:
    """Time called for the round if it is running and its deadline has passed:
    one compare-and-set ``UPDATE``; only the caller that wins it runs the side
    effects (True). Tables with their own later deadline play on."""
    with transaction.atomic():
        now = db_now()
        won = Round.objects.filter(pk=round_id, status=Round.RUNNING, deadline__lte=now).update(
            status=Round.TIME_CALLED, time_called_at=now, remaining_seconds=0
        )
        if not won:
            return False
        live.clock_changed(round_id)
        rnd = Round.objects.select_related("tournament").get(pk=round_id)
        ClockActivation.objects.create(
            round=rnd, kind=ClockActivation.TIME_CALLED, at=now, reason=via
        )
        due = list(
            rnd.tables.select_for_update()
            .filter(time_called_at__isnull=True)
            .exclude(deadline__gt=now)
            .order_by("number")
        )
        Table.objects.filter(pk__in=[t.pk for t in due]).update(time_called_at=now)
        for table in due:
            table.time_called_at = now
            table.round = rnd
            _table_time_called(table)
        # every table may have finished before time
        # robust: a failure there is logged and must not undo or hide the close
        transaction.on_commit(lambda: round_complete_if_done(round_id=round_id), robust=True)
    log.info("round %s closed (%s), late by %s", round_id, via, now - rnd.deadline)
    return True


def close_table(table_id: int, *, via: str = "") -> bool:
    """Time called for a table with its own (extended) deadline, once the round
    is closed and that deadline has passed: the same compare-and-set."""
    with transaction.atomic():
        now = db_now()
        won = Table.objects.filter(
            pk=table_id,
            time_called_at__isnull=True,
            deadline__lte=now,
            round__status__in=[Round.TIME_CALLED, Round.COMPLETE],
        ).update(time_called_at=now)
        if not won:
            return False
        table = (
            Table.objects.select_for_update().select_related("round__tournament").get(pk=table_id)
        )
        live.clock_changed(table.round_id)
        ClockActivation.objects.create(
            round=table.round, table=table, kind=ClockActivation.TIME_CALLED, at=now, reason=via
        )
        _table_time_called(table)
    return True


def _table_time_called(table: Table) -> None:
    """Side effects of time at one table (its time_called_at is set): a paper
    table waits for its sheet; a digital table's engine calls time."""
    if table.status == Table.DONE:
        return
    if not table.digital:
        table.status = Table.WAITING
        table.save(update_fields=["status"])
        return
    table_services.table_call_time(table=table)


def round_of_table(table_id: int) -> int | None:
    return Table.objects.filter(pk=table_id).values_list("round_id", flat=True).first()


def sweep() -> dict:
    """What the beat runs every second: start rounds whose scheduled start has
    come, close every overdue round and table, finish digital tables whose
    grace period is over. Harmless to run any number of times.

    Every round and table is handled on its own (:func:`guarded`): one that
    fails is logged and marked on its round, and the others still start and
    close on time."""
    now = db_now()
    done = {"started": 0, "rounds": 0, "tables": 0, "finished": 0, "failed": 0}
    for rid in Round.objects.filter(status=Round.SEATED, starts_at__lte=now).values_list(
        "pk", flat=True
    ):
        started = start_due_round(rid)
        done["started"] += started
    for rid in Round.objects.filter(status=Round.RUNNING, deadline__lte=now).values_list(
        "pk", flat=True
    ):
        closed = guarded(rid, CLOSE_FAILED, close_round, rid, via=VIA_SWEEP)
        done["rounds"] += bool(closed)
    for tid, rid in Table.objects.filter(
        time_called_at__isnull=True,
        deadline__lte=now,
        round__status__in=[Round.TIME_CALLED, Round.COMPLETE],
    ).values_list("pk", "round_id"):
        closed = guarded(rid, TABLE_CLOSE_FAILED, close_table, tid, via=VIA_SWEEP)
        done["tables"] += bool(closed)
    try:
        to_finish = list(table_services.tables_to_finish(now))
    except Exception:
        log.exception("clock: finding tables to finish failed")
        to_finish = []
    for tid in to_finish:
        rid = round_of_table(tid)
        finished = guarded(rid, FINISH_FAILED, table_services.table_finish, table_id=tid)
        done["finished"] += bool(finished)
    return done
