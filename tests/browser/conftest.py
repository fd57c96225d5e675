"""Playwright driving Debian's Chromium against pytest-django's live server."""

import os
from pathlib import Path

import pytest

#: axe-core, installed by `make axe` from tests/browser/axe's lock file
AXE = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


@pytest.fixture(scope="session")
def browser(chromium_path):
    from playwright.sync_api import sync_playwright

    # Playwright's sync API keeps an event loop in this thread; the ORM calls the
    # browser tests make themselves are plain synchronous code. Set only while
    # a browser is open (tests/tournaments/test_setup.py keeps it out of the
    # deploy check).
    before = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
            yield browser
            browser.close()
    finally:
        if before is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = before


@pytest.fixture
def page(browser):
    # Playwright's wait_for_function evaluates its expression with eval, which
    # the site's Content-Security-Policy refuses: this page ignores the policy.
    # tests/browser/test_csp.py loads the pages under the real policy.
    context = browser.new_context(locale="en-GB", bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


@pytest.fixture(scope="session")
def live_server(django_db_setup, live_server):
    """pytest-django's live server, torn down before the test database: its
    thread's connection would otherwise still be open when the database is
    dropped ("database ... is being accessed by other users")."""
    return live_server


@pytest.fixture(scope="module")
def axe_source() -> str:
    """axe-core's script, for a test that checks a page by its rules."""
    from tests.conftest import missing_service

    if not AXE.exists():
        missing_service("axe-core (npm ci --prefix tests/browser/axe)")
    return AXE.read_text(encoding="utf-8")
