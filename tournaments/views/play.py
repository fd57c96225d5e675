"""A player at a digital table, through his signed seat link (no account):
the play partial (polled), his moves, and the round clock.

Views are thin: the seat from the token, then :mod:`tournaments.play`
(reads and the move) and a partial.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from scoring import links
from tournaments import live, play
from tournaments.models import Seat
from tournaments.views.rounds import clock_status, status_response


def seat_from(token: str) -> links.SeatAccess:
    """What a seat token leads to: the player's own seat in that round (looked
    up from the player, never from a position), or why it can't act."""
    return links.resolve_seat(token)


def _invalid(request, access: links.SeatAccess):
    from scoring.views.seat_links import refused

    return refused(request, access)


def page_context(seat: Seat, token: str) -> dict:
    """What the seat page adds for a digital table: the play screen, the
    clock and the partials' URLs."""
    rnd = seat.table.round
    return clock_status(rnd) | {
        "play": play.seat_screen(seat),
        "play_token": token,
        "status_url": reverse("seat_clock", args=[token]),
    }


def _panel(request, seat: Seat, token: str, *, error: str = ""):
    context = {"play": play.seat_screen(seat, error=error), "play_token": token}
    return render(request, "play/panel.html", context)


@require_GET
def seat_play(request, token):
    """The play partial; polled. Answers 204 (nothing to swap) while the
    version the page shows is still current."""
    shown = request.GET.get("v")
    if shown:
        # "anything new?" from the shared cache while this link's table is
        # known: no query for most polls (a 204 shows nothing)
        known = live.seat_table(token)
        if known is not None and shown == live.table_version(*known, play.round_table_versions):
            return HttpResponse(status=204)
    access = seat_from(token)
    if not access.ok:
        return _invalid(request, access)
    seat = access.seat
    table_id, round_id = seat.table_id, seat.table.round_id
    live.remember_seat_table(token, table_id, round_id)
    if shown and shown == live.table_version(table_id, round_id, play.round_table_versions):
        return HttpResponse(status=204)
    screen = play.seat_screen(seat)
    response = render(request, "play/panel.html", {"play": screen, "play_token": token})
    if not screen.get("polling"):
        response.status_code = 286  # game over: htmx stops polling
    return response


@require_POST
def seat_move(request, token):
    """A move: applied, or refused with the reason (nothing changes)."""
    access = seat_from(token)
    if not access.ok:
        return _invalid(request, access)
    seat = access.seat
    error = play.move(seat, request.POST.get("action", ""), request.POST.get("seen"))
    if request.htmx:
        return _panel(request, seat, token, error=error)
    if error:
        messages.error(request, error)
    return redirect("seat_link", token)


@require_GET
def seat_clock(request, token):
    """The round's clock partial for a player's page (polled): from the
    shared cache, without a query while the link's round is known."""
    round_id = live.seat_round(token)
    if round_id is None:
        access = seat_from(token)
        if not access.ok:
            return _invalid(request, access)
        round_id = access.seat.table.round_id
        live.remember_seat_round(token, round_id)
    entry = live.clock_entry(round_id)
    if entry is None:
        return _invalid(request, links.resolve_seat(token))
    return status_response(request, entry, reverse("seat_clock", args=[token]))
