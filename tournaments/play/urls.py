"""The seat wing's URLs, grouped by audience like ``tournaments/urls.py``,
which includes them: ``organizer_patterns`` below ``tournaments/<id>/`` (the
round's digital tables, bots, review; seat links re-issued and slips),
``public_patterns`` below ``t/<id>/`` (a digital table's spectator view and
public replay) and ``player_patterns`` below ``p/<token>/`` (a player's seat
through the signed seat link). The paths and names never change."""

from django.urls import path

from tournaments.play.views import links, play, seat, watch

_ROUND = "rounds/<int:number>/"
_TABLE = _ROUND + "tables/<int:table>/"
_PLAYER = _ROUND + "players/<int:player_id>/"

#: below ``tournaments/<int:tournament_id>/``
organizer_patterns = [
    # digital tables from outside a seat: bots, review
    path(_ROUND + "digital/", watch.round_digital, name="round_digital"),
    path(_TABLE + "seats/<int:position>/bot/", watch.seat_bot, name="seat_bot"),
    path(_TABLE + "review/", watch.table_review, name="table_review"),
    # seat links
    path(_PLAYER + "seat-link/", links.seat_link_reissue, name="seat_link_reissue"),
    path(_PLAYER + "slip.pdf", links.seat_slip, name="seat_slip"),
]

#: below ``t/<int:tournament_id>/``
public_patterns = [
    # digital tables: the spectator view and the review
    path(_TABLE, watch.table_watch, name="table_watch"),
    path(_TABLE + "board/", watch.table_watch_board, name="table_watch_board"),
    path(_TABLE + "review/", watch.table_review_public, name="table_review_public"),
]

#: below ``p/<str:token>/``
player_patterns = [
    path("", seat.seat_link, name="seat_link"),
    path("play/", play.seat_play, name="seat_play"),
    path("move/", play.seat_move, name="seat_move"),
    path("clock/", play.seat_clock, name="seat_clock"),
]
