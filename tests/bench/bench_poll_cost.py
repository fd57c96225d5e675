"""What a seat poll costs: ``python tests/bench/bench_poll_cost.py``.

A digital Trumpet table of 4 on the production wiring (PostgreSQL from
``DATABASE_URL`` — a database ``bench_poll_cost`` of its own on that server —
and the cache and push on Redis from ``REDIS_URL``). Each request runs in a
context of its own, as under the ASGI server, and its CPU time is taken in
this process (``time.thread_time``: the database's and Redis's work not
counted). Measured in the same run:

- a bare request: the seat's clock poll answered from the shared cache;
- a poll with nothing new (204, from the cache);
- a poll that draws a new screen (after each move, the other seats' polls);
- a move's own cost: its POST with the mover's new screen, and the push's
  redraw of the table's four streams (what each web process holding them
  does), as the server runs them.

Also the new connections to Redis (sockets opened by this process) per
request after the first of each kind, and the server's own count
(``INFO stats`` ``total_connections_received``, shared by everyone on that
Redis: an upper bound). Targets (issue 37): a poll that draws a new screen
≤ 3× a bare request's CPU; 0 new Redis connections per request.
"""

from __future__ import annotations

import contextvars
import os
import random
import statistics
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

DB_NAME = "bench_poll_cost"
MOVES = 40


def main() -> int:
    server = os.environ.get("DATABASE_URL", "")
    redis_url = os.environ.get("REDIS_URL", "")
    if not server.startswith("postgres") or not redis_url.startswith("redis"):
        print("bench_poll_cost not run: needs DATABASE_URL (PostgreSQL) and REDIS_URL")
        return 0
    import psycopg

    parts = urlsplit(server)
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{DB_NAME}"')
    os.environ["DATABASE_URL"] = urlunsplit(parts._replace(path="/" + DB_NAME))
    os.environ.pop("CACHE_URL", None)
    os.environ.update(DJANGO_SETTINGS_MODULE="tournaments.settings", DEBUG="0")
    os.environ.setdefault("ALLOWED_HOSTS", "testserver")
    os.environ.setdefault("SECRET_KEY", "bench-poll-cost-secret-key-not-for-production")
    try:
        return run(redis_url)
    finally:
        from django.db import connections

        connections.close_all()
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{DB_NAME}" WITH (FORCE)')


