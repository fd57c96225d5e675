"""The final stage's URLs, below ``tournaments/<id>/`` (``tournaments/urls.py``
includes them). The paths and names never change."""

from django.urls import path

from tournaments.finals import views

#: below ``tournaments/<int:tournament_id>/``
organizer_patterns = [
    path("final/", views.final_stage, name="final_stage"),
    path("final/settings/", views.final_stage_settings, name="final_stage_settings"),
    path("final/seat/", views.final_stage_seat, name="final_stage_seat"),
]
