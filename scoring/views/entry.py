"""Result entry: a table's form (from the round, by table number, from the QR
code on the printed sheet) and a player's seat page.

Views are thin: parse the forms, call ``scoring.services``, render.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from scoring import links, services
from scoring.forms import EntryMetaForm, SheetForm, TableFindForm
from scoring.models import Submission
from scoring.selectors import (
    describe_versions,
    next_table_without_result,
    prefill_version,
    result_versions,
    round_tables_with_results,
)
from tournaments.models import Round, Table
from tournaments.params import parse_int
from tournaments.permissions import may, tournament_view
from tournaments.problems import problem
from tournaments.selectors import seats_in_order
from tournaments.views._helpers import (
    digital_seat_context,
    seat_link_refused,
)

# -- reads ---------------------------------------------------------------------


def _table_of(tournament, number: int, table: int) -> Table:
    return get_object_or_404(
        Table.objects.select_related("round__tournament"),
        round__tournament=tournament,
        round__number=number,
        number=table,
    )


def _schema(tournament, players: int) -> tuple[list[dict] | None, str]:
    """The sheet's fields, or None and why there is no form."""
    engine = tournament.engine
    if not engine.min_players <= players <= engine.max_players:
        return None, _(
            "%(game)s is played by %(lo)s to %(hi)s players; this table has %(n)s. "
            "Fix the seating before entering a result."
        ) % {"game": engine.name, "lo": engine.min_players, "hi": engine.max_players, "n": players}
    return engine.sheet_schema(players, tournament.game_options or None), ""


def _client_address(request) -> str | None:
    return request.META.get("REMOTE_ADDR") or None


def _entry_context(tournament, table, seats, history, role) -> dict:
    current = next((s for s in history if s.status == Submission.CONFIRMED), None)
    pending = next((s for s in history if s.status == Submission.PENDING), None)
    describe_versions(history, seats)
    return {
        "tournament": tournament,
        "role": role,
        "round": table.round,
        "table": table,
        "seats": seats,
        "history": history,
        "current": current,
        "pending": pending,
        "latest": history[0] if history else None,
        "engine": tournament.engine,
    }


# -- staff pages ---------------------------------------------------------------


@tournament_view("enter_results")
@require_http_methods(["GET", "POST"])
def result_entry(request, tournament, number, table):
    """The result form of one table, its current result and its versions."""
    table = _table_of(tournament, number, table)
    seats = seats_in_order(table)
    schema, unplayable = _schema(tournament, len(seats))
    names = [s.player.name for s in seats]
    extra = {"unplayable": unplayable}

    def page(status=200):
        # the page's reads, only when a page is shown (a save redirects)
        history = result_versions(table)
        context = _entry_context(tournament, table, seats, history, request.tournament_role)
        context.update(extra)
        return render(request, "scoring/entry.html", context, status=status)

    if schema is None:
        return page()
    if request.method == "GET":
        latest = prefill_version(table)
        extra["sheet_form"] = SheetForm(
            initial=dict(latest[0].sheet) if latest[0] else None,
            schema=schema,
            names=names,
            autofocus=True,
        )
        extra["meta"] = EntryMetaForm(
            initial={
                "expected_version": latest[1],
                "via": "qr" if request.GET.get("via") == "qr" else "form",
            }
        )
        return page()

    sheet_form = SheetForm(request.POST, schema=schema, names=names, autofocus=True)
    data = request.POST.copy()
    action = request.POST.get("action", "save")
    if action == "early":  # "yes, this table ended before time"
        data["early"] = request.POST.get("early_answer", "")
    meta = EntryMetaForm(data)
    status = 200
    if sheet_form.is_valid() and meta.is_valid():
        sheet = sheet_form.sheet()
        try:
            step = services.staff_entry_step(
                table=table,
                sheet=sheet,
                wants_check=action == "check",
                previewed=meta.previewed(sheet),
                before_time_confirmed=meta.ended_before_time(sheet),
            )
            if step.step == services.PREVIEW:
                _show_preview(extra, table, sheet, meta, names)
                data["checked"] = EntryMetaForm.token_for(sheet)
                if step.reason_needed and not meta.cleaned_data["reason"]:
                    # type the reason, press Enter: saved
                    meta.fields["reason"].widget.attrs["autofocus"] = True
            elif step.step == services.ASK_BEFORE_TIME:
                extra["before_time"] = {
                    "why": step.why,
                    "token": EntryMetaForm.early_token_for(sheet),
                }
            else:
                sub = services.result_submit(
                    table=table,
                    sheet=sheet,
                    by=request.user,
                    source=meta.cleaned_data.get("via") or "form",
                    from_address=_client_address(request),
                    expected_version=meta.cleaned_data["expected_version"],
                    reason=meta.cleaned_data["reason"],
                    ended_before_time=step.ended_before_time,
                    handed_in_late=meta.cleaned_data["handed_in_late"],
                )
                _saved_message(request, table, sub)
                # the question before time keeps the press that led to it
                if action == "next" or (action == "early" and request.POST.get("then") == "next"):
                    nxt = next_table_without_result(table)
                    if nxt is not None:
                        return redirect("result_entry", tournament.pk, number, nxt.number)
                    messages.info(
                        request,
                        _("Every table of round %(round)s has a result now.") % {"round": number},
                    )
                    return redirect("result_find", tournament.pk, number)
                return redirect("result_entry", tournament.pk, number, table.number)
        except services.ResultInvalid as exc:
            sheet_form.add_problems(exc.problems)
        except services.ResultConflict as exc:
            status = 409
            _show_conflict(extra, exc, seats)
            # saving again is a decision taken after seeing the other's entry:
            # the preview against the version now there, so one press saves
            data["expected_version"] = exc.other.version if exc.other else ""
            data["checked"] = ""
            if exc.other is not None:
                try:
                    _show_preview(extra, table, sheet, None, names)
                    data["checked"] = EntryMetaForm.token_for(sheet)
                except services.ServiceError:
                    pass
        except services.ReasonRequired as exc:
            meta.add_error("reason", str(exc))
        except services.ServiceError as exc:
            extra["error"] = str(exc)
    extra.update(sheet_form=sheet_form, meta=meta, action=action)
    return page(status)


