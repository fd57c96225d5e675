"""A public tournament's season page: the public season standings of the
series it belongs to. The same page on the laptop (computed from its series)
and on the online site (as the laptop published them with the tournament)."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_safe

from tournaments.mirror import selectors
from tournaments.permissions import public_tournament


@require_safe
def tournament_season(request, tournament_id):
    tournament = public_tournament(tournament_id)
    seasons = selectors.tournament_seasons(tournament)
    if not seasons:
        raise Http404
    return render(
        request,
        "mirror/season.html",
        {"tournament": tournament, "seasons": selectors.season_pages(seasons)},
    )
