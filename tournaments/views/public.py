"""Pages anyone may see (for tournaments whose public pages are on)."""

from django.shortcuts import render

from tournaments.models import Tournament
from tournaments.permissions import public_tournament


def home(request):
    tournaments = Tournament.objects.filter(public=True)[:50]
    return render(request, "tournaments/home.html", {"tournaments": tournaments})


def tournament_public(request, tournament_id):
    tournament = public_tournament(tournament_id)
    players = tournament.players.filter(dropped=False).select_related("team")
    return render(
        request, "tournaments/public.html", {"tournament": tournament, "players": players}
    )
