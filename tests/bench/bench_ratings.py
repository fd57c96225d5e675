"""Ratings benchmark: ``python tests/bench/bench_ratings.py``.

A simulated club: 200 people with a hidden skill, 24 monthly tournaments of 40
to 80 of them (the stronger and the keener come more often), 5 rounds each at
tables of 3 to 5 (4 where possible): round 1 at random, later rounds by the
tournament's standings so far, as Turnierleiter seats them (the leaders meet
each other, so a plain average placement undervalues them). A table's order is drawn
from the hidden skills with noise (a Plackett–Luce draw: skill plus Gumbel
noise), so a weaker player often beats a stronger one.

Prints the time to recompute every rating from all tables (target ≤ 2 s), and
the Kendall τ between the hidden skill and
- the final ratings (conservative value and mu),
- the season standings (placement points by field size, all counted),
- a plain average-placement list (mean of (place − 1) / (table size − 1)).
"""

from __future__ import annotations

import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from scoring.season.ratings import Match, compute_ratings
from scoring.season.standings import Event, Placing, season_standings
from scoring.standings.compute import compute_standings

TARGET_S = 2.0


def table_sizes(n: int) -> list[int]:
    """Tables of 4, with tables of 3 or 5 to make the count fit (3..5)."""
    fours, rest = divmod(n, 4)
    sizes = [4] * fours
    for i in range(rest):  # a 5 for each left over
        sizes[i % len(sizes)] += 1
    return sizes


def simulate(seed: int = 1, people: int = 200, months: int = 24, rounds: int = 5):
    rng = random.Random(seed)
    skill = {p: rng.gauss(0, 1) for p in range(people)}
    keen = {p: rng.random() for p in range(people)}
    games: list[Match] = []
    events: list[Event] = []
    for month in range(months):
        size = rng.randint(40, 80)
        weights = [0.2 + keen[p] + 0.3 * (skill[p] > 0) for p in range(people)]
        field = set()
        while len(field) < size:
            field.add(rng.choices(range(people), weights)[0])
        field = sorted(field)
        results = []
        score = dict.fromkeys(field, 0.0)
        for rnd in range(1, rounds + 1):
            order = field[:]
            rng.shuffle(order)
            if rnd > 1:
                order.sort(key=lambda p: -score[p])
            start = 0
            for t, n in enumerate(table_sizes(len(order)), start=1):
                seats = order[start : start + n]
                start += n
                drawn = sorted(seats, key=lambda p: -(skill[p] - math.log(-math.log(rng.random()))))
                ranks = [drawn.index(p) + 1 for p in seats]
                results.append({"round": rnd, "table": t, "seats": seats, "ranks": ranks})
                for p, r in zip(seats, ranks, strict=True):
                    score[p] += (n - r) / (n - 1)
                games.append(Match((month, rnd, t), [[p] for p in seats], ranks))
        rows = compute_standings([{"id": p, "name": str(p)} for p in field], results)
        events.append(Event(month, [Placing(r.player_id, r.place, r.points) for r in rows]))
    return skill, games, events


def kendall_tau(xs: dict, ys: dict) -> float:
    """Kendall's τ-b over the keys both have."""
    keys = [k for k in xs if k in ys]
    conc = disc = tx = ty = 0
    for i, a in enumerate(keys):
        for b in keys[i + 1 :]:
            dx = (xs[a] > xs[b]) - (xs[a] < xs[b])
            dy = (ys[a] > ys[b]) - (ys[a] < ys[b])
            if dx == 0 and dy == 0:
                continue
            if dx == 0:
                tx += 1
            elif dy == 0:
                ty += 1
            elif dx == dy:
                conc += 1
            else:
                disc += 1
    denom = math.sqrt((conc + disc + tx) * (conc + disc + ty))
    return (conc - disc) / denom if denom else 0.0


def main() -> int:
    skill, games, events = simulate()
    times = []
    for _ in range(3):
        t0 = time.perf_counter()
        ratings = compute_ratings(games)
        times.append(time.perf_counter() - t0)
    season = season_standings(events, scheme="placement")
    placements: dict = {}
    for g in games:
        n = len(g.sides)
        for side, rank in zip(g.sides, g.ranks, strict=True):
            placements.setdefault(side[0], []).append((rank - 1) / (n - 1))
    avg_place = {p: -statistics.mean(v) for p, v in placements.items()}
    tau_cons = kendall_tau(skill, {p: r.conservative for p, r in ratings.items()})
    tau_mu = kendall_tau(skill, {p: r.mu for p, r in ratings.items()})
    tau_season = kendall_tau(skill, {r.person: r.total for r in season})
    tau_avg = kendall_tau(skill, avg_place)
    played = len({p for g in games for s in g.sides for p in s})
    print(f"{len(games)} tables, {played} people rated, 24 tournaments")
    print(
        f"recompute all ratings: median {statistics.median(times):.2f} s, "
        f"max {max(times):.2f} s (target ≤ {TARGET_S:.0f} s)"
    )
    print(f"Kendall τ vs hidden skill: rating (mu − 3σ) {tau_cons:.3f}, rating mu {tau_mu:.3f}")
    print(f"                           season standings {tau_season:.3f}")
    print(f"                           average placement {tau_avg:.3f}")
    ok = max(times) <= TARGET_S and tau_cons > max(tau_season, tau_avg)
    print("ratings rank the hidden skill better than both:", "yes" if ok else "NO")
    return 0


if __name__ == "__main__":
    sys.exit(main())
