"""Django's SQLite backend, with connection pragmas that wait for a lock.

The options in ``settings.DATABASES`` do most of the work: ``timeout`` is
SQLite's busy timeout (a statement that meets another connection's write lock
waits for it; set before any statement, so it covers autocommit writes, the
``BEGIN IMMEDIATE`` of every transaction and the ``init_command`` pragmas),
and ``transaction_mode`` IMMEDIATE makes every transaction take the write lock
at its start, so no transaction that read first is refused when it then
writes (SQLite answers that "database is locked" at once, without waiting).

One statement the busy timeout does not cover: ``PRAGMA journal_mode=WAL`` on
a file still in the old rollback journal (a database from before, once) while
another connection holds its write lock is refused at once. A new
connection's pragmas are therefore run again until the lock is free, for as
long as the busy timeout allows. Once the file is in WAL (a lasting property
of the file) the pragma changes nothing and takes no lock.
"""

from __future__ import annotations

import sqlite3
import time

from django.db.backends.sqlite3 import base


def lock_refused(exc: BaseException) -> bool:
    """Did SQLite refuse a lock (SQLITE_BUSY / SQLITE_LOCKED)?"""
    text = str(exc)
    return "database is locked" in text or "database table is locked" in text


class DatabaseWrapper(base.DatabaseWrapper):
    def get_new_connection(self, conn_params):
        commands, self.init_commands = self.init_commands, []
        try:
            conn = super().get_new_connection(conn_params)
        finally:
            self.init_commands = commands
        try:
            for command in commands:
                if command := command.strip():
                    _patiently(conn, command, conn_params.get("timeout", 5.0))
        except BaseException:
            conn.close()
            raise
        return conn


def _patiently(conn, command: str, timeout: float) -> None:
    """Run ``command``; while SQLite refuses it a lock, again (10 ms, doubling
    up to 200 ms) until ``timeout`` seconds have passed."""
    end = time.monotonic() + timeout
    pause = 0.01
    while True:
        try:
            conn.execute(command)
            return
        except sqlite3.OperationalError as exc:
            if not lock_refused(exc) or time.monotonic() + pause > end:
                raise
        time.sleep(pause)
        pause = min(pause * 2, 0.2)
