"""CSV/JSON exports of players, seatings, results and standings; the full
tournament export and its re-import.

CSV is made for spreadsheets and written by :mod:`tournaments.csvfile` (the
one CSV writer): in German ``;``, decimal commas and German column titles, in
English ``,``, decimal points and the field names; text cells never become
formulas. JSON is for programs: a list of objects keyed by the field names,
numbers as JSON numbers, the same in every language.
"""

import json
from decimal import Decimal

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods

from scoring.exchange import jobs
from scoring.exchange.export import export_json
from scoring.exchange.models import ImportJob
from scoring.standings import listings
from tournaments import csvfile, limits
from tournaments.permissions import tournament_view

FORMATS = ("csv", "json")


def _json_default(value):
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    raise TypeError(f"not JSON serializable: {type(value).__name__}")


HEADERS = {
    "players": [
        "id",
        "name",
        "club",
        "rating",
        "birth_year",
        "team",
        "checked_in",
        "dropped",
        "first_round",
    ],
    "seatings": ["round", "table", "seat", "player_id", "name", "club"],
    "results": [
        "round",
        "table",
        "seat",
        "player_id",
        "name",
        "rank",
        "figure",
        "points",
        "bye",
        "version",
        "bot",
    ],
    "standings": [
        "place",
        "shared",
        "player_id",
        "name",
        "club",
        "points",
        "figures",
        "opponents",
        "wins",
        "head_to_head",
        "rating",
        "games",
        "byes",
        "dropped",
        "stage",
        "stage_rank",
        "bot_games",
    ],
}


def _download(content: bytes, content_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@tournament_view("export")
@require_GET
def export_center(request, tournament):
    return render(
        request,
        "scoring/exports.html",
        {
            "tournament": tournament,
            "role": request.tournament_role,
            "exports": [
                ("players", _("Players")),
                ("seatings", _("Seatings")),
                ("results", _("Results")),
                ("standings", _("Standings")),
            ],
        },
    )


@tournament_view("export")
@require_GET
def export_download(request, tournament, what, fmt):
    if what not in listings.EXPORTS or fmt not in FORMATS:
        raise Http404
    rows = listings.EXPORTS[what](tournament)
    name = f"{what}-t{tournament.pk}.{fmt}"
    if fmt == "json":
        text = json.dumps(rows, ensure_ascii=False, indent=1, default=_json_default)
        return _download(text.encode(), "application/json; charset=utf-8", name)
    header = HEADERS[what]
    content = csvfile.write_csv(
        listings.csv_rows(rows),
        header,
        language=translation.get_language(),
        titles=[listings.csv_title(key) for key in header],
    )
    return _download(content, csvfile.CONTENT_TYPE, name)


@tournament_view("export_all")
@require_GET
def tournament_export(request, tournament):
    return _download(
        export_json(tournament).encode(),
        "application/json; charset=utf-8",
        f"tournament-{tournament.pk}.json",
    )


class ImportForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Tournament export (JSON)"),
        help_text=gettext_lazy("A file saved with “Export the whole tournament”."),
    )

    def clean_file(self):
        f = self.cleaned_data["file"]
        if f.size > limits.MAX_IMPORT_BYTES:
            raise forms.ValidationError(
                _("The file is too large (at most %(n)s MB).")
                % {"n": limits.mb(limits.MAX_IMPORT_BYTES)}
            )
        return f


@login_required
@require_http_methods(["GET", "POST"])
def tournament_import(request):
    """Upload an export: the file is stored and read by the worker (never
    here); the job's page follows it to a NEW tournament owned by the user,
    or to the list of problems and nothing created."""
    form = ImportForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            job = jobs.start(
                owner=request.user,
                data=upload.read(),
                name=upload.name or "",
                language=translation.get_language() or "",
            )
        except jobs.TooMany:
            form.add_error(
                "file",
                _("%(n)s imports of yours are still being read: wait until they are done.")
                % {"n": jobs.MAX_OPEN},
            )
        else:
            return redirect("tournament_import_job", job.pk)
    return render(request, "scoring/import.html", {"form": form, "problems": []})


@login_required
@require_GET
def tournament_import_job(request, job_id: int):
    """An import's progress and outcome (the page polls its partial)."""
    job = get_object_or_404(ImportJob, pk=job_id, owner=request.user)
    template = "scoring/import_job.html#job" if request.htmx else "scoring/import_job.html"
    return render(request, template, {"job": job})
