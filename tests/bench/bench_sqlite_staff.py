"""Staff writing at once on the embedded default:
``python tests/bench/bench_sqlite_staff.py [--seconds 120] [--sessions 8]``.

What ``make run`` runs — ``manage.py runall``: its web server, a Celery
worker and beat on SQLite and the filesystem broker — in a temporary
``var/`` on 127.0.0.1 (ports 18550–18559). Ten digital Trumpet tables of
four bot seats play (woken through the broker, the bot's shipped pause;
``--pause`` changes it) while eight scorekeepers, each logged in on its own
session, write as fast as the server answers for two minutes: check in /
undo check-ins (the players page's htmx row), first results, corrections
(preview, then save with a reason). ``tests/staff_load.py`` drives them.

Prints: the answers 5xx (target 0) and otherwise unexpected, the writes
acknowledged and whether each is stored exactly once (lost, duplicated,
failed but stored anyway), p50/p95/max of the storing requests, the bot
moves played (every move number once per table) and the "database is
locked" lines in the server's and the worker's log. Exit 1 on any error,
lost or duplicated write.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests import serverproc, staff_load  # noqa: E402

PORTS = range(18550, 18560)


def free_port() -> int:
    return serverproc.free_port(PORTS)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--bot-tables", type=int, default=10)
    parser.add_argument("--pause", type=float, default=None, help="the bot's pause (s)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary var/")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="tl-bench-sqlite-"))
    extra = {} if args.pause is None else {"TURNIERLEITER_BOT_DELAY": str(args.pause)}
    env = staff_load.sqlite_env(tmp, **extra)
    plan = staff_load.prepare(env, sessions=args.sessions, bot_tables=args.bot_tables)
    port = free_port()
    log = tmp / "runall.log"
    runall = [sys.executable, "manage.py", "runall", f"127.0.0.1:{port}"]
    with serverproc.running(runall, env, port, log, path="/accounts/login/"):
        before = staff_load.verify(env, plan)["bots"]
        start = time.monotonic()
        staff = staff_load.run_staff(port, plan, args.seconds)
        elapsed = time.monotonic() - start
        after = staff_load.verify(env, plan)["bots"]
    stored = staff_load.verify(env, plan)
    result = staff_load.compare(staff, stored)
    text = log.read_text(errors="replace")
    locked = text.count("database is locked")
    failed_tasks: dict[str, int] = {}
    for name in re.findall(r"Task (clock\.\w+|\S+)\[[^\]]*\] raised unexpected", text):
        failed_tasks[name] = failed_tasks.get(name, 0) + 1
    server_errors = len(re.findall(r"Internal Server Error", text))

    print(
        f"{result['sessions']} staff sessions for {elapsed:.0f} s beside "
        f"{args.bot_tables} digital tables of bots, make run's server on SQLite"
    )
    print(
        f"requests {result['requests']}, writes {result['writes']} "
        f"(acknowledged {result['acked']}): 5xx {result['errors_5xx']}, "
        f"unexpected {result['unexpected']}, sessions that died {len(result['fatal'])}"
    )
    print(
        f"stored once: lost {result['lost']}, duplicated {result['duplicated']}, "
        f"answered 5xx but stored {result['failed_but_stored']}"
    )
    print(
        f"writes: p50 {result['p50_ms']:.0f} ms, p95 {result['p95_ms']:.0f} ms, "
        f"max {result['max_ms']:.0f} ms"
    )
    moves = after["moves"] - before["moves"]
    print(
        f"bots: {moves} moves during the load ({moves / elapsed:.1f}/s), "
        f"{after['tables_moving']} tables moving, {after['done']} finished, "
        f"every move stored once: {after['gapless']}; failed tasks {failed_tasks or 0}"
    )
    print(f"log: 'database is locked' {locked}×, 'Internal Server Error' {server_errors}×")
    for line in result["samples"]:
        print("  e.g.", line)
    for line in result["fatal"]:
        print("  session died:", line)
    if args.keep:
        print("kept:", tmp)
    else:
        import shutil

        shutil.rmtree(tmp, ignore_errors=True)
    bad = (
        result["errors_5xx"]
        or result["lost"]
        or result["duplicated"]
        or result["fatal"]
        or failed_tasks
        or not after["gapless"]
    )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
