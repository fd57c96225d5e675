"""Idle and slow connections, and a runaway request:
``python tests/bench/bench_idle.py [--make-run] [--command "..."]``.

The production configuration by default — the web server as
``docker/Dockerfile`` starts it (its CMD), PostgreSQL, Redis, DEBUG off — on
loopback, in a database of its own (``tl_bench_idle``, dropped at the end)
and Redis database 4 (flushed at the start and the end). ``--make-run``: the
server ``make run`` starts instead (runall's command and environment, SQLite).
``--command``: any other server command line (``{port}`` is replaced), e.g.
the gunicorn of before, to compare.

Prints a page's usual time (the median of 15 requests, each on a new
connection, as a phone opening a page), then the time of the next page with
8, 16, 100 and 1,000 connections open that send nothing, and with 100
slow-loris connections that send one header byte every 2 s. The target:
within the usual time plus 50 ms. Then, with the test-only runaway pages
(``tests/slowserver``) and a budget of ``RUNAWAY_BUDGET`` seconds: how long
the runaway took and what it answered, and the slowest of 40 other pages
asked meanwhile. Bounded: each wait is at most 30 s.

Needs PostgreSQL and Redis for the production configuration:
``BENCH_POSTGRES`` (default postgres://postgres@127.0.0.1:5432/postgres) and
``BENCH_REDIS`` (default redis://127.0.0.1:6379/4).
"""

from __future__ import annotations

import argparse
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests import serverproc  # noqa: E402

DB_NAME = "tl_bench_idle"
RUNAWAY_BUDGET = 3.0
TARGET_MS = 50
WAIT = 30.0


def measure_idle(port: int) -> bool:
    usual = serverproc.page_time(port, "/", times=15, timeout=WAIT)
    print(f"   usual page time: {usual * 1000:.1f} ms (median of 15)")
    ok = True
    cases = [(f"{n} idle connections", serverproc.idle_connections, n) for n in (8, 16, 100, 1000)]
    cases.append(("100 slow-loris connections", serverproc.slow_connections, 100))
    for title, opened, count in cases:
        try:
            with opened(port, count):
                first = serverproc.get(port, "/", timeout=WAIT)
                more = [
                    serverproc.get(port, "/", timeout=WAIT) for _ in range(4 if first[0] else 0)
                ]
        except OSError as exc:
            print(f"   {title}: could not open them ({exc})")
            ok = False
            continue
        status, _, took = first
        median = statistics.median(t for _, _, t in [first, *more])
        limit = usual + TARGET_MS / 1000
        good = status == 200 and took <= limit and median <= limit
        ok = ok and good
        answer = f"{status}" if status else f"nothing within {WAIT:.0f} s"
        print(
            f"   {title}: next page {answer} in {took * 1000:.1f} ms, median of 5 "
            f"{median * 1000:.1f} ms (target ≤ {usual * 1000 + TARGET_MS:.1f}) — "
            f"{'ok' if good else 'NOT MET'}"
        )
        time.sleep(1)
    return ok


def measure_runaway(cmd: list[str], env: dict, port: int, log: Path) -> bool:
    from tests.tournaments.test_request_budget import runaway_alongside_others

    env = env | {
        "REQUEST_TIME_BUDGET": str(RUNAWAY_BUDGET),
        "DJANGO_SETTINGS_MODULE": "tests.slowserver.settings",
    }
    with serverproc.running(cmd, env, port, log):
        usual = serverproc.page_time(port, "/", times=5, timeout=WAIT)
        result = runaway_alongside_others(port, RUNAWAY_BUDGET)
    ok = True
    for page, (status, _, took) in result["runaways"].items():
        good = status == 503 and took <= RUNAWAY_BUDGET + 3
        ok = ok and good
        print(
            f"   runaway {page}: answered {status or 'nothing'} after {took:.2f} s "
            f"(budget {RUNAWAY_BUDGET:g} s) — {'ok' if good else 'NOT MET'}"
        )
    others = result["others"]
    served = sum(1 for s, _, _ in others if s == 200)
    slowest = max((t for _, _, t in others), default=float("nan"))
    median = statistics.median(t for _, _, t in others) if others else float("nan")
    good = served == len(others) == 40 and slowest < usual + 1
    ok = ok and good
    print(
        f"   meanwhile: {served} of {len(others)} other pages answered, median "
        f"{median * 1000:.1f} ms, slowest {slowest * 1000:.1f} ms (usual {usual * 1000:.1f} ms)"
        f" — {'ok' if good else 'NOT MET'}"
    )
    return ok


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--make-run", action="store_true", help="make run's server, SQLite")
    parser.add_argument("--command", help="another server command line ({port} is replaced)")
    args = parser.parse_args()
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournaments.settings")
    from tournaments.serve import _more_open_files

    _more_open_files()  # this process holds a thousand connections too
    tmp = tempfile.TemporaryDirectory(prefix="tl-bench-idle-")
    var = Path(tmp.name)
    cleanup = []
    ok = True
    try:
        if args.make_run:
            from tournaments.management.commands.runall import laptop_env

            env = laptop_env(serverproc.base_env(var))
            title = "make run's server (runall), SQLite"
        else:
            import psycopg
            import redis

            server_url = os.environ.get(
                "BENCH_POSTGRES", "postgres://postgres@127.0.0.1:5432/postgres"
            )
            redis_url = os.environ.get("BENCH_REDIS", "redis://127.0.0.1:6379/4")
            try:
                with psycopg.connect(server_url, autocommit=True, connect_timeout=3) as conn:
                    conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
                    conn.execute(f"CREATE DATABASE {DB_NAME}")
                redis.Redis.from_url(redis_url, socket_connect_timeout=3).flushdb()
            except (psycopg.Error, redis.RedisError) as exc:
                print(f"bench_idle not run: needs PostgreSQL and Redis ({exc})")
                return 0

            def drop():
                with psycopg.connect(server_url, autocommit=True) as conn:
                    conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
                redis.Redis.from_url(redis_url).flushdb()

            cleanup.append(drop)
            env = serverproc.base_env(
                var,
                DATABASE_URL=urlparse(server_url)._replace(path=f"/{DB_NAME}").geturl(),
                REDIS_URL=redis_url,
                DEBUG="0",
                SECRET_KEY="bench-idle-secret-key-not-for-production",
                ALLOWED_HOSTS="127.0.0.1",
                SECURE_SSL_REDIRECT="0",
                LOG_LEVEL="WARNING",
            )
            title = "docker/Dockerfile's server, PostgreSQL + Redis"
        for step in (["migrate", "--noinput"], ["collectstatic", "--noinput"]):
            subprocess.run(
                [sys.executable, "manage.py", *step, "-v", "0"], cwd=ROOT, env=env, check=True
            )
        port = serverproc.free_port()
        if args.command:
            cmd = shlex.split(args.command.replace("{port}", str(port)))
        elif args.make_run:
            from tournaments.management.commands.runall import web_command

            cmd = web_command(f"127.0.0.1:{port}")
        else:
            cmd = serverproc.docker_web_command(port)
        print(f"-- {title}: {shlex.join(cmd[1:])}")
        with serverproc.running(cmd, env, port, var / "web.log"):
            ok = measure_idle(port) and ok
        ok = measure_runaway(cmd, env, port, var / "runaway.log") and ok
    finally:
        for step in cleanup:
            step()
        tmp.cleanup()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
