"""Shared fixtures.

Tests that need a real service (PostgreSQL, Redis, Chromium) are skipped with
a reason starting "missing service" when it is not configured; with
TURNIERLEITER_REQUIRE_SERVICES=1 (set by .ci/run) they fail instead.
"""

import inspect
import os
import shutil

import pytest
from hypothesis import settings as hypothesis_settings

# `make test-fast` runs with --hypothesis-profile=quick: a quarter of each
# property test's examples (tests/examples.py); a full run keeps them all
hypothesis_settings.register_profile("quick", max_examples=25)


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


# the longest tests `make test-fast` runs (each over about ten seconds on
# this machine), started right after the conformance cases, so that none of
# them begins at a worker's tail; a checkout that has run the tests before
# orders them by the durations its last runs measured instead (below)
_LONG_FAST = [
    "test_import_doors.py::test_any_broken_export_is_refused_or_every_page_shows_it",
    "test_fuzz_urls.py::test_sweep_every_url_parameter_and_field",
    "test_reader.py::test_a_sheet_whose_code_is_blotted_out_is_read_once_its_layout_is_named[41-terra_trumpf-6-scan300]",
    "test_finals_digital.py::test_a_digital_final_table_plays_to_its_end_and_counts[trumpet]",
    "test_seating_fields_migration.py::test_the_seating_fields_are_filled_from_the_old_figures_and_given_back",
    "test_club_import_doors.py::test_any_broken_club_export_is_refused_or_every_page_shows_it",
    "test_no_leak_walk.py::test_no_public_or_player_answer_shows_hidden_cards_or_a_deal_secret[altruismus-3]",
    "test_printing.py::test_every_game_and_table_size_fits_on_a_sheet[True-terra_trumpf]",
    "test_demo.py::test_demo_rounds_have_real_lengths_and_played_results",
    "test_no_leak_walk.py::test_no_public_or_player_answer_shows_hidden_cards_or_a_deal_secret[monddaemmerung-4]",
    "test_no_leak_walk.py::test_no_public_or_player_answer_shows_hidden_cards_or_a_deal_secret[terra_trumpf-3]",
    "test_piles.py::test_a_sheet_whose_code_cant_be_read_is_read_once_staff_pick_its_table",
    "test_public_action.py::test_the_public_form_of_every_move_names_only_cards_everyone_sees[trumpet]",
    "test_seating_migration.py::test_earlier_log_rows_get_their_tournament",
    "test_fuzz_urls.py::test_hypothesis_over_the_url_list",
]

# Each run's durations (setup + call + teardown, seconds) are kept in pytest's
# cache (.pytest_cache/, merged over runs); the next run starts every test that
# took at least LONG_SECONDS longest first, so the short tests fill the
# workers' tails. The rest keep their files' order, and so do the browser and
# server tests (their module-scoped browsers and servers start once).
_DURATIONS_KEY = "turnierleiter/durations"
LONG_SECONDS = 1.0


def _cost(item, durations: dict) -> tuple:
    """Sort key: the long tests first (longest first), then the rest in their
    collected order."""
    if "test_conformance.py::test_conformance[" in item.nodeid:
        game, players = item.callspec.params["engine_id"], item.callspec.params["players"]
        return (0, 0, -players, _LONG_GAMES.index(game))
    if item.get_closest_marker("browser") or item.get_closest_marker("server"):
        return (2, 0, 0, 0)
    seconds = durations.get(item.nodeid)
    if seconds is not None and seconds >= LONG_SECONDS:
        return (1, -seconds, 0, 0)
    for i, name in enumerate(_LONG_FAST):
        if seconds is None and item.nodeid.endswith(name):
            # known to be long, not yet measured here: before the measured ones
            return (1, float("-inf"), i, 0)
    return (2, 0, 0, 0)


def _measured(config) -> dict:
    cache = getattr(config, "cache", None)
    found = cache.get(_DURATIONS_KEY, {}) if cache is not None else {}
    return found if isinstance(found, dict) else {}


_RUN_DURATIONS: dict[str, float] = {}


def pytest_runtest_logreport(report):
    # on xdist's controller (and in a run without xdist) every test's reports
    _RUN_DURATIONS[report.nodeid] = _RUN_DURATIONS.get(report.nodeid, 0.0) + report.duration


def pytest_sessionfinish(session):
    config = session.config
    if hasattr(config, "workerinput") or getattr(config, "cache", None) is None:
        return  # an xdist worker: the controller keeps the figures
    if not _RUN_DURATIONS:
        return
    kept = _measured(config)
    kept.update({k: round(v, 2) for k, v in _RUN_DURATIONS.items()})
    config.cache.set(_DURATIONS_KEY, kept)


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
    durations = _measured(config)
    items.sort(key=lambda item: _cost(item, durations))


def _delete_flush(original):
    """PostgreSQL's flush between transactional tests as DELETE, not TRUNCATE:
    a TRUNCATE of every table gives each a new file (about 0.2 s a test
    here), a DELETE of a test's few rows costs next to nothing. The flush
    runs in one transaction and Django's foreign keys are checked at its
    commit, so the order of the tables doesn't matter. With sequences to
    reset (``reset_sequences``) Django's own TRUNCATE stays."""

    def sql_flush(self, style, tables, *, reset_sequences=False, allow_cascade=False):
        if reset_sequences or not tables:
            return original(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        return [f"DELETE FROM {self.quote_name(table)};" for table in tables]

    return sql_flush


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database (flushed by DELETE on PostgreSQL), and
    before it is dropped: end any session still connected to it (a thread of
    the live server or of a concurrency test that outlived its test), so the
    drop doesn't fail with "database ... is being accessed by other users"."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    original = DatabaseOperations.sql_flush
    DatabaseOperations.sql_flush = _delete_flush(original)
    yield
    DatabaseOperations.sql_flush = original
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
