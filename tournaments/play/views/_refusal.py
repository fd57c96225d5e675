"""The clear page of a seat link that can't act (replaced, the player left,
a draft seating, not seated, archived, unknown): never a 500, never an
action. Shared by the seat page and its partials."""

from __future__ import annotations

from django.shortcuts import render
from django.utils.translation import gettext as _

from tournaments.play import links

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
        # a final stage's round is called by its stage ("Final"), not its number
        "round_stage": link.round.get_stage_display() if link and link.round.stage else "",
    }
    response = render(request, "play/link_state.html", context, status=_STATUS[access.state])
    response["Cache-Control"] = "no-store"
    if getattr(request, "htmx", False):
        # a polling partial of an open seat page: reload it, so the player sees why
        response["HX-Refresh"] = "true"
    return response
