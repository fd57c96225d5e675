"""Archive, restore and delete a tournament (its owner only)."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments.permissions import tournament_view
from tournaments.services import ServiceError, lifecycle
from tournaments.views._helpers import service_error_as_message


@tournament_view("archive")
@require_http_methods(["GET", "POST"])
def tournament_archive(request, tournament):
    """GET: the tournament's archive state and what archiving means; POST
    ``action=archive|restore``."""
    if request.method == "POST":
        action = request.POST.get("action")
        with service_error_as_message(request):
            if action == "archive":
                lifecycle.tournament_archive(tournament=tournament, by=request.user)
                messages.success(request, _("Tournament archived: it is hidden and read-only."))
            elif action == "restore":
                lifecycle.tournament_restore(tournament=tournament, by=request.user)
                messages.success(request, _("Tournament restored."))
            else:
                messages.error(request, _("Choose archive or restore."))
        return redirect("tournament_archive", tournament.pk)
    return render(request, "tournaments/archive.html", {"tournament": tournament})


@tournament_view("archive")
@require_http_methods(["GET", "POST"])
def tournament_delete(request, tournament):
    """GET: the confirmation (type the name); POST: delete."""
    error = ""
    if request.method == "POST":
        try:
            lifecycle.tournament_delete(
                tournament=tournament,
                by=request.user,
                confirm_name=request.POST.get("confirm_name", "")[:300],
            )
        except ServiceError as exc:
            error = str(exc)
        else:
            messages.success(request, _("Tournament deleted."))
            return redirect("tournament_list")
    return render(
        request,
        "tournaments/delete.html",
        {"tournament": tournament, "error": error},
        status=400 if error else 200,
    )
