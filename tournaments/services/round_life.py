"""The round's life in one place: its states and every transition, each with
its guard. Every caller — the organizer's views, the clock's tasks and sweep,
a result that completes the round, the demo — goes through here.

The states (``Round.status``) and what moves a round between them::

    seated (draft → published)   tournaments.services.seating: round_seat,
                                 seating_publish (the seating's own life)
    seated → running             round_start (a draft is published first;
                                 round_start_when_due: a scheduled start)
    running ⇄ paused             round_pause, round_resume
    seated/running/paused        round_extend, table_extend (more time)
    running → time called        round_time_up: the deadline has passed (the
                                 clock's compare-and-set); table_time_up: a
                                 table with its own later deadline
    open → time called →         round_end_when_done: every table has its
    complete                     result, ended before the clock ran out (the
                                 organizer's press, round_end; or by itself
                                 with the last result)
    time called → complete       round_complete_if_done: the last table's
                                 result is confirmed

The guards' reason codes are in the pure ``tournaments.clock`` (e.g.
``close_refusal``); the activations' mechanics — the log rows, the derived
deadline, the wake-up calls — in ``tournaments.services.clock``. What
happens at a digital table (dealing at the start, the engine calling time,
finishing after the grace period) is the play app's, told by the signals of
``tournaments.signals``. "The table has its result" is the results app's
definition (``scoring.models.has_result``), handed to the core by its app
config (:mod:`tournaments.providers`), so this module imports nothing above
the core.
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.db.models import Count, Exists, OuterRef, Q
from django.db.models.functions import Now
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments import clock as pure
from tournaments import live, providers, signals
from tournaments.authors import author
from tournaments.models import ClockActivation, Round, Table
from tournaments.selectors import earlier_open_round, missing_results
from tournaments.services import clock, deadlines
from tournaments.services.deadlines import TimeIsUp, db_now
from tournaments.services.errors import ServiceError
from tournaments.services.seating import seating_publish

log = logging.getLogger(__name__)

# -- start, pause, more time -------------------------------------------------------


@transaction.atomic
def round_start(*, round: Round, by, seconds: float | None = None) -> Round:  # noqa: A002
    """Start the clock (``seconds``: the round's length, default its minutes).
    A seating still in draft is published; digital tables deal their game."""
    rnd = clock.locked_round(round)
    if rnd.status != Round.SEATED:
        raise ServiceError(_("Round %(n)s has started already.") % {"n": rnd.number})
    if not rnd.tables.exists():
        raise ServiceError(_("Round %(n)s has no tables.") % {"n": rnd.number})
    blocker = start_blocker(rnd)
    if blocker:
        raise ServiceError(blocker)
    if not rnd.published:
        rnd = seating_publish(round=rnd, by=by)
    length = clock.start_seconds(rnd.minutes * 60 if seconds is None else seconds)
    clock.activate(rnd, ClockActivation.START, by=by, seconds=length)
    signals.round_started.send(sender=Round, round=rnd)  # digital tables deal their game
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
def round_pause(*, round: Round, by) -> Round:  # noqa: A002
    rnd = clock.locked_round(round)
    if rnd.status != Round.RUNNING:
        raise ServiceError(_("The clock is not running."))
    clock.activate(rnd, ClockActivation.PAUSE, by=by)
    return rnd


@transaction.atomic
def round_resume(*, round: Round, by) -> Round:  # noqa: A002
    rnd = clock.locked_round(round)
    if rnd.status != Round.PAUSED:
        raise ServiceError(_("The clock is not paused."))
    clock.activate(rnd, ClockActivation.RESUME, by=by)
    return rnd


@transaction.atomic
def round_extend(*, round: Round, by, minutes: float | None = None, seconds=None) -> Round:  # noqa: A002
    """More time for the whole round (seated, running or paused)."""
    value = clock.extension_seconds(minutes, seconds)
    rnd = clock.locked_round(round)
    if rnd.status not in (Round.SEATED, Round.RUNNING, Round.PAUSED):
        raise ServiceError(_("Time has been called: the round can't be extended."))
    clock.activate(rnd, ClockActivation.EXTEND, by=by, seconds=value)
    return rnd


@transaction.atomic
def table_extend(
    *, table: Table, by, minutes: float | None = None, seconds=None, reason: str = ""
) -> Table:
    """More time for one table only (a judge call, a late start): it gets its
    own deadline, later than the round's, and is closed then."""
    value = clock.extension_seconds(minutes, seconds)
    rnd = clock.locked_round(table.round)
    locked = Table.objects.select_for_update().get(pk=table.pk)
    if rnd.status == Round.COMPLETE or locked.time_called_at is not None:
        raise ServiceError(
            _("Time has been called at table %(table)s already.") % {"table": locked.number}
        )
    now = db_now()
    if locked.deadline is not None and locked.deadline <= now:
        raise TimeIsUp(_("Time is up for table %(table)s.") % {"table": locked.number})
    clock.activate(
        rnd, ClockActivation.EXTEND, by=by, seconds=value, table=locked, reason=reason[:200]
    )
    locked.refresh_from_db()
    return locked


@transaction.atomic
def round_schedule_start(*, round: Round, at: datetime | None, by) -> Round:  # noqa: A002
    """Start the round by itself at ``at`` (None: no scheduled start)."""
    rnd = clock.locked_round(round)
    if rnd.status != Round.SEATED:
        raise ServiceError(_("Round %(n)s has started already.") % {"n": rnd.number})
    if at is not None and at <= db_now():
        raise ServiceError(_("Choose a start time in the future."))
    rnd.starts_at = at
    rnd.save(update_fields=["starts_at"])
    if at is not None:
        transaction.on_commit(lambda: deadlines.schedule("clock.start_round", rnd.pk, at))
    return rnd


def round_start_when_due(round_id: int) -> bool:
    """Start a round whose scheduled start has come (task and sweep).

    Any failure — a refusal (:class:`ServiceError`) or anything else, e.g. a
    deck the engine can't deal — cancels the scheduled start, is logged and
    marked on the round (:data:`clock.START_FAILED`) for the organizer to see, and
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
        clock.mark_problem(round_id, clock.START_FAILED, exc, cancel_start=True)
        return False
    clock.clear_problem(round_id)
    return True


# -- time called, the end, complete ------------------------------------------------


def round_time_up(round_id: int, *, via: str = "") -> bool:
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


def table_time_up(table_id: int, *, via: str = "") -> bool:
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
    signals.table_time_called.send(sender=Table, table=table)  # its engine calls time


@transaction.atomic
def round_end(*, round: Round, by) -> Round:  # noqa: A002
    """End the round now because every table has its result (one press),
    whether its clock runs, is paused or never started. The clock's
    compare-and-set close, logged with who and when; the round is complete.
    Refused with the reason while a table has no result, for a draft seating,
    and once the round's time was called (it completes with its last result)."""
    rnd = clock.locked_round(round)
    refusal = round_end_when_done(round_id=rnd.pk, by=by, via=pure.EARLY)
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


def round_end_when_done(*, round_id: int, by=None, via: str = pure.EARLY) -> str | None:
    """End a round before its clock ran out because every table has its
    result: the organizer's press (``via`` EARLY, ``by`` who) or by itself
    when the last result came in (``LAST_RESULT``, the tournament's setting).

    The round is locked and checked (``tournaments.clock.close_refusal``); the
    close is the clock's compare-and-set — open → time called now, logged as
    a time-called activation with who, when and the time that was left — and
    the round completes in the same transaction. Every table's time is called
    too, so no scheduled task or sweep of the clock finds anything left to
    close or to start in it later. Returns None when this call closed the
    round, else why not (a reason code of ``tournaments.clock``)."""
    with transaction.atomic():
        rnd = Round.objects.select_for_update().filter(pk=round_id).first()
        if rnd is None:
            return pure.NOT_OPEN
        counts = (
            Table.objects.filter(round_id=round_id)
            .annotate(has_result=providers.has_result())
            .aggregate(total=Count("pk"), open=Count("pk", filter=Q(has_result=False)))
        )
        refusal = pure.close_refusal(
            rnd.status, published=rnd.published, tables=counts["total"], open_tables=counts["open"]
        )
        if refusal is not None:
            return refusal
        now = db_now()
        if rnd.status == Round.RUNNING:
            left = max(0.0, (rnd.deadline - now).total_seconds()) if rnd.deadline else 0.0
        else:
            left = rnd.remaining_seconds if rnd.remaining_seconds is not None else rnd.minutes * 60
        won = Round.objects.filter(pk=round_id, status=rnd.status).update(
            status=Round.TIME_CALLED, time_called_at=now, remaining_seconds=left, starts_at=None
        )
        if not won:
            return pure.NOT_OPEN
        ClockActivation.objects.create(
            round=rnd,
            kind=ClockActivation.TIME_CALLED,
            at=now,
            seconds=int(left),
            reason=via,
            by=author(by),
        )
        Table.objects.filter(round_id=round_id, time_called_at__isnull=True).update(
            time_called_at=now
        )
        live.clock_changed(round_id)
        _complete(round_id)
    return None


def _complete(round_id: int) -> int:
    """Compare-and-set: a round whose time was called is complete once every
    table has a confirmed result. Returns the number of rows changed (0/1)."""
    open_tables = Table.objects.filter(round=OuterRef("pk")).exclude(providers.has_result())
    done = (
        Round.objects.filter(pk=round_id, status=Round.TIME_CALLED)
        .exclude(Exists(open_tables))
        .update(status=Round.COMPLETE, completed_at=Now())
    )
    if done:
        live.clock_changed(round_id)
    return done


def round_complete_if_done(*, round_id: int) -> bool:
    """After time was called: the round is complete when every table has a
    confirmed result (a paper sheet, a digital table's finish, or tables
    done before time). Safe to call any number of times."""
    with transaction.atomic():
        return bool(_complete(round_id))


# -- the clock's sweep ------------------------------------------------------------


def sweep() -> dict:
    """What the beat runs every second: start rounds whose scheduled start has
    come, close every overdue round and table, finish digital tables whose
    grace period is over. Harmless to run any number of times.

    Every round and table is handled on its own (:func:`clock.guarded`): one that
    fails is logged and marked on its round, and the others still start and
    close on time."""
    now = db_now()
    done = {"started": 0, "rounds": 0, "tables": 0, "finished": 0, "failed": 0}
    for rid in Round.objects.filter(status=Round.SEATED, starts_at__lte=now).values_list(
        "pk", flat=True
    ):
        started = round_start_when_due(rid)
        done["started"] += started
    for rid in Round.objects.filter(status=Round.RUNNING, deadline__lte=now).values_list(
        "pk", flat=True
    ):
        closed = clock.guarded(rid, clock.CLOSE_FAILED, round_time_up, rid, via=clock.VIA_SWEEP)
        done["rounds"] += bool(closed)
    for tid, rid in Table.objects.filter(
        time_called_at__isnull=True,
        deadline__lte=now,
        round__status__in=[Round.TIME_CALLED, Round.COMPLETE],
    ).values_list("pk", "round_id"):
        closed = clock.guarded(
            rid, clock.TABLE_CLOSE_FAILED, table_time_up, tid, via=clock.VIA_SWEEP
        )
        done["tables"] += bool(closed)
    # the apps' own work of the second (tournaments.play: digital tables
    # whose grace period is over are finished), each guarded on its own
    for _receiver, finished in signals.clock_sweeping.send(sender=Round, now=now):
        done["finished"] += finished
    return done
