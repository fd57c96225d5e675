"""What the wing's views share (no view lives here)."""

from __future__ import annotations

from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.problems import problem
from tournaments.views._helpers import AddressLimit

#: the session's personal links by tournament (the door's check-in page
#: sends a phone that opened its link before straight back to it)
SESSION_LINKS = "registration_links"


def remember_link(request, tournament_id: int, token: str) -> None:
    links = dict(request.session.get(SESSION_LINKS) or {})
    if links.get(str(tournament_id)) != token:
        links[str(tournament_id)] = token
        request.session[SESSION_LINKS] = links


def remembered_link(request, tournament_id: int) -> str | None:
    return (request.session.get(SESSION_LINKS) or {}).get(str(tournament_id))


def token_for_form(nonce: str) -> str:
    """The personal link's token of a form's one-time id: the same form sent
    twice leads to the same link (derived with the site's secret key)."""
    digest = salted_hmac("registration-link", nonce, algorithm="sha256").hexdigest()
    return digest[:32]


#: the registrations one address may send (``REGISTRATION_LIMIT`` in
#: ``REGISTRATION_WINDOW`` seconds)
LIMIT = AddressLimit(
    "registration-count",
    "REGISTRATION",
    lambda minutes: (
        ngettext(
            "Too many registrations were sent from this address. Try again in %(n)s minute.",
            "Too many registrations were sent from this address. Try again in %(n)s minutes.",
            minutes,
        )
        % {"n": minutes}
    ),
)


def bad_link(request):
    return problem(
        request,
        _(
            "This link is not valid: it is damaged, or the organizer has replaced it. "
            "Ask the organizer for your current link."
        ),
        status=404,
        title=_("Link not valid"),
    )
