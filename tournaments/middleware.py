"""Request and response guards that hold for every page.

- :class:`BodySizeLimitMiddleware` (first in ``MIDDLEWARE``): a request that
  announces a body larger than the limits in :mod:`tournaments.limits` is
  answered 413 from its headers alone — the body is never read.
- :class:`SecurityHeadersMiddleware`: a Content-Security-Policy on every page
  (scripts and styles only from this site: no inline script, no inline event
  handler, no eval; htmx is configured for it in ``base.html``), and
  ``Cache-Control: no-store`` on every private page (logged in, seat and
  sheet links) so a shared phone or a proxy never keeps them.
"""

from __future__ import annotations

from django.conf import settings
from django.utils import translation
from django.utils.cache import add_never_cache_headers, patch_vary_headers
from django.utils.translation import gettext as _

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


def body_limit(request) -> int:
    """The largest body this request may send: file uploads (a tournament
    export, a player list, a deck) more than plain forms."""
    if request.META.get("CONTENT_TYPE", "").startswith("multipart/"):
        return limits.MAX_BODY_BYTES
    return limits.MAX_FORM_BYTES


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
        # answer instead of reading on (gunicorn does on "Connection: close")
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
