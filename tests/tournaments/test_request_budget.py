"""No request runs unbounded: past ``REQUEST_TIME_BUDGET`` a
request starts no further query and a running one is stopped (PostgreSQL's
``statement_timeout``, SQLite's progress handler); the request answers the
site's translated 503 page and the server goes on answering everyone else.

The runaway pages are test-only (``tests/slowserver/urls.py``): a single
statement that never ends, and short statements for ever.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from urllib.parse import quote

import pytest
from django.test import Client

from tests import serverproc

BUDGET = 1.0


@pytest.fixture
def runaway_client(settings):
    from django.db import connection

    settings.ROOT_URLCONF = "tests.slowserver.urls"
    client = Client()
    client.get("/")  # loaded and warm, within the default budget
    settings.REQUEST_TIME_BUDGET = BUDGET
    if connection.vendor == "postgresql":
        # what the settings give every connection from REQUEST_TIME_BUDGET
        # (the test database's connection was opened with the default's)
        with connection.cursor() as cursor:
            cursor.execute(f"SET statement_timeout = {int(BUDGET * 1000)}")
    yield client
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("RESET statement_timeout")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("page", ["one-long-query", "many-short-queries"])
def test_a_runaway_page_answers_the_sites_503_page_at_its_budget(runaway_client, settings, page):
    t0 = time.monotonic()
    response = runaway_client.get(f"/test-only/{page}/", HTTP_ACCEPT_LANGUAGE="de")
    took = time.monotonic() - t0
    assert response.status_code == 503
    assert BUDGET <= took < BUDGET + 10  # stopped (a loaded machine renders slowly)
    text = response.content.decode()
    assert "länger als 1 Sekunde gebraucht" in text
    assert "<html" in text and "Traceback" not in text
    # the connection is fine for the next request
    settings.REQUEST_TIME_BUDGET = 30
    assert runaway_client.get("/").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_a_change_in_a_stopped_request_is_not_kept(runaway_client, caplog):
    from django.contrib.auth import get_user_model

    response = runaway_client.get("/test-only/write-then-run-away/")
    assert response.status_code == 503
    stopped = [r for r in caplog.records if "past its time budget" in r.getMessage()]
    assert len(stopped) == 1  # logged once, as a warning, not as an error
    assert stopped[0].levelname == "WARNING"
    assert not get_user_model().objects.filter(username="written-by-a-runaway").exists()
    # and the database takes the next write (no transaction or lock left open)
    get_user_model().objects.create(username="after-the-runaway")


@pytest.mark.django_db(transaction=True)
def test_a_page_within_its_budget_is_untouched(runaway_client, settings):
    settings.REQUEST_TIME_BUDGET = 5  # a loaded machine may take a second
    response = runaway_client.get("/")
    assert response.status_code == 200


@pytest.mark.django_db(transaction=True)
def test_without_a_budget_nothing_is_guarded(settings):
    from django.db import connection

    from tournaments.middleware import _deadline, budget_guard

    settings.REQUEST_TIME_BUDGET = 0
    assert Client().get("/").status_code == 200
    assert _deadline.get() is None
    # the guard lets every query through outside a request
    with connection.execute_wrapper(budget_guard), connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


def runaway_alongside_others(port: int, budget: float) -> dict:
    """One runaway request of each kind while 40 other page requests are
    made (four at a time): what each answered and how long it took."""
    runaways = {}

    def runaway(page):
        runaways[page] = serverproc.get(port, f"/test-only/{page}/", timeout=budget + 20)

    threads = [
        threading.Thread(target=runaway, args=(p,))
        for p in ("one-long-query", "many-short-queries")
    ]
    for t in threads:
        t.start()
    time.sleep(0.2)  # the runaways are running
    others = []

    def other():
        for _ in range(10):
            others.append(serverproc.get(port, "/", timeout=budget + 20))

    helpers = [threading.Thread(target=other) for _ in range(4)]
    for t in helpers:
        t.start()
    for t in helpers + threads:
        t.join(timeout=budget + 30)
    return {"runaways": runaways, "others": others}


def assert_fails_alone(result: dict, budget: float, usual: float) -> None:
    for page, (status, body, took) in result["runaways"].items():
        assert status == 503, (page, status, body[:300])
        assert b"took longer than" in body, page
        assert budget - 0.1 <= took <= budget + 6, (page, took)
    assert len(result["others"]) == 40
    assert all(status == 200 for status, _, _ in result["others"])
    slowest = max(took for _, _, took in result["others"])
    # answered promptly: not queued behind the runaways
    assert slowest < usual + 1.0, (usual, slowest)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_on_postgresql_a_runaway_request_fails_alone(require_postgres, settings, tmp_path):
    """The server runall starts, on PostgreSQL (the test database), with a
    budget of 2 s and the test-only runaway pages."""
    from tournaments.management.commands.runall import laptop_env, prepare, web_command

    db = settings.DATABASES["default"]
    url = (
        f"postgres://{quote(db['USER'] or '')}:{quote(db['PASSWORD'] or '')}"
        f"@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
    )
    budget = 2.0
    env = laptop_env(
        serverproc.base_env(
            tmp_path,
            DATABASE_URL=url,
            CONN_MAX_AGE="60",
            REQUEST_TIME_BUDGET=str(budget),
            DJANGO_SETTINGS_MODULE="tests.slowserver.settings",
        )
    )
    prepare(env)
    port = serverproc.free_port()
    cmd = web_command(f"127.0.0.1:{port}")
    with serverproc.running(cmd, env, port, tmp_path / "web.log"):
        usual = serverproc.page_time(port, "/", times=5)
        result = runaway_alongside_others(port, budget)
        assert_fails_alone(result, budget, usual)
        # and nothing is left running in the database
        status, _, took = serverproc.get(port, "/", timeout=10)
        assert status == 200
    assert "past its time budget" in (tmp_path / "web.log").read_text()


def test_the_statement_timeout_is_a_connection_option(tmp_path):
    """Production settings on PostgreSQL: every connection carries it."""
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "from django.conf import settings as s; "
            "print(s.DATABASES['default']['OPTIONS']['options'])",
        ],
        env=serverproc.base_env(
            tmp_path,
            DATABASE_URL="postgres://u@127.0.0.1:1/x",
            REQUEST_TIME_BUDGET="30",
            DEBUG="0",
            SECRET_KEY="k" * 50,
        ),
        cwd=serverproc.ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert out.stdout.strip() == "-c statement_timeout=30000"
