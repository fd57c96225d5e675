"""Self-report: a player's seat page at a paper table is the table's result —
the current one, and with self-report on the player's report and
confirmation — shown and taken here, with the staff's result entry, through
scoring's selectors, forms and services.

Not routed: the seat wing's seat view (:mod:`tournaments.play.views.seat`)
resolves the link and hands a paper table's seat here.
"""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from scoring import selectors, services
from scoring.forms import EntryMetaForm, SheetForm
from tournaments.addresses import client_address
from tournaments.models import Seat
from tournaments.params import parse_int
from tournaments.problems import problem
from tournaments.selectors import seats_in_order


def paper_seat_page(request, seat: Seat, token: str):
    """The seat page of a paper table (``p/<token>/``, the seat resolved by the
    seat wing's view): the players and the current result; with self-report
    on, the result form and the confirmation of a reported result."""
    table = seat.table
    tournament = table.round.tournament
    seats = seats_in_order(table)
    context = selectors.result_page(tournament, table, seats, None)
    context.update(me=seat, token=token)
    schema, unplayable = services.result_sheet_schema(tournament=tournament, players=len(seats))
    context["unplayable"] = unplayable
    context["pending_mine"] = selectors.confirmed_by_seat(context["pending"], seat.position)
    if not tournament.self_report or schema is None:
        if request.method == "POST":
            context["error"] = unplayable or _(
                "Players don't report results in this tournament: "
                "hand the sheet to the Turnierleitung."
            )
            return render(request, "play/seat_page.html", context, status=403)
        return render(request, "play/seat_page.html", context)
    names = [s.name for s in seats]
    context["sheet_form"] = SheetForm(schema=schema, names=names)
    context["meta"] = EntryMetaForm(
        initial={"expected_version": context["latest"].version if context["latest"] else None}
    )
    if request.method == "POST" and request.POST.get("action") == "confirm":
        return _seat_confirm(request, seat, token, context)
    status = 200
    if request.method == "POST":
        saved, status = _seat_report(request, seat, token, schema, names, context)
        if saved is not None:
            return saved
    return render(request, "play/seat_page.html", context, status=status)


def _seat_confirm(request, seat, token, context):
    """A player confirms the version another player of the table reported."""
    version = parse_int(request.POST.get("version", ""), minimum=1)
    sub = selectors.submission_of(seat.table, version)
    if sub is None:
        return problem(request, _("That result version does not exist."), status=404)
    try:
        services.result_confirm(submission=sub, by_seat=seat.position)
    except services.ServiceError as exc:
        context["error"] = str(exc)
        status = 409 if isinstance(exc, services.ResultConflict) else 400
        return render(request, "play/seat_page.html", context, status=status)
    messages.success(request, _("Thank you: your confirmation is saved."))
    return redirect("seat_link", token)


def _seat_report(request, seat, token, schema, names, context) -> tuple[object, int]:
    """A player reports the table's result: the redirect after a save, else
    None and the page's status with the forms and the error in ``context``."""
    table = seat.table
    sheet_form = SheetForm(request.POST, schema=schema, names=names)
    data = request.POST.copy()
    meta = EntryMetaForm(data)
    context.update(sheet_form=sheet_form, meta=meta)
    if not (sheet_form.is_valid() and meta.is_valid()):
        return None, 200
    try:
        services.result_submit(
            table=table,
            sheet=sheet_form.sheet(),
            by_seat=seat.position,
            source="player",
            from_address=client_address(request),
            expected_version=meta.cleaned_data["expected_version"],
            ended_before_time=services.player_report_ended_before_time(table=table),
        )
    except services.ResultInvalid as exc:
        sheet_form.add_problems(exc.problems)
    except services.ResultConflict as exc:
        context.update(selectors.conflict_page(exc, context["seats"]))
        data["expected_version"] = exc.other.version if exc.other else ""
        context["meta"] = EntryMetaForm(data)
        context["meta"].is_valid()
        return None, 409
    except services.ServiceError as exc:
        context["error"] = str(exc)
        return None, 400
    else:
        messages.success(
            request,
            _("Result saved. It counts when every player of the table confirms it."),
        )
        return redirect("seat_link", token), 200
    return None, 200
