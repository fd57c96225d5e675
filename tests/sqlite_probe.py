"""What the embedded default's database does while another process holds its
write lock; run by ``tests/tournaments/test_sqlite_locks.py`` as
``python -m tests.sqlite_probe`` in a process configured as ``make run``
configures its own (no DATABASE_URL: SQLite in ``TURNIERLEITER_VAR``), since
the test process itself may be on PostgreSQL.

Another connection — a raw ``sqlite3`` one, as the worker or another web
process would hold it — takes the write lock and keeps it for HOLD_S seconds
while this process tries each kind of write the site makes, in a transaction
and outside one. Prints one JSON object: per case whether it succeeded, how
long it waited and the error if any.
"""

from __future__ import annotations

import json
import os
import sqlite3
import sys
import threading
import time
from pathlib import Path

HOLD_S = 1.2
PASSWORD = "probe-pass-12345"


class Holder:
    """Another connection holding the write lock for ``seconds``."""

    def __init__(self, path: Path, seconds: float = HOLD_S):
        self.path, self.seconds = path, seconds
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._hold, daemon=True)

    def _hold(self):
        conn = sqlite3.connect(self.path, isolation_level=None, timeout=30)
        try:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("INSERT INTO probe_lock VALUES (1)")
            self.ready.set()
            time.sleep(self.seconds)
            conn.execute("COMMIT")
        finally:
            conn.close()

    def __enter__(self):
        self.thread.start()
        self.ready.wait(30)
        return self

    def __exit__(self, *exc):
        self.thread.join(30)


def attempt(path: Path, work, seconds: float = HOLD_S) -> dict:
    """Run ``work`` while the lock is held: did it succeed, after how long?"""
    with Holder(path, seconds):
        start = time.monotonic()
        try:
            work()
            error = None
        except Exception as exc:
            error = f"{type(exc).__name__}: {exc}"
        waited = time.monotonic() - start
    return {"ok": error is None, "waited": round(waited, 3), "error": error}


def main() -> None:
    var = Path(os.environ["TURNIERLEITER_VAR"])
    path = var / "turnierleiter.sqlite3"
    out = {}

    # A file from before, still in the rollback journal, whose write lock another
    # process holds: the first connection turns it to WAL after the lock is free.
    raw = sqlite3.connect(path, isolation_level=None)
    raw.execute("CREATE TABLE probe_lock (x INTEGER)")
    raw.close()
    import django

    django.setup()
    from django.db import connection, transaction

    out["old_file_to_wal"] = attempt(path, connection.ensure_connection)
    with connection.cursor() as cursor:
        out["journal_mode"] = cursor.execute("PRAGMA journal_mode").fetchone()[0]
        out["synchronous"] = cursor.execute("PRAGMA synchronous").fetchone()[0]
    connection.close()
    from django.core.management import call_command

    call_command("migrate", "--noinput", verbosity=0)

    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.utils import timezone

    from tournaments import services
    from tournaments.models import Player, PlayerEvent
    from tournaments.sqlite.retry import retry_when_locked

    user = get_user_model().objects.create_user("probe", password=PASSWORD)
    tournament = services.tournament_create(owner=user, name="Probe", game="quartett")
    player = services.player_add(tournament=tournament, by=user, name="Ana")
    connection.close()

    # a new connection: its pragmas wait
    out["new_connection"] = attempt(path, connection.ensure_connection)
    # a write outside any transaction (last_login, a queryset update)
    out["autocommit_write"] = attempt(
        path, lambda: get_user_model().objects.filter(pk=user.pk).update(last_login=timezone.now())
    )

    def read_then_write():
        # read, then (the other connection has committed meanwhile) write
        with transaction.atomic():
            Player.objects.filter(tournament=tournament).count()
            time.sleep(HOLD_S / 2)
            Player.objects.filter(pk=player.pk).update(club="SC Probe")

    out["read_then_write"] = attempt(path, read_then_write)

    client = Client(HTTP_HOST="127.0.0.1")

    def login():
        # the session row, last_login, axes' log: written outside the views
        response = client.post(
            "/accounts/login/", {"username": "probe", "password": PASSWORD}, secure=True
        )
        assert response.status_code == 302, response.status_code

    out["login"] = attempt(path, login)

    def check_in():
        url = f"/tournaments/{tournament.pk}/players/{player.pk}/check-in/"
        response = client.post(url, secure=True, headers={"HX-Request": "true"})
        assert response.status_code == 200, response.status_code

    out["check_in"] = attempt(path, check_in)
    out["check_in_events"] = PlayerEvent.objects.filter(
        player=player, kind=PlayerEvent.CHECK_IN
    ).count()

    # A lock refused all the same (here: a busy timeout of 50 ms on this
    # connection against a lock held for 1 s): the unit of work runs again
    # (after 0.3, 0.6, 0.9 s) until the lock is free, and its row is stored once.
    calls = []

    @retry_when_locked(attempts=5, pause=0.3)
    def add_player():
        calls.append(1)
        with transaction.atomic():
            services.player_add(tournament=tournament, by=user, name="Ben")

    connection.ensure_connection()
    connection.connection.execute("PRAGMA busy_timeout = 50")
    out["retried"] = attempt(path, add_player, seconds=1.0)
    out["retried"]["calls"] = len(calls)
    out["retried"]["rows"] = Player.objects.filter(tournament=tournament, name="Ben").count()

    connection.close()
    print(json.dumps(out))


if __name__ == "__main__":
    sys.exit(main())
