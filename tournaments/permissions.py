"""Who may do what, checked on the server for every view.

- owner (the organizer who created the tournament): everything;
- scorekeeper (added by the owner to one tournament): players' check-in,
  and later result entry;
- anyone: the public pages of a tournament whose public pages are on.
"""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404

from tournaments.models import Tournament

OWNER = "owner"
STAFF = "staff"  # owner or scorekeeper


def tournament_view(role: str):
    """Decorator: load ``tournament_id`` from the URL into ``request.tournament``
    after checking the user's role; anonymous users go to the login page, users
    without the role get 403."""

    def decorate(view):
        @wraps(view)
        def wrapped(request, tournament_id, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            tournament = get_object_or_404(Tournament, pk=tournament_id)
            user_role = tournament.role_of(request.user)
            if user_role is None or (role == OWNER and user_role != "owner"):
                raise PermissionDenied
            request.tournament = tournament
            request.tournament_role = user_role
            return view(request, tournament, *args, **kwargs)

        wrapped.required_role = role
        return wrapped

    return decorate


def public_tournament(tournament_id: int) -> Tournament:
    """A tournament whose public pages are on, or 404 (hidden ones don't exist
    for the public)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if not tournament.public:
        raise Http404
    return tournament
