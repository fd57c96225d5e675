"""Request and response guards that hold for every page.

- :class:`VenueHostMiddleware` (the laptop at the venue only): which Host
  headers the laptop answers, in place of ``ALLOWED_HOSTS``.
- :class:`BodySizeLimitMiddleware` (first in ``MIDDLEWARE``): a request that
  announces a body larger than the limits in :mod:`tournaments.limits` is
  answered 413 from its headers alone — the body is never read.
- :class:`SecurityHeadersMiddleware`: a Content-Security-Policy on every page
  (scripts and styles only from this site: no inline script, no inline event
  handler, no eval; htmx is configured for it in ``base.html``), and
  ``Cache-Control: no-store`` on every private page (logged in, seat and
  sheet links) so a shared phone or a proxy never keeps them.
- :class:`RequestBudgetMiddleware`: no request runs unbounded. Past
  ``REQUEST_TIME_BUDGET`` seconds a request may start no further database
  query, and a query running then is stopped (PostgreSQL: the connection's
  ``statement_timeout``; SQLite: a progress handler); the request answers the
  site's 503 page and every other request goes on being served.
"""

from __future__ import annotations

import ipaddress
import logging
import math
import socket
import time
from contextvars import ContextVar

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.db import DatabaseError
from django.db.backends.signals import connection_created
from django.utils import translation
from django.utils.cache import add_never_cache_headers, patch_vary_headers
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments import limits
from tournaments.problems import problem

#: the policy: everything from this site only; images may be data: URIs (QR)
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)

#: URL prefixes of pages reached by a private link (no login)
PRIVATE_LINK_PREFIXES = ("/p/", "/s/")


def body_limit_for(content_type: str) -> int:
    """The largest body a request of this content type may send: file uploads
    (a tournament export, a player list, a deck) more than plain forms."""
    if content_type.startswith("multipart/"):
        return limits.MAX_BODY_BYTES
    if content_type.startswith("application/gzip"):  # a laptop's publication
        return limits.MAX_PUBLICATION_BYTES
    return limits.MAX_FORM_BYTES


def body_limit(request) -> int:
    return body_limit_for(request.META.get("CONTENT_TYPE", ""))


class BodySizeLimitMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        raw = request.META.get("CONTENT_LENGTH") or "0"
        try:
            length = int(raw)
        except ValueError:
            length = -1
        limit = body_limit(request)
        if length < 0 or length > limit:
            return self.refuse(request, limit)
        return self.get_response(request)

    def refuse(self, request, limit):
        language = translation.get_language_from_request(request)
        with translation.override(language):
            response = problem(
                request,
                _(
                    "This request is too large: at most %(mb)s MB can be sent at once. "
                    "Nothing was saved."
                )
                % {"mb": limits.mb(limit)},
                status=413,
                title=_("Too large"),
            )
        # the body was not read: the server closes the connection after the
        # answer instead of reading on (the server does on "Connection: close")
        response["Connection"] = "close"
        return response


class SecurityHeadersMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        self.policy = getattr(settings, "CONTENT_SECURITY_POLICY", CONTENT_SECURITY_POLICY)

    def __call__(self, request):
        response = self.get_response(request)
        if self.policy and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = self.policy
        if self.is_private(request):
            add_never_cache_headers(response)
            patch_vary_headers(response, ["Cookie"])
        return response

    @staticmethod
    def is_private(request) -> bool:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            return True
        return request.path_info.startswith(PRIVATE_LINK_PREFIXES)


# -- the laptop's hosts ------------------------------------------------------------


class VenueHostMiddleware:
    """The laptop at the venue (``make run``: plain HTTP, no proxy in front).
    Phones reach it by its address on whatever network it joined, which may
    change during the day, so ``ALLOWED_HOSTS`` is ``*`` there and this check
    takes its place: an IP address (the phone typed or scanned the laptop's
    address), ``localhost``, the laptop's own name (and ``name.local``), or a
    name in ``VENUE_HOSTS``. Any other name is refused (400) — it is what a
    web page using DNS rebinding in a browser on the network would send."""

    def __init__(self, get_response):
        self.get_response = get_response
        name = socket.gethostname().lower()
        self.names = {"localhost", name, f"{name}.local"} | {
            h.lower() for h in getattr(settings, "VENUE_HOSTS", [])
        }

    def __call__(self, request):
        host = request.META.get("HTTP_HOST") or request.META.get("SERVER_NAME", "")
        if not self.allowed(host):
            raise DisallowedHost(f"Invalid HTTP_HOST header for the venue server: {host!r}")
        return self.get_response(request)

    def allowed(self, host: str) -> bool:
        host = host.strip().lower()
        if host.startswith("["):  # [v6]:port
            bare = host[1 : host.find("]")] if "]" in host else ""
        else:
            bare = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
        if bare.endswith("."):
            bare = bare[:-1]
        if bare in self.names or bare.endswith(".localhost"):
            return True
        try:
            ipaddress.ip_address(bare)
        except ValueError:
            return False
        return True


