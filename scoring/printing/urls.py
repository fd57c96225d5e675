"""The printed documents' URLs (the print page, each PDF, a print job and its
download), below ``tournaments/<id>/`` like the organizer's pages of
``tournaments/urls.py``, which includes them."""

from django.urls import path

from scoring.printing import views as print_views

#: below ``tournaments/<int:tournament_id>/``
organizer_patterns = [
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
