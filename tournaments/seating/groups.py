"""Tables of 3–6 (and mixed sizes): greedy construction, exact window search
and the large-neighbourhood search of :mod:`tournaments.seating.lns`."""

from __future__ import annotations

import itertools
import random
from collections import Counter

from tournaments.seating.bounds import _chunking, _range_lb, _repeat_range_lb
from tournaments.seating.context import REPEAT_W, Costs
from tournaments.seating.lns import _LNS_BLOCK, _LNS_BLOCK_STEPS, _LNS_STEPS, _lns, _range_sum


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


def seat_groups(req, order, sizes, rng, mode, small_ok=None):
    use_range = mode == "swiss"
    ctx = Costs(req, order, use_range)
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
            tables = _lns_restarts(ctx, tables, unit_of, rng, bound)
        elif _range_sum(ctx, tables) > bound + 1e-9:
            tables = _lns_blocks(ctx, tables, rng)
    return ctx, tables


def _lns_restarts(ctx, tables, unit_of, rng, bound):
    """Small fields: the search twice from the same start (2/3 and 1/3 of the
    matchings, the second with its own random stream), each polished by exact
    re-seating of any two or three tables; the better result wins. One long
    run gets stuck where a fresh one often doesn't (64 players: within one of
    the proven optimum on the bench seeds)."""
    best, best_c = None, None
    parts = (_LNS_STEPS * 2 // 3, _LNS_STEPS - _LNS_STEPS * 2 // 3)
    for k, steps in enumerate(parts):
        stream = rng if k == 0 else random.Random(f"restart:{k}:{rng.random()}")
        found = _lns(ctx, list(tables), stream, bound, steps)
        found.sort(key=lambda t: (-max(ctx.score[p] for p in t), -min(ctx.score[p] for p in t)))
        found = _local_search(ctx, found, unit_of, stream, far=True, budget=20_000)
        cost = _range_sum(ctx, found)
        if best_c is None or cost < best_c - 1e-9:
            best, best_c = found, cost
        if best_c <= bound + 1e-9:
            break
    return best


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
