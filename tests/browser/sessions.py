"""A browser context logged in as a user, without going through the login
form: the test client's session cookie, handed to the browser."""

from django.conf import settings
from django.test import Client


def logged_in_context(browser, live_server, user, **options):
    """A new context (``options`` as for ``browser.new_context``, English
    unless a ``locale`` is given) carrying ``user``'s session."""
    client = Client()
    client.force_login(user)
    options.setdefault("locale", "en-GB")
    context = browser.new_context(**options)
    name = settings.SESSION_COOKIE_NAME
    context.add_cookies(
        [{"name": name, "value": client.cookies[name].value, "url": live_server.url}]
    )
    return context
