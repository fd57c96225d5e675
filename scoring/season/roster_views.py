"""The organizer's club roster: people across tournaments, merges, and linking
a tournament's entries to roster people."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.defaultfilters import floatformat
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games import ENGINES
from scoring.exchange.format import ImportRefused
from scoring.season import exchange as club_exchange
from scoring.season import selectors as season
from scoring.season.chart import rating_svg
from tournaments import selectors
from tournaments.forms import ClubImportForm, PersonForm, PersonMergeForm
from tournaments.models import Player
from tournaments.permissions import tournament_view
from tournaments.roster import EXACT, NEAR, NEW
from tournaments.roster_models import Person, PersonMerge
from tournaments.services import roster as services
from tournaments.views._helpers import service_error_as_message


def _people(user):
    return selectors.roster_people(user)


@login_required
@require_http_methods(["GET", "POST"])
def roster_list(request):
    form = PersonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with service_error_as_message(request, form=form):
            person = services.person_create(owner=request.user, **form.cleaned_data)
            messages.success(request, _("%(name)s added to the roster.") % {"name": person})
            return redirect("roster")
    query = request.GET.get("q", "")[:100].strip()
    people = selectors.roster_list(request.user, query)
    merges = PersonMerge.objects.filter(kept__owner=request.user).select_related(
        "kept", "merged", "by"
    )[:20]
    return render(
        request,
        "tournaments/roster/list.html",
        {
            "form": form,
            "people": people,
            "query": query,
            "merge_form": PersonMergeForm(people=selectors.in_name_order(_people(request.user))),
            "merges": merges,
        },
    )


def _one_decimal(value: float) -> str:
    """A rating as the person page writes it (``floatformat:1``): "15,8" in German."""
    return floatformat(value, 1)


@login_required
@require_http_methods(["GET", "POST"])
def person_detail(request, person_id):
    person = get_object_or_404(Person, pk=person_id, owner=request.user)
    kept = selectors.kept_person(person)
    if kept.pk != person.pk:  # merged: the kept entry (a cycle still ends)
        return redirect("person_detail", kept.pk)
    form = PersonForm(request.POST or None, instance=person)
    if request.method == "POST" and form.is_valid():
        duplicate = (
            _people(request.user)
            .filter(name=form.cleaned_data["name"], club=form.cleaned_data["club"])
            .exclude(pk=person.pk)
        )
        if duplicate.exists():
            form.add_error(
                "name", _("%(name)s is already in your roster.") % {"name": duplicate[0]}
            )
        else:
            form.save()
            messages.success(request, _("Saved."))
            return redirect("person_detail", person.pk)
    entries = season.person_tournaments(person)
    ratings = []
    for game, rating in season.person_ratings(person).items():
        values = [v for _key, v in rating.history]
        ratings.append(
            {
                "game": ENGINES[game].name,
                "rating": rating,
                "chart": rating_svg(values, label=ENGINES[game].name, number=_one_decimal),
            }
        )
    return render(
        request,
        "tournaments/roster/person.html",
        {
            "person": person,
            "form": form,
            "entries": entries,
            "ratings": ratings,
            "series": person.owner.series.filter(tournaments__players__person=person).distinct(),
        },
    )


@login_required
@require_POST
def person_merge(request):
    form = PersonMergeForm(request.POST, people=_people(request.user))
    if form.is_valid():
        with service_error_as_message(request):
            services.person_merge(
                kept=form.cleaned_data["kept"], merged=form.cleaned_data["merged"], by=request.user
            )
            messages.success(
                request,
                _("%(merged)s merged into %(kept)s.")
                % {"merged": form.cleaned_data["merged"], "kept": form.cleaned_data["kept"]},
            )
    else:
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
    return redirect("roster")


@login_required
@require_POST
def person_merge_undo(request, merge_id):
    merge = get_object_or_404(PersonMerge, pk=merge_id, kept__owner=request.user)
    with service_error_as_message(request):
        person = services.person_merge_undo(merge=merge, by=request.user)
        messages.success(request, _("Merge undone: %(name)s is back.") % {"name": person})
    return redirect("roster")


@tournament_view("manage_players")
@require_http_methods(["GET", "POST"])
def roster_people(request, tournament):
    """A tournament's entries beside the roster: each with its exact or near
    matches to confirm, or a new roster person to create. Nothing is linked
    without a press."""
    if request.method == "POST":
        return _roster_people_post(request, tournament)
    rows = selectors.roster_person_rows(tournament, request.user)
    exact = sum(1 for r in rows if r["kind"] == EXACT and len(r["suggestions"]) == 1)
    return render(
        request,
        "tournaments/roster/people.html",
        {
            "tournament": tournament,
            "rows": rows,
            "exact_count": exact,
            "new_count": sum(1 for r in rows if r["kind"] == NEW),
            "near_count": sum(1 for r in rows if r["kind"] == NEAR),
            "EXACT": EXACT,
            "NEAR": NEAR,
        },
    )


def _roster_people_post(request, tournament):
    action = request.POST.get("action", "")
    with service_error_as_message(request):
        if action == "attach_exact":
            players = list(tournament.players.filter(person=None))
            found = selectors.roster_matches(request.user, [(p.name, p.club) for p in players])
            attached = 0
            for player, (kind, people) in zip(players, found, strict=True):
                if kind == EXACT and len(people) == 1:
                    services.player_attach_person(player=player, person=people[0], by=request.user)
                    attached += 1
            messages.success(
                request,
                ngettext("%(count)d entry linked.", "%(count)d entries linked.", attached)
                % {"count": attached},
            )
            return redirect("roster_people", tournament.pk)
        if action == "add_all":
            added = services.players_add_to_roster(tournament=tournament, by=request.user)
            if added:
                messages.success(
                    request,
                    ngettext(
                        "%(count)d player added to the roster.",
                        "%(count)d players added to the roster.",
                        len(added),
                    )
                    % {"count": len(added)},
                )
            else:
                messages.info(
                    request,
                    _("Nobody to add: every player is linked or has a match to choose."),
                )
            return redirect("roster_people", tournament.pk)
        player = get_object_or_404(
            Player, pk=_int(request.POST.get("player")), tournament=tournament
        )
        if action == "attach":
            person = get_object_or_404(
                Person, pk=_int(request.POST.get("person")), owner=request.user
            )
            services.player_attach_person(player=player, person=person, by=request.user)
            messages.success(
                request,
                _("%(player)s linked to %(person)s.") % {"player": player, "person": person},
            )
        elif action == "create":
            person = services.person_from_player(player=player, by=request.user)
            messages.success(request, _("%(name)s added to the roster.") % {"name": person})
        elif action == "detach":
            services.player_attach_person(player=player, person=None, by=request.user)
            messages.success(request, _("%(player)s unlinked.") % {"player": player})
        else:
            messages.error(request, _("Unknown action."))
    return redirect("roster_people", tournament.pk)


def _int(value) -> int:
    """A positive id from a form value; 0 (never an id) when it isn't one."""
    value = (value or "").strip()
    return int(value) if value.isascii() and value.isdigit() and len(value) < 12 else 0


@login_required
@require_GET
def club_export(request):
    """The whole club — roster, tournaments, links, series — as one JSON file."""
    response = HttpResponse(
        club_exchange.export_json(request.user).encode(), content_type="application/json"
    )
    response["Content-Disposition"] = 'attachment; filename="club.json"'
    return response


@login_required
@require_http_methods(["GET", "POST"])
def club_import(request):
    form = ClubImportForm(request.POST or None, request.FILES or None)
    problems = []
    if request.method == "POST" and form.is_valid():
        try:
            counts = club_exchange.import_club(
                data=form.cleaned_data["file"].read(), owner=request.user
            )
        except ImportRefused as exc:
            problems = exc.errors
        else:
            messages.success(
                request,
                _(
                    "Club imported: %(people)s new people (%(known)s already in the roster), "
                    "%(tournaments)s tournaments, %(series)s series."
                )
                % counts,
            )
            return redirect("roster")
    return render(request, "tournaments/roster/import.html", {"form": form, "problems": problems})
