"""The waitlist's order (pure: plain data in and out, no Django).

A registration beyond the cap waits in the order of arrival (its
``position``); when a place becomes free — a withdrawal, a rejection, a
raised cap, a no-show dropped at the door — the first waiting take the free
places in that order. At the door only those waiting who are present move up.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Waiting:
    id: object
    position: int
    present: bool = False


def places_left(cap: int, confirmed: int) -> int:
    return max(0, cap - confirmed)


def promotions(
    cap: int, confirmed: int, waiting: Sequence[Waiting], *, present_only: bool = False
) -> list:
    """The ids of the waiting registrations that move up now, in order."""
    free = places_left(cap, confirmed)
    queue = sorted(waiting, key=lambda w: w.position)
    if present_only:
        queue = [w for w in queue if w.present]
    return [w.id for w in queue[:free]]


def moved(order: Sequence, item, steps: int) -> list:
    """``order`` with ``item`` moved ``steps`` places (negative: forward),
    clamped to the ends."""
    out = list(order)
    i = out.index(item)
    out.pop(i)
    out.insert(max(0, min(len(out), i + steps)), item)
    return out
