"""Seating: tables of 2–6 by standings without repeat encounters.

A pure module (no Django import). ``seat(request) -> answer`` takes and returns
plain JSON-safe data; ``python -m tournaments.seating`` reads the request as
JSON on stdin and writes the answer as JSON on stdout (exit status 2 and a
message naming the problem on stderr for a bad request).

Request keys:

- ``players``: list of ``{"id", "score", "team"?, "club"?, "seat_history"?,
  "byes"?, "small_tables"?}`` in standings order (ties in score keep this order).
  ``seat_history`` lists the seat numbers he had (0 = leads), ``byes`` and
  ``small_tables`` how many byes / small tables he had so far.
- ``met``: list of ``[id, id]`` pairs that sat at one table before; a pair
  listed twice met twice.
- ``table_size`` (preferred, 2–6), ``allowed_sizes`` (default
  ``[table_size]``), ``byes`` (bool, default false).
- ``mode``: ``swiss`` (by standings, default), ``mixing`` (meet as many
  different players as possible) or ``random`` (round 1).
- ``teams``: ``together`` (players with the same ``team`` sit at one table),
  ``apart`` (players with the same ``team`` or ``club`` are kept apart) or null.
- ``seed`` (deterministic per seed), ``rounds`` (total rounds, lets mixing mode
  plan all rounds ahead) and ``round`` (the current round, 1-based).

Answer: ``tables`` (lists of ids in seat order), ``byes`` (ids) and ``stats``.
In ``stats``, ``mixed_pairs`` counts score-group crossings: a pair whose scores
lie k score groups apart counts k times (``unequal_pairs`` counts each pair with
different scores once); ``mixed_pairs_lower_bound`` (2-player tables) is the
number of cuts between score groups with an odd number of players above them.
"""

from __future__ import annotations

import itertools
import json
import operator
import random
import sys
import time
from collections import Counter
from functools import cache, lru_cache

import rustworkx as rx

from tournaments.designs import RESOLVABLE

__all__ = [
    "SeatingError",
    "mixing_plan",
    "mixing_round",
    "plan_sizes",
    "seat",
]

MODES = ("swiss", "mixing", "random")
TEAM_MODES = ("together", "apart", None)

# cost weights: keeping team-/club-mates apart > no repeats > score ranges
APART_W = 2_000_000.0
REPEAT_W = 1_000_000.0

