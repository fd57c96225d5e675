"""A browser logged in as a user: a context without going through the login
form (the test client's session cookie, handed to the browser), or a page
through the form as the organizer types it."""

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


def login_with_form(page, base: str) -> None:
    """Log the ``organizer`` fixture's account in through the login form at
    ``base`` and wait until the page has left it."""
    page.goto(f"{base}/accounts/login/")
    page.fill('input[name="username"]', "orga")
    page.fill('input[name="password"]', "pw-orga-12345")
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(lambda url: "/login/" not in url)
