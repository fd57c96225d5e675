"""A small, JSON-safe random generator for game states.

Every random step of a game (shuffle, draw, blind pick) must be reproducible
from the seed and the actions, and the state must survive a JSON round trip
unchanged. Python's ``random.Random`` state is a 625-int tuple, which is heavy
to copy at every step; this generator keeps its state in one JSON value,
stored in the game state under ``"rng"``:

- a seed of 2**64 or more (a digital table's deal, drawn from its whole
  256-bit secret) keys a stream of SHAKE-256: the state is the text
  ``"<count>:<key as hex>"`` and the n-th draw is the first 8 bytes of
  SHAKE-256(key ‖ n), so a deal is one of 2**256, not of 2**64;
- a smaller seed (tests, simulations, the bots, and every table dealt before
  the keyed stream) keeps SplitMix64 in a single integer, so those games
  replay exactly as they were dealt.

Usage inside an engine (``s`` is the game state dict)::

    value = rng.randrange(s, 6)      # advances s["rng"]
    rng.shuffle(s, cards)            # in place, advances s["rng"]
"""

from __future__ import annotations

import hashlib
from functools import lru_cache

_MASK = (1 << 64) - 1


#: seeds from here on key the SHAKE-256 stream
KEYED = 1 << 64


def seed_state(seed: int) -> int | str:
    """The initial generator state for a seed (any int, also negative): the
    keyed stream's text for a seed of at least :data:`KEYED`, else
    SplitMix64's integer."""
    seed = int(seed)
    if seed >= KEYED:
        return "0:" + seed.to_bytes((seed.bit_length() + 7) // 8, "big").hex()
    return (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK


@lru_cache(maxsize=1024)
def _key(text: str) -> bytes:
    return bytes.fromhex(text)


def _next(s: dict) -> int:
    state = s["rng"]
    if isinstance(state, str):
        count, _, key = state.partition(":")
        n = int(count)
        s["rng"] = f"{n + 1}:{key}"
        block = hashlib.shake_256(_key(key) + n.to_bytes(8, "big")).digest(8)
        return int.from_bytes(block, "big")
    x = (state + 0x9E3779B97F4A7C15) & _MASK
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
