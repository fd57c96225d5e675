"""Mixing: resolvable designs planned ahead (nobody meets anybody twice).

Affine geometries and resolvable transversal designs built from finite fields,
and the designs kept as data in :mod:`tournaments.seating.designs`.
"""

from __future__ import annotations

import itertools
import random
from functools import lru_cache

from tournaments.seating.designs import RESOLVABLE
from tournaments.seating.groups import seat_groups
from tournaments.seating.request import parse
from tournaments.seating.sizes import plan_sizes

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
    from finite fields and the designs kept as data in ``tournaments.seating.designs``."""
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


def _repeat_poor_round(request):
    """A round after the design is exhausted: the fewest repeats, drawn by the seed."""
    req = parse(request)
    rng = random.Random(f"seat:{req.seed}")
    sizes, _byes = plan_sizes(req.n, req.allowed, req.size, False)
    order = list(range(req.n))
    _ctx, tables = seat_groups(req, order, sizes, rng, "mixing")
    return [[req.ids[order[x]] for x in t] for t in tables]


def mixing_plan(ids, table_size, rounds, seed=0):
    """All ``rounds`` of a mixing tournament planned ahead, as lists of tables of ids.

    Uses a resolvable design (affine geometry, resolvable transversal designs,
    ``tournaments.seating.designs``) where one is known for the player count, and
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
        tables = _repeat_poor_round(req)
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