def run(redis_url: str) -> int:
    import time

    import django

    django.setup()
    import redis
    import redis.connection
    from django.conf import settings
    from django.core.cache import cache
    from django.core.management import call_command
    from django.test import Client
    from django.urls import reverse

    from tests.factories import digital_table
    from tournaments import live
    from tournaments.models import Seat
    from tournaments.play import screen
    from tournaments.play.links import seat_token
    from tournaments.play.tables import table_move
    from tournaments.push import redraw
    from tournaments.services import deadlines

    call_command("migrate", verbosity=0)
    settings.ALLOWED_HOSTS = ["testserver"]
    settings.SECURE_SSL_REDIRECT = False  # the proxy's https is not here
    deadlines.schedule = lambda *a, **k: None  # no broker: the clock's calls dropped
    opened = []
    open_socket = redis.connection.Connection._connect

    def counted(self):
        opened.append(self)
        return open_socket(self)

    redis.connection.Connection._connect = counted
    info = redis.Redis.from_url(redis_url)

    def received() -> int:
        return int(info.info("stats")["total_connections_received"])

    table = digital_table(game="trumpet", players=4, secret=f"{37:064x}", round_minutes=60)
    engine = table.round.tournament.engine
    seats = list(Seat.objects.filter(table=table).order_by("position"))
    tokens = [seat_token(s) for s in seats]
    client = Client()
    rng = random.Random(37)

    def request(url, data=None):
        """One request in a context of its own, as the page's htmx polls
        send it; (CPU ms, status)."""
        start = time.thread_time()
        answer = contextvars.Context().run(
            client.get, url, data or {}, headers={"HX-Request": "true"}
        )
        return (time.thread_time() - start) * 1000, answer.status_code

    clock_url = reverse("seat_clock", args=[tokens[0]])
    play_urls = [reverse("seat_play", args=[t]) for t in tokens]
    shown = ["" for _ in seats]
    # first of each kind: the process's connections opened, the cache filled
    request(clock_url)
    for i, url in enumerate(play_urls):
        request(url, {"v": "x", "s": f"{table.pk}.{i}"})
    cache.get("warm")
    bare, idle, drawn, posts, pushes = [], [], [], [], []
    sockets0, server0 = len(opened), received()
    requests = 0
    streams = [
        redraw.Conn(
            kind=redraw.SEAT,
            table_id=table.pk,
            round_id=table.round_id,
            language="de",
            position=i,
            token=token,
            csrf_token="t" * 64,
        )
        for i, token in enumerate(tokens)
    ]
    move_urls = [reverse("seat_move", args=[t]) for t in tokens]
    for number in range(MOVES):
        table.refresh_from_db()
        state = engine.load(table.state)
        if engine.is_over(state):
            break
        seat = engine.to_act(state)[0]
        if number % 2:  # a move through the service alone
            action = rng.choice(engine.legal_actions(state, seat))
            table_move(table=table, seat=seat, action=action)
        else:  # a phone's move: its POST and its new screen, then the push
            data = {
                "action": rng.choice(engine.legal_actions(state, seat)),
                "seen": str(table.actions.count()),  # the moves the phone's screen shows
                "s": f"{table.pk}.{seat}",
            }
            start = time.thread_time()
            answer = contextvars.Context().run(
                client.post, move_urls[seat], data, headers={"HX-Request": "true"}
            )
            posts.append((time.thread_time() - start) * 1000)
            assert answer.status_code == 200 and b'id="play"' in answer.content, answer.status_code
            live.forget_local()
            screen.forget_snapshots()  # the push runs in another process
            start = time.thread_time()
            sent = redraw.table_pass(table.pk, streams)
            pushes.append((time.thread_time() - start) * 1000)
            assert len(sent) == len(streams), sent
        live.forget_local()  # as another process would: the shared cache is asked
        screen.forget_snapshots()
        for i, url in enumerate(play_urls):
            ms, status = request(url, {"v": shown[i] or "x", "s": f"{table.pk}.{i}"})
            assert status == 200, status
            drawn.append(ms)
            ms, status = request(url, {"v": current_version(table), "s": f"{table.pk}.{i}"})
            idle.append(ms) if status == 204 else None
            ms, status = request(clock_url)
            bare.append(ms)
            requests += 3
    sockets = len(opened) - sockets0
    server_new = received() - server0

    def figures(values):
        values = sorted(values)
        return f"median {statistics.median(values):.2f} ms, p95 {values[int(0.95 * (len(values) - 1))]:.2f} ms"

    ratio = statistics.median(drawn) / statistics.median(bare)
    print(f"seat polls of a Trumpet table of 4, {len(drawn) // 4} moves, CPU in this process")
    print(f"bare request (clock poll from the cache): {figures(bare)} ({len(bare)})")
    print(f"poll, nothing new (204):                  {figures(idle)} ({len(idle)})")
    print(f"poll that draws a new screen:             {figures(drawn)} ({len(drawn)})")
    print(f"new screen / bare: {ratio:.1f}× (target ≤ 3×: {'met' if ratio <= 3 else 'NOT met'})")
    print(f"a move's POST with its new screen:        {figures(posts)} ({len(posts)})")
    print(f"the push's redraw of its 4 streams:       {figures(pushes)} ({len(pushes)})")
    print(
        f"new Redis connections: {sockets} opened by this process in {requests} requests "
        f"({sockets / requests:.2f} per request); the server counted {server_new} "
        "(everyone on it)"
    )
    print(f"load average {os.getloadavg()[0]:.1f}")
    cache.clear()
    return 0


def current_version(table) -> str:
    from tournaments.play import screen

    return screen.table_version(table.pk) or ""


if __name__ == "__main__":
    sys.exit(main())
