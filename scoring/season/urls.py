"""The season app's URLs, pages of no one tournament: series and season
standings (``tournaments/urls.py`` includes them)."""

from django.urls import path

from scoring.season import views

urlpatterns = [
    # series and season standings
    path("series/", views.series_list, name="series_list"),
    path("series/<int:series_id>/", views.series_detail, name="series_detail"),
    path(
        "series/<int:series_id>/tournaments/add/",
        views.series_tournament_add,
        name="series_tournament_add",
    ),
    path(
        "series/<int:series_id>/tournaments/remove/",
        views.series_tournament_remove,
        name="series_tournament_remove",
    ),
    path(
        "series/<int:series_id>/people/<int:person_id>/",
        views.series_person,
        name="series_person",
    ),
    path("series/<int:series_id>/season.csv", views.series_csv, name="series_csv"),
    path("series/<int:series_id>/season.pdf", views.series_pdf, name="series_pdf"),
    path("season/<int:series_id>/", views.season_public, name="season_public"),
]
