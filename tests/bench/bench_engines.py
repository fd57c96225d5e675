"""Rules-engine benchmark: prints the figures; run
``python tests/bench/bench_engines.py [GAME ...] [--seconds S]``.

For every engine and every player count it supports, two loops of random
playouts, each run for about ``--seconds`` (default 0.6 s of CPU time, at most four
times that of wall clock) of whole games:

- raw: ``new_game``, ``to_act``, ``legal_actions`` and ``apply`` with a
  uniformly random legal action (``random.Random``), nothing else;
- cli: what ``python -m games simulate`` runs (``games.cli.simulate``): the
  engine's ``finish`` loop with a view per decision and a ``RandomBot`` per
  seat, the record kept, plus the result of every game.

Actions per second count applied actions (the set-up of a game is timed
too), per second of this process's CPU time: one core, and steady while
other processes share the machine; the wall-clock rate is printed beside it.
The goal is >= 50,000 raw actions/s for every engine and player count; a
line below it is marked "BELOW".
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import games
from games.cli import simulate

GOAL = 50_000
#: a loop also stops after this many times its CPU budget of wall clock, so
#: the whole run stays short on a crowded machine
WALL_CAP = 4


def raw_loop(engine, players: int, seconds: float, seed: int = 1) -> tuple[int, int, float, float]:
    """Random playouts for about ``seconds`` of CPU time:
    (games, actions, CPU seconds, wall seconds)."""
    pick = random.Random(seed).choice
    new_game, to_act, legal_actions, apply = (
        engine.new_game,
        engine.to_act,
        engine.legal_actions,
        engine.apply,
    )
    games_played = actions = 0
    started, wall = time.process_time(), time.perf_counter()
    deadline = started + seconds
    while True:
        s = new_game(players, seed + games_played)
        while True:
            seats = to_act(s)
            if not seats:
                break
            seat = seats[0]
            s = apply(s, seat, pick(legal_actions(s, seat)))
            actions += 1
        games_played += 1
        if time.process_time() >= deadline or time.perf_counter() - wall >= WALL_CAP * seconds:
            break
    return games_played, actions, time.process_time() - started, time.perf_counter() - wall


def cli_loop(engine, players: int, seconds: float, seed: int = 1) -> tuple[int, int, float, float]:
    """``games.cli.simulate`` in batches of 5 games for about ``seconds`` of
    CPU time: (games, actions, CPU seconds, wall seconds)."""
    games_played = actions = 0
    started, wall = time.process_time(), time.perf_counter()
    while (
        time.process_time() - started < seconds and time.perf_counter() - wall < WALL_CAP * seconds
    ):
        out = simulate(engine, players, 5, seed + games_played, ["random"])
        games_played += out["games"]
        actions += round(out["mean_actions"] * out["games"])
    return games_played, actions, time.process_time() - started, time.perf_counter() - wall


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", nargs="*", help="engine ids (default: all)")
    parser.add_argument(
        "--seconds", type=float, default=0.6, help="CPU seconds per loop and player count"
    )
    parser.add_argument(
        "--keyed",
        action="store_true",
        help="deal from seeds of 2**64 and more, as digital tables are: the SHAKE-256 stream",
    )
    args = parser.parse_args(argv)
    seed = (1 << 256) + 1 if args.keyed else 1
    ids = args.game or list(games.ENGINES)
    print(
        f"random playouts, about {args.seconds:g} s CPU per loop; actions per CPU second"
        f" (wall clock in brackets); goal raw >= {GOAL:,}"
    )
    below = 0
    for game_id in ids:
        engine = games.get_engine(game_id)
        raw_loop(engine, engine.min_players, 0.05)  # warm up imports and caches
        for players in range(engine.min_players, engine.max_players + 1):
            g, a, dt, wall = raw_loop(engine, players, args.seconds, seed)
            raw = a / dt
            cg, ca, cdt, cwall = cli_loop(engine, players, args.seconds, seed)
            mark = "" if raw >= GOAL else "  BELOW"
            below += raw < GOAL
            print(
                f"  {game_id:<15} {players} players: raw {raw:>8,.0f}/s ({a / wall:>7,.0f})"
                f"  cli {ca / cdt:>8,.0f}/s ({ca / cwall:>7,.0f})"
                f"  [{g} + {cg} games, {a / g:.0f} actions each]{mark}"
            )
    print(f"{below} engine/player-count pairs below the goal")
    return 0


if __name__ == "__main__":
    sys.exit(main())
