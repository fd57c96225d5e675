from django.contrib import admin
from django.urls import include, path

from tournaments.views import accounts, organizer, players, public

urlpatterns = [
    path("", public.home, name="home"),
    path("t/<int:tournament_id>/", public.tournament_public, name="tournament_public"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("tournaments/", organizer.tournament_list, name="tournament_list"),
    path("tournaments/new/", organizer.tournament_create, name="tournament_create"),
    path("tournaments/<int:tournament_id>/", organizer.tournament_detail, name="tournament_detail"),
    path(
        "tournaments/<int:tournament_id>/edit/", organizer.tournament_edit, name="tournament_edit"
    ),
    path(
        "tournaments/<int:tournament_id>/scorekeepers/",
        organizer.scorekeepers,
        name="scorekeepers",
    ),
    path(
        "tournaments/<int:tournament_id>/scorekeepers/<int:user_id>/remove/",
        organizer.scorekeeper_remove,
        name="scorekeeper_remove",
    ),
    path("tournaments/<int:tournament_id>/players/", players.player_list, name="player_list"),
    path("tournaments/<int:tournament_id>/players/add/", players.player_add, name="player_add"),
    path(
        "tournaments/<int:tournament_id>/players/import/",
        players.player_import,
        name="player_import",
    ),
    path("tournaments/<int:tournament_id>/teams/add/", players.team_add, name="team_add"),
    path(
        "tournaments/<int:tournament_id>/players/<int:player_id>/edit/",
        players.player_edit,
        name="player_edit",
    ),
    path(
        "tournaments/<int:tournament_id>/players/<int:player_id>/remove/",
        players.player_remove,
        name="player_remove",
    ),
    path(
        "tournaments/<int:tournament_id>/players/<int:player_id>/check-in/",
        players.player_check_in,
        name="player_check_in",
    ),
    path(
        "tournaments/<int:tournament_id>/players/<int:player_id>/check-out/",
        players.player_check_out,
        name="player_check_out",
    ),
    path(
        "tournaments/<int:tournament_id>/players/<int:player_id>/drop/",
        players.player_drop,
        name="player_drop",
    ),
    path(
        "tournaments/<int:tournament_id>/players/<int:player_id>/readd/",
        players.player_readd,
        name="player_readd",
    ),
]
