"""The organizer's pages: his tournaments, creating and editing them, scorekeepers."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournaments import limits, panels, selectors, services
from tournaments.forms import ScorekeeperForm, TournamentForm
from tournaments.permissions import STAFF, tournament_view
from tournaments.services import event
from tournaments.views._helpers import service_error_as_message


@login_required
def tournament_list(request):
    archived = request.GET.get("archived") == "1"
    tournaments = selectors.tournaments_of(request.user, archived=archived)
    return render(
        request, "tournaments/list.html", {"tournaments": tournaments, "archived": archived}
    )


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


@tournament_view("settings")
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
    """The overview: where the event stands and the next step."""
    counts = selectors.player_counts(tournament)
    return render(
        request,
        "tournaments/detail.html",
        {
            "tournament": tournament,
            "counts": counts,
            "role": request.tournament_role,
            # the results' next step, registrations left, the mirror's state
            **panels.panels("overview", tournament),
            "background": selectors.background_processes(),
        },
    )


@tournament_view("manage")
@require_POST
def tournament_finish(request, tournament):
    with service_error_as_message(request):
        if request.POST.get("undo"):
            event.tournament_reopen(tournament=tournament)
            messages.success(request, _("The tournament is open again: results can be changed."))
        else:
            event.tournament_finish(tournament=tournament)
            messages.success(
                request,
                _("The tournament is finished. Results now change only by you, with a reason."),
            )
    return redirect(tournament)


@tournament_view("scorekeepers")
@require_http_methods(["GET", "POST"])
def scorekeepers(request, tournament):
    form = ScorekeeperForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with service_error_as_message(request, form=form, field="username"):
            user = services.scorekeeper_add(
                tournament=tournament, username=form.cleaned_data["username"]
            )
            messages.success(request, _("%(name)s is now a scorekeeper.") % {"name": user})
            return redirect("scorekeepers", tournament.pk)
    return render(
        request,
        "tournaments/scorekeepers.html",
        {"tournament": tournament, "form": form, "scorekeepers": tournament.scorekeepers.all()},
    )


@tournament_view("scorekeepers")
@require_POST
def scorekeeper_remove(request, tournament, user_id):
    get_object_or_404(tournament.scorekeepers, pk=user_id)
    services.scorekeeper_remove(tournament=tournament, user_id=user_id)
    return redirect("scorekeepers", tournament.pk)
