"""What the wing's views share (no view lives here)."""

from __future__ import annotations

import re
import secrets

from django.conf import settings
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments import ratelimit, roster
from tournaments.problems import problem
from tournaments.registrations.forms import FORM_MAX_AGE
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


#: a random value per browser (set with the registration form): a form sent
#: twice from the same browser leads to the same link, the same form's stamp
#: sent from anywhere else to none
BROWSER_COOKIE = "registration_browser"
_BROWSER_SHAPE = re.compile(r"[A-Za-z0-9_-]{22,64}")


def browser_key(request) -> tuple[str, bool]:
    """The browser's registration key from its cookie, or a new one (then
    True: :func:`keep_browser_key` sets it on the answer)."""
    value = request.COOKIES.get(BROWSER_COOKIE, "")
    if _BROWSER_SHAPE.fullmatch(value):
        return value, False
    return secrets.token_urlsafe(24), True


def keep_browser_key(response, key: str) -> None:
    response.set_cookie(
        BROWSER_COOKIE,
        key,
        max_age=FORM_MAX_AGE,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


def token_for_form(nonce: str, browser: str) -> str:
    """The personal link's token of a form's one-time id sent from one
    browser: the same form sent twice from it (a double click) leads to the
    same link; its stamp sent from another browser to another token, which
    the service refuses (derived with the site's secret key: the stamp alone
    is no credential)."""
    digest = salted_hmac("registration-link", f"{nonce}:{browser}", algorithm="sha256").hexdigest()
    return digest[:32]


#: the registrations one address may send (``REGISTRATION_LIMIT`` in
#: ``REGISTRATION_WINDOW`` seconds: enough for a club's members on its Wi-Fi)
ADDRESS_LIMIT = AddressLimit(
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


def _person_refusal(request):
    minutes = max(1, settings.REGISTRATION_WINDOW // 60)
    text = ngettext(
        "Too many registrations were sent for this name or e-mail address. "
        "Try again in %(n)s minute.",
        "Too many registrations were sent for this name or e-mail address. "
        "Try again in %(n)s minutes.",
        minutes,
    ) % {"n": minutes}
    return problem(request, text, status=429, title=_("Please wait"))


class RegistrationLimit:
    """A registration counts against its address (``ADDRESS_LIMIT``) and
    against its name and e-mail address (``REGISTRATION_PERSON_LIMIT`` each
    in ``REGISTRATION_WINDOW``; the name as the roster folds it, so
    "Juergen Gross" is "Jürgen Groß"). The counts are kept under keyed hashes,
    never the name or address itself."""

    def left(self, request) -> bool:
        """The address is still under its limit (before the form is read)."""
        return ADDRESS_LIMIT.left(request)

    def refused(self, request):
        return ADDRESS_LIMIT.refused(request)

    @staticmethod
    def _person_keys(form) -> list[str]:
        data = form.cleaned_data
        values = [f"name:{roster.folded(data.get('name') or '')}"]
        if data.get("email"):
            values.append(f"mail:{data['email'].strip().lower()}")
        return [
            "registration-person:" + salted_hmac("registration-limit", v).hexdigest()[:32]
            for v in values
        ]

    def take(self, request, form):
        """Count one before the work: None, or the page of a refusal (429)."""
        if not ADDRESS_LIMIT.take(request):
            return ADDRESS_LIMIT.refused(request)
        taken = []
        for key in self._person_keys(form):
            if not ratelimit.take(
                key, settings.REGISTRATION_PERSON_LIMIT, settings.REGISTRATION_WINDOW
            ):
                ADDRESS_LIMIT.give_back(request)
                for earlier in taken:
                    ratelimit.give_back(earlier)
                return _person_refusal(request)
            taken.append(key)
        return None

    def give_back(self, request, form) -> None:
        """The registration did not happen after all: its places are free."""
        ADDRESS_LIMIT.give_back(request)
        for key in self._person_keys(form):
            ratelimit.give_back(key)


LIMIT = RegistrationLimit()


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
