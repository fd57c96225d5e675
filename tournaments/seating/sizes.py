"""Table sizes, and who gets the small tables, the byes and the bot table.

The rule: small tables (fewer than the preferred size) and byes go
to those who had the fewest of them so far; among those, by standings to the
lowest (swiss) or drawn by the seed (random and mixing). ``rule_pick`` is that
rule; :mod:`tournaments.seating.seat_round` keeps it unless a named constraint
(repeats, club-mates, teams) forces another choice, and then says which.

With bots (request ``bots``) there are no byes: ``plan_bot_table`` leaves the
fewest players over who then share one bot table, the game's bot playing its
empty seats (``bot_seats``), and ``rule_pick`` picks them like byes, from
those with the fewest bot tables so far.
"""

from __future__ import annotations

import itertools
import random

from tournaments.seating.errors import SeatingError
from tournaments.seating.request import RATING_MODES


def _best_plan(m, allowed, preferred):
    """(key, sizes largest first) of the best plan of ``m`` players at the
    allowed sizes without byes, or None. The key (smaller is better): tables
    not of the preferred size, their sizes' distance from it, then the larger
    share of smaller tables."""
    if m <= 0:
        return None
    best = None
    others = [s for s in allowed if s != preferred]
    # enumerate counts of the non-preferred sizes (few are ever needed)
    ranges = [range(0, min(m // s, 6) + 1) for s in others]
    for combo in itertools.product(*ranges):
        rest = m - sum(c * s for c, s in zip(combo, others, strict=True))
        if rest < 0 or rest % preferred:
            continue
        off = sum(combo)
        dev = sum(c * abs(s - preferred) for c, s in zip(combo, others, strict=True))
        small = sum(c * s for c, s in zip(combo, others, strict=True) if s < preferred)
        key = (off, dev, -small)
        if best is None or key < best[0]:
            sizes = [preferred] * (rest // preferred)
            for c, s in zip(combo, others, strict=True):
                sizes += [s] * c
            best = (key, sorted(sizes, reverse=True))
    return best


def _impossible(n, allowed, byes):
    how = "with byes" if byes else "without byes"
    return SeatingError(
        "impossible_sizes",
        f"impossible table sizes: {n} players cannot be seated at tables of "
        f"{'/'.join(map(str, allowed))} {how}",
        players=n,
        sizes=sorted(allowed),
        byes=bool(byes),
    )


def plan_sizes(n, allowed, preferred, byes=False):
    """Table sizes (largest first) and the number of byes for ``n`` players.

    Fewest byes, then fewest tables not of the preferred size, then sizes
    closest to the preferred one (smaller ones on a tie). Raises SeatingError
    when no plan exists.
    """
    max_byes = max(allowed) - 1 if byes else 0
    for b in range(0, max_byes + 1):
        best = _best_plan(n - b, allowed, preferred)
        if best is not None:
            return best[1], b
    raise _impossible(n, allowed, byes)


def bot_seats(count, allowed) -> int | None:
    """The empty seats (played by the game's bot) a table of ``count``
    players gets at the ``allowed`` sizes: 0 at an allowed size, else up to
    the next larger allowed size; None when no allowed size is that large."""
    if count in allowed:
        return 0
    larger = [s for s in allowed if s >= count]
    return min(larger) - count if larger else None


def plan_bot_table(n, allowed, preferred):
    """``(sizes, b, seats)``: the others' table sizes (largest first), ``b``
    players at the bot table and its ``seats`` (``seats - b`` bots), when the
    bot may fill seats; ``(sizes, 0, 0)`` when ``n`` players fit the allowed
    sizes without one.

    Otherwise ``b`` (1 to ``max(allowed) - 1``, at most ``n``) leaves ``n - b``
    players that fit without byes (or none): the fewest bot seats, then the
    others' plan as :func:`plan_sizes` ranks it, then the larger ``b``. Raises
    SeatingError (``impossible_sizes``) for no player.
    """
    best = _best_plan(n, allowed, preferred)
    if best is not None:
        return best[1], 0, 0
    choice = None
    for b in range(1, min(n, max(allowed) - 1) + 1):
        others = _best_plan(n - b, allowed, preferred) if n > b else ((0, 0, 0), [])
        if others is None:
            continue
        seats = b + bot_seats(b, allowed)
        key = (seats - b, others[0], -b)
        if choice is None or key < choice[0]:
            choice = (key, others[1], b, seats)
    if choice is None:
        raise _impossible(n, allowed, False)
    return choice[1], choice[2], choice[3]


# --------------------------------------------------------------------------
# cost helpers


def rule_pick(req, candidates, k, had, salt="small"):
    """The ``k`` players of ``candidates`` (standings order) the rule gives a
    small table (``had``: small tables so far) or a bye (``had``: byes so far):
    fewest had, then the lowest in the standings (swiss; in the rating modes
    ``candidates`` is the rating order) or drawn by the seed.
    Returned in ``candidates`` order."""
    if k <= 0:
        return []
    if req.mode in ("swiss", *RATING_MODES):
        key = {p: (had[p], -x) for x, p in enumerate(candidates)}
    else:
        draw = random.Random(f"{salt}:{req.seed}")
        key = {p: (had[p], draw.random()) for p in candidates}
    chosen = set(sorted(candidates, key=key.__getitem__)[:k])
    return [p for p in candidates if p in chosen]


def closed_under_teams(req, chosen, candidates) -> bool:
    """In team mode partners sit together: a pick must hold whole teams."""
    if req.teams != "together":
        return True
    inside = {req.team[p] for p in chosen if req.team[p] is not None}
    return not any(req.team[p] in inside for p in candidates if p not in chosen)


def size_ok(old: int, new: int, allowed) -> bool:
    """A table changed by hand may end at an allowed size, or empty, or (when
    it is already too small or too large) closer to an allowed size."""
    if new in allowed or new == 0:
        return True
    if old in allowed:
        return False

    def dist(k):
        return min(abs(k - s) for s in allowed)

    return dist(new) < dist(old)


def small_sizes(sizes, preferred):
    return [s for s in sizes if s < preferred]


def big_sizes(sizes, preferred):
    return [s for s in sizes if s >= preferred]


__all__ = [
    "big_sizes",
    "bot_seats",
    "closed_under_teams",
    "plan_bot_table",
    "plan_sizes",
    "rule_pick",
    "size_ok",
    "small_sizes",
]
