from django.contrib import admin
from django.urls import include, path

from tournaments.views import (
    accounts,
    digital,
    lifecycle,
    organizer,
    players,
    projector,
    public,
    roster,
    rounds,
    seating,
)
from tournaments.views import play as play_views

urlpatterns = [
    path("", public.home, name="home"),
    path("t/<int:tournament_id>/", public.tournament_public, name="tournament_public"),
    path("accounts/signup/", accounts.signup, name="signup"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("", include("scoring.urls")),
    path("tournaments/", organizer.tournament_list, name="tournament_list"),
    path("tournaments/new/", organizer.tournament_create, name="tournament_create"),
    path("tournaments/<int:tournament_id>/", organizer.tournament_detail, name="tournament_detail"),
    path(
        "tournaments/<int:tournament_id>/finish/",
        organizer.tournament_finish,
        name="tournament_finish",
    ),
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
    path(
        "tournaments/<int:tournament_id>/archive/",
        lifecycle.tournament_archive,
        name="tournament_archive",
    ),
    path(
        "tournaments/<int:tournament_id>/delete/",
        lifecycle.tournament_delete,
        name="tournament_delete",
    ),
    path("tournaments/<int:tournament_id>/players/", players.player_list, name="player_list"),
    path(
        "tournaments/<int:tournament_id>/players/check-in/",
        players.players_check_in,
        name="players_check_in",
    ),
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
    # rounds and seating
    path("tournaments/<int:tournament_id>/rounds/", seating.round_list, name="round_list"),
    path("tournaments/<int:tournament_id>/rounds/seat/", seating.round_seat, name="round_seat"),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/seating/",
        seating.round_seating,
        name="round_seating",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/seating/swap/",
        seating.seating_swap,
        name="seating_swap",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/seating/move/",
        seating.seating_move,
        name="seating_move",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/seating/publish/",
        seating.seating_publish,
        name="seating_publish",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/seating/unpublish/",
        seating.seating_unpublish,
        name="seating_unpublish",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/seating/discard/",
        seating.seating_discard,
        name="seating_discard",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/seating/add/",
        seating.seating_add_player,
        name="seating_add_player",
    ),
    # the round and its clock
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/",
        rounds.round_detail,
        name="round_detail",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/status/",
        rounds.round_status,
        name="round_status",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/start/",
        rounds.round_start,
        name="round_start",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/pause/",
        rounds.round_pause,
        name="round_pause",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/resume/",
        rounds.round_resume,
        name="round_resume",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/extend/",
        rounds.round_extend,
        name="round_extend",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/schedule/",
        rounds.round_schedule,
        name="round_schedule",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/tables/<int:table>/extend/",
        rounds.table_extend,
        name="table_extend",
    ),
    path("t/<int:tournament_id>/rounds/<int:number>/", rounds.round_public, name="round_public"),
    path(
        "t/<int:tournament_id>/rounds/<int:number>/status/",
        rounds.round_public_status,
        name="round_public_status",
    ),
    path(
        "t/<int:tournament_id>/rounds/<int:number>/projector/",
        projector.round_projector,
        name="round_projector",
    ),
    # digital tables from outside a seat: bots, review, spectator view
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/digital/",
        digital.round_digital,
        name="round_digital",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/tables/<int:table>/seats/<int:position>/bot/",
        digital.seat_bot,
        name="seat_bot",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/tables/<int:table>/review/",
        digital.table_review,
        name="table_review",
    ),
    path(
        "t/<int:tournament_id>/rounds/<int:number>/tables/<int:table>/review/",
        digital.table_review_public,
        name="table_review_public",
    ),
    path(
        "t/<int:tournament_id>/rounds/<int:number>/tables/<int:table>/",
        digital.table_watch,
        name="table_watch",
    ),
    path(
        "t/<int:tournament_id>/rounds/<int:number>/tables/<int:table>/board/",
        digital.table_watch_board,
        name="table_watch_board",
    ),
    path(
        "t/<int:tournament_id>/rounds/<int:number>/projector/tables/",
        projector.round_projector_tables,
        name="round_projector_tables",
    ),
    # a player at a digital table (signed seat link)
    path("p/<str:token>/play/", play_views.seat_play, name="seat_play"),
    path("p/<str:token>/move/", play_views.seat_move, name="seat_move"),
    path("p/<str:token>/clock/", play_views.seat_clock, name="seat_clock"),
    # the club roster
    path("roster/", roster.roster_list, name="roster"),
    path("roster/<int:person_id>/", roster.person_detail, name="person_detail"),
    path("roster/merge/", roster.person_merge, name="person_merge"),
    path("roster/club.json", roster.club_export, name="club_export"),
    path("roster/import/", roster.club_import, name="club_import"),
    path("roster/merges/<int:merge_id>/undo/", roster.person_merge_undo, name="person_merge_undo"),
    path(
        "tournaments/<int:tournament_id>/players/roster/",
        roster.roster_links,
        name="roster_links",
    ),
]
