"""Live pages at scale: ``python tests/bench/bench_live.py``.

The production configuration — the web server as ``docker/Dockerfile`` starts it,
PostgreSQL, Redis (cache), DEBUG off — on loopback ports 18430-18439, with an
event of 1,100 players, 250 tables (75 of them digital) and the round
running, in a database of its own (``tl_bench_live``, dropped at the end) and
Redis database 3 (flushed at the start and the end).

1×: 1,000 phones ask for their seat's clock partial once a second and 300
digital players their seat's play poll ("anything new?"); 2×: twice as many.
Targets: clock p95 ≤ 200 ms with ≥ 99 % served, seat p95 ≤ 300 ms, and at 2×
the answers per second must not fall below those at 1× (no collapse).
Bounded: about 15 s of load per phase.

``--broadcast N``: N push streams on the digital seats while the organizer
pauses and resumes the round and moves are made during the broadcasts
(``tests/bench/broadcast.py``; its own database ``tl_bench_broadcast``).

``--phones N`` runs the phones model instead (``tests/bench/phones.py``): N
phones on the clock, each polling its seat's clock every 3 s, in two
consecutive passes of ``--pass-seconds`` (120) each; target p95 ≤ 200 ms and
100 % served in both. ``--push``: the digital players' phones (300) hold
their push stream instead of polling while the organizer pauses and resumes
the round every 20 s (each change's time to every stream is printed), and
afterwards 1,000 idle streams are opened to measure what each costs.

Needs PostgreSQL and Redis: ``BENCH_POSTGRES`` (default
postgres://postgres@127.0.0.1:5432/postgres) and ``BENCH_REDIS`` (default
redis://127.0.0.1:6379/3). ``WEB_WORKERS`` / ``WEB_THREADS`` override the
server's processes and each one's request threads to compare configurations;
``BENCH_PORT`` the server's port on 127.0.0.1.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench import loadgen  # noqa: E402
from tests.bench.bench_venue import free_port  # noqa: E402
from tests.bench.prodserver import Production  # noqa: E402

SECONDS = int(os.environ.get("BENCH_SECONDS", "15"))
WARM_SECONDS = 15
CLOCK_P95_MS, SEAT_P95_MS, SERVED = 200, 300, 0.99


def server_command(port: int) -> list[str]:
    """docker/Dockerfile's web server command line, on loopback (its CMD), so
    the bench measures exactly the production configuration."""
    from tests.serverproc import docker_web_command

    return docker_web_command(port, workers=os.environ.get("WEB_WORKERS"))


def main() -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=0, help="the phones model, N phones")
    parser.add_argument("--push", action="store_true", help="digital players hold push streams")
    parser.add_argument("--pass-seconds", type=float, default=120.0)
    parser.add_argument(
        "--broadcast", type=int, default=0, help="N push streams, pauses and resumes"
    )
    args = parser.parse_args()

    name = "bench_broadcast" if args.broadcast else "bench_live"
    prod = Production(name, redis_url="redis://127.0.0.1:6379/3")
    if not prod.setup():
        return 0
    ok = True
    try:
        from django.db import connection

        from tests.bench.event import build
        from tournaments.play import screen as play
        from tournaments.play.links import resolve_seat

        event = build(players=1100, rounds=2, tables=250, digital=75)
        versions = {}
        seat_paths = []
        for url in event.seat_play_urls:
            table_id = resolve_seat(url.split("/")[2]).seat.table_id
            if table_id not in versions:
                versions[table_id] = play.table_version(table_id)
            seat_paths.append(f"{url}?v={versions[table_id]}")
        clock_paths = event.seat_clock_urls[: args.phones or 1000]
        stream_paths = [u.replace("/play/", "/stream/") for u in event.seat_play_urls]
        connection.close()
        port = int(os.environ.get("BENCH_PORT") or 0) or free_port()
        proc = prod.start(server_command(port), port)
        # behind the TLS proxy of production: the proxy says the request was https
        headers = {"X-Forwarded-Proto": "https"}
        import time
        import urllib.request

        for path in (clock_paths[0], seat_paths[0]):
            request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers)
            t0 = time.perf_counter()
            with urllib.request.urlopen(request) as response:
                print(
                    f"   one request {path[:40]}…: {response.status}, "
                    f"{(time.perf_counter() - t0) * 1000:.1f} ms"
                )
        if args.broadcast:
            return 0 if broadcast_model(args, port, clock_paths, stream_paths, headers) else 1
        if args.phones:
            return 0 if phones_model(args, port, proc, clock_paths, stream_paths, headers) else 1
        # phones arrive over a while, not all in the same second: each opens
        # its page once (the first answer of a seat link reads the database)
        warm = loadgen.run(
            [loadgen.Kind("first poll", clock_paths + seat_paths)],
            port=port,
            seconds=WARM_SECONDS,
            period=WARM_SECONDS,
            headers=headers,
            server_pid=proc.pid,
        )
        loadgen.show(f"warm-up: every phone's first poll, spread over {WARM_SECONDS} s", warm)
        phases = {}
        for factor in (1, 2):
            kinds = [
                loadgen.Kind("clock", clock_paths * factor),
                loadgen.Kind("seat poll", seat_paths * factor),
            ]
            result = loadgen.run(
                kinds, port=port, seconds=SECONDS, headers=headers, server_pid=proc.pid
            )
            phases[factor] = {k["kind"]: k for k in result["kinds"]}
            loadgen.show(
                f"{factor}×: {len(clock_paths) * factor} clock phones + "
                f"{len(seat_paths) * factor} digital players, once a second",
                result,
            )
        one, two = phases[1], phases[2]
        checks = [
            ("1× clock p95 ≤ 200 ms", one["clock"]["p95"] <= CLOCK_P95_MS),
            ("1× clock ≥ 99 % served", one["clock"]["served"] >= SERVED),
            ("1× seat p95 ≤ 300 ms", one["seat poll"]["p95"] <= SEAT_P95_MS),
            (
                "2× served throughput ≥ 1×",
                sum(k["rps"] for k in two.values()) >= 0.98 * sum(k["rps"] for k in one.values()),
            ),
        ]
        for name, good in checks:
            ok = ok and good
            print(f"   {name}: {'ok' if good else 'NOT MET'}")
    finally:
        prod.stop()
    return 0 if ok else 1


def broadcast_model(args, port, clock_paths, stream_paths, headers) -> bool:
    from django.contrib.auth import get_user_model

    from tests.bench import broadcast
    from tournaments.models import Round
    from tournaments.play.links import resolve_seat

    rnd = Round.objects.select_related("tournament").filter(status=Round.RUNNING).get()
    owner = get_user_model().objects.get(username="bench-orga")
    stream_tables = [resolve_seat(p.split("/")[2]).seat.table_id for p in stream_paths]
    return broadcast.run(
        port=port,
        stream_paths=stream_paths,
        clock_paths=clock_paths,
        headers=headers,
        count=args.broadcast,
        rnd=rnd,
        owner=owner,
        stream_tables=stream_tables,
    )


def phones_model(args, port, proc, clock_paths, stream_paths, headers) -> bool:
    from django.contrib.auth import get_user_model
    from django.db import connection

    from tests.bench import phones
    from tournaments.models import Round

    # phones arrive over a while, not all in the same second
    warm = loadgen.run(
        [loadgen.Kind("first poll", clock_paths)],
        port=port,
        seconds=WARM_SECONDS,
        period=WARM_SECONDS,
        headers=headers,
        server_pid=proc.pid,
    )
    loadgen.show(f"warm-up: every phone's first poll, spread over {WARM_SECONDS} s", warm)
    rnd = Round.objects.filter(status=Round.RUNNING).get()
    owner = get_user_model().objects.get(username="bench-orga")

    def table_reads() -> int:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT coalesce(sum(coalesce(seq_scan, 0) + coalesce(idx_scan, 0)), 0) "
                "FROM pg_stat_user_tables "
                "WHERE relname LIKE 'tournaments%%' OR relname LIKE 'scoring%%'"
            )
            return cursor.fetchone()[0]

    return phones.run(
        port=port,
        pid=proc.pid,
        clock_paths=clock_paths,
        stream_paths=stream_paths if args.push else [],
        headers=headers,
        seconds=args.pass_seconds,
        rnd=rnd,
        owner=owner,
        table_reads=table_reads,
    )


if __name__ == "__main__":
    sys.exit(main())
