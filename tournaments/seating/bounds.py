"""Lower bounds and figures on score ranges and score-group crossings.

Used by the search (to stop at a proven optimum) and for the stats a seating
reports; pure functions of scores, table sizes and who met whom.
"""

from __future__ import annotations

import itertools
import sys
from collections import Counter
from functools import cache


def _range_lb(scores_desc, sizes):
    """Minimum sum of table score ranges: best consecutive chunking (exact)."""
    cnt = Counter(sizes)
    kinds = sorted(cnt)
    states = 1
    for k in kinds:
        states *= cnt[k] + 1
    if states > 300_000:
        return None
    s = scores_desc

    @cache
    def best(used):
        pos = sum(u * k for u, k in zip(used, kinds, strict=True))
        if pos == len(s):
            return 0.0
        out = float("inf")
        for x, k in enumerate(kinds):
            if used[x] < cnt[k]:
                nu = used[:x] + (used[x] + 1,) + used[x + 1 :]
                out = min(out, s[pos] - s[pos + k - 1] + best(nu))
        return out

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    try:
        return best(tuple(0 for _ in kinds))
    finally:
        best.cache_clear()


def _max_packing(players, met, k, budget=20_000):
    """Most disjoint repeat-free tables of ``k`` among ``players`` (an upper
    estimate ``len(players) // k`` when the search exceeds ``budget``)."""
    m = len(players)
    local = {p: x for x, p in enumerate(players)}
    avoid = [0] * m
    for x, p in enumerate(players):
        for q in met[p]:
            if q in local:
                avoid[x] |= 1 << local[q]
    # the repeat-free tables by their first player, as bit masks
    tables_of = [[] for _ in range(m)]
    for c in itertools.combinations(range(m), k):
        mask = 0
        for x in c:
            if avoid[x] & mask:
                break
            mask |= 1 << x
        else:
            tables_of[c[0]].append(mask)
    top = m // k
    best = 0
    work = 0

    def rec(left, got):
        # ``left``: players not yet placed or left out; the first one either
        # sits at one of his tables or at none
        nonlocal best, work
        work += 1
        if work > budget:
            raise OverflowError
        if got > best:
            best = got
        if best == top or got + left.bit_count() // k <= best:
            return
        first = (left & -left).bit_length() - 1
        for mask in tables_of[first]:
            if mask & left == mask:
                rec(left & ~mask, got + 1)
                if best == top:
                    return
        rec(left & ~(1 << first), got)

    try:
        rec((1 << m) - 1, 0)
    except OverflowError:
        return top
    return best


def _repeat_range_lb(score, met, k, small_side=16):
    """A lower bound on the sum of score ranges at tables of ``k`` without repeats.

    ``score`` lists the players' scores, ``met[p]`` whom p met. For each cut
    between two score levels, the players on the smaller side that no repeat-free
    tables of their own can hold sit at tables across the cut (at most k - 1 of
    them each), so at least that many tables span the gap.
    """
    n = len(score)
    levels = sorted(set(score), reverse=True)
    total = 0.0
    for hi, lo in itertools.pairwise(levels):
        upper = [p for p in range(n) if score[p] >= hi]
        side = upper if len(upper) <= n - len(upper) else [p for p in range(n) if score[p] <= lo]
        cross = 1 if len(upper) % k else 0
        if len(side) <= small_side:
            free = len(side) - k * _max_packing(side, met, k)
            cross = max(cross, -(-free // (k - 1)))
        total += cross * (hi - lo)
    return total


def _chunking(scores_desc, sizes):
    total, pos = 0.0, 0
    for k in sizes:
        total += scores_desc[pos] - scores_desc[pos + k - 1]
        pos += k
    return total


def _mixed_pairs_lb(scores_desc):
    """Fewest score-group crossings in any pairing of these players.

    Each cut between two score groups with an odd number of players above it
    is crossed by at least one pair; a pair crosses every cut between its two
    scores (so a pair two groups apart counts twice, which is how the
    ``mixed_pairs`` stat counts it). Note that this is not a bound on the plain
    number of pairs with different scores: one pair that jumps over a whole
    group would fix two odd cuts at once, at twice the score difference.
    """
    return sum(
        1
        for k in range(len(scores_desc) - 1)
        if scores_desc[k] != scores_desc[k + 1] and (k + 1) % 2
    )


def _levels(scores):
    """Score group of each score (0 = the best), for scores in standings order."""
    rank = {s: k for k, s in enumerate(sorted(set(scores), reverse=True))}
    return [rank[s] for s in scores]
