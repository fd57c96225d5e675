"""Digital tables under load: ``python tests/bench/bench_digital.py``.

50 digital Monddämmerung tables of 3 seats play at once, every seat given
to the bot, so ONE Celery worker (concurrency 2) plays every move through
the services (``clock.bot_move``: lock, view, legal actions, apply, log,
wake the next bot) after the bot's pause. Meanwhile every seat's phone is
simulated by a poller of the seat's play partial on a real web server
(the web server ``make run`` starts, on 127.0.0.1:8170, loopback only;
``--runserver``: Django's development server instead) asking once a second with
the version it shows (204 while nothing changed). Prints the moves per
second the worker sustained and the time from a move (its TableAction row)
to each other seat's poll showing it: median, p95, max.

The bot's pause and the poll are shorter than shipped (0.5 s and 1 s against
1.5 s and 1.5 s): a stress figure; ``--shipped`` runs the shipped ones.

Bounded: at most RUN_S seconds of play, then the worker and server stop.
Needs PostgreSQL and Redis: ``DATABASE_URL`` (only the server is used; the
benchmark creates and uses its own database ``bench_digital``) and
``REDIS_URL`` (default redis://127.0.0.1:6379/15; a queue of its own,
removed afterwards).
"""

from __future__ import annotations

import http.client
import os
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "bench"))

TABLES = 50
SEATS = 3
GAME = "monddaemmerung"
BOT_DELAY_S = 0.5
POLL_S = 1.0
RUN_S = 60
PORT = 8170
DB_NAME = "bench_digital"
VERSION = re.compile(rb'data-version="(\d+)\.')


def database_url() -> str:
    server = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    parts = urlsplit(server)
    if not parts.scheme.startswith("postgres"):
        sys.exit("bench_digital needs PostgreSQL: set DATABASE_URL=postgres://...")
    import psycopg

    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        # a fresh database each run: one left by an older schema can't migrate
        conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{DB_NAME}"')
    return urlunsplit(parts._replace(path="/" + DB_NAME))


def start_worker(env: dict, log: Path) -> subprocess.Popen:
    from bench_clock import start_worker as start

    return start(env, log)


def start_server(env: dict, log: Path, server: str) -> subprocess.Popen:
    """The web server ``make run`` starts (uvicorn: tournaments/serve.py), or Django's
    development server with ``--runserver``; loopback only."""
    from tournaments.management.commands.runall import web_command

    cmd = web_command(f"127.0.0.1:{PORT}", server=server)
    out = open(log, "wb")  # noqa: SIM115 - closed with the process
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    end = time.monotonic() + 30
    while time.monotonic() < end:
        if proc.poll() is not None:
            sys.exit(f"the web server exited; see {log}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=1)
            conn.request("GET", "/")
            conn.getresponse().read()
            return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    sys.exit("the web server did not start in 30 s")


class Poller(threading.Thread):
    """The phones of one table: each seat polls its play partial every
    POLL_S seconds with the version it shows; notes when it first saw each
    move count."""

    def __init__(self, table_id: int, tokens: list[str], stop: threading.Event):
        super().__init__(daemon=True)
        self.table_id, self.tokens, self.stop = table_id, tokens, stop
        self.seen: list[tuple[int, int, float]] = []  # (seat, moves shown, when)
        self.requests = self.errors = self.not_modified = 0

    def run(self):
        conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=10)
        shown = [""] * len(self.tokens)
        counts = [-1] * len(self.tokens)
        step = POLL_S / len(self.tokens)
        while not self.stop.is_set():
            for seat, token in enumerate(self.tokens):
                if self.stop.is_set():
                    break
                try:
                    conn.request("GET", f"/p/{token}/play/?v={shown[seat]}")
                    response = conn.getresponse()
                    body = response.read()
                except (OSError, http.client.HTTPException):
                    self.errors += 1
                    conn.close()
                    conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=10)
                    continue
                now = time.time()
                self.requests += 1
                if response.status == 204:
                    self.not_modified += 1
                elif response.status == 200:
                    m = re.search(rb'data-version="([^"]+)"', body)
                    if m:
                        shown[seat] = m.group(1).decode()
                        count = int(shown[seat].split(".")[0])
                        if count > counts[seat]:
                            counts[seat] = count
                            self.seen.append((seat, count, now))
                else:
                    self.errors += 1
                self.stop.wait(step)
        conn.close()


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, max(0, int(round(q * len(values))) - 1))]


