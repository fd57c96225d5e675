"""Result entry: a table's form (from the round, by table number, from the QR
code on the printed sheet). A player's seat page, which also takes a paper
table's result from its players, is the seat wing's
(:mod:`tournaments.play.views.seat`).

Views are thin: parse the forms, call ``scoring.services``, render.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from scoring import selectors, services, sheet_links
from scoring.forms import EntryMetaForm, SheetForm, TableFindForm
from scoring.models import Submission
from tournaments import clock as pure_clock
from tournaments import providers
from tournaments.addresses import client_address
from tournaments.permissions import may, tournament_view
from tournaments.selectors import round_or_404, seats_in_order
from tournaments.views._helpers import service_error_as_message

# -- staff pages ---------------------------------------------------------------


@tournament_view("enter_results")
@require_http_methods(["GET", "POST"])
def result_entry(request, tournament, number, table):
    """The result form of one table, its current result and its versions."""
    table = selectors.table_or_404(tournament, number, table)
    seats = seats_in_order(table)
    schema, unplayable = services.result_sheet_schema(tournament=tournament, players=len(seats))
    extra = {"unplayable": unplayable}
    names = [s.name for s in seats]
    # opened from a scanned page (``?scan=``): the scans app's part of the form
    scan = providers.entry_scan(tournament, table, request.GET.get("scan"))
    if scan is not None:
        extra["scan"] = scan
    if schema is not None and request.method == "GET":
        extra.update(_blank_entry_forms(request, table, schema, names, scan))
    status = 200
    if scan is not None and schema is not None:
        fields = SheetForm(schema=schema, names=names).fields
        for u in scan["unsure"]:
            u["label"] = fields[u["field"]].label if u["field"] in fields else u["field"]
    if schema is not None and request.method == "POST":
        saved, status = _entry_post(request, table, seats, schema, names, extra)
        if saved is not None:
            if scan is not None and extra.get("saved") is not None:
                providers.entry_scan_saved(page=scan["page"], submission=extra["saved"])
            return saved
    # the page's reads, only when a page is shown (a save redirects)
    context = selectors.result_page(tournament, table, seats, request.tournament_role)
    return render(request, "scoring/entry.html", context | extra, status=status)


def _blank_entry_forms(request, table, schema, names, scan=None) -> dict:
    """The form of a GET: the counted version (else the latest) filled in;
    opened from a scanned page (``?scan=``): what was read of it for sure."""
    latest, version = selectors.prefill_version(table)
    initial = dict(latest.sheet) if latest else None
    if scan is not None:
        initial = scan["values"]
    return {
        "sheet_form": SheetForm(
            initial=initial,
            schema=schema,
            names=names,
            autofocus=True,
        ),
        "meta": EntryMetaForm(
            initial={
                "expected_version": version,
                "via": "qr" if request.GET.get("via") == "qr" else "form",
            }
        ),
    }


def _entry_post(request, table, seats, schema, names, extra) -> tuple[object, int]:
    """A press on the result form: the redirect after a save, else None and
    the page's status with what the page shows in ``extra``."""
    sheet_form = SheetForm(request.POST, schema=schema, names=names, autofocus=True)
    data = request.POST.copy()
    action = request.POST.get("action", "save")
    if action == "early":  # "yes, this table ended before time"
        data["early"] = request.POST.get("early_answer", "")
    meta = EntryMetaForm(data)
    extra.update(sheet_form=sheet_form, meta=meta, action=action)
    if not (sheet_form.is_valid() and meta.is_valid()):
        return None, 200
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
            extra["before_time"] = {"why": step.why, "token": EntryMetaForm.early_token_for(sheet)}
        else:
            sub = services.result_submit(
                table=table,
                sheet=sheet,
                by=request.user,
                source=meta.cleaned_data.get("via") or "form",
                from_address=client_address(request),
                expected_version=meta.cleaned_data["expected_version"],
                reason=meta.cleaned_data["reason"],
                ended_before_time=step.ended_before_time,
                handed_in_late=meta.cleaned_data["handed_in_late"],
            )
            _saved_message(request, table, sub)
            extra["saved"] = sub
            return _after_save(request, table, action), 200
    except services.ResultInvalid as exc:
        sheet_form.add_problems(exc.problems)
    except services.ResultConflict as exc:
        extra.update(selectors.conflict_page(exc, seats))
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
        return None, 409
    except services.ReasonRequired as exc:
        meta.add_error("reason", str(exc))
    except services.ServiceError as exc:
        extra["error"] = str(exc)
    return None, 200


