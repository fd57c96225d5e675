"""Venue benchmark: ``python tests/bench/bench_venue.py [--compare]``.

The server ``make run`` starts (``runall``'s web command: uvicorn, with the
environment ``runall`` gives it), on the embedded default (SQLite, the file
cache, DEBUG off as ``make run`` has it)
in a temporary directory, loopback only. An event of 200 players at 50
digital tables, the round running. 200 phones, each asking once a second for
its seat's play poll ("anything new?") and its clock partial — 400 requests
a second, more than the real pages ask (the clock polls every 3 s, the seat
every 1.5 s). Prints p50/p95/p99 and errors per kind. Target: p95 ≤ 100 ms,
no errors. ``--compare`` runs the same load against Django's development
server too. Bounded: about 20 s of load per server; cleans up after itself.
"""

from __future__ import annotations

import http.client
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests import serverproc  # noqa: E402
from tests.bench import loadgen  # noqa: E402

PHONES = 200
SECONDS = 20
TARGET_P95_MS = 100
PORTS = range(18430, 18440)


def free_port() -> int:
    return serverproc.free_port(PORTS)


def wait_for(port: int, proc, path="/") -> None:
    deadline = time.time() + 30
    while time.time() < deadline:
        if proc.poll() is not None:
            raise SystemExit("the server stopped at its start")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", path)
            conn.getresponse().read()
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit("the server did not start")


def main() -> int:
    compare = "--compare" in sys.argv
    with tempfile.TemporaryDirectory(prefix="tl-bench-venue-") as tmp:
        env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("DATABASE_URL", "REDIS_URL", "CACHE_URL")
        } | {"TURNIERLEITER_VAR": tmp, "DJANGO_SETTINGS_MODULE": "tournaments.settings"}
        env.pop("DEBUG", None)  # as make run: off
        from tournaments.management.commands.runall import laptop_env, prepare, web_command

        env = laptop_env(env)
        os.environ.clear()
        os.environ.update(env)
        os.chdir(ROOT)
        import django

        django.setup()
        from django.core.management import call_command

        from tests.bench.event import build
        from tournaments.play import screen as play

        call_command("migrate", "--noinput", verbosity=0)
        prepare(env)
        event = build(players=PHONES, rounds=1, tables=PHONES // 4, digital=PHONES // 4)
        from tournaments.models import Table

        versions = {
            t.pk: play.table_version(t.pk)
            for t in Table.objects.filter(round__tournament_id=event.tournament_id, digital=True)
        }
        from tournaments.play.links import resolve_seat

        def play_path(url: str) -> str:
            token = url.split("/")[2]
            table_id = resolve_seat(token).seat.table_id
            return f"{url}?v={versions[table_id]}"

        seat_paths = [play_path(u) for u in event.seat_play_urls]
        from django.db import connection

        connection.close()
        ok = True
        servers = [("uvicorn (make run)", "uvicorn")]
        if compare:
            servers.append(("Django runserver", "runserver"))
        for title, server in servers:
            port = free_port()
            log = open(Path(tmp) / f"{server}.log", "w")  # noqa: SIM115
            proc = subprocess.Popen(
                web_command(f"127.0.0.1:{port}", server=server),
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
            try:
                wait_for(port, proc)
                kinds = [
                    loadgen.Kind("seat poll", seat_paths),
                    loadgen.Kind("clock", event.seat_clock_urls[:PHONES]),
                ]
                # a phone on the Wi-Fi asks for the laptop's LAN address
                result = loadgen.run(
                    kinds,
                    port=port,
                    seconds=SECONDS,
                    host=f"192.168.1.20:{port}",
                    server_pid=proc.pid,
                )
                loadgen.show(f"{title}: {PHONES} phones, seat + clock once a second", result)
                if server == "uvicorn":
                    for k in result["kinds"]:
                        good = k["p95"] <= TARGET_P95_MS and not k["errors"] and not k["bad"]
                        ok = ok and good
                        print(
                            f"   {k['kind']}: p95 {k['p95']:.1f} ms (target ≤ {TARGET_P95_MS}), "
                            f"errors {k['errors'] + k['bad']} — {'ok' if good else 'OVER TARGET'}"
                        )
            finally:
                proc.terminate()
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    proc.kill()
                log.close()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
