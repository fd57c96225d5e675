"""Calls that must really meet: each in its own thread (and so its own
database connection), released together by a barrier."""

from __future__ import annotations

import threading

from django.db import connection


def at_once(calls, *, timeout: float = 30) -> list:
    """Run ``calls`` in threads released together; each call's result, or the
    exception it raised (the outcome under test), in order."""
    barrier = threading.Barrier(len(calls))
    out: list = [None] * len(calls)

    def run(i, call):
        try:
            barrier.wait(timeout=timeout)
            out[i] = call()
        except Exception as exc:  # the outcome under test
            out[i] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=2 * timeout)
    return out
