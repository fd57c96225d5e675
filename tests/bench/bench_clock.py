"""Clock benchmark: ``python tests/bench/bench_clock.py``.

200 rounds whose deadlines are spread over 20 seconds, closed by ONE Celery
worker from the tasks scheduled for their deadlines (no beat: the sweep would
hide a late task). Prints the lateness of each close — the database's
``time_called_at`` minus the round's deadline — as median, p99 and max.
Target: p99 ≤ 1 s.

Needs PostgreSQL and Redis: ``DATABASE_URL`` (default
postgres://postgres@127.0.0.1:5432/postgres — only the server is used; the
benchmark creates and uses its own database ``bench_clock``) and ``REDIS_URL``
(default redis://127.0.0.1:6379/15; a queue of its own, removed afterwards).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

ROUNDS = 200
SPREAD_S = 20
FIRST_S = 3  # the first deadline, seconds after the start
TARGET_S = 1.0
DB_NAME = "bench_clock"


def database_url() -> str:
    server = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/postgres")
    parts = urlsplit(server)
    if not parts.scheme.startswith("postgres"):
        sys.exit("bench_clock needs PostgreSQL: set DATABASE_URL=postgres://...")
    import psycopg

    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [DB_NAME]).fetchone()
        if not exists:
            conn.execute(f'CREATE DATABASE "{DB_NAME}"')
    return urlunsplit(parts._replace(path="/" + DB_NAME))


def start_worker(env: dict, log: Path) -> subprocess.Popen:
    cmd = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "tournaments.celery",
        "worker",
        "-Q",
        env["TURNIERLEITER_CLOCK_QUEUE"],
        "--concurrency=2",
        "-n",
        f"{env['TURNIERLEITER_CLOCK_QUEUE']}@%h",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
        "--loglevel=WARNING",
        "-f",
        str(log),
    ]
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    # ready when the worker answers a ping on its own name
    from tournaments.celery import app

    end = time.monotonic() + 30
    while time.monotonic() < end:
        if proc.poll() is not None:
            sys.exit(f"the worker exited; see {log}")
        replies = app.control.ping(
            destination=[f"{env['TURNIERLEITER_CLOCK_QUEUE']}@{os.uname().nodename}"], timeout=0.5
        )
        if replies:
            return proc
    proc.kill()
    sys.exit("the worker did not start in 30 s")


def main():
    queue = f"bench-clock-{os.getpid()}"
    os.environ["DATABASE_URL"] = database_url()
    os.environ.setdefault("REDIS_URL", "redis://127.0.0.1:6379/15")
    os.environ.pop("CELERY_BROKER_URL", None)
    os.environ["TURNIERLEITER_CLOCK_QUEUE"] = queue
    os.environ["CONN_MAX_AGE"] = "0"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournaments.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from tournaments import services
    from tournaments.models import Round, Table, Tournament
    from tournaments.services import clock, round_life

    call_command("migrate", verbosity=0)
    user, _ = get_user_model().objects.get_or_create(username="bench-clock")
    Tournament.objects.filter(owner=user).delete()
    tournament = services.tournament_create(owner=user, name="bench clock", game="quartett")
    # 200 rounds run at once: a round otherwise waits for the one before it
    Tournament.objects.filter(pk=tournament.pk).update(rounds_side_by_side=True)
    rounds = Round.objects.bulk_create(
        Round(tournament=tournament, number=n, published=True) for n in range(1, ROUNDS + 1)
    )
    Table.objects.bulk_create(Table(round=r, number=1) for r in rounds)

    log = Path(os.environ.get("TMPDIR", "/tmp")) / f"{queue}.log"
    worker = start_worker(dict(os.environ), log)
    try:
        t0 = time.monotonic()
        for i, rnd in enumerate(rounds):
            # whole seconds from each start; the starts themselves spread the
            # deadlines below the second
            seconds = FIRST_S + (i * SPREAD_S) // ROUNDS
            round_life.round_start(round=rnd, by=user, seconds=seconds)
        started = time.monotonic() - t0
        deadlines = list(
            Round.objects.filter(tournament=tournament).values_list("deadline", flat=True)
        )
        spread = (max(deadlines) - min(deadlines)).total_seconds()
        print(
            f"{ROUNDS} rounds started in {started:.1f} s; deadlines spread over {spread:.1f} s; "
            "one worker (concurrency 2), no beat"
        )
        last = max(deadlines)
        while (
            clock.db_now() < last
            or Round.objects.filter(tournament=tournament, status=Round.RUNNING).exists()
        ):
            if (clock.db_now() - last).total_seconds() > 15:
                break
            time.sleep(0.2)
    finally:
        worker.terminate()
        try:
            worker.wait(timeout=15)
        except subprocess.TimeoutExpired:
            worker.kill()
        import redis

        r = redis.Redis.from_url(os.environ["REDIS_URL"])
        for key in r.scan_iter(f"*{queue}*"):
            r.delete(key)

    rows = list(
        Round.objects.filter(tournament=tournament).values_list(
            "deadline", "time_called_at", "status"
        )
    )
    open_ = [row for row in rows if row[1] is None]
    late = sorted((called - deadline).total_seconds() for deadline, called, _ in rows if called)
    if not late:
        sys.exit("no round was closed")
    p99 = late[min(len(late) - 1, int(round(0.99 * len(late))) - 1)]
    ok = "ok" if p99 <= TARGET_S and not open_ else "OVER TARGET"
    print(
        f"lateness of {len(late)} closes: median {statistics.median(late) * 1000:.0f} ms, "
        f"p99 {p99 * 1000:.0f} ms, max {late[-1] * 1000:.0f} ms, min {late[0] * 1000:.0f} ms "
        f"(target p99 ≤ {TARGET_S * 1000:.0f} ms: {ok}); not closed: {len(open_)}"
    )
    Tournament.objects.filter(owner=user).delete()


if __name__ == "__main__":
    main()
