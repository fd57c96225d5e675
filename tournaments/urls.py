"""The site's URLs, grouped by audience: the organizer and the scorekeepers
below ``tournaments/<id>/``, the public pages of a tournament below
``t/<id>/``, a player's signed seat link below ``p/<token>/``, a player's personal
registration link below ``r/<token>/``, and the pages of
no one tournament (accounts, the roster, series). ``scoring/urls.py`` and the
seat wing's ``tournaments/play/urls.py`` add their pages to the groups. The
paths and names never change: tests, bookmarks and the QR codes on printed
sheets and slips depend on them."""

from django.contrib import admin
from django.urls import include, path

from scoring import urls as scoring_urls
from scoring.exchange import urls as exchange_urls
from scoring.printing import urls as printing_urls
from scoring.scans import urls as scans_urls
from scoring.season import roster_views as roster
from scoring.season import urls as season_urls
from scoring.standings import urls as standings_urls
from scoring.standings.views import projector
from tournaments.finals import urls as finals_urls
from tournaments.mirror import urls as mirror_urls
from tournaments.play import urls as play_urls
from tournaments.push import urls as push_urls
from tournaments.registrations import urls as registration_urls
from tournaments.views import (
    accounts,
    lifecycle,
    organizer,
    players,
    public,
    rounds,
    seating,
)

_ROUND = "rounds/<int:number>/"
_PLAYER = "players/<int:player_id>/"
_TABLE = _ROUND + "tables/<int:table>/"

#: the organizer and the scorekeepers, below ``tournaments/<int:tournament_id>/``
organizer_patterns = [
    path("", organizer.tournament_detail, name="tournament_detail"),
    path("finish/", organizer.tournament_finish, name="tournament_finish"),
    path("edit/", organizer.tournament_edit, name="tournament_edit"),
    path("scorekeepers/", organizer.scorekeepers, name="scorekeepers"),
    path(
        "scorekeepers/<int:user_id>/remove/",
        organizer.scorekeeper_remove,
        name="scorekeeper_remove",
    ),
    path("scorekeepers/invites/<int:invite_id>/", organizer.helper_invite, name="helper_invite"),
    path(
        "scorekeepers/invites/<int:invite_id>/revoke/",
        organizer.helper_invite_revoke,
        name="helper_invite_revoke",
    ),
    path("archive/", lifecycle.tournament_archive, name="tournament_archive"),
    path("delete/", lifecycle.tournament_delete, name="tournament_delete"),
    # players and teams
    path("players/", players.player_list, name="player_list"),
    path("players/check-in/", players.players_check_in, name="players_check_in"),
    path("players/add/", players.player_add, name="player_add"),
    path("players/import/", players.player_import, name="player_import"),
    path("players/roster/", roster.roster_people, name="roster_people"),
    path("teams/add/", players.team_add, name="team_add"),
    path(_PLAYER + "edit/", players.player_edit, name="player_edit"),
    path(_PLAYER + "remove/", players.player_remove, name="player_remove"),
    path(_PLAYER + "check-in/", players.player_check_in, name="player_check_in"),
    path(_PLAYER + "check-out/", players.player_check_out, name="player_check_out"),
    path(_PLAYER + "drop/", players.player_drop, name="player_drop"),
    path(_PLAYER + "readd/", players.player_readd, name="player_readd"),
    path(_PLAYER + "rating-confirm/", players.player_rating_confirm, name="player_rating_confirm"),
    path("players/ratings-confirm/", players.players_rating_confirm, name="players_rating_confirm"),
    # rounds and seating
    path("rounds/", seating.round_list, name="round_list"),
    path("rounds/seat/", seating.round_seat, name="round_seat"),
    path(_ROUND + "seating/", seating.round_seating, name="round_seating"),
    path(_ROUND + "seating/swap/", seating.seating_swap, name="seating_swap"),
    path(_ROUND + "seating/move/", seating.seating_move, name="seating_move"),
    path(_ROUND + "seating/publish/", seating.seating_publish, name="seating_publish"),
    path(_ROUND + "seating/unpublish/", seating.seating_unpublish, name="seating_unpublish"),
    path(_ROUND + "seating/discard/", seating.seating_discard, name="seating_discard"),
    path(_ROUND + "seating/add/", seating.seating_add_player, name="seating_add_player"),
    # the round and its clock
    path(_ROUND, rounds.round_detail, name="round_detail"),
    path(_ROUND + "status/", rounds.round_status, name="round_status"),
    path(_ROUND + "start/", rounds.round_start, name="round_start"),
    path(_ROUND + "pause/", rounds.round_pause, name="round_pause"),
    path(_ROUND + "resume/", rounds.round_resume, name="round_resume"),
    path(_ROUND + "extend/", rounds.round_extend, name="round_extend"),
    path(_ROUND + "schedule/", rounds.round_schedule, name="round_schedule"),
    path(_ROUND + "end/", rounds.round_end, name="round_end"),
    path(_TABLE + "extend/", rounds.table_extend, name="table_extend"),
    *play_urls.organizer_patterns,
    *registration_urls.organizer_patterns,
    *finals_urls.organizer_patterns,
    *mirror_urls.organizer_patterns,
    *scoring_urls.organizer_patterns,
    *standings_urls.organizer_patterns,
    *printing_urls.organizer_patterns,
    *scans_urls.organizer_patterns,
    *exchange_urls.organizer_patterns,
]

#: anyone (a public tournament's published rounds), below ``t/<int:tournament_id>/``
public_patterns = [
    path("", public.tournament_public, name="tournament_public"),
    path(_ROUND, rounds.round_public, name="round_public"),
    path(_ROUND + "status/", rounds.round_public_status, name="round_public_status"),
    path(_ROUND + "projector/", projector.round_projector, name="round_projector"),
    path(
        _ROUND + "projector/tables/",
        projector.round_projector_tables,
        name="round_projector_tables",
    ),
    *play_urls.public_patterns,
    *registration_urls.public_patterns,
    *push_urls.public_patterns,
    *standings_urls.public_patterns,
    *mirror_urls.public_patterns,
]

#: a player through the signed seat link (no account), below ``p/<str:token>/``
player_patterns = (
    play_urls.player_patterns + registration_urls.seat_patterns + push_urls.player_patterns
)

urlpatterns = [
    path("", public.home, name="home"),
    path("favicon.ico", public.favicon, name="favicon"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("join/<int:tournament_id>/<str:token>/", accounts.helper_join, name="helper_join"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("tournaments/", organizer.tournament_list, name="tournament_list"),
    path("tournaments/new/", organizer.tournament_create, name="tournament_create"),
    path("tournaments/<int:tournament_id>/", include(organizer_patterns)),
    path("mirror/", include(mirror_urls.site_patterns)),
    path("t/<int:tournament_id>/", include(public_patterns)),
    path("p/<str:token>/", include(player_patterns)),
    path("r/<str:token>/", include(registration_urls.link_patterns)),
    # the club roster
    path("roster/", roster.roster_list, name="roster"),
    path("roster/<int:person_id>/", roster.person_detail, name="person_detail"),
    path("roster/merge/", roster.person_merge, name="person_merge"),
    path("roster/club.json", roster.club_export, name="club_export"),
    path("roster/import/", roster.club_import, name="club_import"),
    path("roster/merges/<int:merge_id>/undo/", roster.person_merge_undo, name="person_merge_undo"),
    *scoring_urls.urlpatterns,
    *exchange_urls.urlpatterns,
    *season_urls.urlpatterns,
]
