"""A player's seat page (``p/<token>/``, no account), through the signed
seat link: at a digital table the players, the game and the clock; at a
paper table the seat's page is its result, which scoring shows and takes
from the table's players (:func:`scoring.views._self_report.paper_seat_page`).

Views are thin: the seat from :func:`tournaments.play.links.resolve_seat`,
the game from :mod:`tournaments.play.screen`, then the page.
"""

from __future__ import annotations

from django.middleware.csrf import get_token
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from scoring.views._self_report import paper_seat_page
from tournaments.models import Seat
from tournaments.play import links, screen
from tournaments.play.panel import panel_html
from tournaments.play.views._refusal import seat_link_refused
from tournaments.selectors import clock_status, seats_in_order


@require_http_methods(["GET", "POST"])
def seat_link(request, token):
    """A player's page (no account): the table and seat, the players in seat
    order; at a digital table the game, at a paper table the current result
    (with self-report on, the result form and the confirmation of a reported
    result)."""
    access = links.resolve_seat(token)
    if not access.ok:  # replaced, left, draft, unknown: a clear page, no action
        return seat_link_refused(request, access)
    if access.seat.table.digital:  # played in the browser: the game instead of the result form
        return _digital_page(request, access.seat, token)
    # a paper table's seat page is its result: scoring's self-report
    return paper_seat_page(request, access.seat, token)


def _digital_page(request, seat: Seat, token: str):
    """The seat at a digital table: the players, the game and the clock."""
    table = seat.table
    tournament = table.round.tournament
    play = screen.seat_screen(seat)
    context = clock_status(table.round) | {
        "tournament": tournament,
        "table": table,
        "seats": seats_in_order(table),
        "engine": tournament.engine,
        "me": seat,
        "token": token,
        "play": play,
        "play_html": panel_html(play, token, get_token(request)),
        "status_url": reverse("seat_clock", args=[token]),
    }
    if request.method == "POST":
        context["error"] = _("This table plays in the browser: its result comes from the game.")
        return render(request, "play/seat_page.html", context, status=400)
    return render(request, "play/seat_page.html", context)
