"""Players of a tournament: register, import, check in, drop, teams."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournaments import selectors, services
from tournaments.forms import PlayerForm, PlayerImportForm, TeamForm
from tournaments.permissions import OWNER, STAFF, tournament_view
from tournaments.player_import import LineError, parse_players
from tournaments.roster import EXACT
from tournaments.services import roster as roster_services


@tournament_view(STAFF)
def player_list(request, tournament):
    return render(
        request,
        "tournaments/players.html",
        {
            "tournament": tournament,
            "players": selectors.players_of(tournament),
            "role": request.tournament_role,
        },
    )


def _row(request, tournament, player, error=None):
    """The htmx answer to a change on one player: his table row."""
    return render(
        request,
        "tournaments/players.html#player-row",
        {
            "tournament": tournament,
            "player": player,
            "role": request.tournament_role,
            "error": error,
        },
    )


def _player_action(service):
    @tournament_view(STAFF)
    @require_POST
    def view(request, tournament, player_id):
        player = get_object_or_404(tournament.players, pk=player_id)
        error = None
        try:
            player = service(request, player)
        except services.ServiceError as exc:
            error = str(exc)
        if request.htmx:
            return _row(request, tournament, player, error)
        if error:
            messages.error(request, error)
        return redirect("player_list", tournament.pk)

    return view


player_check_in = _player_action(
    lambda r, p: services.player_set_checked_in(player=p, checked_in=True, by=r.user)
)
player_check_out = _player_action(
    lambda r, p: services.player_set_checked_in(player=p, checked_in=False, by=r.user)
)
player_drop = _player_action(lambda r, p: services.player_drop(player=p, by=r.user))
player_readd = _player_action(lambda r, p: services.player_readd(player=p, by=r.user))


@tournament_view(OWNER)
@require_http_methods(["GET", "POST"])
def player_add(request, tournament):
    form = PlayerForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        data = dict(form.cleaned_data.items())
        player = services.player_add(tournament=tournament, by=request.user, **data)
        messages.success(request, _("%(name)s registered.") % {"name": player.name})
        return redirect("player_list", tournament.pk)
    return render(request, "tournaments/player_form.html", {"tournament": tournament, "form": form})


@tournament_view(OWNER)
@require_http_methods(["GET", "POST"])
def player_edit(request, tournament, player_id):
    player = get_object_or_404(tournament.players, pk=player_id)
    form = PlayerForm(request.POST or None, instance=player, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("%(name)s saved.") % {"name": player.name})
        return redirect("player_list", tournament.pk)
    return render(
        request,
        "tournaments/player_form.html",
        {"tournament": tournament, "form": form, "player": player},
    )


@tournament_view(OWNER)
@require_POST
def player_remove(request, tournament, player_id):
    player = get_object_or_404(tournament.players, pk=player_id)
    try:
        services.player_remove(player=player, by=request.user)
    except services.ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("%(name)s removed.") % {"name": player.name})
    return redirect("player_list", tournament.pk)


@tournament_view(OWNER)
@require_http_methods(["GET", "POST"])
def player_import(request, tournament):
    """Upload or paste → preview with line-numbered errors → confirm.
    Nothing is saved until the whole list is valid and confirmed."""
    form = PlayerImportForm(request.POST or None, request.FILES or None)
    context = {"tournament": tournament, "form": form}
    if request.method == "POST" and form.is_valid():
        content = form.cleaned_data["content"]
        rows, errors = parse_players(content, selectors.registered_names(tournament))
        context.update(rows=rows, errors=errors, content=content)
        if rows and not errors:
            context["roster"] = _roster_preview(request, tournament, rows)
        if not errors and request.POST.get("confirm"):
            choices = {r.line: request.POST.get(f"roster-{r.line}", "") for r in rows}
            try:
                created = roster_services.players_import_linked(
                    tournament=tournament, rows=rows, choices=choices, by=request.user
                )
            except services.ServiceError as exc:
                context["errors"] = [LineError(0, str(exc))]
            else:
                messages.success(request, _("%(n)s players imported.") % {"n": len(created)})
                return redirect("player_list", tournament.pk)
    return render(request, "tournaments/player_import.html", context)


def _roster_preview(request, tournament, rows) -> list[dict]:
    """Per preview row its roster matches and the choice shown: an exact
    match is offered ready to link, a near match only as a choice; a new name
    can be added to the roster. The organizer confirms them all with Save."""
    found = selectors.roster_matches(tournament.owner, [(r.name, r.club) for r in rows])
    preview = []
    for row, (kind, people) in zip(rows, found, strict=True):
        posted = request.POST.get(f"roster-{row.line}")
        default = f"p{people[0].pk}" if kind == EXACT and len(people) == 1 else ""
        chosen = posted if posted is not None and request.POST.get("confirm") else default
        options = [("", _("don't link"))]
        options += [(f"p{p.pk}", _("Link to %(person)s") % {"person": p}) for p in people]
        options.append(("new", _("Add as a new person")))
        preview.append(
            {
                "row": row,
                "kind": kind,
                "options": [(value, label, value == chosen) for value, label in options],
            }
        )
    return preview


@tournament_view(OWNER)
@require_http_methods(["GET", "POST"])
def team_add(request, tournament):
    form = TeamForm(request.POST or None, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            team = services.team_register(
                tournament=tournament,
                name=form.cleaned_data["name"],
                members=[form.cleaned_data["first"], form.cleaned_data["second"]],
            )
        except services.ServiceError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("Team %(name)s registered.") % {"name": team.name})
            return redirect("player_list", tournament.pk)
    return render(request, "tournaments/team_form.html", {"tournament": tournament, "form": form})
