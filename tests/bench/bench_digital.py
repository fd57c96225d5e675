"""Digital tables under load: ``python tests/bench/bench_digital.py``.

50 digital Monddämmerung tables of 3 seats play at once, every seat given
to the bot, so ONE Celery worker (concurrency 2) plays every move through
the services (``clock.bot_move``: lock, view, legal actions, apply, log,
wake the next bot) after the bot's pause. Meanwhile every seat's phone is
simulated on a real web server (the web server ``make run`` starts,
loopback only), in two phases of one run, each with tables of its own:

- poll: each phone polls its seat's play partial once a second with the
  version it shows (204 while nothing changed), as before push;
- push: each phone holds its seat's push stream (``p/<token>/stream/``,
  Server-Sent Events) and polls nothing.

Prints for each phase the moves per second the worker sustained and the time
from a move (its TableAction row) to each other seat's phone showing it:
median, p95, max; the machine's load average beside them.

The bot's pause and the poll are shorter than shipped (0.5 s and 1 s against
1.5 s and 1.5 s): a stress figure; ``--shipped`` runs the shipped ones.

Bounded: at most RUN_S seconds of play per phase, then the next phase.
Production (default): PostgreSQL and Redis — ``DATABASE_URL`` (only the
server is used; the benchmark creates and uses its own database
``bench_digital``) and ``BENCH_REDIS`` or ``REDIS_URL`` (default
redis://127.0.0.1:6379/15; a queue of its own, removed afterwards).
``--embedded``: what ``make run`` runs (``manage.py runall``: web server,
worker and beat on SQLite, the filesystem broker and the file cache, the
push by loopback datagrams) in a temporary folder, 10 tables.
``--port`` (default 8170): the web server's port on 127.0.0.1.
"""

from __future__ import annotations

import http.client
import os
import re
import socket
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


class Pusher(threading.Thread):
    """One seat's phone holding its push stream: notes when it first saw
    each move count (the version's first figure in each event's id)."""

    EVENT_ID = re.compile(rb"\nid: (\d+)\.")

    def __init__(self, table_id: int, seat: int, token: str, stop: threading.Event):
        super().__init__(daemon=True)
        self.table_id, self.seat, self.token, self.stop = table_id, seat, token, stop
        self.seen: list[tuple[int, int, float]] = []
        self.requests = self.errors = self.not_modified = 0
        self.connected = threading.Event()

    def run(self):
        count = -1
        while not self.stop.is_set():
            try:
                sock = socket.create_connection(("127.0.0.1", PORT), timeout=1)
                sock.sendall(
                    f"GET /p/{self.token}/stream/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
                )
                self.requests += 1
                buf = b""
                while not self.stop.is_set():
                    try:
                        chunk = sock.recv(65536)
                    except TimeoutError:
                        continue
                    if not chunk:
                        break
                    self.connected.set()
                    now = time.time()
                    buf += chunk
                    for m in self.EVENT_ID.finditer(buf):
                        seen = int(m.group(1))
                        if seen > count:
                            count = seen
                            self.seen.append((self.seat, seen, now))
                    buf = buf[-64:]
                sock.close()
            except OSError:
                self.errors += 1
                self.stop.wait(0.5)


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, max(0, int(round(q * len(values))) - 1))]


def build(user, name: str, tables: int):
    """A tournament of ``tables`` digital tables of SEATS bot seats, round 1
    published and not started."""
    from tests.seat_tokens import token_for
    from tournaments import services
    from tournaments.models import Round, Seat, Table

    tournament = services.tournament_create(owner=user, name=name, game=GAME, digital_tables=True)
    rnd = Round.objects.create(tournament=tournament, number=1, minutes=60, published=True)
    made = Table.objects.bulk_create(
        Table(round=rnd, number=n, digital=True, secret=f"{1000 + n:064x}")
        for n in range(1, tables + 1)
    )
    players = [
        services.player_add(tournament=tournament, by=user, name=f"P{i:03}")
        for i in range(tables * SEATS)
    ]
    Seat.objects.bulk_create(
        Seat(table=t, player=players[i * SEATS + pos], position=pos, bot=True)
        for i, t in enumerate(made)
        for pos in range(SEATS)
    )
    tokens = {t.pk: [token_for(t, pos) for pos in range(SEATS)] for t in made}
    return rnd, tokens


