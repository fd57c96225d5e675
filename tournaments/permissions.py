"""Who may do what, checked on the server for every view.

- owner (the organizer who created the tournament): every action;
- scorekeeper (added by the owner to one tournament): exactly the actions in
  :data:`SCOREKEEPER_MAY` — the README's list says the same;
- anyone: the public pages of a tournament whose public pages are on (and
  that is not archived), and their own seat link.

Every organizer view names the action it performs (``@tournament_view(...)``);
an action not in :data:`ACTIONS` is a programming error, caught at import.
"""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy as _

from tournaments.models import Tournament

#: every action a view can perform, with what it means
ACTIONS = {
    "view": _("see the tournament's pages: players, rounds, seating, standings"),
    "check_in": _("check players in and undo a check-in"),
    "enter_results": _("enter results from score sheets and correct them"),
    "confirm_results": _("confirm a result entered by someone else"),
    "print": _("print score sheets, lists, table cards, standings and seat slips"),
    "export": _("download exports (CSV, JSON)"),
    # owner only
    "manage_players": _("register, edit, import and remove players and teams"),
    "drop_players": _("drop players and re-add dropped players"),
    "seat": _("seat rounds, change, publish or discard a seating"),
    "clock": _("start, pause, resume and extend the clock"),
    "settings": _("change the tournament's settings, game and deck"),
    "scorekeepers": _("add and remove scorekeepers"),
    "reissue_links": _("re-issue a player's seat link"),
    "archive": _("archive, restore or delete the tournament"),
    # the machine format carries every digital deal's secret and every hand
    "export_all": _("export the whole tournament (with every hand and deal secret)"),
    "manage": _("anything else the organizer does"),
}

#: THE list of what a scorekeeper may do (README: "Scorekeepers")
SCOREKEEPER_MAY = frozenset(
    {"view", "check_in", "enter_results", "confirm_results", "print", "export"}
)

#: actions an archived tournament still allows (it is read-only otherwise)
ARCHIVED_MAY = frozenset({"view", "print", "export", "export_all", "archive"})

# the two coarse names older views use: any staff page, and owner only
STAFF = "view"
OWNER = "manage"


def may(role: str | None, action: str) -> bool:
    """Whether a user with ``role`` ("owner", "scorekeeper", None) may do
    ``action`` in a tournament."""
    if action not in ACTIONS:
        raise ValueError(f"unknown action {action!r}")
    if role == "owner":
        return True
    if role == "scorekeeper":
        return action in SCOREKEEPER_MAY
    return False


def tournament_view(action: str):
    """Decorator: load ``tournament_id`` from the URL into ``request.tournament``
    after checking that the user may do ``action`` (:func:`may`); anonymous
    users go to the login page, users without the right get 403. In an
    archived tournament only reading actions are allowed (writes: 403)."""
    if action not in ACTIONS:
        raise ValueError(f"unknown action {action!r}")

    def decorate(view):
        @wraps(view)
        def wrapped(request, tournament_id, *args, **kwargs):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            tournament = get_object_or_404(Tournament, pk=tournament_id)
            user_role = tournament.role_of(request.user)
            if not may(user_role, action):
                raise PermissionDenied
            if (
                tournament.archived_at is not None
                and action not in ARCHIVED_MAY
                and request.method not in ("GET", "HEAD")
            ):
                raise PermissionDenied(_("This tournament is archived: restore it to change it."))
            if (
                request.method not in ("GET", "HEAD")
                and action != "archive"
                and _mirrored(tournament)
            ):
                raise PermissionDenied(
                    _("This tournament is published from a laptop: change it there.")
                )
            request.tournament = tournament
            request.tournament_role = user_role
            return view(request, tournament, *args, **kwargs)

        wrapped.required_action = action
        wrapped.required_role = "staff" if action in SCOREKEEPER_MAY else "owner"
        return wrapped

    return decorate


def _mirrored(tournament: Tournament) -> bool:
    """Published here from a laptop: its rows are rebuilt by every
    publication, so nothing is changed here (``tournaments.mirror``)."""
    # through the mirror app's relation (its model is above this one)
    return Tournament.objects.filter(pk=tournament.pk, mirrored_from__isnull=False).exists()


def public_tournament(tournament_id: int) -> Tournament:
    """A tournament whose public pages are on, or 404 (hidden and archived
    ones don't exist for the public)."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if not tournament.public or tournament.archived_at is not None:
        raise Http404
    return tournament