def main():
    global BOT_DELAY_S, POLL_S
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pause", type=float, default=BOT_DELAY_S, help="the bot's pause (s)")
    parser.add_argument("--poll", type=float, default=POLL_S, help="each phone's poll (s)")
    parser.add_argument(
        "--shipped",
        action="store_true",
        help="as shipped: the default bot pause (1.5 s) and the seat page's poll (1.5 s)",
    )
    parser.add_argument("--runserver", action="store_true", help="Django's development server")
    args = parser.parse_args()
    BOT_DELAY_S, POLL_S = (1.5, 1.5) if args.shipped else (args.pause, args.poll)
    server_kind = "runserver" if args.runserver else "uvicorn"
    queue = f"bench-digital-{os.getpid()}"
    os.environ["DATABASE_URL"] = database_url()
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/15")
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ["TURNIERLEITER_CLOCK_QUEUE"] = queue
    os.environ["TURNIERLEITER_BOT_DELAY"] = str(BOT_DELAY_S)
    os.environ["CONN_MAX_AGE"] = "0"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournaments.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from tests.seat_tokens import token_for
    from tournaments import services
    from tournaments.models import Round, Seat, Table, TableAction
    from tournaments.services import clock

    call_command("migrate", verbosity=0)
    user, _ = get_user_model().objects.get_or_create(username="bench-digital")
    clean(user)
    tournament = services.tournament_create(
        owner=user, name="bench digital", game=GAME, digital_tables=True
    )
    rnd = Round.objects.create(tournament=tournament, number=1, minutes=60, published=True)
    tables = Table.objects.bulk_create(
        Table(round=rnd, number=n, digital=True, secret=f"{1000 + n:064x}")
        for n in range(1, TABLES + 1)
    )
    players = [
        services.player_add(tournament=tournament, by=user, name=f"P{i:03}")
        for i in range(TABLES * SEATS)
    ]
    Seat.objects.bulk_create(
        Seat(table=t, player=players[i * SEATS + pos], position=pos, bot=True)
        for i, t in enumerate(tables)
        for pos in range(SEATS)
    )

    tmp = Path(os.environ.get("TMPDIR", "/tmp"))
    # the server and the worker keep their connections as they do in
    # production (settings: CONN_MAX_AGE 60); only this process closes its own
    served = {k: v for k, v in os.environ.items() if k != "CONN_MAX_AGE"}
    worker = start_worker(served, tmp / f"{queue}-worker.log")
    server = start_server(served, tmp / f"{queue}-web.log", server_kind)
    stop = threading.Event()
    pollers = [Poller(t.pk, [token_for(t, pos) for pos in range(SEATS)], stop) for t in tables]
    try:
        for p in pollers:
            p.start()
        time.sleep(POLL_S)  # every phone shows the waiting page
        t0 = time.time()
        clock.round_start(round=rnd, by=user)  # deals; wakes every table's first bot
        while time.time() - t0 < RUN_S:
            if not Table.objects.filter(round=rnd).exclude(status=Table.DONE).exists():
                break
            time.sleep(0.5)
        played_for = time.time() - t0
        time.sleep(POLL_S * 1.5)  # the last moves reach the phones
    finally:
        stop.set()
        for p in pollers:
            p.join(5)
        for proc in (server, worker):
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
        import redis

        r = redis.Redis.from_url(os.environ["REDIS_URL"])
        for key in r.scan_iter(f"*{queue}*"):
            r.delete(key)

    actions = list(
        TableAction.objects.filter(table__round=rnd).values_list("table_id", "number", "seat", "at")
    )
    done = Table.objects.filter(round=rnd, status=Table.DONE).count()
    moves = len(actions)
    if not moves:
        sys.exit("no move was played")
    in_window = [a for a in actions if a[3].timestamp() - t0 <= played_for]
    rate = len(in_window) / played_for
    # move → each other seat's first poll showing it
    seen = {}
    for p in pollers:
        for seat, count, when in p.seen:
            seen.setdefault((p.table_id, seat), []).append((count, when))
    delays = []
    missed = 0
    for table_id, number, seat, at in actions:
        for other in range(SEATS):
            if other == seat:
                continue
            first = next((w for c, w in seen.get((table_id, other), []) if c > number), None)
            if first is None:
                missed += 1
            else:
                delays.append(max(0.0, first - at.timestamp()))
    requests = sum(p.requests for p in pollers)
    not_modified = sum(p.not_modified for p in pollers)
    errors = sum(p.errors for p in pollers)
    print(
        f"{TABLES} tables × {SEATS} bot seats ({GAME}), one worker (concurrency 2), "
        f"bot pause {BOT_DELAY_S} s, every seat polled every {POLL_S} s via {server_kind}"
    )
    print(
        f"moves: {moves} in {played_for:.1f} s = {rate:.1f} moves/s; {done}/{TABLES} games finished"
    )
    print(
        f"polls: {requests} ({requests / (played_for + POLL_S * 1.5):.0f}/s), "
        f"{not_modified} answered 204, {errors} errors"
    )
    if delays:
        print(
            f"move → other seats' poll shows it ({len(delays)} sightings, {missed} not seen): "
            f"median {statistics.median(delays) * 1000:.0f} ms, "
            f"p95 {pct(delays, 0.95) * 1000:.0f} ms, max {max(delays) * 1000:.0f} ms "
            f"(the poll interval alone adds up to {POLL_S * 1000:.0f} ms)"
        )
    clean(user)


def clean(user):
    from tournaments.models import Round, Tournament

    Round.objects.filter(tournament__owner=user).delete()  # tables, seats, actions
    Tournament.objects.filter(owner=user).delete()


if __name__ == "__main__":
    main()
