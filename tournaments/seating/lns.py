"""Large-neighbourhood search for tables of 3–6: re-match table halves.

Every table is cut in two pieces and the pieces are re-joined by a min-cost
perfect matching (repeat-free joins only); iterated with kicks.
"""

from __future__ import annotations

import itertools

import rustworkx as rx

from tournaments.seating.context import REPEAT_W

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
