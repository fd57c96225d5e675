"""The round and its clock: the organizer's round page (start, pause, resume,
extend, per-table extension), the projector and the public round page, and
the small status partial every open page polls."""

from __future__ import annotations

from datetime import datetime

from django.contrib import messages
from django.db.models import Prefetch
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import clock as pure_clock
from tournaments import live
from tournaments.models import ClockActivation, Round, Seat, Table
from tournaments.params import parse_int
from tournaments.permissions import STAFF, tournament_view
from tournaments.selectors import clock_status, public_round, round_or_404, with_result_flag
from tournaments.services import clock as clock_services
from tournaments.services import round_life
from tournaments.views._helpers import service_error_as_message, status_response

CLOSED = (Round.TIME_CALLED, Round.COMPLETE)


# -- reads ----------------------------------------------------------------------


def _tables(rnd: Round):
    return (
        with_result_flag(rnd.tables)
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


def _activations(rnd: Round) -> list:
    """The clock log, a round ended early (every table had its result) marked
    with the time that was left."""
    rows = list(rnd.activations.select_related("by", "table").order_by("at", "pk"))
    for a in rows:
        a.ended_early = a.kind == ClockActivation.TIME_CALLED and a.reason in (
            pure_clock.EARLY,
            pure_clock.LAST_RESULT,
        )
        a.left_text = live.format_seconds(a.seconds)
    return rows


def _status_response(request, rnd: Round, status_url: str):
    entry = live.clock_entry(rnd.pk)
    if entry is None:
        raise Http404
    return status_response(request, entry, status_url)


# -- the organizer --------------------------------------------------------------


@tournament_view(STAFF)
def round_detail(request, tournament, number):
    rnd = round_or_404(tournament, number)
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
        "activations": _activations(rnd),
        "status_url": reverse("round_status", args=[tournament.pk, rnd.number]),
        "clock_problem": clock_services.problem_text(rnd),
        # every table has its result: the round can end now (one press)
        "can_end": pure_clock.close_refusal(
            rnd.status,
            published=rnd.published,
            tables=len(tables),
            open_tables=sum(1 for t in tables if not t.has_result),
        )
        is None,
        "start_blocker": round_life.start_blocker(rnd) if rnd.status == Round.SEATED else "",
    }
    if request.htmx and request.GET.get("part") == "tables":
        return render(request, "tournaments/round_detail.html#tables", context)
    return render(request, "tournaments/round_detail.html", context)


@tournament_view(STAFF)
def round_status(request, tournament, number):
    rnd = round_or_404(tournament, number)
    return _status_response(request, rnd, reverse("round_status", args=[tournament.pk, number]))


def _clock_action(request, tournament, number, action) -> object:
    rnd = round_or_404(tournament, number)
    with service_error_as_message(request):
        action(rnd)
    return redirect("round_detail", tournament.pk, number)


def _number(request, name: str, *, minimum=1, maximum=720) -> int | None:
    return parse_int(request.POST.get(name, ""), minimum=minimum, maximum=maximum)


@tournament_view("clock")
@require_POST
def round_start(request, tournament, number):
    return _clock_action(
        request, tournament, number, lambda r: round_life.round_start(round=r, by=request.user)
    )


@tournament_view("clock")
@require_POST
def round_pause(request, tournament, number):
    return _clock_action(
        request, tournament, number, lambda r: round_life.round_pause(round=r, by=request.user)
    )


@tournament_view("clock")
@require_POST
def round_resume(request, tournament, number):
    return _clock_action(
        request, tournament, number, lambda r: round_life.round_resume(round=r, by=request.user)
    )


@tournament_view("clock")
@require_POST
def round_end(request, tournament, number):
    """End the round now: every table has its result (one press). From the
    overview (``next=overview``) back to the overview with its next step."""
    rnd = round_or_404(tournament, number)
    with service_error_as_message(request):
        round_life.round_end(round=rnd, by=request.user)
        messages.success(request, _("Round %(n)s has ended.") % {"n": rnd.number})
    if request.POST.get("next") == "overview":
        return redirect(tournament)
    return redirect("round_detail", tournament.pk, number)


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
        lambda r: round_life.round_extend(round=r, by=request.user, minutes=minutes),
    )


@tournament_view("clock")
@require_POST
def table_extend(request, tournament, number, table):
    """Extra time for one table: the table chosen in the form (a "table"
    field) or the one in the URL."""
    rnd = round_or_404(tournament, number)
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
    with service_error_as_message(request):
        round_life.table_extend(
            table=tbl,
            by=request.user,
            minutes=minutes,
            # NUL can't be stored (PostgreSQL): a pasted reason loses it
            reason=request.POST.get("reason", "").replace("\x00", "").strip(),
        )
    return redirect("round_detail", tournament.pk, number)


@tournament_view("clock")
@require_POST
def round_schedule(request, tournament, number):
    rnd = round_or_404(tournament, number)
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
    with service_error_as_message(request):
        round_life.round_schedule_start(round=rnd, at=at, by=request.user)
    return redirect("round_detail", tournament.pk, number)


# -- public pages ---------------------------------------------------------------


def round_public(request, tournament_id, number):
    tournament, rnd, _staff = public_round(request.user, tournament_id, number)
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
    """Polled by every projector and public page: a public tournament's
    published round is answered from the cache without a query."""
    url = reverse("round_public_status", args=[tournament_id, number])
    round_id = live.round_id_of(tournament_id, number)
    if round_id is not None:
        entry = live.clock_entry(round_id)
        if (
            entry is not None
            and entry["tournament_id"] == tournament_id
            and entry["number"] == number
            and entry["public"]
            and entry["published"]
        ):
            return status_response(request, entry, url)
    _tournament, rnd, _staff = public_round(request.user, tournament_id, number)
    return _status_response(request, rnd, url)
