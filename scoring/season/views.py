"""Series and their season standings: the organizer's pages, a person's
season, the public season page, CSV and PDF."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scoring.printing import documents
from scoring.printing.season import render_season
from scoring.season import selectors
from scoring.season import services as series_services
from scoring.season.forms import SeriesForm, SeriesTournamentForm
from scoring.season.models import Series
from scoring.standings import listings
from tournaments import csvfile
from tournaments.models import Tournament
from tournaments.roster_models import Person
from tournaments.views._helpers import service_error_as_message


def _own(request, series_id) -> Series:
    return get_object_or_404(Series, pk=series_id, owner=request.user)


def _table(series: Series) -> dict:
    """The page data of a season: rows with one cell per tournament."""
    rows, tournaments = selectors.series_standings(series)
    index = {t.pk: i for i, t in enumerate(tournaments)}
    table = []
    for row in rows:
        cells = [None] * len(tournaments)
        for result in row.results:
            cells[index[result.event]] = result
        table.append({"row": row, "cells": cells})
    return {"series": series, "tournaments": tournaments, "table": table}


@login_required
@require_http_methods(["GET", "POST"])
def series_list(request):
    form = SeriesForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        series = form.save(commit=False)
        series.owner = request.user
        with service_error_as_message(request, form=form):
            series_services.series_save(series=series)
            messages.success(request, _("Series created."))
            return redirect("series_detail", series.pk)
    return render(
        request,
        "scoring/season/list.html",
        {"form": form, "series_list": Series.objects.filter(owner=request.user)},
    )


@login_required
@require_http_methods(["GET", "POST"])
def series_detail(request, series_id):
    series = _own(request, series_id)
    form = SeriesForm(request.POST or None, instance=series)
    if request.method == "POST" and form.is_valid():
        with service_error_as_message(request, form=form):
            series_services.series_save(series=form.save(commit=False))
            messages.success(request, _("Series saved."))
            return redirect("series_detail", series.pk)
    candidates = Tournament.objects.filter(owner=request.user, game=series.game).exclude(
        series=series
    )
    context = _table(series)
    context.update(
        {
            "form": form,
            "add_form": SeriesTournamentForm(tournaments=candidates),
            "organizer": True,
        }
    )
    return render(request, "scoring/season/detail.html", context)


@login_required
@require_POST
def series_tournament_add(request, series_id):
    series = _own(request, series_id)
    form = SeriesTournamentForm(
        request.POST, tournaments=Tournament.objects.filter(owner=request.user)
    )
    if form.is_valid():
        with service_error_as_message(request):
            series_services.series_add_tournament(
                series=series, tournament=form.cleaned_data["tournament"], by=request.user
            )
    else:
        messages.error(request, _("Choose one of your tournaments."))
    return redirect("series_detail", series.pk)


@login_required
@require_POST
def series_tournament_remove(request, series_id):
    series = _own(request, series_id)
    form = SeriesTournamentForm(request.POST, tournaments=series.tournaments.all())
    if not form.is_valid():
        messages.error(request, _("Choose one of your tournaments."))
        return redirect("series_detail", series.pk)
    tournament = form.cleaned_data["tournament"]
    series_services.series_remove_tournament(series=series, tournament=tournament, by=request.user)
    return redirect("series_detail", series.pk)


@login_required
@require_GET
def series_person(request, series_id, person_id):
    series = _own(request, series_id)
    person = get_object_or_404(Person, pk=person_id, owner=request.user)
    rows, tournaments = selectors.series_standings(series)
    row = next((r for r in rows if r.person.person_id == person.pk), None)
    names = {t.pk: t for t in tournaments}
    results = [(names[r.event], r) for r in row.results] if row else []
    return render(
        request,
        "scoring/season/person.html",
        {"series": series, "person": person, "row": row, "results": results},
    )


def season_public(request, series_id):
    series = get_object_or_404(Series, pk=series_id)
    if not series.public:
        raise Http404
    context = _table(series)
    context["organizer"] = False
    return render(request, "scoring/season/public.html", context)


def _export_rows(context) -> list[dict]:
    out = []
    for line in context["table"]:
        row = line["row"]
        item = {
            "place": row.place or "",
            "name": row.person.name,
            "club": row.person.club,
            "total": row.total,
            "played": row.played,
        }
        for i, cell in enumerate(line["cells"], start=1):
            item[f"t{i}"] = "" if cell is None else cell.points
            item[f"t{i}_counts"] = "" if cell is None else cell.counted
        out.append(item)
    return out


@login_required
@require_GET
def series_csv(request, series_id):
    context = _table(_own(request, series_id))
    rows = _export_rows(context)
    header = ["place", "name", "club", "total", "played"]
    for i in range(1, len(context["tournaments"]) + 1):
        header += [f"t{i}", f"t{i}_counts"]
    response = HttpResponse(
        csvfile.write_csv(
            rows,
            header,
            language=translation.get_language(),
            titles=[listings.csv_title(key) for key in header],
        ),
        content_type=csvfile.CONTENT_TYPE,
    )
    response["Content-Disposition"] = f'attachment; filename="season-{series_id}.csv"'
    return response


@login_required
@require_GET
def series_pdf(request, series_id):
    context = _table(_own(request, series_id))
    rows = []
    for line in context["table"]:
        row = line["row"]
        cells = []
        for cell in line["cells"]:
            if cell is None:
                cells.append("")
            else:
                cells.append(str(cell.points) if cell.counted else f"({cell.points})")
        rows.append(
            {
                "place": row.place,
                "name": row.person.name,
                "club": row.person.club,
                "total": row.total,
                "played": row.played,
                "results": cells,
            }
        )
    pdf = render_season(
        {"name": context["series"].name},
        [t.name for t in context["tournaments"]],
        rows,
        gettext=_,
        decimal_separator=documents.decimal_separator(),
    )
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'attachment; filename="season-{series_id}.pdf"'
    return response
