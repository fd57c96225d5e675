"""Helpers the views share; no view lives here, and no view imports another
view: shared page data comes from the selectors, shared responses from here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import qrcode
import qrcode.image.svg
from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.utils.html import escape
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from tournaments import live, ratelimit
from tournaments.addresses import client_address
from tournaments.problems import problem
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


@dataclass(frozen=True)
class AddressLimit:
    """At most ``<setting>_LIMIT`` of something (accounts, registrations)
    from one address in ``<setting>_WINDOW`` seconds, counted under
    ``prefix`` (:mod:`tournaments.ratelimit`; the settings are read at each
    request). ``refusal(minutes)`` words the refusal."""

    prefix: str
    setting: str
    refusal: Callable[[int], str]

    def _key(self, request) -> str:
        return f"{self.prefix}:{client_address(request) or 'unknown'}"

    def left(self, request) -> bool:
        """Still under the limit (a read, for a quick refusal before the work)."""
        return ratelimit.left(self._key(request), getattr(settings, f"{self.setting}_LIMIT"))

    def take(self, request) -> bool:
        """Count one before the work; False when that is over the limit."""
        return ratelimit.take(
            self._key(request),
            getattr(settings, f"{self.setting}_LIMIT"),
            getattr(settings, f"{self.setting}_WINDOW"),
        )

    def give_back(self, request) -> None:
        """What was counted did not happen after all: its place is free."""
        ratelimit.give_back(self._key(request))

    def refused(self, request):
        """The page of a request over the limit: when to try again (429)."""
        minutes = max(1, getattr(settings, f"{self.setting}_WINDOW") // 60)
        return problem(request, self.refusal(minutes), status=429, title=_("Please wait"))


def round_problem(request, value):
    """The page of a round number that is not one of the tournament's."""
    return problem(
        request,
        _("“%(value)s” is not a round of this tournament.") % {"value": value},
        status=404,
    )


def qr_svg(url: str) -> str:
    """The URL as a QR code in inline SVG (the ``qrcode`` library's SVG path
    image, scaled by CSS): the projector's join code, a player's personal
    link, the check-in poster. A page may show it twice (the projector): the
    library's fixed id on the path would be on the page twice, so it goes."""
    code = qrcode.QRCode(
        border=2,
        error_correction=qrcode.constants.ERROR_CORRECT_M,
        image_factory=qrcode.image.svg.SvgPathImage,
    )
    code.add_data(url)
    code.make(fit=True)
    return code.make_image().to_string(encoding="unicode").replace(' id="qr-path"', "")
