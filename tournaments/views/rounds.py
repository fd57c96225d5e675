"""The round and its clock: the organizer's round page (start, pause, resume,
extend, per-table extension), the projector and the public round page, and
the small status partial every open page polls."""

from __future__ import annotations

from datetime import datetime

from django.contrib import messages
from django.db.models import Exists, OuterRef, Prefetch
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.models import Submission
from tournaments.models import Round, Seat, Table, Tournament
from tournaments.params import parse_int
from tournaments.permissions import STAFF, tournament_view
from tournaments.services import ServiceError
from tournaments.services import clock as clock_services

CLOSED = (Round.TIME_CALLED, Round.COMPLETE)


# -- reads ----------------------------------------------------------------------


def _round(tournament: Tournament, number: int) -> Round:
    return get_object_or_404(Round, tournament=tournament, number=number)


def _with_result(tables):
    confirmed = Submission.objects.filter(table=OuterRef("pk"), status=Submission.CONFIRMED)
    return tables.annotate(has_result=Exists(confirmed))


def _tables(rnd: Round):
    return (
        _with_result(rnd.tables)
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))
        )
        .order_by("number")
    )


def _table_state(table: Table) -> str:
    return _state(table.status, table.has_result)


def _state(status: str, has_result: bool) -> str:
    if has_result or status == Table.DONE:
        return "done"
    if status == Table.WAITING:
        return "waiting"
    return "playing"


def _result_url(tournament_id: int, number: int, table: int) -> str | None:
    try:
        return reverse("result_entry", args=[tournament_id, number, table])
    except NoReverseMatch:
        return None