def _show_preview(extra: dict, table, sheet: dict, meta, names: list[str]) -> None:
    preview = services.result_preview_correction(
        table=table,
        sheet=sheet,
        **({"expected_version": meta.cleaned_data["expected_version"]} if meta else {}),
    )
    extra["preview"] = preview
    extra["preview_rows"] = [
        {"name": n, "rank": r, "figure": f}
        for n, r, f in zip(names, preview.result.ranks, preview.result.figures, strict=False)
    ]


def _saved_message(request, table, sub) -> None:
    if sub.status == Submission.CONFIRMED:
        msg = _("Table %(table)s: version %(version)s saved and counted.")
    else:
        msg = _(
            "Table %(table)s: version %(version)s saved; it counts once someone else confirms it."
        )
    messages.success(request, msg % {"table": table.number, "version": sub.version})


def _show_conflict(extra: dict, exc, seats) -> None:
    extra["conflict"] = str(exc)
    extra["other"] = exc.other
    if exc.other is not None:
        describe_versions([exc.other], seats)


@tournament_view("confirm_results")
@require_POST
def result_confirm(request, tournament, number, table, version):
    """A second person confirms a version waiting for confirmation."""
    table = _table_of(tournament, number, table)
    sub = get_object_or_404(Submission, table=table, version=version)
    try:
        services.result_confirm(submission=sub, by=request.user)
    except services.ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            _("Table %(table)s: version %(version)s confirmed.")
            % {"table": table.number, "version": sub.version},
        )
    return redirect("result_entry", tournament.pk, number, table.number)


@tournament_view("enter_results")
@require_http_methods(["GET"])
def result_find(request, tournament, number):
    """'Go to table N' and the round's tables with their result status."""
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    form = TableFindForm(request.GET if "table" in request.GET else None)
    if form.is_bound and form.is_valid():
        wanted = form.cleaned_data["table"]
        if rnd.tables.filter(number=wanted).exists():
            return redirect("result_entry", tournament.pk, number, wanted)
        form.add_error(
            "table",
            _("Round %(round)s has no table %(table)s.") % {"round": number, "table": wanted},
        )
    tables = round_tables_with_results(rnd)
    return render(
        request,
        "scoring/entry/find.html",
        {
            "tournament": tournament,
            "role": request.tournament_role,
            "round": rnd,
            "form": form,
            "tables": tables,
            "missing": sum(1 for t in tables if not t.has_result),
        },
    )


