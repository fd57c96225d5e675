"""Seating benchmark: prints the figures; run ``python tests/bench/bench_seating.py``."""

from __future__ import annotations

import itertools
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from generator import generate

from tournaments.seating import mixing_plan, seat

CASES = [
    ("2-player n=1000", 1000, 2, None, False),
    ("2-player n=1001, byes", 1001, 2, None, True),
    ("4-player n=1000", 1000, 4, None, False),
    ("4/3-player n=1002", 1002, 4, [3, 4], False),
    ("4-player n=64", 64, 4, None, False),
]


def repeat_free_rounds(plan):
    seen, r = set(), 0
    for rnd in plan:
        ps = {frozenset(p) for t in rnd for p in itertools.combinations(t, 2)}
        if seen & ps:
            break
        seen |= ps
        r += 1
    return r


def main():
    seat({"players": [{"id": 0}, {"id": 1}], "table_size": 2})  # warm up imports
    for name, n, k, allowed, byes in CASES:
        print(f"{name} (state after 4 rounds, seeds 1-5)")
        for s in range(1, 6):
            req = generate(n, k, s, allowed_sizes=allowed, byes=byes)
            t0, c0 = time.perf_counter(), time.process_time()
            st = seat(req)["stats"]
            dt, dc = time.perf_counter() - t0, time.process_time() - c0
            extra = (
                f"mixed pairs {st['mixed_pairs']} (bound {st['mixed_pairs_lower_bound']})"
                if k == 2
                else f"range sum {st['score_range_sum']:g} (chunking {st['score_range_chunking']:g},"
                f" exact bound {st['score_range_lower_bound']:g}"
                + (
                    f", with repeats >= {st['score_range_repeat_bound']:g}"
                    if "score_range_repeat_bound" in st
                    else ""
                )
                + (
                    f", small tables to the lowest with the fewest >= {st['score_range_fair_bound']:g})"
                    if "score_range_fair_bound" in st
                    else ")"
                )
            )
            print(f"  seed {s}: repeats {st['repeat_pairs']}, {extra}, {dt:.3f} s (cpu {dc:.3f} s)")
    print("random round 1, n=1000 and 1001 (byes allowed), seeds 1-5: slowest of the seeds")
    for n in (1000, 1001):
        figures = []
        for k in range(2, 7):
            worst, byes = 0.0, 0
            for s in range(1, 6):
                req = generate(n, k, s, rounds=0, byes=True, mode="random")
                t0 = time.perf_counter()
                a = seat(req)
                worst = max(worst, time.perf_counter() - t0)
                byes = len(a["byes"])
            figures.append(f"{k}: {worst * 1000:.1f} ms ({byes} byes)")
        print(f"  n={n}, tables of " + ", ".join(figures))
    print("mixing, tables of 4: repeat-free rounds (design maximum)")
    for n, best in ((16, 5), (32, 10), (64, 21)):
        t0 = time.perf_counter()
        plan = mixing_plan(range(n), 4, best, seed=1)
        dt = time.perf_counter() - t0
        print(f"  n={n}: {repeat_free_rounds(plan)} of {best}, plan {dt:.3f} s")


if __name__ == "__main__":
    main()
