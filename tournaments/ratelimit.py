"""Counting requests per address in a window, atomically on every cache the
project runs on: ``add`` and ``incr`` are single operations in Redis, under a
lock in local memory and under a file lock in the file cache
(:mod:`tournaments.cache`), so simultaneous requests can't all read a count
below the limit and all go through. The account signup and the players'
registrations count here."""

from __future__ import annotations

from contextlib import suppress

from django.core.cache import cache


def take(key: str, limit: int, window: int) -> bool:
    """Count one more against ``key``; False when that is over ``limit``
    (the refused one counts too, so a flood does not reset the window)."""
    for _attempt in range(3):
        if cache.add(key, 1, window):
            return limit >= 1
        try:
            count = cache.incr(key)
        except ValueError:  # it expired between add and incr: start a new window
            continue
        if count == 1:  # Redis' INCR re-created a key that expired meanwhile, without expiry
            cache.touch(key, window)
        return count <= limit
    return False


def left(key: str, limit: int) -> bool:
    """Whether ``key`` is still under ``limit`` (a read: a quick refusal
    before the work; :func:`take` decides)."""
    return (cache.get(key) or 0) < limit


def give_back(key: str) -> None:
    """What was counted did not happen after all: its place is free again."""
    with suppress(ValueError):  # the window ended meanwhile
        cache.decr(key)
