"""The session engine (``SESSION_ENGINE``): Django's database sessions, saved
once more on a fresh connection when the request's connection was lost.

The session middleware saves a changed session after the view — after a
signup or a login has been stored. If the database connection died in
between (a database restart, a killed backend), Django's database sessions
read the failed save as "the session was deleted by a concurrent logout"
and answer 400 "session interrupted": a stored signup looked failed, a login
that went through looked refused. The save is one statement and safe to
repeat: when the connection it ran on was lost — Django drops a connection
whose rollback fails, and opens a new one — and no transaction of the caller
is open, the session is saved again on the new connection. Any other
failure — a session deleted meanwhile, a database that stays away — is
reported as before.
"""

from __future__ import annotations

import logging

from django.contrib.sessions.backends.base import UpdateError
from django.contrib.sessions.backends.db import SessionStore as DatabaseSessionStore
from django.db import DatabaseError, IntegrityError, connections, router

log = logging.getLogger(__name__)


class SessionStore(DatabaseSessionStore):
    def save(self, must_create=False):
        conn = connections[router.db_for_write(self.model)]
        if conn.in_atomic_block:  # the caller's transaction would die with the connection
            return super().save(must_create=must_create)
        conn.ensure_connection()
        used = conn.connection
        try:
            return super().save(must_create=must_create)
        except (UpdateError, DatabaseError) as exc:
            if isinstance(exc, IntegrityError) or not _lost(conn, used):
                raise
            log.warning("session save: the database connection was lost; saving it again")
        return super().save(must_create=must_create)


def _lost(conn, used) -> bool:
    """Was the connection ``used`` lost (rather than the save refused)?"""
    if conn.connection is not used:  # Django dropped it: its rollback failed
        return True
    if conn.is_usable():
        return False
    conn.close()
    return True
