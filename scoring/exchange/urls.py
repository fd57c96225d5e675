"""The exports' and the tournament file's URLs (the export centre, the
CSV/JSON downloads, a tournament's file out and in), grouped like
``tournaments/urls.py``, which includes them: ``organizer_patterns`` below
``tournaments/<id>/``, ``urlpatterns`` for the pages of no one tournament."""

from django.urls import path

from scoring.exchange import views

#: below ``tournaments/<int:tournament_id>/``
organizer_patterns = [
    path("export/", views.export_center, name="export_center"),
    path("export/tournament.json", views.tournament_export, name="tournament_export"),
    path("export/<slug:what>.<slug:fmt>", views.export_download, name="export"),
]

#: pages of no one tournament
urlpatterns = [
    path("tournaments/import/", views.tournament_import, name="tournament_import"),
    path(
        "tournaments/import/<int:job_id>/",
        views.tournament_import_job,
        name="tournament_import_job",
    ),
]
