"""2-player tables: one min-cost perfect matching per block of the standings."""

from __future__ import annotations

import operator

import rustworkx as rx

from tournaments.seating.bounds import _levels
from tournaments.seating.context import Costs
from tournaments.seating.errors import SeatingError


def _lex_weights(rows, n_edges):
    """Integer costs ordering edges lexicographically by their cost tuples when
    summed over at most ``n_edges`` edges (each component outweighs the sum of
    all the lower ones)."""
    if not rows:
        return []
    width = len(rows[0])
    mult = [1] * width
    for k in range(width - 2, -1, -1):
        top = max(r[k + 1] for r in rows)
        mult[k] = mult[k + 1] * (n_edges * top + 1)
    mul = operator.mul
    return [sum(map(mul, r, mult)) for r in rows]


def _match_block(ctx, lo, hi, rng, rematch=False, window=5, dense=24):
    """Min-cost perfect matching of positions lo..hi-1, or None if there is none.

    Costs, in this order: rematches, team-/club-mates (``apart``), score groups
    spanned (a pair two groups apart floats through the one between: it counts
    twice), the score difference, the distance in the standings, and a random
    tie-break drawn from ``rng`` (the matcher's own choice among equally good
    matchings need not be the same in another process; the tie-break makes the
    best one unique). Without ``ctx.use_range`` (random draw) scores are ignored.

    Each player is joined to the next ``window`` players he has not met (all of
    them in blocks of up to ``dense`` players, so small cases are exact); the
    window widens while no perfect matching exists. Rematches are only allowed
    (at a prohibitive cost) with ``rematch``.
    """
    n = hi - lo
    sc, met, apart, lvl = ctx.score, ctx.met, ctx.apart, ctx.level
    by_score = ctx.use_range
    if n <= dense:
        window = n
    while True:
        allow_rematch = rematch and window >= n
        pairs, rows = [], []
        for i in range(lo, hi):
            got = 0
            mi = met[i]
            for j in range(i + 1, hi):
                if got >= window and (not allow_rematch or j - i > 2 * window):
                    break
                rep = mi.get(j, 0)
                if rep and not allow_rematch:
                    continue
                rows.append(
                    (
                        rep,
                        1 if apart is not None and apart[i] & apart[j] else 0,
                        lvl[j] - lvl[i] if by_score else 0,
                        int(round((sc[i] - sc[j]) * 1000)) if by_score else 0,
                        j - i,
                        rng.getrandbits(32),
                    )
                )
                pairs.append((i - lo, j - lo))
                got += 1
        costs = _lex_weights(rows, n // 2)
        top = max(costs, default=0) + 1
        g = rx.PyGraph()
        g.add_nodes_from(range(n))
        g.add_edges_from([(i, j, top - c) for (i, j), c in zip(pairs, costs, strict=True)])
        m = rx.max_weight_matching(g, max_cardinality=True, weight_fn=int)
        if 2 * len(m) == n:
            return sorted(sorted((a + lo, b + lo)) for a, b in m)
        if window >= n and (allow_rematch or not rematch):
            return None
        window = n if window * 4 >= n else window * 4


def _seat_pairs(req, order, rng, block=80):
    """2-player tables: min-cost perfect matchings on blocks of the standings.

    The standings are cut where an even number of players lies above and
    (preferably) the score changes, so the fewest score groups spanned add up
    over the blocks; a block without a rematch-free perfect matching is merged
    with the next one. In random mode ``order`` is the shuffled draw and scores
    play no part: pairing neighbours in the draw is taken as it is when it
    repeats no pair (and keeps no team-/club-mates together).
    """
    by_score = req.mode != "random"
    ctx = Costs(req, order, by_score)
    ctx.level = _levels(ctx.score)
    n = len(order)
    if not by_score and all(ctx.conflict(k, k + 1) == 0 for k in range(0, n, 2)):
        return ctx, [[k, k + 1] for k in range(0, n, 2)]
    sc = ctx.score
    cuts = []
    last = 0
    for k in range(2, n, 2):
        boundary = by_score and sc[k] != sc[k - 1]
        if (boundary and k - last >= block // 4) or k - last >= block:
            cuts.append(k)
            last = k
    bounds = [0, *cuts, n]
    tables = []  # list of (block start, pairs)
    x = 0
    while x < len(bounds) - 1:
        lo, y = bounds[x], x + 1
        m = _match_block(ctx, lo, bounds[y], rng)
        while m is None and bounds[y] < n:
            y += 1
            m = _match_block(ctx, lo, bounds[y], rng)
        while m is None and tables:
            # the bottom fails: match it together with the block above
            lo = tables.pop()[0]
            m = _match_block(ctx, lo, n, rng)
        if m is None:
            lo, tables = 0, []
            m = _match_block(ctx, 0, n, rng, rematch=True)
        tables.append((lo, m))
        x = y
    tables = sorted(t for _, m in tables for t in m)
    if 2 * len(tables) != n:  # pragma: no cover - the complete graph always matches
        raise SeatingError("no_pairing", "no pairing found")
    return ctx, tables
