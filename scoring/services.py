"""Writes for results: a table's result is submitted, confirmed, corrected.

Every submission is a new, append-only version of the table's result
(:class:`scoring.models.Submission`); only its ``status`` ever changes. The
game's engine decides whether a sheet can be true (``check_sheet``); nothing
is saved while it reports a problem.

Concurrency: each write locks the table row first (``SELECT ... FOR UPDATE``),
so two scorekeepers saving the same table are served one after the other and
the second one finds that the version he started from is no longer the latest
(:class:`ResultConflict`). The database constraint
``one_confirmed_result_per_table`` is the final guard: should two confirmations
still meet, the loser's ``IntegrityError`` is reported as a conflict too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import SheetError, TableResult
from scoring import selectors
from scoring.models import Confirmation, Submission, confirmed_result
from tournaments import clock as pure_clock
from tournaments import live, providers
from tournaments.models import Round, Seat, Table, Tournament
from tournaments.services import round_life
from tournaments.services.deadlines import (
    db_now,
    lock_before_time,
    playing_deadline,
    table_plays_to,
)
from tournaments.services.errors import ServiceError

PLAYER_SOURCE = "player"
SCAN_SOURCE = "scan"


class ResultInvalid(ServiceError):
    """The engine found the sheet inconsistent; ``problems`` lists why
    (``games.base.Problem``: code, fields, template, params)."""

    def __init__(self, problems):
        self.problems = list(problems)
        super().__init__(_("The sheet can't be right: correct the marked fields."))


class ResultConflict(ServiceError):
    """Someone else changed the table's result meanwhile; ``other`` is the
    submission that is there now (None if it can't be named)."""

    def __init__(self, message: str, other: Submission | None = None):
        self.other = other
        super().__init__(message)


class ReasonRequired(ServiceError):
    """A correction after time was called needs a reason."""


@dataclass
class PlaceChange:
    player_id: int
    name: str
    old_place: int | None
    new_place: int
    old_points: object
    new_points: object


@dataclass
class Preview:
    """What a sheet would do: the engine's result and the standings places it
    changes (players whose place differs, best new place first)."""

    result: TableResult
    changes: list[PlaceChange] = field(default_factory=list)
    #: with a seated final stage, a correction of a qualifying round: who
    #: would qualify now but is not seated (``in``), who is seated but would
    #: not qualify (``out``); None when nothing changes there
    final_impact: dict | None = None


#: who entered a version, for people (kept here for callers of the services)
author = selectors.author


# -- decisions of the staff result form ----------------------------------------


PREVIEW, ASK_BEFORE_TIME, SAVE = "preview", "ask_before_time", "save"


@dataclass
class EntryStep:
    """What pressing save on the staff result form does now: show the
    standings preview (``PREVIEW``), ask whether the game really ended before
    time (``ASK_BEFORE_TIME``, ``why`` says what the sheet shows), or save
    (``SAVE``, with ``ended_before_time`` for the service)."""

    step: str
    result: TableResult
    why: str = ""
    ended_before_time: bool = False
    #: saving it will need a reason (a correction after time was called)
    reason_needed: bool = False


def unfinished_reason(engine, result: TableResult, players: int) -> str | None:
    """Why ``result`` can't be a game played to its end, as the game's engine
    says (``engine.sheet_unfinished``), in the user's language; None when it
    may be finished or the engine can't tell."""
    problem = engine.sheet_unfinished(result, players)
    if problem is None:
        return None
    params = problem.params
    if problem.code == "cards_still_held":
        return ngettext(
            "%(n)s player still holds cards.", "%(n)s players still hold cards.", params["n"]
        ) % {"n": params["n"]}
    if problem.code == "hands_missing":
        return _("Only %(played)s of %(n)s hands were played.") % params
    return _(problem.template).format(**params)


def _still_running(table: Table) -> bool:
    """The table still plays on the clock: its round is paused (time left),
    or running — or time was called for the round but the table has its own
    later deadline — and its deadline has not passed. Not in a round whose
    clock never started: there a sheet is the game as it ended."""
    rnd = table.round
    if table.time_called_at is not None:
        return False
    if rnd.status == Round.PAUSED:
        return True
    deadline = playing_deadline(table, rnd)
    return deadline is not None and db_now() < deadline


def _lock_ended_before_time(table: Table) -> None:
    """Inside a transaction: lock the round and the table, and refuse
    (:class:`TimeIsUp`) a game said to have ended before time when the table
    no longer plays on the clock. A paused round's tables are before time."""
    rnd = Round.objects.select_for_update().get(pk=table.round_id)
    if rnd.status == Round.PAUSED:
        Table.objects.select_for_update().filter(pk=table.pk).values_list("pk").get()
        return
    lock_before_time(table)


def _after_time(table: Table, rnd: Round, now) -> bool:
    deadline = table_plays_to(table, rnd)
    return (deadline is not None and now >= deadline) or rnd.status in (
        Round.TIME_CALLED,
        Round.COMPLETE,
    )


def staff_entry_step(
    *, table: Table, sheet: dict, wants_check: bool, previewed: bool, before_time_confirmed: bool
) -> EntryStep:
    """Decide what a scorekeeper's press on the result form does.

    The engine checks the sheet first (:class:`ResultInvalid`). "Check" always
    previews. While the round still runs, a sheet that can't be a finished
    game asks whether the table really ended before time (once confirmed for
    this very sheet, it is saved as ended before time). A correction of a
    confirmed result is previewed once; the next press saves it.
    """
    table = _table(table)
    players = Seat.objects.filter(table=table).count()
    result = _check(table.round.tournament, players, sheet)
    if wants_check:
        return EntryStep(PREVIEW, result)
    early = False
    if _still_running(table):
        why = unfinished_reason(table.round.tournament.engine, result, players)
        if why is not None:
            if not before_time_confirmed:
                return EntryStep(ASK_BEFORE_TIME, result, why=why)
            early = True
    correction = confirmed_result(table).exists()
    reason_needed = (correction and _after_time(table, table.round, db_now())) or (
        table.round.tournament.finished
    )
    if correction and not previewed:
        return EntryStep(PREVIEW, result, ended_before_time=early, reason_needed=reason_needed)
    return EntryStep(SAVE, result, ended_before_time=early, reason_needed=reason_needed)


# -- helpers -------------------------------------------------------------------


def _table(table: Table) -> Table:
    return Table.objects.select_related("round__tournament").get(pk=table.pk)


def _positions(table: Table) -> list[int]:
    return list(
        Seat.objects.filter(table=table).order_by("position").values_list("position", flat=True)
    )


def _check(tournament: Tournament, players: int, sheet: dict) -> TableResult:
    """The engine's verdict on ``sheet``, or :class:`ResultInvalid`."""
    engine = tournament.engine
    if not engine.min_players <= players <= engine.max_players:
        raise ServiceError(
            _("%(game)s is played by %(lo)s to %(hi)s players; this table has %(n)s.")
            % {
                "game": engine.name,
                "lo": engine.min_players,
                "hi": engine.max_players,
                "n": players,
            }
        )
    try:
        return engine.check_sheet(players, sheet, tournament.game_options or None)
    except SheetError as exc:
        raise ResultInvalid(exc.problems) from None


def _check_not_finished(tournament: Tournament, by, reason: str) -> None:
    """After "finish tournament" only the organizer changes results, with a
    reason. Read under the caller's table lock."""
    finished = (
        Tournament.objects.filter(pk=tournament.pk).values_list("finished_at", flat=True).get()
    )
    if finished is None:
        return
    if by is None or by.pk != tournament.owner_id:
        raise ServiceError(
            _("The tournament is finished: only the organizer can change its results now.")
        )
    if not reason:
        raise ReasonRequired(_("The tournament is finished: give a reason for this change."))


def _latest(table_id: int) -> Submission | None:
    return (
        Submission.objects.filter(table_id=table_id)
        .select_related("by")
        .order_by("-version")
        .first()
    )


def _conflict_message(other: Submission | None) -> str:
    if other is None:
        return _("The result of this table was removed meanwhile; nothing of yours was saved.")
    return _(
        "%(who)s saved version %(version)s of this table's result meanwhile (shown below). "
        "Nothing of yours was saved: compare, then save again to replace it."
    ) % {"who": author(other), "version": other.version}


def _close_by_itself(round_id: int) -> None:
    """The tournament's setting: a round ends when its last result is in
    (after the result's commit: two last results saved at once both see
    every table's result then, and one of them closes)."""
    if Tournament.objects.filter(round__pk=round_id, close_when_done=True).exists():
        round_life.round_end_when_done(round_id=round_id, via=pure_clock.LAST_RESULT)


def _confirm(sub: Submission) -> None:
    """Inside the caller's transaction, with the table locked: make ``sub``
    the table's confirmed result. An ``IntegrityError`` from the constraint
    propagates to the caller."""
    Submission.objects.filter(table_id=sub.table_id, status=Submission.CONFIRMED).exclude(
        pk=sub.pk
    ).update(status=Submission.SUPERSEDED)
    Submission.objects.filter(pk=sub.pk).update(status=Submission.CONFIRMED)
    sub.status = Submission.CONFIRMED
    Table.objects.filter(pk=sub.table_id).update(status=Table.DONE)
    round_id = Table.objects.filter(pk=sub.table_id).values_list("round_id", flat=True).get()
    live.clock_changed(round_id)  # tables done on every clock
    round_life.round_complete_if_done(round_id=round_id)
    transaction.on_commit(lambda: round_life.round_complete_if_done(round_id=round_id))
    # after the commit, in its own transaction: the round is locked before its
    # tables, as the clock's close does; a failure must not undo the result
    transaction.on_commit(lambda: _close_by_itself(round_id), robust=True)


# -- services ------------------------------------------------------------------


def result_record_engine(
    *, table: Table, result: TableResult, details: dict | None = None, source: str = "digital"
) -> Submission | None:
    """A result computed by the game's engine (a digital table played to its
    end): recorded as the table's confirmed version by the same path as a
    confirmed paper sheet, so the table is done and the round completes when
    it was the last. Inside the caller's transaction, the table locked; None
    when the table has a confirmed result already (it is done all the same)."""
    if confirmed_result(table).exists():
        Table.objects.filter(pk=table.pk).update(status=Table.DONE)
        live.clock_changed(table.round_id)
        return None
    last = Submission.objects.filter(table=table).aggregate(n=Max("version"))["n"] or 0
    sub = Submission.objects.create(
        table=table,
        version=last + 1,
        status=Submission.PENDING,
        ranks=list(result.ranks),
        figures=list(result.figures),
        details=dict(result.details if details is None else details),
        source=source,
    )
    _confirm(sub)
    return sub


def result_submit(
    *,
    table: Table,
    sheet: dict,
    by=None,
    by_seat: int | None = None,
    source: str = "form",
    from_address: str | None = None,
    expected_version: int | None,
    reason: str = "",
    ended_before_time: bool = False,
    handed_in_late: bool = False,
    hold: bool = False,
) -> Submission:
    """Save a new version of ``table``'s result from a paper sheet.

    ``hold``: a staff entry waits for confirmation even where the tournament
    counts it at once (a sheet read from a scan waits for its pile's press).

    ``expected_version`` is the latest version the author saw (None: there was
    none); if another arrived meanwhile, :class:`ResultConflict` names it and
    nothing is saved. The engine checks the sheet (:class:`ResultInvalid`).
    A staff entry counts at once unless the tournament wants a second person
    to confirm it; a player's report (``by_seat``) counts when every player of
    the table confirmed it, or the Turnierleitung did. ``ended_before_time``:
    the game ended while the round still runs — refused after the deadline.

    ``late`` flags a result that may not be the state at time: a staff entry
    whose paper sheet was handed in late (``handed_in_late``, the scorekeeper
    knows), or a player's report that arrived after the table's deadline plus
    the tournament's grace period.
    """
    reason = (reason or "").strip()
    by = by if by is not None and by.is_authenticated else None
    try:
        with transaction.atomic():
            return _submit(
                table=table,
                sheet=sheet,
                by=by,
                by_seat=by_seat,
                source=PLAYER_SOURCE if by_seat is not None else source,
                from_address=from_address,
                expected_version=expected_version,
                reason=reason,
                ended_before_time=ended_before_time,
                handed_in_late=handed_in_late,
                hold=hold,
            )
    except IntegrityError:
        # the row lock serialises writers; the constraints are the last guard
        other = confirmed_result(table.pk).first() or _latest(table.pk)
        raise ResultConflict(_conflict_message(other), other) from None


def _submit(
    *,
    table,
    sheet,
    by,
    by_seat,
    source,
    from_address,
    expected_version,
    reason,
    ended_before_time,
    handed_in_late,
    hold=False,
) -> Submission:
    table = _table(table)
    tournament = table.round.tournament
    if by_seat is not None and not tournament.self_report:
        raise ServiceError(
            _(
                "Players don't report results in this tournament: hand the sheet to the Turnierleitung."
            )
        )
    if ended_before_time:
        _lock_ended_before_time(table)  # locks the round and the table; TimeIsUp after time
    else:
        Table.objects.select_for_update().filter(pk=table.pk).values_list("pk").get()
    rnd = Round.objects.get(pk=table.round_id)
    table.refresh_from_db(fields=["deadline", "status"])
    _check_not_finished(tournament, by, reason)
    positions = _positions(table)
    if by_seat is not None and by_seat not in positions:
        raise ServiceError(_("There is no seat %(seat)s at this table.") % {"seat": by_seat + 1})
    result = _check(tournament, len(positions), sheet)

    latest = _latest(table.pk)
    if (latest.version if latest else None) != expected_version:
        raise ResultConflict(_conflict_message(latest), latest)
    confirmed = confirmed_result(table).first()
    deadline = table_plays_to(table, rnd)
    now = db_now()
    after_time = _after_time(table, rnd, now)
    late = _is_late(tournament, by_seat, deadline, now, handed_in_late)
    if confirmed is not None and by_seat is not None:
        raise ServiceError(
            _("This table's result is confirmed; only the Turnierleitung can correct it.")
        )
    if confirmed is not None and after_time and not reason:
        raise ReasonRequired(
            _("Give a reason for correcting a confirmed result after time was called.")
        )

    # an older version still waiting for confirmation can no longer be confirmed
    Submission.objects.filter(table=table, status=Submission.PENDING).update(
        status=Submission.SUPERSEDED
    )
    sub = Submission.objects.create(
        table=table,
        version=(latest.version if latest else 0) + 1,
        status=Submission.PENDING,
        sheet=dict(sheet),
        ranks=list(result.ranks),
        figures=list(result.figures),
        details=dict(result.details),
        source=source,
        by=by,
        by_seat=by_seat,
        from_address=from_address or None,
        replaces=latest,
        reason=reason[:500],
        late=late,
    )
    if by_seat is not None:
        Confirmation.objects.create(submission=sub, by_seat=by_seat)
        if set(positions) <= {by_seat}:
            _confirm(sub)
    elif not tournament.confirmation_required and not hold:
        _confirm(sub)
    return sub


def _is_late(tournament, by_seat, deadline, now, handed_in_late) -> bool:
    """A player's report is late when it comes after the table's deadline and
    the grace; the staff say whether the sheet they type was handed in late."""
    if by_seat is not None:
        grace = timedelta(seconds=tournament.grace_seconds)
        return deadline is not None and now >= deadline + grace
    return bool(handed_in_late)


def second_person_message() -> str:
    return _(
        "You checked this result read from the scan yourself: another scorekeeper or "
        "the Turnierleitung must confirm it."
    )


def result_confirm(*, submission: Submission, by=None, by_seat: int | None = None) -> Submission:
    """Agree with a submission waiting for confirmation.

    Staff (``by``): anyone but its author confirms it at once (also a player's
    report). A result read from a scan is confirmed by its uploader's press,
    unless the tournament wants a second person: then that press is the
    author's check (a :class:`Confirmation` by the author, the result still
    waiting) and a second press by the author is refused. A player (``by_seat``, through his seat link) confirms a player's
    report; it counts when every seat of the table has confirmed it.
    """
    by = by if by is not None and by.is_authenticated else None
    if by is None and by_seat is None:
        raise ServiceError(_("Someone must confirm the result."))
    try:
        with transaction.atomic():
            return _confirm_one(submission, by, by_seat)
    except IntegrityError:
        other = confirmed_result(submission.table_id).first()
        raise ResultConflict(_conflict_message(other), other) from None


def _confirm_one(submission, by, by_seat) -> Submission:
    Table.objects.select_for_update().filter(pk=submission.table_id).values_list("pk").get()
    sub = Submission.objects.select_related("table__round__tournament", "by").get(pk=submission.pk)
    tournament = sub.table.round.tournament
    _check_not_finished(tournament, by, "" if by_seat is not None else "confirmed")
    if sub.status == Submission.CONFIRMED:
        raise ResultConflict(
            _("Version %(version)s is already confirmed.") % {"version": sub.version}, sub
        )
    if sub.status != Submission.PENDING:
        other = _latest(sub.table_id)
        raise ResultConflict(
            _(
                "Version %(version)s was replaced meanwhile by version %(other)s "
                "(shown below); it can't be confirmed any more."
            )
            % {"version": sub.version, "other": other.version if other else "?"},
            other,
        )
    if by_seat is None:
        if sub.by_id is not None and sub.by_id == by.pk:
            if sub.source != SCAN_SOURCE:
                raise ServiceError(
                    _(
                        "You entered this result yourself: another scorekeeper or the "
                        "Turnierleitung must confirm it."
                    )
                )
            # a sheet read from a scan: the uploader's press is the check of
            # what the machine read; where a second person must confirm, that
            # check is the author's entry and the result still waits
            if tournament.confirmation_required:
                if Confirmation.objects.filter(submission=sub, by=by).exists():
                    raise ServiceError(second_person_message())
                Confirmation.objects.create(submission=sub, by=by)
                return sub
        # the uploader checked it while a second person was wanted: once
        Confirmation.objects.get_or_create(submission=sub, by=by)
        _confirm(sub)
        return sub
    if not tournament.self_report:
        raise ServiceError(
            _(
                "Players don't report results in this tournament: hand the sheet to the Turnierleitung."
            )
        )
    if sub.by_seat is None:
        raise ServiceError(_("Only results reported by players are confirmed through a seat link."))
    # the players' seats: an empty seat the bot played has nobody to agree
    players = set(
        Seat.objects.filter(table=sub.table, player__isnull=False).values_list(
            "position", flat=True
        )
    )
    if by_seat not in players:
        raise ServiceError(_("There is no seat %(seat)s at this table.") % {"seat": by_seat + 1})
    Confirmation.objects.get_or_create(submission=sub, by_seat=by_seat)
    agreed = set(
        Confirmation.objects.filter(submission=sub, by_seat__isnull=False).values_list(
            "by_seat", flat=True
        )
    )
    if players <= agreed:
        _confirm(sub)
    return sub


_ANY = object()


def result_preview_correction(*, table: Table, sheet: dict, expected_version=_ANY) -> Preview:
    """What saving ``sheet`` as ``table``'s result would change: the engine's
    result (:class:`ResultInvalid` if it can't be true) and every player whose
    standings place changes. Nothing is saved. With ``expected_version``, a
    version that arrived meanwhile is reported first (:class:`ResultConflict`)."""
    table = _table(table)
    if expected_version is not _ANY:
        latest = _latest(table.pk)
        if (latest.version if latest else None) != expected_version:
            raise ResultConflict(_conflict_message(latest), latest)
    tournament = table.round.tournament
    seat_ids = list(
        Seat.objects.filter(table=table).order_by("position").values_list("player_id", flat=True)
    )
    result = _check(tournament, len(seat_ids), sheet)
    players = selectors.players_data(tournament)
    results = selectors.results_data(tournament)
    here = (table.round.number, table.number)
    changed = [e for e in results if "seats" not in e or (e["round"], e["table"]) != here]
    changed.append(
        {
            "round": here[0],
            "table": here[1],
            "seats": seat_ids,
            "ranks": list(result.ranks),
            "figures": list(result.figures),
        }
    )
    changed.sort(key=lambda e: (e["round"], e.get("table", 0)))
    before = {row.player_id: row for row in providers.standings_of(tournament, players, results)}
    changes = []
    for row in providers.standings_of(tournament, players, changed):
        old = before.get(row.player_id)
        if old is None or old.place != row.place:
            changes.append(
                PlaceChange(
                    player_id=row.player_id,
                    name=row.name,
                    old_place=old.place if old else None,
                    new_place=row.place,
                    old_points=old.points if old else None,
                    new_points=row.points,
                )
            )
    final_impact = None
    if table.round.number <= tournament.rounds:
        final_impact = providers.correction_impact(tournament, players, changed)
    return Preview(result=result, changes=changes, final_impact=final_impact)


# -- the result pages' decisions ------------------------------------------------


def result_sheet_schema(*, tournament: Tournament, players: int) -> tuple[list[dict] | None, str]:
    """The fields of a table's result sheet, or None and why the table has no
    form (its number of players is not one the game is played by)."""
    engine = tournament.engine
    if not engine.min_players <= players <= engine.max_players:
        return None, _(
            "%(game)s is played by %(lo)s to %(hi)s players; this table has %(n)s. "
            "Fix the seating before entering a result."
        ) % {"game": engine.name, "lo": engine.min_players, "hi": engine.max_players, "n": players}
    return engine.sheet_schema(players, tournament.game_options or None), ""


def player_report_ended_before_time(*, table: Table) -> bool:
    """A result players report while their round is on the clock (running or
    paused) is a game that ended before time (checked against the deadline
    when it is saved). In a round whose clock never started it is simply the
    game's result."""
    return table.round.status in (Round.RUNNING, Round.PAUSED)
