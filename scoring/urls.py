"""Scoring URLs: result entry and signed links; standings, exports, printing."""

from django.urls import path

from scoring.views import entry
from scoring.views import exports as export_views
from scoring.views import printing as print_views
from scoring.views import season as season_views
from scoring.views import seat_links as seat_link_views
from scoring.views import standings as standings_views

_TABLE = "tournaments/<int:tournament_id>/rounds/<int:number>/tables/<int:table>/"

urlpatterns = [
    path(_TABLE + "result/", entry.result_entry, name="result_entry"),
    path(
        _TABLE + "result/<int:version>/confirm/",
        entry.result_confirm,
        name="result_confirm",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/results/enter/",
        entry.result_find,
        name="result_find",
    ),
    path("s/<str:token>/", entry.sheet_link, name="sheet_link"),
    path("p/<str:token>/", entry.seat_link, name="seat_link"),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/players/<int:player_id>/seat-link/",
        seat_link_views.seat_link_reissue,
        name="seat_link_reissue",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/players/<int:player_id>/slip.pdf",
        seat_link_views.seat_slip,
        name="seat_slip",
    ),
    # standings, exports and printing
    path(
        "tournaments/<int:tournament_id>/standings/",
        standings_views.standings_page,
        name="standings",
    ),
    path(
        "t/<int:tournament_id>/standings/",
        standings_views.standings_public,
        name="standings_public",
    ),
    path(
        "tournaments/<int:tournament_id>/players/<int:player_id>/history/",
        standings_views.player_history,
        name="player_history",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/results/",
        standings_views.round_results,
        name="round_results",
    ),
    path(
        "tournaments/<int:tournament_id>/export/",
        export_views.export_center,
        name="export_center",
    ),
    path(
        "tournaments/<int:tournament_id>/export/tournament.json",
        export_views.tournament_export,
        name="tournament_export",
    ),
    path(
        "tournaments/<int:tournament_id>/export/<slug:what>.<slug:fmt>",
        export_views.export_download,
        name="export",
    ),
    path("tournaments/import/", export_views.tournament_import, name="tournament_import"),
    path(
        "tournaments/<int:tournament_id>/print/",
        print_views.print_center,
        name="print_center",
    ),
    path(
        "tournaments/<int:tournament_id>/print/standings.pdf",
        print_views.print_standings,
        name="print_standings",
    ),
    path(
        "tournaments/<int:tournament_id>/print/final.pdf",
        print_views.print_final,
        {"kind": "final"},
        name="print_final",
    ),
    path(
        "tournaments/<int:tournament_id>/print/certificates.pdf",
        print_views.print_final,
        {"kind": "certificates"},
        name="print_certificates",
    ),
    path(
        "tournaments/<int:tournament_id>/rounds/<int:number>/print/<slug:kind>.pdf",
        print_views.print_round,
        name="print_round",
    ),
    path(
        "tournaments/<int:tournament_id>/print/jobs/",
        print_views.print_job_start,
        name="print_job_start",
    ),
    path(
        "tournaments/<int:tournament_id>/print/jobs/<int:job_id>/",
        print_views.print_job,
        name="print_job",
    ),
    path(
        "tournaments/<int:tournament_id>/print/jobs/<int:job_id>/download/",
        print_views.print_job_download,
        name="print_job_download",
    ),
    # series and season standings
    path("series/", season_views.series_list, name="series_list"),
    path("series/<int:series_id>/", season_views.series_detail, name="series_detail"),
    path(
        "series/<int:series_id>/tournaments/add/",
        season_views.series_tournament_add,
        name="series_tournament_add",
    ),
    path(
        "series/<int:series_id>/tournaments/remove/",
        season_views.series_tournament_remove,
        name="series_tournament_remove",
    ),
    path(
        "series/<int:series_id>/people/<int:person_id>/",
        season_views.series_person,
        name="series_person",
    ),
    path("series/<int:series_id>/season.csv", season_views.series_csv, name="series_csv"),
    path("series/<int:series_id>/season.pdf", season_views.series_pdf, name="series_pdf"),
    path("season/<int:series_id>/", season_views.season_public, name="season_public"),
]
