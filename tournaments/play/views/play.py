"""A player's seat, through the signed seat link (no account): the seat page
(``p/<token>/``), the play partial (polled), the moves, the round's clock,
and the clear page of a link that can't act.

Views are thin: the seat from :func:`tournaments.play.links.resolve_seat`;
at a digital table the game from :mod:`tournaments.play.screen` (the screen
and the move), then a page or a partial. At a paper table the seat's page is
its result, which scoring shows and takes from the table's players
(:func:`scoring.views._self_report.paper_seat_page`).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scoring.views._self_report import paper_seat_page
from tournaments import live
from tournaments.models import Seat
from tournaments.play import links, poll_cache
from tournaments.play import screen as play
from tournaments.selectors import clock_status, seats_in_order
from tournaments.views._helpers import status_response

# -- the seat page ---------------------------------------------------------------


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
    context = clock_status(table.round) | {
        "tournament": tournament,
        "table": table,
        "seats": seats_in_order(table),
        "engine": tournament.engine,
        "me": seat,
        "token": token,
        "play": play.seat_screen(seat),
        "play_token": token,
        "status_url": reverse("seat_clock", args=[token]),
    }
    if request.method == "POST":
        context["error"] = _("This table plays in the browser: its result comes from the game.")
        return render(request, "play/seat_page.html", context, status=400)
    return render(request, "play/seat_page.html", context)


# -- a digital table's partials: the game and the clock -------------------------


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
        known = poll_cache.seat_table(token)
        if known is not None and shown == poll_cache.table_version(
            *known, play.round_table_versions
        ):
            return HttpResponse(status=204)
    access = links.resolve_seat(token)
    if not access.ok:
        return seat_link_refused(request, access)
    seat = access.seat
    table_id, round_id = seat.table_id, seat.table.round_id
    poll_cache.remember_seat_table(token, table_id, round_id)
    if shown and shown == poll_cache.table_version(table_id, round_id, play.round_table_versions):
        return HttpResponse(status=204)
    screen = play.seat_screen(seat)
    response = render(request, "play/panel.html", {"play": screen, "play_token": token})
    if not screen.get("polling"):
        response.status_code = 286  # game over: htmx stops polling
    return response


@require_POST
def seat_move(request, token):
    """A move: applied, or refused with the reason (nothing changes)."""
    access = links.resolve_seat(token)
    if not access.ok:
        return seat_link_refused(request, access)
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


# -- a link that can't act ----------------------------------------------------------

_STATUS = {
    links.INVALID: 404,
    links.REPLACED: 410,
    links.LEFT: 403,
    links.NOT_PUBLISHED: 403,
    links.NOT_SEATED: 403,
    links.ARCHIVED: 410,
}


def _texts(access: links.SeatAccess) -> tuple[str, str]:
    number = access.link.round.number if access.link else None
    if access.state == links.REPLACED:
        return _("This link has been replaced"), _(
            "The Turnierleitung has issued a new link for this seat; this one no longer "
            "works. Use your new slip or ask the Turnierleitung."
        )
    if access.state == links.LEFT:
        return _("You have left the tournament"), _(
            "You have dropped out of this tournament, so this link can no longer be used "
            "to play or to report or confirm results. If this is a mistake, talk to the "
            "Turnierleitung."
        )
    if access.state == links.NOT_PUBLISHED:
        return _("The seating is not published yet"), _(
            "The seating of round %(n)s is still being prepared. Your link works once "
            "the Turnierleitung publishes it."
        ) % {"n": number}
    if access.state == links.NOT_SEATED:
        return _("You have no seat in this round"), _(
            "You are not seated in round %(n)s (any more). Ask the Turnierleitung where you play."
        ) % {"n": number}
    if access.state == links.ARCHIVED:
        return _("This tournament is archived"), _(
            "This tournament is over and archived; its seat links no longer work."
        )
    return _("This link is not valid"), _(
        "This seat link is damaged, out of date or was not issued by this tournament. "
        "Scan the QR code on your current slip or ask the Turnierleitung for your link."
    )


def seat_link_refused(request, access: links.SeatAccess):
    """The clear page of a seat link that can't act (never a 500)."""
    heading, text = _texts(access)
    link = access.link
    context = {
        "state": access.state,
        "heading": heading,
        "text": text,
        "tournament": link.round.tournament if link else None,
        "round_number": link.round.number if link else None,
    }
    response = render(request, "play/link_state.html", context, status=_STATUS[access.state])
    response["Cache-Control"] = "no-store"
    if getattr(request, "htmx", False):
        # a polling partial of an open seat page: reload it, so the player sees why
        response["HX-Refresh"] = "true"
    return response
