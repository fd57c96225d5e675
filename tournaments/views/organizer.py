"""The organizer's pages: his tournaments, creating and editing them, scorekeepers."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournaments import limits, selectors, services
from tournaments.forms import ScorekeeperForm, TournamentForm
from tournaments.permissions import OWNER, STAFF, tournament_view


@login_required
def tournament_list(request):
    tournaments = selectors.tournaments_of(request.user)
    return render(request, "tournaments/list.html", {"tournaments": tournaments})


@login_required
@require_http_methods(["GET", "POST"])
def tournament_create(request):
    form = TournamentForm(request.POST or None, request.FILES or None, game=request.GET.get("game"))
    full = limits.tournaments_message(request.user.owned_tournaments.count())
    if request.method == "POST" and full:
        form.is_valid()
        form.add_error(None, full)
    elif request.method == "POST" and form.is_valid():
        tournament = form.save(commit=False)
        tournament.owner = request.user
        tournament.save()
        messages.success(request, _("Tournament created."))
        return redirect(tournament)
    return render(request, "tournaments/form.html", {"form": form, "creating": True})


@tournament_view(OWNER)
@require_http_methods(["GET", "POST"])
def tournament_edit(request, tournament):
    form = TournamentForm(
        request.POST or None,
        request.FILES or None,
        instance=tournament,
        game=request.GET.get("game"),
    )
    if tournament.has_started:
        form.fields["game"].disabled = True
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Tournament saved."))
        return redirect(tournament)
    return render(request, "tournaments/form.html", {"form": form, "tournament": tournament})


@tournament_view(STAFF)
def tournament_detail(request, tournament):
    counts = selectors.player_counts(tournament)
    return render(
        request,
        "tournaments/detail.html",
        {"tournament": tournament, "counts": counts, "role": request.tournament_role},
    )


@tournament_view(OWNER)
@require_http_methods(["GET", "POST"])
def scorekeepers(request, tournament):
    form = ScorekeeperForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = services.scorekeeper_add(
                tournament=tournament, username=form.cleaned_data["username"]
            )
        except services.ServiceError as exc:
            form.add_error("username", str(exc))
        else:
            messages.success(request, _("%(name)s is now a scorekeeper.") % {"name": user})
            return redirect("scorekeepers", tournament.pk)
    return render(
        request,
        "tournaments/scorekeepers.html",
        {"tournament": tournament, "form": form, "scorekeepers": tournament.scorekeepers.all()},
    )


@tournament_view(OWNER)
@require_POST
def scorekeeper_remove(request, tournament, user_id):
    get_object_or_404(tournament.scorekeepers, pk=user_id)
    services.scorekeeper_remove(tournament=tournament, user_id=user_id)
    return redirect("scorekeepers", tournament.pk)
