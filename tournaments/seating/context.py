"""The cost of seating players together: repeats, kept-apart mates, score ranges."""

from __future__ import annotations

# cost weights: keeping team-/club-mates apart > no repeats > score ranges
APART_W = 2_000_000.0
REPEAT_W = 1_000_000.0


class Costs:
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
