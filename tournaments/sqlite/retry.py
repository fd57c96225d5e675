"""Run a unit of work again when SQLite refused it a lock.

With the embedded default's options (settings: busy timeout, transactions
that take the write lock up front, the WAL journal) a writer waits for the
lock instead of failing. What is left is a wait longer than the busy timeout:
a long import holding the lock, a laptop under far more load than a venue
has. Where the work is one transaction, or a series of transactions each of
which re-checks in the database what is still to be done (a bot's moves), and
no caller's transaction is open around it, running it again is safe: the
refused transaction was rolled back whole, so a retried write is stored once.
Inside a caller's transaction the error goes up: that whole transaction must
be rolled back, not a part of it repeated.

PostgreSQL never raises these errors; there the wrapper only calls through.
"""

from __future__ import annotations

import functools
import logging
import sqlite3
import time

from django.db import OperationalError, transaction

from tournaments.sqlite.base import lock_refused

log = logging.getLogger(__name__)

ATTEMPTS = 3
PAUSE_S = 0.5


def retry_when_locked(func=None, *, attempts: int = ATTEMPTS, pause: float = PAUSE_S):
    """Decorator (also ``retry_when_locked(f)(...)``): call ``func``; when
    SQLite refused a lock and no transaction is open around the call, wait
    ``pause`` (longer each time) and call it again, ``attempts`` calls at most."""

    def decorate(f):
        @functools.wraps(f)
        def wrapper(*args, **kwargs):
            for attempt in range(1, attempts + 1):
                try:
                    return f(*args, **kwargs)
                except (OperationalError, sqlite3.OperationalError) as exc:
                    if (
                        attempt == attempts
                        or not lock_refused(exc)
                        or transaction.get_connection().in_atomic_block
                    ):
                        raise
                    log.warning(
                        "%s: the database was locked (attempt %s of %s); again",
                        f.__qualname__,
                        attempt,
                        attempts,
                    )
                time.sleep(pause * attempt)
            raise AssertionError("unreachable")  # pragma: no cover

        return wrapper

    return decorate(func) if func is not None else decorate
