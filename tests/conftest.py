"""Shared fixtures.

Tests that need a real service (PostgreSQL, Redis, Chromium) are skipped with
a reason starting "missing service" when it is not configured; with
TURNIERLEITER_REQUIRE_SERVICES=1 (set by .ci/run) they fail instead.
"""

import inspect
import os
import shutil

import pytest


def missing_service(what: str):
    reason = f"missing service: {what}"
    if os.environ.get("TURNIERLEITER_REQUIRE_SERVICES"):
        pytest.fail(reason)
    pytest.skip(reason)


@pytest.fixture
def require_postgres(settings):
    if "postgresql" not in settings.DATABASES["default"]["ENGINE"]:
        missing_service("PostgreSQL (set DATABASE_URL=postgres://...)")


@pytest.fixture
def require_redis():
    if not os.environ.get("REDIS_URL"):
        missing_service("Redis (set REDIS_URL=redis://127.0.0.1:6379/15)")
    return os.environ["REDIS_URL"]


@pytest.fixture
def inline_bots(monkeypatch, settings):
    """No broker: the clock's calls are dropped, and the bot's wake-up call
    runs the bot task at once, after the move's commit, where it was sent
    (as a worker would, without the pause). Returns the calls, (table id,
    pause), in order."""
    from tournaments.play import bots
    from tournaments.play import tables as digital
    from tournaments.services import deadlines

    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)
    settings.DIGITAL_BOT_DELAY = 0
    calls = []

    def send(table_id, delay):
        calls.append((table_id, delay))
        bots.bot_move(table_id=table_id)

    monkeypatch.setattr(digital, "send_bot_task", send)
    return calls


@pytest.fixture
def organizer(django_user_model):
    return django_user_model.objects.create_user("orga", password="pw-orga-12345")


@pytest.fixture
def other_user(django_user_model):
    return django_user_model.objects.create_user("other", password="pw-other-12345")


@pytest.fixture
def tournament(organizer):
    from tournaments import services

    return services.tournament_create(owner=organizer, name="Herbstturnier", game="quartett")


@pytest.fixture(scope="session")
def chromium_path():
    path = shutil.which("chromium")
    if not path:
        missing_service("chromium (apt-get install chromium)")
    return path


@pytest.fixture(autouse=True)
def _own_cache(settings):
    """Each test its own empty cache: a process's local memory, so parallel
    workers (whose databases reuse the same ids) never read each other's
    entries."""
    from django.core.cache import cache

    from tournaments import live

    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    cache.clear()
    live.forget_local()
    yield
    cache.clear()
    live.forget_local()


@pytest.fixture(autouse=True)
def _no_foreign_event_loop(request):
    """Playwright's sync API, once a browser test of this worker started it,
    keeps its event loop marked as running in this thread for the session: a
    later test that runs its own loop (``asyncio.run``) would fail with
    "cannot be called from a running event loop". Outside the browser tests
    the mark is lifted for the test and put back after it."""
    import asyncio

    loop = asyncio._get_running_loop()
    if loop is None or "browser" in request.keywords:
        yield
        return
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        asyncio._set_running_loop(loop)


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


# The conformance cases are long (up to about a minute each); run them first,
# longest first, so the short tests fill both workers' tails instead of one
# worker finishing the long cases alone.
_LONG_GAMES = ["trumpet", "terra_trumpf", "quartett", "altruismus", "monddaemmerung"]


# the longest tests `make test-fast` runs (each tens of seconds), started right
# after the conformance cases, so that none of them begins at a worker's tail
_LONG_FAST = [
    "test_import_doors.py::test_any_broken_export_is_refused_or_every_page_shows_it",
    "test_club_import_doors.py::test_any_broken_club_export_is_refused_or_every_page_shows_it",
    "test_fuzz_urls.py::test_sweep_every_url_parameter_and_field",
    "test_fuzz_urls.py::test_hypothesis_over_the_url_list",
]


def _cost(item) -> tuple:
    for i, name in enumerate(_LONG_FAST):
        if item.nodeid.endswith(name):
            return (0, 1, i)
    if "test_conformance.py::test_conformance[" not in item.nodeid:
        return (1, 0, 0)
    game, players = item.callspec.params["engine_id"], item.callspec.params["players"]
    return (0, -players, _LONG_GAMES.index(game))


# Markers set here, so a new test is sorted by what it does, not by memory:
# `browser` every test under tests/browser/; `server` a test that starts a
# real server or any other process (its function, a fixture it uses or a
# helper of their module calls subprocess, multiprocessing or
# tests/serverproc.py), or uses pytest-django's live server; `conformance`
# the long conformance cases. `make test-fast` leaves these (and `slow`) out.
_BROWSER_DIR = os.path.join(os.path.dirname(__file__), "browser") + os.sep
_PROCESS_MODULES = {"subprocess", "multiprocessing", "tests.serverproc"}


def _code_names(code) -> set[str]:
    names = set(code.co_names)
    for const in code.co_consts:
        if hasattr(const, "co_names"):
            names |= _code_names(const)
    return names


def _starts_processes(func, seen: set) -> bool:
    """Whether ``func``, or a function of the tests' own it calls by name,
    reaches for a process module."""
    func = getattr(func, "__wrapped__", func)
    code = getattr(func, "__code__", None)
    if code is None or code in seen:
        return False
    seen.add(code)
    module_globals = getattr(func, "__globals__", {})
    for name in _code_names(code):
        value = module_globals.get(name)
        if value is None:
            continue
        owner = getattr(value, "__name__", None) if inspect.ismodule(value) else None
        owner = owner or getattr(value, "__module__", None)
        if owner in _PROCESS_MODULES:
            return True
        if (
            inspect.isfunction(value)
            and (value.__module__ or "").startswith("tests")
            and _starts_processes(value, seen)
        ):
            return True
    return False


def _add_markers(item) -> None:
    if str(item.fspath).startswith(_BROWSER_DIR):
        item.add_marker(pytest.mark.browser)
    if "test_conformance.py::test_conformance[" in item.nodeid:
        item.add_marker(pytest.mark.conformance)
    if item.get_closest_marker("server"):
        return
    seen: set = set()
    fixturedefs = getattr(item, "_fixtureinfo", None)
    funcs = [getattr(item, "function", None)]
    if fixturedefs is not None:
        if "live_server" in fixturedefs.names_closure:
            item.add_marker(pytest.mark.server)
            return
        funcs += [
            d.func
            for defs in fixturedefs.name2fixturedefs.values()
            for d in defs
            if (getattr(d.func, "__module__", None) or "").startswith("tests")
        ]
    if any(_starts_processes(f, seen) for f in funcs if f is not None):
        item.add_marker(pytest.mark.server)


def pytest_collection_modifyitems(session, config, items):
    for item in items:
        _add_markers(item)
    items.sort(key=_cost)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database, and before it is dropped: end any
    session still connected to it (a thread of the live server or of a
    concurrency test that outlived its test), so the drop doesn't fail with
    "database ... is being accessed by other users"."""
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@pytest.fixture(autouse=True)
def _default_language():
    """Each test starts in the site's default language: a request in German
    (Accept-Language) leaves German active in its thread, which would leak
    into the next test's direct calls."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()
