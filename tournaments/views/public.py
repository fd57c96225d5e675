"""Pages anyone may see (for tournaments whose public pages are on)."""

from django.shortcuts import render

from tournaments import selectors
from tournaments.permissions import public_tournament


def home(request):
    tournaments = selectors.public_tournaments()
    return render(request, "tournaments/home.html", {"tournaments": tournaments})


def tournament_public(request, tournament_id):
    tournament = public_tournament(tournament_id)
    players = [p for p in selectors.players_by_name(tournament) if not p.dropped]
    rounds = selectors.published_rounds(tournament)
    return render(
        request,
        "tournaments/public.html",
        {"tournament": tournament, "players": players, "rounds": rounds},
    )
