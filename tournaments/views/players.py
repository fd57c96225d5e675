"""Players of a tournament: register, import, check in, drop, teams."""

from django.contrib import messages
from django.db import IntegrityError, transaction
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournaments import selectors, services
from tournaments.forms import PlayerForm, PlayerImportForm, TeamForm
from tournaments.permissions import OWNER, STAFF, tournament_view
from tournaments.player_import import LineError, parse_players


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
        try:
            player = services.player_add(tournament=tournament, by=request.user, **data)
        except services.ServiceError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("%(name)s registered.") % {"name": player.name})
            return redirect("player_list", tournament.pk)
    return render(request, "tournaments/player_form.html", {"tournament": tournament, "form": form})


@tournament_view(OWNER)
@require_http_methods(["GET", "POST"])
def player_edit(request, tournament, player_id):
    player = get_object_or_404(tournament.players, pk=player_id)
    form = PlayerForm(request.POST or None, instance=player, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        try:
            with transaction.atomic():
                form.save()
        except IntegrityError:  # registered meanwhile under the same name and club
            form.add_error(None, _("%(name)s is already registered.") % {"name": player.name})
        else:
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
        if not errors and request.POST.get("confirm"):
            try:
                created = services.players_import(tournament=tournament, rows=rows, by=request.user)
            except services.ServiceError as exc:
                context["errors"] = [LineError(0, str(exc))]
            else:
                messages.success(request, _("%(n)s players imported.") % {"n": len(created)})
                return redirect("player_list", tournament.pk)
    return render(request, "tournaments/player_import.html", context)


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
