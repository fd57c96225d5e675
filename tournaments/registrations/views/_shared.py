"""What the wing's views share (no view lives here)."""

from __future__ import annotations

from django.conf import settings
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments import ratelimit
from tournaments.problems import problem
from tournaments.views._helpers import client_address

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


def limit_key(request) -> str:
    return f"registration-count:{client_address(request) or 'unknown'}"


def limit_left(request) -> bool:
    return ratelimit.left(limit_key(request), settings.REGISTRATION_LIMIT)


def limit_take(request) -> bool:
    return ratelimit.take(
        limit_key(request), settings.REGISTRATION_LIMIT, settings.REGISTRATION_WINDOW
    )


def limit_give_back(request) -> None:
    ratelimit.give_back(limit_key(request))


def limit_refused(request):
    minutes = max(1, settings.REGISTRATION_WINDOW // 60)
    return problem(
        request,
        ngettext(
            "Too many registrations were sent from this address. Try again in %(n)s minute.",
            "Too many registrations were sent from this address. Try again in %(n)s minutes.",
            minutes,
        )
        % {"n": minutes},
        status=429,
        title=_("Please wait"),
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
