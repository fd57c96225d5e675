"""Standings benchmark: ``python tests/bench/bench_standings.py``.

1000 players, 10 rounds of random 4-player tables (2500 tables; about one
table in ten has a tie, figures are random card counts), seeded. Times
``compute_standings`` with the default order, 5 runs per case, and prints the
median and the max wall-clock time in ms (and the median CPU time, which a
busy machine disturbs less). Target: ≤ 100 ms.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from scoring.standings.compute import compute_standings

TARGET_MS = 100


def generate(n=1000, rounds=10, table_size=4, seed=1, byes=0):
    rng = random.Random(seed)
    players = [
        {"id": i, "name": f"Player {i:04d}", "rating": rng.randint(1000, 2000), "dropped": False}
        for i in range(n)
    ]
    results = []
    for rnd in range(1, rounds + 1):
        ids = list(range(n))
        rng.shuffle(ids)
        if byes:
            results.append({"round": rnd, "byes": ids[:byes]})
            ids = ids[byes:]
        for t in range(len(ids) // table_size):
            seats = ids[t * table_size : (t + 1) * table_size]
            figures = [rng.randint(0, 20) for _ in seats]
            if rng.random() < 0.1:
                figures[1] = figures[0]
            ranks = [1 + sum(1 for o in figures if o > f) for f in figures]
            results.append(
                {"round": rnd, "table": t + 1, "seats": seats, "ranks": ranks, "figures": figures}
            )
    return players, results


def bench(name, players, results, runs=5, **kw):
    wall, cpu = [], []
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        rows = compute_standings(players, results, **kw)
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    assert len(rows) == len(players)
    med, worst = statistics.median(wall), max(wall)
    ok = "ok" if worst <= TARGET_MS else "OVER TARGET"
    print(
        f"{name}: median {med:.1f} ms, max {worst:.1f} ms, best {min(wall):.1f} ms"
        f" (CPU median {statistics.median(cpu):.1f} ms; {runs} runs;"
        f" target ≤ {TARGET_MS} ms: {ok})"
    )
    return med, worst


def main():
    players, results = generate()
    tables = sum(1 for r in results if r.get("seats"))
    print(f"{len(players)} players, 10 rounds, {tables} tables of 4")
    bench("placement", players, results)
    bench("win_draw_loss", players, results, scheme="win_draw_loss")
    bench("figure", players, results, scheme="figure")
    players, results = generate(n=1002, byes=2, seed=2)
    bench("placement, 1002 players with 2 byes a round", players, results)


if __name__ == "__main__":
    main()
