"""The push wing's streams, added to the audience groups of
``tournaments/urls.py`` beside the pages they keep live: a seat's stream
below ``p/<token>/``, a digital table's spectator stream below ``t/<id>/``."""

from django.urls import path

from tournaments.push import views

#: below ``t/<int:tournament_id>/``
public_patterns = [
    path(
        "rounds/<int:number>/tables/<int:table>/stream/",
        views.table_watch_stream,
        name="table_watch_stream",
    ),
]

#: below ``p/<str:token>/``
player_patterns = [
    path("stream/", views.seat_stream, name="seat_stream"),
]
