"""Who made a change, as a log row stores it (plain Python, no queries)."""

from __future__ import annotations


def author(user):
    """The account to record as having made a change: ``user`` when it is a
    saved account, else None (nobody signed in, ``AnonymousUser``, a bot)."""
    return user if user is not None and getattr(user, "pk", None) else None