# -- the time budget -----------------------------------------------------------------

logger = logging.getLogger(__name__)

#: when the request running in this context must have finished (time.monotonic())
_deadline: ContextVar[float | None] = ContextVar("request_deadline", default=None)
#: set when this context's request ran out of its budget
_exceeded: ContextVar[bool] = ContextVar("request_budget_exceeded", default=False)
#: set while a query the budget may stop runs (never COMMIT or ROLLBACK)
_in_query: ContextVar[bool] = ContextVar("request_budget_in_query", default=False)

#: statements that end a transaction or savepoint always run: stopping one would
#: leave the transaction (and SQLite's write lock) open
_TRANSACTION_CONTROL = ("ROLLBACK", "RELEASE", "SAVEPOINT", "COMMIT")
#: PostgreSQL's SQLSTATE for a statement cancelled by statement_timeout
_QUERY_CANCELED = "57014"


class RequestTimeBudgetExceeded(Exception):
    """The request ran past ``REQUEST_TIME_BUDGET``: no further query."""


def _past_deadline() -> bool:
    deadline = _deadline.get()
    return deadline is not None and time.monotonic() > deadline


def _is_timeout(exc: DatabaseError) -> bool:
    cause = exc.__cause__
    if getattr(cause, "sqlstate", None) == _QUERY_CANCELED:
        return True
    return "interrupted" in str(exc).lower() and _past_deadline()


def budget_guard(execute, sql, params, many, context):
    """``connection.execute_wrapper``: a query of a request past its budget is
    refused; a query stopped by the timeout is reported as the budget's."""
    control = sql.lstrip()[:9].upper().startswith(_TRANSACTION_CONTROL)
    if not control and _past_deadline():
        _exceeded.set(True)
        raise RequestTimeBudgetExceeded
    running = _in_query.set(not control)
    try:
        return execute(sql, params, many, context)
    except DatabaseError as exc:
        if _deadline.get() is not None and _is_timeout(exc):
            _exceeded.set(True)
            raise RequestTimeBudgetExceeded from exc
        raise
    finally:
        _in_query.reset(running)


def _sqlite_progress() -> int:
    """SQLite calls this every few thousand steps of a statement: non-zero
    stops it ("interrupted"). Only a request's own queries are stopped, never
    the commit or rollback that ends its transaction."""
    return 1 if _in_query.get() and _past_deadline() else 0


def install_budget_guard(sender, connection, **kwargs):
    """On every new database connection of a web process."""
    if budget_guard not in connection.execute_wrappers:
        connection.execute_wrappers.append(budget_guard)
    if connection.vendor == "sqlite":
        connection.connection.set_progress_handler(_sqlite_progress, 20_000)


class RequestBudgetMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response
        # the guard does nothing outside a request with a budget
        connection_created.connect(install_budget_guard, dispatch_uid="request-budget")
        from django.db import connections

        for conn in connections.all(initialized_only=True):  # opened before
            if conn.connection is not None:
                install_budget_guard(None, conn)

    @staticmethod
    def budget() -> float:
        return float(getattr(settings, "REQUEST_TIME_BUDGET", 0) or 0)

    def __call__(self, request):
        budget = self.budget()
        if budget <= 0:
            return self.get_response(request)
        token = _deadline.set(time.monotonic() + budget)
        exceeded = _exceeded.set(False)
        try:
            response = self.get_response(request)
            if _exceeded.get() and response.status_code >= 500 and not _is_ours(response):
                # raised outside a view (a middleware): Django made it a 500
                response = self.too_long(request)
            return response
        finally:
            _deadline.reset(token)
            _exceeded.reset(exceeded)

    def process_exception(self, request, exception):
        if isinstance(exception, RequestTimeBudgetExceeded) or _exceeded.get():
            return self.too_long(request)
        return None

    def too_long(self, request):
        _deadline.set(None)  # the error page itself may read the session
        budget = self.budget()
        logger.warning(
            "%s %s stopped: past its time budget of %s s",
            request.method,
            request.get_full_path()[:200],
            budget,
        )
        language = translation.get_language_from_request(request)
        with translation.override(language):
            response = problem(
                request,
                ngettext(
                    "This page took longer than %(seconds)s second and was stopped, so that "
                    "the site keeps answering everyone else. Please try again in a moment; "
                    "if it happens again, tell the organizer.",
                    "This page took longer than %(seconds)s seconds and was stopped, so that "
                    "the site keeps answering everyone else. Please try again in a moment; "
                    "if it happens again, tell the organizer.",
                    math.ceil(budget),
                )
                % {"seconds": f"{budget:g}"},
                status=503,
                title=_("Took too long"),
            )
        response["Retry-After"] = "5"
        response.budget_page = True
        # logged above as a warning; not again by Django as a server error
        response._has_been_logged = True
        return response


def _is_ours(response) -> bool:
    return getattr(response, "budget_page", False)
