"""Benchmark input for seating: a tournament after a few rounds.

``generate(n, table_size, seed)`` makes ``n`` players with a hidden skill
(normal, sd 1), plays ``rounds`` rounds (default 4) and returns the seating
request for the next round. Round 1 is a random draw, later rounds are seated
Skat-style by standings (score, ties broken at random), so the history has the
repeats such simple seaters leave. At a table of k the players are ranked by
skill plus noise (sd 1) and get placement points k−1 … 0. Table sizes follow
``tournaments.seating.plan_sizes`` for the allowed sizes (small tables at the
bottom).
"""

from __future__ import annotations

import itertools
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tournaments.seating import plan_sizes


def generate(n, table_size, seed, rounds=4, allowed_sizes=None, byes=False, mode="swiss"):
    rng = random.Random(seed)
    allowed = sorted(allowed_sizes or [table_size])
    skill = [rng.gauss(0, 1) for _ in range(n)]
    score = [0] * n
    met = []
    sizes, n_byes = plan_sizes(n, allowed, table_size, byes)
    for rnd in range(rounds):
        if rnd == 0:
            order = list(range(n))
            rng.shuffle(order)
        else:
            tie = [rng.random() for _ in range(n)]
            order = sorted(range(n), key=lambda p: (-score[p], tie[p]))
        seated = order[: n - n_byes]
        pos = 0
        for k in sizes:
            table = seated[pos : pos + k]
            pos += k
            perf = sorted(table, key=lambda p: -(skill[p] + rng.gauss(0, 1)))
            for place, p in enumerate(perf):
                score[p] += k - 1 - place
            met += [[a, b] for a, b in itertools.combinations(table, 2)]
        for p in order[n - n_byes :]:
            score[p] += table_size - 1  # a bye scores like a win
    standings = sorted(range(n), key=lambda p: -score[p])
    return {
        "players": [{"id": p, "score": score[p]} for p in standings],
        "met": met,
        "table_size": table_size,
        "allowed_sizes": allowed,
        "byes": byes,
        "mode": mode,
        "teams": None,
        "seed": seed,
        "round": rounds + 1,
    }
