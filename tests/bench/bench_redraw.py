"""A move's redraw at a digital table of 4: ``python tests/bench/bench_redraw.py``.

After every move each seat's phone gets its screen anew (pushed, or on its
next poll). Measured in-process, in CPU time of this process (the database
server's own work not counted), per seat and move, for every game at a table
of 4 over a game's first moves:

- before: every seat builds its whole screen (the table and its version, the
  seats, the game state loaded, its view, hand and moves) and its partial is
  rendered, as the poll did for each phone;
- after: the table's shared part is built once per move
  (``screen.table_snapshot``: two queries, the state loaded once), each seat
  adds only its own view, hand and legal moves and its partial is rendered
  (``screen.seat_part``), as the push and the poll do now.

Target: ≤ 5 ms of CPU per seat and move. Uses ``DATABASE_URL`` when it is
PostgreSQL (a database ``bench_redraw`` of its own on that server), else a
SQLite file in a temporary folder.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

SEATS = 4
MOVES = 30
TARGET_MS = 5.0
DB_NAME = "bench_redraw"


def database_url() -> str:
    server = os.environ.get("DATABASE_URL", "")
    parts = urlsplit(server)
    if not parts.scheme.startswith("postgres"):
        return f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"
    import psycopg

    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{DB_NAME}"')
    return urlunsplit(parts._replace(path="/" + DB_NAME))


def main() -> None:
    os.environ["DATABASE_URL"] = database_url()
    os.environ.setdefault("CACHE_URL", "locmem://")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournaments.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from games import ENGINES, get_engine
    from tests.factories import digital_table
    from tournaments.models import Seat
    from tournaments.play import screen
    from tournaments.play.panel import panel_html
    from tournaments.play.tables import table_move

    call_command("migrate", verbosity=0)
    engine_label = os.environ["DATABASE_URL"].split(":")[0]
    print(f"redraw of a table of {SEATS} after each move, CPU ms per seat ({engine_label})")
    print(f"{'game':<16} {'before p50/p95':>16} {'after p50/p95':>16}")
    worst_after = 0.0
    for game in ENGINES:
        engine = get_engine(game)
        if not engine.min_players <= SEATS <= engine.max_players:
            continue
        table = digital_table(game=game, players=SEATS, secret=f"{2024:064x}")
        seats = list(Seat.objects.filter(table=table).order_by("position"))
        rng = random.Random(7)

        def render(play, token):
            return panel_html(play, token, "x" * 64)

        before, after = [], []
        for _ in range(MOVES):
            table.refresh_from_db()
            state = engine.load(table.state)
            if engine.is_over(state):
                break
            seat = engine.to_act(state)[0]
            action = rng.choice(engine.legal_actions(state, seat))
            table_move(table=table, seat=seat, action=action)
            # before: each seat alone builds everything
            start = time.thread_time()
            for s in seats:
                screen.forget_snapshots()
                render(screen.seat_screen(s), "token")
            before.append((time.thread_time() - start) / SEATS * 1000)
            # after: the shared part once, each seat its own
            screen.forget_snapshots()
            start = time.thread_time()
            snapshot = screen.table_snapshot(table.pk)
            for s in seats:
                render(screen.seat_part(snapshot, s.position, me=s), "token")
            after.append((time.thread_time() - start) / SEATS * 1000)

        def figures(values):
            values = sorted(values)
            return f"{statistics.median(values):.2f}/{values[int(0.95 * (len(values) - 1))]:.2f}"

        print(f"{game:<16} {figures(before):>16} {figures(after):>16}")
        worst_after = max(worst_after, statistics.median(after))
    verdict = "met" if worst_after <= TARGET_MS else "NOT met"
    print(f"target ≤ {TARGET_MS} ms per seat: {verdict} (worst game's median {worst_after:.2f} ms)")


if __name__ == "__main__":
    main()
