"""The standings' URLs (the standings, a player's history, a round's
results), grouped like ``tournaments/urls.py``, which includes them:
``organizer_patterns`` below ``tournaments/<id>/``, ``public_patterns``
below ``t/<id>/`` (the projector's slides: ``tournaments/urls.py``)."""

from django.urls import path

from scoring.standings.views import standings as standings_views

#: below ``tournaments/<int:tournament_id>/``
organizer_patterns = [
    path("standings/", standings_views.standings_page, name="standings"),
    path(
        "players/<int:player_id>/history/",
        standings_views.player_history,
        name="player_history",
    ),
    path("rounds/<int:number>/results/", standings_views.round_results, name="round_results"),
]

#: below ``t/<int:tournament_id>/``
public_patterns = [
    path("standings/", standings_views.standings_public, name="standings_public"),
]
