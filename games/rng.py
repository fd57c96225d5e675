"""A small, JSON-safe random generator for game states.

Every random step of a game (shuffle, draw, blind pick) must be reproducible
from the seed and the actions, and the state must survive a JSON round trip
unchanged. Python's ``random.Random`` state is a 625-int tuple, which is heavy
to copy at every step; this generator keeps a single integer instead
(SplitMix64), stored in the state under ``"rng"``.

Usage inside an engine (``s`` is the game state dict)::

    value = rng.randrange(s, 6)      # advances s["rng"]
    rng.shuffle(s, cards)            # in place, advances s["rng"]
"""

from __future__ import annotations

_MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    """The initial generator state for a seed (any int, also negative)."""
    return (int(seed) * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK


def _next(s: dict) -> int:
    x = (s["rng"] + 0x9E3779B97F4A7C15) & _MASK
    s["rng"] = x
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def randrange(s: dict, n: int) -> int:
    """A uniform integer in ``range(n)``; ``n`` must be positive."""
    if n <= 0:
        raise ValueError("randrange needs n > 0")
    # rejection sampling keeps it exactly uniform
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        v = _next(s)
        if v < limit:
            return v % n


def shuffle(s: dict, items: list) -> None:
    """Fisher–Yates shuffle of ``items`` in place."""
    for i in range(len(items) - 1, 0, -1):
        j = randrange(s, i + 1)
        items[i], items[j] = items[j], items[i]


def choice(s: dict, items: list):
    return items[randrange(s, len(items))]