def clock_status(rnd: Round) -> dict:
    """What a clock needs: the status, the deadline and the server's time (ms
    since the epoch, for the browser's offset), the time left, tables done."""
    now = clock_services.db_now()
    if rnd.status == Round.RUNNING and rnd.deadline:
        left = max(0.0, (rnd.deadline - now).total_seconds())
    elif rnd.status in CLOSED:
        left = 0.0
    elif rnd.remaining_seconds is not None:
        left = rnd.remaining_seconds
    else:
        left = rnd.minutes * 60
    # polled every second by every open clock: one small query, no seats
    states = [
        (number, _state(status, has_result))
        for number, status, has_result in _with_result(rnd.tables)
        .order_by("number")
        .values_list("number", "status", "has_result")
    ]
    open_tables = [number for number, state in states if state != "done"]
    seconds = int(-(-left // 1))
    return {
        "round": rnd,
        "status": rnd.status,
        "closed": rnd.status in CLOSED,
        "deadline_ms": int(rnd.deadline.timestamp() * 1000) if rnd.deadline else "",
        "server_ms": int(now.timestamp() * 1000),
        "left": left,
        "left_text": _format(seconds),
        # "5 minutes left" only makes sense in a round that had more than 5
        "five_ok": rnd.minutes > 5,
        "five_minutes": rnd.status == Round.RUNNING and 0 < left <= 300 and rnd.minutes > 5,
        "tables_total": len(states),
        "tables_done": len(states) - len(open_tables),
        "open_tables": open_tables,
    }


def _format(seconds: int) -> str:
    h, rest = divmod(max(0, seconds), 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def _status_response(
    request, rnd: Round, status_url: str, template="tournaments/round/status.html"
):
    context = clock_status(rnd) | {"status_url": status_url, "big": request.GET.get("big") == "1"}
    response = render(request, template, context)
    if context["closed"]:
        response["HX-Trigger"] = "roundClosed"
    return response


# -- the organizer --------------------------------------------------------------


@tournament_view(STAFF)
def round_detail(request, tournament, number):
    rnd = _round(tournament, number)
    tables = list(_tables(rnd))
    for t in tables:
        t.state_code = _table_state(t)
        t.result_url = _result_url(tournament.pk, rnd.number, t.number)
    context = clock_status(rnd) | {
        "tournament": tournament,
        "role": request.tournament_role,
        "round": rnd,
        "tables": tables,
        "counts": {
            code: sum(1 for t in tables if t.state_code == code)
            for code in ("done", "waiting", "playing")
        },
        "activations": rnd.activations.select_related("by", "table").order_by("at", "pk"),
        "status_url": reverse("round_status", args=[tournament.pk, rnd.number]),
        "clock_problem": clock_services.problem_text(rnd),
    }
    if request.htmx and request.GET.get("part") == "tables":
        return render(request, "tournaments/round_detail.html#tables", context)
    return render(request, "tournaments/round_detail.html", context)


@tournament_view(STAFF)
def round_status(request, tournament, number):
    rnd = _round(tournament, number)
    return _status_response(request, rnd, reverse("round_status", args=[tournament.pk, number]))


def _clock_action(request, tournament, number, action) -> object:
    rnd = _round(tournament, number)
    try:
        action(rnd)
    except ServiceError as exc:
        messages.error(request, str(exc))
    return redirect("round_detail", tournament.pk, number)


def _number(request, name: str, *, minimum=1, maximum=720) -> int | None:
    return parse_int(request.POST.get(name, ""), minimum=minimum, maximum=maximum)


@tournament_view("clock")
@require_POST
def round_start(request, tournament, number):
    return _clock_action(
        request, tournament, number, lambda r: clock_services.round_start(round=r, by=request.user)
    )


@tournament_view("clock")
@require_POST
def round_pause(request, tournament, number):
    return _clock_action(
        request, tournament, number, lambda r: clock_services.round_pause(round=r, by=request.user)
    )


@tournament_view("clock")
@require_POST
def round_resume(request, tournament, number):
    return _clock_action(
        request, tournament, number, lambda r: clock_services.round_resume(round=r, by=request.user)
    )


@tournament_view("clock")
@require_POST
def round_extend(request, tournament, number):
    minutes = _number(request, "minutes")
    if minutes is None:
        messages.error(request, _("Give a whole number of minutes from 1 to 720."))
        return redirect("round_detail", tournament.pk, number)
    return _clock_action(
        request,
        tournament,
        number,
        lambda r: clock_services.round_extend(round=r, by=request.user, minutes=minutes),
    )


@tournament_view("clock")
@require_POST
def table_extend(request, tournament, number, table):
    """Extra time for one table: the table chosen in the form (a "table"
    field) or the one in the URL."""
    rnd = _round(tournament, number)
    if "table" in request.POST:
        table = parse_int(request.POST["table"], minimum=1)
        if table is None:
            messages.error(request, _("Choose a table."))
            return redirect("round_detail", tournament.pk, number)
    tbl = get_object_or_404(Table, round=rnd, number=table)
    minutes = _number(request, "minutes")
    if minutes is None:
        messages.error(request, _("Give a whole number of minutes from 1 to 720."))
        return redirect("round_detail", tournament.pk, number)
    try:
        clock_services.table_extend(
            table=tbl,
            by=request.user,
            minutes=minutes,
            # NUL can't be stored (PostgreSQL): a pasted reason loses it
            reason=request.POST.get("reason", "").replace("\x00", "").strip(),
        )
    except ServiceError as exc:
        messages.error(request, str(exc))
    return redirect("round_detail", tournament.pk, number)


@tournament_view("clock")
@require_POST
def round_schedule(request, tournament, number):
    rnd = _round(tournament, number)
    raw = request.POST.get("starts_at", "").strip()
    at = None
    if raw:
        try:
            at = datetime.fromisoformat(raw)
        except ValueError:
            messages.error(request, _("Enter a date and time, e.g. 2026-10-03 14:30."))
            return redirect("round_detail", tournament.pk, number)
        if timezone.is_naive(at):
            at = timezone.make_aware(at)
    try:
        clock_services.round_schedule_start(round=rnd, at=at, by=request.user)
    except ServiceError as exc:
        messages.error(request, str(exc))
    return redirect("round_detail", tournament.pk, number)


# -- public pages ---------------------------------------------------------------


def _public_round(request, tournament_id: int, number: int) -> tuple[Tournament, Round, bool]:
    """The round for the public pages: a public tournament's published round.
    Its organizer and scorekeepers may open them also when the tournament is
    hidden or the seating still a draft (to set up the projector)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    staff = tournament.role_of(request.user) is not None
    if (not tournament.public or tournament.archived_at is not None) and not staff:
        raise Http404
    rnd = _round(tournament, number)
    if not rnd.published and not staff:
        raise Http404
    return tournament, rnd, staff


def round_public(request, tournament_id, number):
    tournament, rnd, _staff = _public_round(request, tournament_id, number)
    return render(
        request,
        "tournaments/round_public.html",
        clock_status(rnd)
        | {
            "tournament": tournament,
            "round": rnd,
            "tables": _tables(rnd),
            "status_url": reverse("round_public_status", args=[tournament.pk, rnd.number]),
        },
    )


def round_public_status(request, tournament_id, number):
    _tournament, rnd, _staff = _public_round(request, tournament_id, number)
    return _status_response(
        request, rnd, reverse("round_public_status", args=[tournament_id, number])
    )
