"""The round and its clock: the organizer's round page (start, pause, resume,
extend, per-table extension), the projector and the public round page, and
the small status partial every open page polls."""

from __future__ import annotations

from datetime import datetime

from django.contrib import messages
from django.db.models import Exists, OuterRef, Prefetch
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils import timezone
from django.utils.html import escape
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from scoring.models import Submission
from tournaments import live
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
    since the epoch, for the browser's offset), the time left, tables done —
    from the round's shared cache entry (:mod:`tournaments.live`)."""
    entry = live.clock_entry(rnd.pk)
    if entry is None:
        raise Http404
    return live.clock_context(entry) | {"round": rnd}


_SERVER_MS, _STATUS_URL = "@@server-ms@@", "@@status-url@@"
#: the rendered partial per (round, entry, language, big clock), with the
#: server time and the poll URL left as markers: rendered once per entry
#: (about once a second) by each process instead of once per phone. Derived
#: from the shared entry and keyed by its time, so every process answers the
#: same; bounded.
_rendered: dict[tuple, str] = {}


def status_response(request, entry: dict, status_url: str):
    """The polled status partial. A closed round says so (HX-Trigger
    "roundClosed"); once nothing is left to wait for (every table done) the
    answer has htmx's status 286, which stops the poll."""
    context = live.clock_context(entry)
    big = request.GET.get("big") == "1"
    key = (entry["round_id"], entry["computed"], get_language(), big)
    html = _rendered.get(key)
    if html is None:
        html = render_to_string(
            "tournaments/round/status.html",
            context | {"status_url": _STATUS_URL, "big": big, "server_ms": _SERVER_MS},
            request,
        )
        if len(_rendered) > 512:
            _rendered.clear()
        _rendered[key] = html
    html = html.replace(_SERVER_MS, str(context["server_ms"]), 1).replace(
        _STATUS_URL, escape(status_url)
    )
    response = HttpResponse(html)
    if context["closed"]:
        response["HX-Trigger"] = "roundClosed"
    if context["finished"]:
        response.status_code = 286
    return response


def _status_response(request, rnd: Round, status_url: str):
    entry = live.clock_entry(rnd.pk)
    if entry is None:
        raise Http404
    return status_response(request, entry, status_url)


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
    _tournament, rnd, _staff = _public_round(request, tournament_id, number)
    return _status_response(request, rnd, url)