def _after_save(request, table, action: str):
    """Where a save leads: the same table, or with "save and next" the next
    table without a result (the question before time keeps the press that
    led to it)."""
    tournament_id, number = table.round.tournament_id, table.round.number
    if action == "next" or (action == "early" and request.POST.get("then") == "next"):
        nxt = selectors.next_table_without_result(table)
        if nxt is not None:
            return redirect("result_entry", tournament_id, number, nxt.number)
        messages.info(
            request,
            _("Every table of round %(round)s has a result now.") % {"round": number},
        )
        return redirect("result_find", tournament_id, number)
    return redirect("result_entry", tournament_id, number, table.number)


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


@tournament_view("confirm_results")
@require_POST
def result_confirm(request, tournament, number, table, version):
    """A second person confirms a version waiting for confirmation."""
    table = selectors.table_or_404(tournament, number, table)
    sub = get_object_or_404(Submission, table=table, version=version)
    with service_error_as_message(request):
        sub = services.result_confirm(submission=sub, by=request.user)
        if sub.status == Submission.CONFIRMED:
            msg = _("Table %(table)s: version %(version)s confirmed.")
        else:  # a sheet read from a scan, checked by its uploader
            msg = _(
                "Table %(table)s: version %(version)s saved; it counts once someone else "
                "confirms it."
            )
        messages.success(request, msg % {"table": table.number, "version": sub.version})
    return redirect("result_entry", tournament.pk, number, table.number)


@tournament_view("enter_results")
@require_http_methods(["GET"])
def result_find(request, tournament, number):
    """'Go to table N' and the round's tables with their result status."""
    rnd = round_or_404(tournament, number)
    form = TableFindForm(request.GET if "table" in request.GET else None)
    if form.is_bound and form.is_valid():
        wanted = form.cleaned_data["table"]
        if rnd.tables.filter(number=wanted).exists():
            return redirect("result_entry", tournament.pk, number, wanted)
        form.add_error(
            "table",
            _("Round %(round)s has no table %(table)s.") % {"round": number, "table": wanted},
        )
    tables = selectors.round_tables_with_results(rnd)
    missing = sum(1 for t in tables if not t.has_result)
    return render(
        request,
        "scoring/entry/find.html",
        {
            "tournament": tournament,
            "role": request.tournament_role,
            "round": rnd,
            "form": form,
            "tables": tables,
            "missing": missing,
            # every table has its result: the round can end now (one press)
            "can_end": pure_clock.close_refusal(
                rnd.status, published=rnd.published, tables=len(tables), open_tables=missing
            )
            is None,
        },
    )


# -- signed links --------------------------------------------------------------


def _invalid_link(request, kind: str):
    return render(request, "scoring/entry/link_invalid.html", {"kind": kind}, status=404)


def _sheet_landing(request, table, tournament):
    """A sheet's QR code scanned without an account (a player, most often):
    what the code is for — the players report through their seat links where
    the tournament lets them, else the sheet goes to the Turnierleitung — and
    the login for staff, which leads on to the result form."""
    login = reverse("login") + "?" + urlencode({"next": request.get_full_path()})
    context = {
        "table": table,
        "round": table.round,
        "tournament": tournament,
        "self_report": tournament.self_report
        and not table.digital
        and tournament.archived_at is None,
        "login_url": login,
    }
    return render(request, "play/sheet_landing.html", context)


def sheet_link(request, token):
    """The QR code on a printed sheet: the table's result form, for its staff."""
    table = selectors.table_by_id(sheet_links.table_from_token(token))
    if table is None:
        return _invalid_link(request, "sheet")
    tournament = table.round.tournament
    if not request.user.is_authenticated:
        return _sheet_landing(request, table, tournament)
    if not may(tournament.role_of(request.user), "enter_results"):
        raise PermissionDenied
    url = reverse("result_entry", args=[tournament.pk, table.round.number, table.number])
    return redirect(url + "?via=qr")
