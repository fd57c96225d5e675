"""Scoring URLs: result entry and the printed sheet's signed link;
standings, printing (the exports: ``scoring/exchange/urls.py``; series and season standings:
``scoring/season/urls.py``; scanned sheets: ``scoring/scans/urls.py``).

Grouped by audience, like ``tournaments/urls.py`` which includes them:
``organizer_patterns`` below ``tournaments/<id>/`` (the organizer and the
scorekeepers), ``public_patterns`` below ``t/<id>/`` (anyone, a public
tournament), and ``urlpatterns`` for the pages that belong to no one
tournament. A player's seat link (``p/<token>/``) is the seat wing's
(``tournaments/play/urls.py``).
"""

from django.urls import path

from scoring.views import entry
from scoring.views import printing as print_views
from scoring.views import standings as standings_views

_TABLE = "rounds/<int:number>/tables/<int:table>/"

#: below ``tournaments/<int:tournament_id>/``
organizer_patterns = [
    # result entry
    path(_TABLE + "result/", entry.result_entry, name="result_entry"),
    path(_TABLE + "result/<int:version>/confirm/", entry.result_confirm, name="result_confirm"),
    path("rounds/<int:number>/results/enter/", entry.result_find, name="result_find"),
    # standings, exports and printing
    path("standings/", standings_views.standings_page, name="standings"),
    path(
        "players/<int:player_id>/history/",
        standings_views.player_history,
        name="player_history",
    ),
    path("rounds/<int:number>/results/", standings_views.round_results, name="round_results"),
    path("print/", print_views.print_center, name="print_center"),
    path("print/standings.pdf", print_views.print_standings, name="print_standings"),
    path("print/final.pdf", print_views.print_final, {"kind": "final"}, name="print_final"),
    path(
        "print/certificates.pdf",
        print_views.print_final,
        {"kind": "certificates"},
        name="print_certificates",
    ),
    path("rounds/<int:number>/print/<slug:kind>.pdf", print_views.print_round, name="print_round"),
    path("print/jobs/", print_views.print_job_start, name="print_job_start"),
    path("print/jobs/<int:job_id>/", print_views.print_job, name="print_job"),
    path(
        "print/jobs/<int:job_id>/download/",
        print_views.print_job_download,
        name="print_job_download",
    ),
    path("print/jobs/<int:job_id>/retry/", print_views.print_job_retry, name="print_job_retry"),
]

#: below ``t/<int:tournament_id>/``
public_patterns = [
    path("standings/", standings_views.standings_public, name="standings_public"),
]

#: pages of no one tournament
urlpatterns = [
    # the QR code on a printed sheet: the table's result form, for its staff
    path("s/<str:token>/", entry.sheet_link, name="sheet_link"),
]
