"""A player at a digital table, through his signed seat link (no account):
the play partial (polled), his moves, and the round clock.

Views are thin: the seat from the token, then :mod:`tournaments.play.screen`
(reads and the move) and a partial.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from tournaments import live
from tournaments.models import Seat, Table
from tournaments.play import links, poll_cache, screen
from tournaments.play.panel import panel_html
from tournaments.play.views._refusal import seat_link_refused
from tournaments.views._helpers import status_response


def _form_token(request) -> str | None:
    """The move form's token: none in a partial htmx swaps in (htmx sends
    the page's token in its header, ``base.html``), so a poll neither masks
    a token nor sends the token's cookie again."""
    return None if request.htmx else get_token(request)


def _panel(request, seat: Seat, token: str, *, error: str = ""):
    panel = screen.seat_screen(seat, error=error)
    return HttpResponse(panel_html(panel, token, _form_token(request)))


def _reload(request, token: str):
    """The page shows a seat its link no longer leads to (a re-seat): the
    whole page is loaded anew (htmx: ``HX-Refresh``), never that seat's
    screen."""
    if request.htmx:
        response = HttpResponse(status=200)
        response["HX-Refresh"] = "true"
        response["Cache-Control"] = "no-store"
        return response
    return redirect("seat_link", token)


def _shows_other_seat(shown_seat: str | None, seat: Seat) -> bool:
    return bool(shown_seat) and shown_seat != screen.seat_key(seat.table_id, seat.position)


@require_GET
def seat_play(request, token):
    """The play partial; polled. Answers 204 (nothing to swap) while the
    version the page shows is still current; a page that shows another seat
    than the link's now (``s``, a re-seat) is reloaded."""
    shown = request.GET.get("v")
    shown_seat = request.GET.get("s")
    if shown:
        # "anything new?" from the shared cache while this link's table is
        # known: no query for most polls (a 204 shows nothing)
        known = poll_cache.seat_table(token)
        if known is not None and shown_seat == known[2]:
            version = poll_cache.table_version(known[0], known[1], screen.round_table_versions)
            if shown == version:
                return HttpResponse(status=204)
            # a new screen for a link the cache knows: drawn without the
            # link's query when the table's seat still holds its player
            panel = screen.known_seat_screen(known[0], known[2], known[3], version)
            if panel is not None:
                return _drawn(request, panel, token)
    access = links.resolve_seat(token)
    if not access.ok:
        return seat_link_refused(request, access)
    seat = access.seat
    table_id, round_id = seat.table_id, seat.table.round_id
    poll_cache.remember_seat_table(
        token, table_id, round_id, screen.seat_key(table_id, seat.position), seat.player_id
    )
    if _shows_other_seat(shown_seat, seat):
        return _reload(request, token)
    version = poll_cache.table_version(table_id, round_id, screen.round_table_versions)
    if shown and shown == version:  # the version counts the round's re-seats too
        return HttpResponse(status=204)
    # what the table's seats share is built once per version in this process
    panel = screen.seat_screen(seat, version=version)
    return _drawn(request, panel, token)


def _drawn(request, panel: dict, token: str):
    response = HttpResponse(panel_html(panel, token, _form_token(request)))
    if not panel.get("polling"):
        response.status_code = 286  # game over: htmx stops polling
    return response


@require_POST
def seat_move(request, token):
    """A move: applied, or refused with the reason (nothing changes). A move
    from a page that shows another seat than the link's now is not played:
    the page is loaded anew."""
    access = links.resolve_seat(token)
    if not access.ok:
        return seat_link_refused(request, access)
    seat = access.seat
    if _shows_other_seat(request.POST.get("s"), seat):
        return _reload(request, token)
    try:
        error = screen.move(seat, request.POST.get("action", ""), request.POST.get("seen"))
        if request.htmx:
            return _panel(request, seat, token, error=error)
    except Table.DoesNotExist:
        # the table went away under the move (the round re-seated between
        # the link's check and the move): nothing was played, the page loads
        # anew and shows where the link leads now
        return _reload(request, token)
    if error:
        messages.error(request, error)
    return redirect("seat_link", token)


@require_GET
def seat_clock(request, token):
    """The round's clock partial for a player's page (polled): from the
    shared cache, without a query while the link's round is known."""
    round_id = poll_cache.seat_round(token)
    if round_id is None:
        access = links.resolve_seat(token)
        if not access.ok:
            return seat_link_refused(request, access)
        round_id = access.seat.table.round_id
        poll_cache.remember_seat_round(token, round_id)
    entry = live.clock_entry(round_id)
    if entry is None:
        return seat_link_refused(request, links.resolve_seat(token))
    return status_response(request, entry, reverse("seat_clock", args=[token]))
