"""Helpers the views share; no view lives here, and no view imports another
view: shared page data comes from the selectors, shared responses from here.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.html import escape
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from tournaments import live
from tournaments.models import Seat
from tournaments.play import links
from tournaments.play import screen as play
from tournaments.problems import problem
from tournaments.selectors import clock_status
from tournaments.services.errors import ServiceError


@contextmanager
def service_error_as_message(request, *, form=None, field: str | None = None) -> Iterator[None]:
    """Run a service call; a refusal (:class:`ServiceError`) becomes an error
    message — on ``form`` (its ``field``, else the whole form) when given,
    else a flash message — and the rest of the ``with`` block (the success
    message, the redirect) is skipped::

        with service_error_as_message(request):
            seating_publish(round=rnd, by=request.user)
            messages.success(request, _("Published."))
        return redirect(...)
    """
    try:
        yield
    except ServiceError as exc:
        if form is not None:
            form.add_error(field, str(exc))
        else:
            messages.error(request, str(exc))


_SERVER_MS, _STATUS_URL = "@@server-ms@@", "@@status-url@@"
#: the rendered partial per (round, entry, language, big clock), with the
#: server time and the poll URL left as markers: rendered once per entry
#: (about once a second) by each process instead of once per phone. Derived
#: from the shared entry and keyed by its time, so every process answers the
#: same; bounded.
_rendered: dict[tuple, str] = {}


def status_response(request, entry: dict, status_url: str) -> HttpResponse:
    """The polled clock partial. A closed round says so (HX-Trigger
    "roundClosed"); once nothing is left to wait for (every table done) the
    answer has htmx's status 286, which stops the poll."""
    context = live.clock_context(entry)
    big = request.GET.get("big") == "1"
    key = (entry["round_id"], entry["computed"], get_language(), big)
    html = _rendered.get(key)
    if html is None:
        html = render_to_string(
            "tournaments/round/status.html",
            context | {"status_url": _STATUS_URL, "big": big, "server_ms": _SERVER_MS},
            request,
        )
        if len(_rendered) > 512:
            _rendered.clear()
        _rendered[key] = html
    html = html.replace(_SERVER_MS, str(context["server_ms"]), 1).replace(
        _STATUS_URL, escape(status_url)
    )
    response = HttpResponse(html)
    if context["closed"]:
        response["HX-Trigger"] = "roundClosed"
    if context["finished"]:
        response.status_code = 286
    return response


# -- seat links -----------------------------------------------------------------

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


def digital_seat_context(seat: Seat, token: str) -> dict:
    """What a player's seat page adds for a digital table: the play screen,
    the clock and the partials' URLs."""
    return clock_status(seat.table.round) | {
        "play": play.seat_screen(seat),
        "play_token": token,
        "status_url": reverse("seat_clock", args=[token]),
    }


def round_problem(request, value):
    """The page of a round number that is not one of the tournament's."""
    return problem(
        request,
        _("“%(value)s” is not a round of this tournament.") % {"value": value},
        status=404,
    )