def phase(user, mode: str, rnd, tokens: dict) -> dict:
    """Play the round with every seat's phone polling (``poll``) or holding
    its push stream (``push``); the figures."""
    from tournaments.models import Table, TableAction
    from tournaments.services import round_life

    stop = threading.Event()
    if mode == "poll":
        phones = [Poller(table_id, seat_tokens, stop) for table_id, seat_tokens in tokens.items()]
    else:
        phones = [
            Pusher(table_id, seat, token, stop)
            for table_id, seat_tokens in tokens.items()
            for seat, token in enumerate(seat_tokens)
        ]
    for p in phones:
        p.start()
    if mode == "push":
        end = time.monotonic() + 30
        for p in phones:
            p.connected.wait(max(0.1, end - time.monotonic()))
    time.sleep(POLL_S)  # every phone shows the waiting page
    load_before = os.getloadavg()[0]
    t0 = time.time()
    round_life.round_start(round=rnd, by=user)  # deals; wakes every table's first bot
    while time.time() - t0 < RUN_S:
        if not Table.objects.filter(round=rnd).exclude(status=Table.DONE).exists():
            break
        time.sleep(0.5)
    played_for = time.time() - t0
    load = os.getloadavg()
    time.sleep(POLL_S * 1.5)  # the last moves reach the phones
    stop.set()
    rnd.refresh_from_db()
    if rnd.status == rnd.RUNNING:
        round_life.round_pause(round=rnd, by=user)  # its bots stop: the next phase plays alone
    for p in phones:
        p.join(5)
    actions = list(
        TableAction.objects.filter(table__round=rnd).values_list("table_id", "number", "seat", "at")
    )
    done = Table.objects.filter(round=rnd, status=Table.DONE).count()
    in_window = [a for a in actions if a[3].timestamp() - t0 <= played_for]
    seen = {}
    for p in phones:
        for seat, count, when in p.seen:
            seen.setdefault((p.table_id, seat), []).append((count, when))
    delays, missed = [], 0
    for table_id, number, seat, at in actions:
        for other in range(SEATS):
            if other == seat:
                continue
            first = next((w for c, w in seen.get((table_id, other), []) if c > number), None)
            if first is None:
                missed += 1
            else:
                delays.append(max(0.0, first - at.timestamp()))
    return {
        "mode": mode,
        "moves": len(actions),
        "rate": len(in_window) / played_for,
        "played_for": played_for,
        "done": done,
        "tables": len(tokens),
        "requests": sum(p.requests for p in phones),
        "not_modified": sum(p.not_modified for p in phones),
        "errors": sum(p.errors for p in phones),
        "delays": delays,
        "missed": missed,
        "load": (load_before, *load),
    }


def report(fig: dict) -> None:
    print(
        f"[{fig['mode']}] moves: {fig['moves']} in {fig['played_for']:.1f} s = "
        f"{fig['rate']:.1f} moves/s; {fig['done']}/{fig['tables']} games finished; "
        f"load average {fig['load'][0]:.1f} at the start, {fig['load'][1]:.1f} / "
        f"{fig['load'][2]:.1f} / {fig['load'][3]:.1f} (1/5/15 min) at the end"
    )
    what = "polls" if fig["mode"] == "poll" else "stream connections"
    extra = f", {fig['not_modified']} answered 204" if fig["mode"] == "poll" else ""
    print(f"[{fig['mode']}] {what}: {fig['requests']}{extra}, {fig['errors']} errors")
    delays = fig["delays"]
    if delays:
        print(
            f"[{fig['mode']}] move → other seats' phones show it ({len(delays)} sightings, "
            f"{fig['missed']} not seen): median {statistics.median(delays) * 1000:.0f} ms, "
            f"p95 {pct(delays, 0.95) * 1000:.0f} ms, max {max(delays) * 1000:.0f} ms"
        )


def embedded_env(tmp: Path) -> dict:
    """make run's environment in ``tmp`` (SQLite, filesystem broker, file cache)."""
    from tests.staff_load import sqlite_env
    from tournaments.management.commands.runall import laptop_env

    return laptop_env(sqlite_env(tmp, TURNIERLEITER_BOT_DELAY=str(BOT_DELAY_S)))


