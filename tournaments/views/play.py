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
from tournaments import play
from tournaments.models import Seat
from tournaments.views.rounds import clock_status


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
    access = seat_from(token)
    if not access.ok:
        return _invalid(request, access)
    seat = access.seat
    shown = request.GET.get("v")
    if shown and shown == play.seat_version(seat):
        return HttpResponse(status=204)
    return render(request, "play/panel.html", {"play": play.seat_screen(seat), "play_token": token})


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
    """The round's clock partial for a player's page."""
    access = seat_from(token)
    if not access.ok:
        return _invalid(request, access)
    seat = access.seat
    context = clock_status(seat.table.round) | {"status_url": reverse("seat_clock", args=[token])}
    response = render(request, "tournaments/round/status.html", context)
    if context["closed"]:
        response["HX-Trigger"] = "roundClosed"
    return response
