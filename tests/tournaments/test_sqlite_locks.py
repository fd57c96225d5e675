"""The embedded default (SQLite) waits for a lock instead of failing. ``tests/sqlite_probe.py`` runs in a process configured as ``make run``
configures its own, while another connection holds the write lock for 1.2 s;
every kind of write the site makes waits for it and succeeds — inside a
transaction and outside one (the login's session, last_login and axes rows).
A lock refused all the same is retried, and the write stored once; inside a
caller's transaction it is not retried."""

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import OperationalError, transaction

from tests import staff_load
from tests.sqlite_probe import HOLD_S
from tournaments.models import Player
from tournaments.sqlite.retry import retry_when_locked

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def probe(tmp_path_factory):
    var = tmp_path_factory.mktemp("sqlite-probe")
    done = subprocess.run(
        [sys.executable, "-m", "tests.sqlite_probe"],
        cwd=ROOT,
        env=staff_load.sqlite_env(var),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize(
    "case",
    ["autocommit_write", "read_then_write", "login", "check_in"],
)
def test_a_write_waits_for_another_processes_lock_and_succeeds(probe, case):
    outcome = probe[case]
    assert outcome["ok"], outcome["error"]
    assert outcome["waited"] >= HOLD_S / 3, outcome  # it waited, it was not refused


def test_the_check_in_made_while_locked_is_stored_once(probe):
    assert probe["check_in_events"] == 1


def test_a_new_connection_on_a_locked_file_is_not_refused(probe):
    # a file from before, in the rollback journal, turns to WAL once the lock is free
    assert probe["old_file_to_wal"]["ok"], probe["old_file_to_wal"]["error"]
    assert probe["journal_mode"] == "wal"
    assert probe["synchronous"] == 1  # NORMAL: one sync per checkpoint, safe with WAL
    assert probe["new_connection"]["ok"], probe["new_connection"]["error"]


def test_a_lock_refused_all_the_same_is_retried_and_stored_once(probe):
    retried = probe["retried"]
    assert retried["ok"], retried["error"]
    assert retried["calls"] >= 2 and retried["rows"] == 1


def locked() -> OperationalError:
    return OperationalError("database is locked")


@pytest.mark.django_db(transaction=True)
def test_a_retried_unit_of_work_stores_its_row_once(tournament):
    calls = []

    @retry_when_locked(pause=0)
    def register():
        calls.append(1)
        with transaction.atomic():
            Player.objects.create(tournament=tournament, name="Ana")
            if len(calls) == 1:
                raise locked()  # refused at the commit: the row is rolled back

    register()
    assert len(calls) == 2
    assert Player.objects.filter(tournament=tournament, name="Ana").count() == 1


@pytest.mark.django_db(transaction=True)
def test_inside_a_callers_transaction_a_refused_lock_goes_up(tournament):
    calls = []

    @retry_when_locked(pause=0)
    def refused():
        calls.append(1)
        raise locked()

    with pytest.raises(OperationalError), transaction.atomic():
        Player.objects.create(tournament=tournament, name="Ben")
        refused()
    assert calls == [1]
    assert not Player.objects.filter(name="Ben").exists()


def test_other_errors_and_the_last_attempt_are_not_hidden():
    calls = []

    @retry_when_locked(pause=0, attempts=3)
    def broken(error):
        calls.append(1)
        raise error

    with pytest.raises(OperationalError, match="no such table"):
        broken(OperationalError("no such table: x"))
    assert len(calls) == 1
    calls.clear()
    with pytest.raises(OperationalError, match="locked"):
        broken(locked())
    assert len(calls) == 3


def test_the_databases_wal_and_shared_memory_files_are_not_committed():
    if not shutil.which("git") or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    names = [
        "var/turnierleiter.sqlite3-wal",
        "var/turnierleiter.sqlite3-shm",
        "elsewhere.sqlite3-wal",
        "elsewhere.sqlite3-shm",
        "elsewhere.sqlite3-journal",
    ]
    done = subprocess.run(
        ["git", "check-ignore", "--no-index", *names],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert sorted(done.stdout.split()) == sorted(names)