def start_runall(env: dict, log: Path) -> subprocess.Popen:
    """``manage.py runall`` (web server, worker, beat) on 127.0.0.1:PORT."""
    out = open(log, "wb")  # noqa: SIM115 - closed with the process
    proc = subprocess.Popen(
        [sys.executable, "manage.py", "runall", f"127.0.0.1:{PORT}"],
        cwd=ROOT,
        env=env,
        stdout=out,
        stderr=subprocess.STDOUT,
    )
    end = time.monotonic() + 90
    while time.monotonic() < end:
        if proc.poll() is not None:
            sys.exit(f"runall exited; see {log}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=1)
            conn.request("GET", "/")
            conn.getresponse().read()
            time.sleep(3)  # the worker and beat start beside the server
            return proc
        except OSError:
            time.sleep(0.3)
    proc.kill()
    sys.exit("runall did not answer in 90 s")


def main():
    global BOT_DELAY_S, POLL_S, PORT, TABLES
    import argparse
    import tempfile

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pause", type=float, default=BOT_DELAY_S, help="the bot's pause (s)")
    parser.add_argument("--poll", type=float, default=POLL_S, help="each phone's poll (s)")
    parser.add_argument(
        "--shipped",
        action="store_true",
        help="as shipped: the default bot pause (1.5 s) and the seat page's poll (1.5 s)",
    )
    parser.add_argument("--runserver", action="store_true", help="Django's development server")
    parser.add_argument(
        "--embedded", action="store_true", help="make run's SQLite stack, 10 tables"
    )
    parser.add_argument("--tables", type=int, default=None)
    parser.add_argument("--modes", default="poll,push", help="poll, push or both (poll,push)")
    parser.add_argument("--port", type=int, default=PORT)
    args = parser.parse_args()
    BOT_DELAY_S, POLL_S = (1.5, 1.5) if args.shipped else (args.pause, args.poll)
    PORT = args.port
    TABLES = args.tables or (10 if args.embedded else TABLES)
    modes = [m for m in args.modes.split(",") if m in ("poll", "push")]
    server_kind = "runserver" if args.runserver else "uvicorn"
    queue = f"bench-digital-{os.getpid()}"
    procs = []
    if args.embedded:
        tmp = Path(tempfile.mkdtemp(prefix="tl-bench-digital-"))
        env = embedded_env(tmp)
        os.environ.clear()
        os.environ.update(env)
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=ROOT,
            env=env,
            check=True,
        )
        stack = "make run's stack (runall: uvicorn, worker, beat; SQLite, filesystem broker)"
    else:
        os.environ["DATABASE_URL"] = database_url()
        os.environ["REDIS_URL"] = (
            os.environ.get("BENCH_REDIS")
            or os.environ.get("REDIS_URL")
            or "redis://127.0.0.1:6379/15"
        )
        os.environ.pop("CELERY_BROKER_URL", None)
        os.environ["TURNIERLEITER_CLOCK_QUEUE"] = queue
        os.environ["TURNIERLEITER_BOT_DELAY"] = str(BOT_DELAY_S)
        os.environ["CONN_MAX_AGE"] = "0"
        stack = f"PostgreSQL + Redis, one worker (concurrency 2), {server_kind}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournaments.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    user, _ = get_user_model().objects.get_or_create(username="bench-digital")
    clean(user)
    tmpdir = Path(os.environ.get("TMPDIR", "/tmp"))
    try:
        if args.embedded:
            procs.append(start_runall(dict(os.environ), tmpdir / f"{queue}-runall.log"))
        else:
            # the server and the worker keep their connections as they do in
            # production (settings: CONN_MAX_AGE 60); only this process closes its own
            served = {k: v for k, v in os.environ.items() if k != "CONN_MAX_AGE"}
            procs.append(start_worker(served, tmpdir / f"{queue}-worker.log"))
            procs.append(start_server(served, tmpdir / f"{queue}-web.log", server_kind))
        print(
            f"{TABLES} tables × {SEATS} bot seats ({GAME}), {stack}, bot pause {BOT_DELAY_S} s; "
            f"poll: every seat polled every {POLL_S} s; push: every seat holds its stream"
        )
        for n, mode in enumerate(modes, start=1):
            rnd, tokens = build(user, f"bench digital {mode} {n}", TABLES)
            report(phase(user, mode, rnd, tokens))
    finally:
        for proc in procs:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
        if not args.embedded:
            import redis

            r = redis.Redis.from_url(os.environ["REDIS_URL"])
            for key in r.scan_iter(f"*{queue}*"):
                r.delete(key)
    clean(user)


def clean(user):
    from tournaments.models import Round, Tournament

    Round.objects.filter(tournament__owner=user).delete()  # tables, seats, actions
    Tournament.objects.filter(owner=user).delete()


if __name__ == "__main__":
    main()