# -- signed links --------------------------------------------------------------


def _invalid_link(request, kind: str):
    return render(request, "scoring/entry/link_invalid.html", {"kind": kind}, status=404)


def sheet_link(request, token):
    """The QR code on a printed sheet: the table's result form, for its staff."""
    table_id = links.table_from_token(token)
    table = (
        Table.objects.select_related("round__tournament").filter(pk=table_id).first()
        if table_id is not None
        else None
    )
    if table is None:
        return _invalid_link(request, "sheet")
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    tournament = table.round.tournament
    if not may(tournament.role_of(request.user), "enter_results"):
        raise PermissionDenied
    url = reverse("result_entry", args=[tournament.pk, table.round.number, table.number])
    return redirect(url + "?via=qr")


@require_http_methods(["GET", "POST"])
def seat_link(request, token):
    """A player's page (no account): his table and seat, the players in seat
    order, the current result; with self-report on, the result form and the
    confirmation of a reported result."""
    access = links.resolve_seat(token)
    if not access.ok:  # replaced, left, draft, unknown: a clear page, no action
        return seat_link_refused(request, access)
    seat = access.seat
    table = seat.table
    tournament = table.round.tournament
    seats = seats_in_order(table)
    history = result_versions(table)
    context = _entry_context(tournament, table, seats, history, None)
    context.update(me=seat, token=token)
    if table.digital:  # played in the browser: the game instead of the result form
        context.update(digital_seat_context(seat, token))
        if request.method == "POST":
            context["error"] = _("This table plays in the browser: its result comes from the game.")
            return render(request, "scoring/seat.html", context, status=400)
        return render(request, "scoring/seat.html", context)
    schema, unplayable = _schema(tournament, len(seats))
    context["unplayable"] = unplayable
    names = [s.player.name for s in seats]
    pending = context["pending"]
    if pending is not None and pending.by_seat is not None:
        context["pending_mine"] = any(
            c.by_seat == seat.position for c in pending.confirmations.all()
        )
    if not tournament.self_report or schema is None:
        if request.method == "POST":
            context["error"] = unplayable or _(
                "Players don't report results in this tournament: "
                "hand the sheet to the Turnierleitung."
            )
            return render(request, "scoring/seat.html", context, status=403)
        return render(request, "scoring/seat.html", context)

    status = 200
    sheet_form = SheetForm(schema=schema, names=names)
    meta = EntryMetaForm(
        initial={"expected_version": context["latest"].version if context["latest"] else None}
    )
    if request.method == "POST" and request.POST.get("action") == "confirm":
        version = parse_int(request.POST.get("version", ""), minimum=1)
        sub = Submission.objects.filter(table=table, version=version or 0).first()
        if sub is None:
            return problem(request, _("That result version does not exist."), status=404)
        try:
            services.result_confirm(submission=sub, by_seat=seat.position)
        except services.ServiceError as exc:
            context["error"] = str(exc)
            status = 409 if isinstance(exc, services.ResultConflict) else 400
        else:
            messages.success(request, _("Thank you: your confirmation is saved."))
            return redirect("seat_link", token)
    elif request.method == "POST":
        sheet_form = SheetForm(request.POST, schema=schema, names=names)
        data = request.POST.copy()
        meta = EntryMetaForm(data)
        if sheet_form.is_valid() and meta.is_valid():
            rnd = table.round
            try:
                services.result_submit(
                    table=table,
                    sheet=sheet_form.sheet(),
                    by_seat=seat.position,
                    source="player",
                    from_address=_client_address(request),
                    expected_version=meta.cleaned_data["expected_version"],
                    ended_before_time=rnd.status in (Round.SEATED, Round.RUNNING, Round.PAUSED),
                )
            except services.ResultInvalid as exc:
                sheet_form.add_problems(exc.problems)
            except services.ResultConflict as exc:
                status = 409
                _show_conflict(context, exc, seats)
                data["expected_version"] = exc.other.version if exc.other else ""
                meta = EntryMetaForm(data)
                meta.is_valid()
            except services.ServiceError as exc:
                context["error"] = str(exc)
                status = 400
            else:
                messages.success(
                    request,
                    _("Result saved. It counts when every player of the table confirms it."),
                )
                return redirect("seat_link", token)
    context.update(sheet_form=sheet_form, meta=meta)
    return render(request, "scoring/seat.html", context, status=status)