# matching large-neighbourhood search (3–6 tables by standings): matchings per
# request, noise and score slack of a kick, fruitless moves before a kick, tables
# per block and matchings per block in large fields
_LNS_STEPS = 300
_KICK_NOISE = 2000
_KICK_SLACK = 0
_STALL = 8
_LNS_BLOCK = 16
_LNS_BLOCK_STEPS = 60
_TIE = 1_000_000
# the ways to pick the first half of a table of k (``_rematch``)
_HALVES = {k: list(itertools.combinations(range(k), k // 2)) for k in range(2, 7)}


class SeatingError(ValueError):
    """A bad seating request; the message names the problem."""


# --------------------------------------------------------------------------
# request parsing


class _Req:
    pass


def _is_id(x):
    return (isinstance(x, int) and not isinstance(x, bool)) or isinstance(x, str)


def _parse(request) -> _Req:
    if not isinstance(request, dict):
        raise SeatingError("request must be a JSON object")
    r = _Req()
    players = request.get("players")
    if not isinstance(players, list):
        raise SeatingError("players must be a list")
    r.ids, r.score, r.team, r.club, r.seats, r.byes_had, r.small_had = [], [], [], [], [], [], []
    index = {}
    for k, p in enumerate(players):
        if not isinstance(p, dict) or "id" not in p:
            raise SeatingError(f"player #{k} must be an object with an id")
        pid = p["id"]
        if not _is_id(pid):
            raise SeatingError(f"player #{k}: id must be a string or an integer, not {pid!r}")
        if pid in index:
            raise SeatingError(f"duplicate player id {pid!r}")
        index[pid] = k
        score = p.get("score", 0)
        if isinstance(score, bool) or not isinstance(score, (int, float)):
            raise SeatingError(f"player {pid!r}: score must be a number")
        hist = p.get("seat_history") or []
        if not isinstance(hist, list) or not all(
            isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in hist
        ):
            raise SeatingError(f"player {pid!r}: seat_history must be a list of seat numbers")
        counts = {}
        for key in ("byes", "small_tables"):
            v = p.get(key, 0) or 0
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise SeatingError(f"player {pid!r}: {key} must be a non-negative integer")
            counts[key] = v
        r.ids.append(pid)
        r.score.append(float(score))
        r.team.append(p.get("team"))
        r.club.append(p.get("club"))
        r.seats.append(hist)
        r.byes_had.append(counts["byes"])
        r.small_had.append(counts["small_tables"])
    r.index = index
    n = len(r.ids)

    met = request.get("met") or []
    if not isinstance(met, list):
        raise SeatingError("met must be a list of [id, id] pairs")
    r.met = [{} for _ in range(n)]
    for pair in met:
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            raise SeatingError(f"met: {pair!r} is not a pair [id, id]")
        a, b = pair
        for x in (a, b):
            if not _is_id(x) or x not in index:
                raise SeatingError(f"met: unknown player id {x!r}")
        if a == b:
            raise SeatingError(f"met: pair [{a!r}, {b!r}] names one player twice")
        i, j = index[a], index[b]
        r.met[i][j] = r.met[i].get(j, 0) + 1
        r.met[j][i] = r.met[j].get(i, 0) + 1

    size = request.get("table_size")
    if isinstance(size, bool) or not isinstance(size, int) or not 2 <= size <= 6:
        raise SeatingError(f"table_size must be an integer from 2 to 6, not {size!r}")
    allowed = request.get("allowed_sizes") or [size]
    if not isinstance(allowed, list) or not all(
        isinstance(s, int) and not isinstance(s, bool) and 2 <= s <= 6 for s in allowed
    ):
        raise SeatingError(f"allowed_sizes must be table sizes from 2 to 6, not {allowed!r}")
    allowed = sorted(set(allowed))
    if size not in allowed:
        raise SeatingError(f"table_size {size} is not among allowed_sizes {allowed}")
    r.size, r.allowed = size, allowed
    r.byes = bool(request.get("byes", False))
    r.mode = request.get("mode") or "swiss"
    if r.mode not in MODES:
        raise SeatingError(f"mode must be one of {', '.join(MODES)}, not {r.mode!r}")
    r.teams = request.get("teams")
    if r.teams not in TEAM_MODES:
        raise SeatingError(f"teams must be 'together', 'apart' or null, not {r.teams!r}")
    seed = request.get("seed", 0)
    if seed is None:
        seed = 0
    if not _is_id(seed):
        raise SeatingError("seed must be an integer or a string")
    r.seed = seed
    for key in ("rounds", "round"):
        v = request.get(key)
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 1):
            raise SeatingError(f"{key} must be a positive integer")
        setattr(r, key, v)
    if n < min(allowed):
        raise SeatingError(
            f"too few players: {n} player{'s' if n != 1 else ''}, "
            f"a table needs at least {min(allowed)}"
        )
    return r


# --------------------------------------------------------------------------
# table sizes


def plan_sizes(n, allowed, preferred, byes=False):
    """Table sizes (largest first) and the number of byes for ``n`` players.

    Fewest byes, then fewest tables not of the preferred size, then sizes
    closest to the preferred one (smaller ones on a tie). Raises SeatingError
    when no plan exists.
    """
    best = None
    others = [s for s in allowed if s != preferred]
    max_byes = max(allowed) - 1 if byes else 0
    for b in range(0, max_byes + 1):
        m = n - b
        if m <= 0:
            continue
        # enumerate counts of the non-preferred sizes (few are ever needed)
        ranges = [range(0, min(m // s, 6) + 1) for s in others]
        for combo in itertools.product(*ranges):
            rest = m - sum(c * s for c, s in zip(combo, others, strict=True))
            if rest < 0 or rest % preferred:
                continue
            off = sum(combo)
            dev = sum(c * abs(s - preferred) for c, s in zip(combo, others, strict=True))
            small = sum(c * s for c, s in zip(combo, others, strict=True) if s < preferred)
            key = (b, off, dev, -small)
            if best is None or key < best[0]:
                sizes = [preferred] * (rest // preferred)
                for c, s in zip(combo, others, strict=True):
                    sizes += [s] * c
                best = (key, sorted(sizes, reverse=True), b)
        if best is not None:
            break
    if best is None:
        how = "with byes" if byes else "without byes"
        raise SeatingError(
            f"impossible table sizes: {n} players cannot be seated at tables of "
            f"{'/'.join(map(str, allowed))} {how}"
        )
    return best[1], best[2]


# --------------------------------------------------------------------------
# cost helpers


class _Ctx:
    """Per-request data the cost functions need (indices are standings order)."""

    def __init__(self, req, order, use_range):
        self.req = req
        self.score = [req.score[i] for i in order]
        self.met = []
        pos = {p: k for k, p in enumerate(order)}
        for p in order:
            self.met.append({pos[q]: c for q, c in req.met[p].items() if q in pos})
        self.use_range = use_range
        self.small_ok = None  # who may move to a smaller table (positions), None: nobody
        self.repeat_lb = None  # _repeat_range_lb once computed
        self.level = None  # score group of each position (2-player tables)
        self.apart = None
        if req.teams == "apart":
            self.apart = [
                {
                    x
                    for x in (
                        (("t", req.team[p]) if req.team[p] is not None else None),
                        (("c", req.club[p]) if req.club[p] is not None else None),
                    )
                    if x
                }
                for p in order
            ]
        # bit masks: ``avoid[p]`` has the bit of everyone p must not sit with
        self.avoid = [sum(1 << q for q in m) for m in self.met]
        if self.apart is not None:
            by_key = {}
            for x, keys in enumerate(self.apart):
                for key in keys:
                    by_key[key] = by_key.get(key, 0) | 1 << x
            for x, keys in enumerate(self.apart):
                for key in keys:
                    self.avoid[x] |= by_key[key] & ~(1 << x)

    def conflict(self, a, b):
        c = REPEAT_W * self.met[a].get(b, 0)
        if self.apart is not None and self.apart[a] & self.apart[b]:
            c += APART_W
        return c

    def table_cost(self, t):
        c = 0.0
        for x in range(len(t)):
            a = t[x]
            ma = self.met[a]
            for y in range(x + 1, len(t)):
                b = t[y]
                if b in ma:
                    c += REPEAT_W * ma[b]
                if self.apart is not None and self.apart[a] & self.apart[b]:
                    c += APART_W
        if self.use_range and t:
            s = [self.score[p] for p in t]
            c += max(s) - min(s)
        return c


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


# --------------------------------------------------------------------------
# byes and small tables rotate


def _choose_bottom(req, cand, k, key_had):
    """Pick ``k`` players for byes/small tables: fewest had, then lowest standing."""
    ranked = sorted(range(len(cand)), key=lambda x: (key_had[cand[x]], -x))
    return sorted(ranked[:k])


def _place_small(scores_desc, sizes, eligible, preferred):
    """Table sizes from the top of the standings that chunk it with the least
    sum of score ranges, small tables only on ``eligible`` players and as low
    as possible on a tie; None when the search is too large."""
    cnt = Counter(sizes)
    kinds = sorted(cnt)
    states = 1
    for k in kinds:
        states *= cnt[k] + 1
    if states > 300_000:
        return None
    n = len(scores_desc)
    s = scores_desc
    bad_prefix = [0]
    for e in eligible:
        bad_prefix.append(bad_prefix[-1] + (not e))
    memo = {}

    def best(used):
        # (range sum, -sum of small-table positions) for the rest, and the first size
        if used in memo:
            return memo[used]
        pos = sum(u * k for u, k in zip(used, kinds, strict=True))
        if pos == n:
            return (0.0, 0), None
        out, first = (float("inf"), 0), None
        for x, k in enumerate(kinds):
            if used[x] == cnt[k]:
                continue
            if k < preferred and bad_prefix[pos + k] - bad_prefix[pos]:
                continue
            rest, _ = best(used[:x] + (used[x] + 1,) + used[x + 1 :])
            cand = (s[pos] - s[pos + k - 1] + rest[0], rest[1] - (pos if k < preferred else 0))
            if cand < out:
                out, first = cand, k
        memo[used] = (out, first)
        return memo[used]

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    used = tuple(0 for _ in kinds)
    if best(used)[0][0] == float("inf"):
        return None
    seq = []
    while True:
        _, k = best(used)
        if k is None:
            return seq
        seq.append(k)
        x = kinds.index(k)
        used = used[:x] + (used[x] + 1,) + used[x + 1 :]


# --------------------------------------------------------------------------
# 2-player tables: one min-cost perfect matching


def _levels(scores):
    """Score group of each score (0 = the best), for scores in standings order."""
    rank = {s: k for k, s in enumerate(sorted(set(scores), reverse=True))}
    return [rank[s] for s in scores]


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
    ctx = _Ctx(req, order, by_score)
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
        raise SeatingError("no pairing found")
    return ctx, tables


# --------------------------------------------------------------------------
# 3–6 (and mixed) tables: greedy construction + exact window local search


def _units(req, order):
    """Players grouped into units (team-mates together) in standings positions."""
    if req.teams != "together":
        return [[k] for k in range(len(order))]
    by_team = {}
    units = []
    for k, p in enumerate(order):
        t = req.team[p]
        if t is None:
            units.append([k])
        elif t in by_team:
            by_team[t].append(k)
        else:
            by_team[t] = [k]
            units.append(by_team[t])
    return units


def _greedy(ctx, units, sizes, lookahead):
    used = [False] * len(units)
    first = 0
    tables = []
    for size in sizes:
        while first < len(units) and used[first]:
            first += 1
        table, cap = [], size
        # scan the next units in order, taking those that conflict with nobody
        j, seen = first, 0
        while j < len(units) and cap > 0 and seen < lookahead:
            if not used[j]:
                seen += 1
                u = units[j]
                if len(u) <= cap and all(ctx.conflict(a, b) == 0 for a in table for b in u):
                    table += u
                    cap -= len(u)
                    used[j] = True
            j += 1
        while cap > 0:
            # fill with the least bad unit among the next ones
            best, bj, seen = None, None, 0
            for j in range(first, len(units)):
                if used[j] or len(units[j]) > cap:
                    continue
                c = ctx.table_cost(table + units[j])
                if best is None or c < best:
                    best, bj = c, j
                seen += 1
                if seen >= lookahead:
                    break
            if bj is None:
                # units too big for what is left: split the first unit
                for j in range(first, len(units)):
                    if not used[j]:
                        take = units[j][:cap]
                        units.append(units[j][cap:])
                        used.append(False)
                        units[j] = take
                        bj = j
                        break
            table += units[bj]
            cap -= len(units[bj])
            used[bj] = True
        tables.append(table)
    return tables


def _solve_window_dp(ctx, tables):
    """Exact re-seating of single players: DP over subsets of the window."""
    players = sorted((p for t in tables for p in t), key=lambda p: (-ctx.score[p], p))
    m = len(players)
    sc = [ctx.score[p] for p in players]
    pc = [[ctx.conflict(a, b) if a != b else 0.0 for b in players] for a in players]
    use_range = ctx.use_range
    kinds = sorted({len(t) for t in tables})
    current = sum(ctx.table_cost(t) for t in tables)
    # by_low[s][i]: tables of size s whose best-placed player is i, as (mask, cost);
    # a table dearer than the whole window now can't be part of a better one
    by_low = {}
    for s in kinds:
        lists = [[] for _ in range(m)]
        for combo in itertools.combinations(range(m), s):
            c = 0.0
            for x in range(s):
                row = pc[combo[x]]
                for y in range(x + 1, s):
                    c += row[combo[y]]
            if c >= current:
                continue
            if use_range:
                c += sc[combo[0]] - sc[combo[-1]]
            mask = 0
            for x in combo:
                mask |= 1 << x
            lists[combo[0]].append((mask, c))
        by_low[s] = lists
    memo = {}

    def f(mask, left):
        if not mask:
            return 0.0, ()
        key = (mask, left)
        if key in memo:
            return memo[key]
        low = (mask & -mask).bit_length() - 1
        best = (float("inf"), ())
        for x, s in enumerate(kinds):
            if not left[x]:
                continue
            nl = left[:x] + (left[x] - 1,) + left[x + 1 :]
            for tmask, c in by_low[s][low]:
                if tmask & mask != tmask or c >= best[0]:
                    continue
                rest, plan = f(mask ^ tmask, nl)
                if c + rest < best[0]:
                    best = (c + rest, (tmask, *plan))
        memo[key] = best
        return best

    cnt = Counter(len(t) for t in tables)
    cost, plan = f((1 << m) - 1, tuple(cnt[s] for s in kinds))
    if cost >= current - 1e-9:
        return None
    return [[players[x] for x in range(m) if tm >> x & 1] for tm in plan]


def _solve_window(ctx, tables, unit_of):
    """Re-seat the players of ``tables`` exactly (all partitions, branch and bound)."""
    if all(len(unit_of[p]) == 1 for t in tables for p in t):
        return _solve_window_dp(ctx, tables)
    sizes = sorted((len(t) for t in tables), reverse=True)
    units = []
    seen = set()
    for t in tables:
        for p in t:
            u = unit_of[p]
            if id(u) not in seen:
                seen.add(id(u))
                units.append(u)
    units.sort(key=lambda u: min(u))
    best_cost = sum(ctx.table_cost(t) for t in tables)
    best = [None]
    lens = [len(u) for u in units]

    def subsets(rem, start, need):
        if need == 0:
            yield ()
            return
        for x in range(start, len(rem)):
            ln = lens[rem[x]]
            if ln <= need:
                for rest in subsets(rem, x + 1, need - ln):
                    yield (rem[x], *rest)

    def rec(rem, sizes_left, acc, chosen):
        nonlocal best_cost
        if not rem:
            if acc < best_cost - 1e-9:
                best_cost = acc
                best[0] = list(chosen)
            return
        u0 = rem[0]
        for s in sorted(set(sizes_left), reverse=True):
            if lens[u0] > s:
                continue
            left = list(sizes_left)
            left.remove(s)
            for combo in subsets(rem, 1, s - lens[u0]):
                table = list(units[u0])
                for x in combo:
                    table += units[x]
                c = acc + ctx.table_cost(table)
                if c >= best_cost - 1e-9:
                    continue
                cs = set(combo)
                chosen.append(table)
                rec([x for x in rem[1:] if x not in cs], left, c, chosen)
                chosen.pop()

    rec(list(range(len(units))), sizes, 0.0, [])
    return best[0]


def _window_lb(ctx, tables):
    if not ctx.use_range:
        return 0.0
    sc = sorted((ctx.score[p] for t in tables for p in t), reverse=True)
    lb = _range_lb(tuple(sc), tuple(len(t) for t in tables))
    return lb or 0.0


def _local_search(ctx, tables, unit_of, rng, far=False, budget=200_000):
    """Improve by exactly re-seating windows of tables; returns the tables."""
    n_t = len(tables)
    costs = [ctx.table_cost(t) for t in tables]
    if all(c <= 0 for c in costs):
        return tables  # nothing to improve (a draw without history, say)
    max_window_players = 12

    def windows():
        for d in (1, 2):
            for a in range(n_t - d):
                yield (a, a + 1) if d == 1 else (a, a + 1, a + 2)
        if far:
            pairs = [(a, b) for a in range(n_t) for b in range(a + 2, n_t)]
            rng.shuffle(pairs)
            yield from pairs

    work = 0
    for _ in range(6):
        improved = False
        for w in windows():
            if work > budget:
                return tables
            if sum(len(tables[t]) for t in w) > max_window_players and len(w) > 2:
                continue
            if len({len(tables[t]) for t in w}) > 1:
                continue  # who sits at a small table was chosen on purpose (rotation)
            cur = sum(costs[t] for t in w)
            if cur <= 0:
                continue
            if cur < REPEAT_W and cur <= _window_lb(ctx, [tables[t] for t in w]) + 1e-9:
                continue
            work += 1 if len(w) == 2 else 20
            new = _solve_window(ctx, [tables[t] for t in w], unit_of)
            if new is None:
                continue
            new.sort(key=lambda t: (-len(t), -max(ctx.score[p] for p in t)))
            # keep the table sizes in place: assign new tables to the window's slots
            slots = sorted(w, key=lambda t: (-len(tables[t]), t))
            for t, nt in zip(slots, new, strict=True):
                tables[t] = nt
                costs[t] = ctx.table_cost(nt)
            improved = True
        if not improved:
            break
    return tables


def _fix_conflicts(ctx, tables, unit_of, mixing):
    """Swap single players out of tables with conflicts (nearest tables first)."""
    n_t = len(tables)
    costs = [ctx.table_cost(t) for t in tables]
    for _ in range(4):
        changed = False
        for a in range(n_t):
            if costs[a] < REPEAT_W:
                continue
            bad = [
                p
                for p in tables[a]
                if len(unit_of[p]) == 1 and any(ctx.conflict(p, q) for q in tables[a] if q != p)
            ]
            others = sorted(range(n_t), key=lambda b: abs(b - a)) if not mixing else range(n_t)
            for p in bad:
                if costs[a] < REPEAT_W:
                    break
                done = False
                for b in others:
                    if b == a:
                        continue
                    for q in tables[b]:
                        if len(unit_of[q]) != 1:
                            continue
                        ta = [x if x != p else q for x in tables[a]]
                        tb = [x if x != q else p for x in tables[b]]
                        ca, cb = ctx.table_cost(ta), ctx.table_cost(tb)
                        if ca + cb < costs[a] + costs[b] - 1e-9:
                            tables[a], tables[b] = ta, tb
                            costs[a], costs[b] = ca, cb
                            changed = done = True
                            break
                    if done:
                        break
        if not changed:
            break
    return tables


def _piece_costs(ctx, pieces, side, group, free, cap, big=0):
    """Edges (i, j, cost) joining two pieces into one repeat-free table whose
    score range is at most ``cap`` (cost: the range in thousandths).

    Pieces join when their ``side`` differs (side 2 joins anything) and their
    ``group`` (table size) is the same; a single (side 0) with ``free`` 1 also
    joins the rest (side 1) of a table of the largest size ``big``, with
    ``free`` 2 the rest of a table of any size.
    """
    sc, avoid = ctx.score, ctx.avoid
    # scores in thousandths (they may be halves)
    hi = [int(round(max(sc[p] for p in pc) * 1000)) for pc in pieces]
    lo = [int(round(min(sc[p] for p in pc) * 1000)) for pc in pieces]
    cap = int(round(cap * 1000))
    bits = [sum(1 << p for p in pc) for pc in pieces]
    shuns = [0] * len(pieces)
    for i, pc in enumerate(pieces):
        for p in pc:
            shuns[i] |= avoid[p]
    order = sorted(range(len(pieces)), key=lambda i: -hi[i])
    edges = []
    for x, i in enumerate(order):
        hi_i, lo_i, side_i, group_i, free_i, shuns_i = (
            hi[i],
            lo[i],
            side[i],
            group[i],
            free[i],
            shuns[i],
        )
        floor = hi_i - cap
        if lo_i < floor:
            continue
        for y in range(x + 1, len(order)):
            j = order[y]
            if hi[j] < floor:
                break
            lo_j = lo[j]
            if lo_j < floor:
                continue
            if side_i == side[j] and side_i != 2:
                continue
            if group_i != group[j]:
                f, g_rest = (free_i, group[j]) if side_i == 0 else (free[j], group_i)
                if not (f == 2 or (f == 1 and g_rest == big)):
                    continue
            if shuns_i & bits[j]:
                continue
            edges.append((i, j, hi_i - (lo_i if lo_i < lo_j else lo_j)))
    return edges


def _rematch(ctx, tables, rng, kind, noise=0, slack=0):
    """One large move: split every table in two pieces and re-join the pieces
    by a minimum-cost perfect matching (repeat-free joins only).

    ``kind`` "half" splits a table of k into k//2 and the rest (two halves of
    tables of the same size join), "single" splits off one random player (a
    single joins the rest of a table of the same size, or of any size if he may
    sit at a small table: the sizes stay). Returns the new tables or None. The
    current tables are always among the candidates, so without ``noise`` the
    result is never worse.
    """
    small_ok = ctx.small_ok
    big = max(len(t) for t in tables)
    pieces, side, group, free = [], [], [], []
    rnd = rng.randrange
    for t in tables:
        k = len(t)
        if kind == "half":
            cut = k // 2
            inner = _HALVES[k][rnd(len(_HALVES[k]))]
            pieces += [[t[x] for x in inner], [t[x] for x in range(k) if x not in inner]]
            side += [2, 2] if 2 * cut == k else [0, 1]
            free += [0, 0]
        else:
            x = rnd(k)
            pieces += [[t[x]], t[:x] + t[x + 1 :]]
            side += [0, 1]
            # a single may move to a table of another size (the sizes stay): to a
            # full table always, to a small one only if he may sit at a small table
            free += [0 if small_ok is None else (2 if small_ok[t[x]] else 1), 0]
        group += [k, k]

    sc = ctx.score
    cap = max(max(sc[p] for p in t) - min(sc[p] for p in t) for t in tables) + slack
    edges = _piece_costs(ctx, pieces, side, group, free, cap, big)
    # a random tie-break below one unit for all the tables together makes the best
    # matching unique: the matcher's own choice among equals is not reproducible.
    # Weights are ``top`` minus the cost (every perfect matching has as many edges).
    tie = max(1, _TIE // (len(tables) + 1))
    r = [rng.getrandbits(30) for _ in pieces]
    top = (int(round(cap * 1000)) + noise + 1) * _TIE
    if noise:
        edges = [(i, j, top - (c + rnd(noise)) * _TIE - r[i] * r[j] % tie) for i, j, c in edges]
    else:
        edges = [(i, j, top - c * _TIE - r[i] * r[j] % tie) for i, j, c in edges]
    g = rx.PyGraph()
    g.add_nodes_from(range(len(pieces)))
    g.add_edges_from(edges)
    m = rx.max_weight_matching(g, max_cardinality=True, weight_fn=int)
    if 2 * len(m) != len(pieces):
        return None
    return [pieces[a] + pieces[b] for a, b in sorted(tuple(sorted(e)) for e in m)]


def _range_sum(ctx, tables):
    sc = ctx.score
    return sum(max(sc[p] for p in t) - min(sc[p] for p in t) for t in tables)


def _lns(ctx, tables, rng, bound, steps):
    """Iterated large-neighbourhood search by re-matching table halves.

    Descends with exact re-matching moves until ``stall`` moves bring nothing,
    then kicks the solution with a noisy re-matching and descends again,
    keeping the kicked solution when it is no worse. Stops at ``bound`` or
    after ``steps`` matchings (deterministic for the rng).
    """
    if any(ctx.table_cost(t) >= REPEAT_W for t in tables):
        return tables
    best = cur = list(tables)
    best_c = cur_c = _range_sum(ctx, tables)
    done = 0
    stall_max = _STALL

    def descend(ts, c):
        nonlocal done
        stall = 0
        while stall < stall_max and done < steps and c > bound + 1e-9:
            done += 1
            new = _rematch(ctx, ts, rng, "half" if done % 2 else "single")
            if new is None:
                stall += 1
                continue
            nc = _range_sum(ctx, new)
            stall = 0 if nc < c - 1e-9 else stall + 1
            ts, c = new, nc
        return ts, c

    cur, cur_c = descend(cur, cur_c)
    best, best_c = cur, cur_c
    while done < steps and best_c > bound + 1e-9:
        done += 1
        kicked = _rematch(ctx, cur, rng, "half", noise=_KICK_NOISE, slack=_KICK_SLACK)
        if kicked is None:
            continue
        new, c = descend(kicked, _range_sum(ctx, kicked))
        if c <= cur_c + 1e-9:
            cur, cur_c = new, c
            if c < best_c - 1e-9:
                best, best_c = new, c
    return best


def _seat_groups(req, order, sizes, rng, mode, small_ok=None):
    use_range = mode == "swiss"
    ctx = _Ctx(req, order, use_range)
    ctx.small_ok = small_ok
    units = _units(req, order)
    if mode != "swiss":
        rng.shuffle(units)
    lookahead = 40 if mode == "swiss" else len(units)
    small = len(order) <= 200
    tables = _greedy(ctx, units, sizes, lookahead)
    unit_of = {}
    for u in units:
        for p in u:
            unit_of[p] = u
    # neighbouring tables first (by standings that is where gains are); tables
    # far apart only while repeats remain in a small field
    tables = _local_search(ctx, tables, unit_of, rng, far=mode != "swiss")
    if any(ctx.table_cost(t) >= REPEAT_W for t in tables):
        tables = _fix_conflicts(ctx, tables, unit_of, mode != "swiss")
        repeats = any(ctx.table_cost(t) >= REPEAT_W for t in tables)
        tables = _local_search(ctx, tables, unit_of, rng, far=mode != "swiss" or small and repeats)
    if use_range and all(len(u) == 1 for u in units):
        sc_desc = tuple(ctx.score)  # standings order with the small tables at the bottom
        bound = _chunking(sc_desc, sizes)
        if len(set(sizes)) == 1 and len(order) <= 200:
            ctx.repeat_lb = _repeat_range_lb(ctx.score, ctx.met, sizes[0])
            bound = max(bound, ctx.repeat_lb)
        if len(tables) <= 2 * _LNS_BLOCK:
            tables = _lns(ctx, tables, rng, bound, _LNS_STEPS)
        elif _range_sum(ctx, tables) > bound + 1e-9:
            tables = _lns_blocks(ctx, tables, rng)
    return ctx, tables


def _lns_blocks(ctx, tables, rng):
    """The search on overlapping blocks of neighbouring tables (large fields)."""
    sc = ctx.score
    tables = sorted(tables, key=lambda t: (-max(sc[p] for p in t), -min(sc[p] for p in t)))
    half = _LNS_BLOCK // 2
    for start in range(0, max(1, len(tables) - half), half):
        block = tables[start : start + _LNS_BLOCK]
        cur = _range_sum(ctx, block)
        if cur <= 0:
            continue
        scores = tuple(sorted((sc[p] for t in block for p in t), reverse=True))
        lb = _range_lb(scores, tuple(len(t) for t in block)) or 0.0
        if cur <= lb + 1e-9:
            continue
        new = _lns(ctx, block, rng, lb, _LNS_BLOCK_STEPS)
        new.sort(key=lambda t: (-max(sc[p] for p in t), -min(sc[p] for p in t)))
        tables[start : start + _LNS_BLOCK] = new
    return tables


# --------------------------------------------------------------------------
# mixing: resolvable designs planned ahead


_GF2_POLY = {4: 0b111, 8: 0b1011, 16: 0b10011, 32: 0b100101, 64: 0b1000011}


def _field(q):
    """(add, mul) tables of GF(q) for primes and powers of two, else None."""
    if q < 2:
        return None
    if all(q % d for d in range(2, int(q**0.5) + 1)):
        return (
            [[(a + b) % q for b in range(q)] for a in range(q)],
            [[(a * b) % q for b in range(q)] for a in range(q)],
        )
    if q in _GF2_POLY:
        poly = _GF2_POLY[q]

        def mul(a, b):
            r = 0
            while b:
                if b & 1:
                    r ^= a
                b >>= 1
                a <<= 1
                if a & q:
                    a ^= poly
            return r

        return [[a ^ b for b in range(q)] for a in range(q)], [
            [mul(a, b) for b in range(q)] for a in range(q)
        ]
    return None


def _affine(n, k):
    """Parallel classes of AG(d, k) when n == k**d."""
    d, m = 0, 1
    while m < n:
        m *= k
        d += 1
    if m != n or d < 2:
        return []
    f = _field(k)
    if f is None:
        return []
    add, mul = f

    def vec(x):
        return [(x // k**i) % k for i in range(d)]

    def num(v):
        return sum(c * k**i for i, c in enumerate(v))

    rounds = []
    for x in range(1, n):
        v = vec(x)
        lead = next(c for c in reversed(v) if c)
        if lead != 1:
            continue
        covered = [False] * n
        tables = []
        for p in range(n):
            if covered[p]:
                continue
            pv = vec(p)
            line = [num([add[pv[i]][mul[t][v[i]]] for i in range(d)]) for t in range(k)]
            for y in line:
                covered[y] = True
            tables.append(sorted(line))
        rounds.append(tables)
    return rounds


@lru_cache(maxsize=64)
def _design(n, k):
    """Resolvable rounds for ``n`` players at tables of ``k`` (no pair twice):
    the most rounds of affine geometries, resolvable transversal designs built
    from finite fields and the designs kept as data in ``tournaments.designs``."""
    if n % k:
        return ()
    best = [[list(range(x, x + k)) for x in range(0, n, k)]]
    aff = _affine(n, k)
    if len(aff) > len(best):
        best = aff
    q = n // k
    f = _field(q) if q >= k else None
    if f is not None:
        add, mul = f
        rounds = []
        for a in range(q):
            rounds.append([[g * q + add[mul[a][g]][b] for g in range(k)] for b in range(q)])
        inner = _design(q, k)
        for r in inner:
            rounds.append([[g * q + x for x in t] for g in range(k) for t in r])
        if len(rounds) > len(best):
            best = rounds
    known = RESOLVABLE.get((n, k), ())
    if len(known) > len(best):
        best = known
    return tuple(tuple(tuple(t) for t in r) for r in best)


def mixing_plan(ids, table_size, rounds, seed=0):
    """All ``rounds`` of a mixing tournament planned ahead, as lists of tables of ids.

    Uses a resolvable design (affine geometry, resolvable transversal designs,
    ``tournaments.designs``) where one is known for the player count, and
    repeat-minimising rounds after the design is exhausted or where none exists.
    """
    ids = list(ids)
    rng = random.Random(f"plan:{seed}")
    perm = sorted(ids, key=lambda x: (str(type(x)), x))
    rng.shuffle(perm)
    n = len(perm)
    design = _design(n, table_size) if n % table_size == 0 else ()
    plan = [[[perm[p] for p in t] for t in r] for r in design[:rounds]]
    met = []
    for r in plan:
        for t in r:
            met += [[a, b] for a, b in itertools.combinations(t, 2)]
    while len(plan) < rounds:
        req = {
            "players": [{"id": x, "score": 0} for x in perm],
            "met": met,
            "table_size": table_size,
            "allowed_sizes": [table_size] if n % table_size == 0 else None,
            "mode": "mixing",
            "seed": f"{seed}:{len(plan)}",
            "byes": False,
        }
        if req["allowed_sizes"] is None:
            sizes = sorted({max(2, table_size - 1), table_size, min(6, table_size + 1)})
            req["allowed_sizes"] = sizes
        tables = seat(req)["tables"]
        plan.append(tables)
        for t in tables:
            met += [[a, b] for a, b in itertools.combinations(t, 2)]
    return plan


def mixing_round(ids, table_size, rounds, round_number, met=(), seed=0):
    """The planned tables of ``round_number`` (1-based), or None if history differs.

    None means the players or the history no longer fit the plan (drops, late
    entries, manual swaps would repeat a pair): seat that round by repeats instead.
    """
    plan = mixing_plan(ids, table_size, round_number, seed)
    tables = plan[round_number - 1]
    seen = {frozenset(p) for p in met}
    for t in tables:
        for a, b in itertools.combinations(t, 2):
            if frozenset((a, b)) in seen:
                return None
    return tables


# --------------------------------------------------------------------------
# seat order


def _seat_order(req, table, rng):
    """Seat 0 (leads) to who led least, and so on; ties by the seed."""
    left = list(table)
    rng.shuffle(left)
    out = []
    for s in range(len(table)):
        pick = min(
            left,
            key=lambda p: (
                req.seats[p].count(s),
                -sum(1 for x in req.seats[p] if x > s) if s == 0 else 0,
            ),
        )
        left.remove(pick)
        out.append(pick)
    return out


# --------------------------------------------------------------------------
# the entry point


def seat(request: dict) -> dict:
    """Seat one round. See the module docstring for the request and answer."""
    t0 = time.perf_counter()
    req = _parse(request)
    rng = random.Random(f"seat:{req.seed}")
    n = len(req.ids)
    standings = sorted(range(n), key=lambda p: -req.score[p])

    pair_only = req.allowed == [2] and req.teams != "together"
    sizes, n_byes = plan_sizes(n, req.allowed, req.size, req.byes)
    together_units = req.teams == "together"
    if together_units:
        for t, c in Counter(x for x in req.team if x is not None).items():
            if c > max(req.allowed):
                raise SeatingError(
                    f"team {t!r} has {c} players, more than the largest table ({max(req.allowed)})"
                )

    # byes to the bottom of the standings among those who had the fewest (in a
    # random draw: drawn by the seed among those who had the fewest)
    bye_players = []
    if n_byes and req.mode == "random":
        draw = random.Random(f"byes:{req.seed}")
        key = {p: (req.byes_had[p], draw.random()) for p in standings}
        bye_players = sorted(sorted(standings, key=key.__getitem__)[:n_byes])
    elif n_byes:
        picks = _choose_bottom(req, standings, n_byes, req.byes_had)
        bye_players = [standings[x] for x in picks]
    on_bye = set(bye_players)
    seated = [p for p in standings if p not in on_bye]

    # small tables to those who had the fewest: where they cost least in score
    # ranges (the bottom on a tie), else to the bottom among those who had the fewest
    n_small = sum(s for s in sizes if s < req.size)
    placed = None
    if n_small and req.mode == "swiss" and req.teams != "together" and max(sizes) == req.size:
        fewest = min(req.small_had[p] for p in seated)
        eligible = [req.small_had[p] == fewest for p in seated]
        if sum(eligible) >= n_small:
            placed = _place_small([req.score[p] for p in seated], sizes, eligible, req.size)
    if n_small and req.mode == "swiss" and placed is None:
        picks = set(_choose_bottom(req, seated, n_small, req.small_had))
        seated = [p for x, p in enumerate(seated) if x not in picks] + [
            p for x, p in enumerate(seated) if x in picks
        ]

    planned = None
    if req.mode == "mixing" and req.rounds and not bye_players:
        rnd = req.round or 1
        if n % req.size == 0 and sizes == [req.size] * (n // req.size):
            met_ids = [
                [req.ids[a], req.ids[b]]
                for a in range(n)
                for b, c in req.met[a].items()
                if a < b
                for _ in range(c)
            ]
            planned = mixing_round(req.ids, req.size, req.rounds, rnd, met_ids, req.seed)

    if planned is not None:
        ctx = _Ctx(req, seated, False)
        pos = {req.ids[p]: k for k, p in enumerate(seated)}
        tables = [[pos[x] for x in t] for t in planned]
    elif pair_only and req.mode == "swiss":
        ctx, tables = _seat_pairs(req, seated, rng)
    elif pair_only and req.mode == "random":
        rng.shuffle(seated)  # the draw; positions below are places in it
        ctx, tables = _seat_pairs(req, seated, rng)
    else:
        ctx, tables = None, None
        if placed is not None:
            fewest = min(req.small_had[p] for p in seated)
            ok = [req.small_had[p] == fewest for p in seated]
            ctx, tables = _seat_groups(
                req, seated, placed, random.Random(f"seat:{req.seed}"), "swiss", small_ok=ok
            )
            if any(
                req.small_had[seated[p]] != fewest for t in tables if len(t) < req.size for p in t
            ) or any(ctx.table_cost(t) >= REPEAT_W for t in tables):
                ctx = None  # fall back to the small tables at the bottom
        if ctx is None:
            if placed is not None:
                picks = set(_choose_bottom(req, seated, n_small, req.small_had))
                seated = [p for x, p in enumerate(seated) if x not in picks] + [
                    p for x, p in enumerate(seated) if x in picks
                ]
            ctx, tables = _seat_groups(req, seated, sizes, rng, req.mode)

    # stats (indices are positions in ``seated``)
    repeat_pairs = 0
    apart = 0
    ranges = 0.0
    mixed_pairs = 0
    unequal_pairs = 0
    mixed_tables = 0
    level = _levels(ctx.score)
    for t in tables:
        s = [ctx.score[p] for p in t]
        ranges += max(s) - min(s)
        mixed_tables += max(s) != min(s)
        for a, b in itertools.combinations(t, 2):
            repeat_pairs += b in ctx.met[a]
            unequal_pairs += ctx.score[a] != ctx.score[b]
            mixed_pairs += abs(level[a] - level[b])
            pa, pb = seated[a], seated[b]
            for attr in (req.team, req.club):
                if req.teams == "apart" and attr[pa] is not None and attr[pa] == attr[pb]:
                    apart += 1
                    break
    scores_desc = sorted((req.score[p] for p in seated), reverse=True)
    out_tables = []
    for t in tables:
        players = [seated[p] for p in t]
        out_tables.append([req.ids[p] for p in _seat_order(req, players, rng)])
    stats = {
        "tables": len(tables),
        "byes": len(bye_players),
        "repeat_pairs": repeat_pairs,
        "score_range_sum": ranges,
        # chunking the sorted standings with the planned sizes (small tables at the bottom)
        "score_range_chunking": _chunking(scores_desc, sizes),
        # exact bound: the best consecutive chunking with the sizes in any order
        "score_range_lower_bound": _range_lb(tuple(scores_desc), tuple(sizes)),
        # pairs with different scores, a pair k score groups apart counted k times
        # (it floats through the groups between); the lower bound counts these
        "mixed_pairs": mixed_pairs,
        "unequal_pairs": unequal_pairs,
        "mixed_tables": mixed_tables,
        "planned": planned is not None,
    }
    if len(set(sizes)) == 1 and sizes[0] > 2 and not n_byes and len(seated) <= 200:
        # for repeat-free seatings: the cuts of the standings that repeats force tables across
        if ctx.repeat_lb is None:
            ctx.repeat_lb = _repeat_range_lb(ctx.score, ctx.met, sizes[0])
        stats["score_range_repeat_bound"] = max(
            ctx.repeat_lb,
            stats["score_range_lower_bound"] or 0.0,
        )
    if req.teams == "apart":
        stats["apart_violations"] = apart
    if pair_only:
        stats["mixed_pairs_lower_bound"] = _mixed_pairs_lb(scores_desc)
    stats["seconds"] = round(time.perf_counter() - t0, 6)
    return {"tables": out_tables, "byes": [req.ids[p] for p in bye_players], "stats": stats}


def main(argv=None) -> int:
    try:
        request = json.load(sys.stdin)
    except json.JSONDecodeError as exc:
        msg = f"request is not valid JSON: {exc}"
        print(msg, file=sys.stderr)
        print(json.dumps({"error": msg}))
        return 2
    try:
        answer = seat(request)
    except SeatingError as exc:
        print(f"bad request: {exc}", file=sys.stderr)
        print(json.dumps({"error": str(exc)}))
        return 2
    json.dump(answer, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
