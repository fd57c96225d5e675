"""Every tap fast: ``python tests/bench/bench_taps.py [--tables 50] [--think 0.3]``.

50 digital Trumpet tables of 4 seats, every seat a player's phone (no bots),
on the production setup (docker/Dockerfile's web server on loopback,
PostgreSQL and Redis: :mod:`tests.bench.prodserver`). Each phone opens its
seat page (its cookie and form token), holds its push stream, and when the
stream shows it a move to make it waits ``--think`` seconds and sends the
first move offered, as the page's form does (htmx POST). The clock of a move
starts when the phone **sends** it and stops when each other seat's stream
shows it (an event whose version counts more moves).

Prints: moves per second over the run; send → other seats' events: median,
p95, max, with how many sightings were never seen; the move POST's own time
(send → answer); errors; the load average at the start and the end.

Bounded: ``--seconds`` (default 60) of play, then every phone stops.
"""

from __future__ import annotations

import argparse
import asyncio
import html
import os
import re
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.prodserver import Production  # noqa: E402

GAME = "trumpet"
SEATS = 4
BUTTON = re.compile(r'<button[^>]*name="action"[^>]*value="([^"]*)"')
HIDDEN = re.compile(r'<input type="hidden" name="(seen|s|csrfmiddlewaretoken)" value="([^"]*)"')


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, max(0, int(round(q * len(values))) - 1))]


def build(tables: int):
    """A tournament of ``tables`` digital tables of SEATS people, round 1
    published; the seat links by table."""
    from django.contrib.auth import get_user_model

    from tests.seat_tokens import token_for
    from tournaments import services
    from tournaments.models import Round, Seat, Table

    user = get_user_model().objects.create_user("bench-taps", password="x")
    tournament = services.tournament_create(owner=user, name="Taps", game=GAME, digital_tables=True)
    rnd = Round.objects.create(tournament=tournament, number=1, minutes=60, published=True)
    made = Table.objects.bulk_create(
        Table(round=rnd, number=n, digital=True, secret=f"{7000 + n:064x}")
        for n in range(1, tables + 1)
    )
    players = [
        services.player_add(tournament=tournament, by=user, name=f"P{i:03}")
        for i in range(tables * SEATS)
    ]
    Seat.objects.bulk_create(
        Seat(table=t, player=players[i * SEATS + pos], position=pos)
        for i, t in enumerate(made)
        for pos in range(SEATS)
    )
    tokens = {t.pk: [token_for(t, pos) for pos in range(SEATS)] for t in made}
    return user, rnd, tokens


class Room:
    """What every phone saw and sent."""

    def __init__(self):
        self.sent: dict[tuple[int, int], float] = {}  # (table, moves before) -> send time
        self.posts: list[float] = []  # send -> answer of each move
        self.seen: dict[tuple[int, int], list[tuple[int, float]]] = {}  # (table, seat)
        self.errors: list[str] = []
        self.open = 0


async def phone(room: Room, port: int, table: int, seat: int, token: str, args, stop):
    import httpx

    base = f"http://127.0.0.1:{port}"
    headers = {"X-Forwarded-Proto": "https", "Origin": f"https://127.0.0.1:{port}"}
    async with httpx.AsyncClient(base_url=base, headers=headers, timeout=30) as client:
        page = await client.get(f"/p/{token}/")
        if page.status_code != 200:
            room.errors.append(f"page {page.status_code}")
            return
        fields = dict(HIDDEN.findall(page.text))
        # the site's cookies are Secure (behind its TLS proxy): the client
        # would keep them off plain loopback, so the phone sends them itself
        client.headers["Cookie"] = "; ".join(f"{c.name}={c.value}" for c in client.cookies.jar)
        client.cookies.clear()
        referer = f"https://127.0.0.1:{port}/p/{token}/"
        acted = -1
        pending: asyncio.Task | None = None

        async def move(count: int, action: str, form: dict):
            await asyncio.sleep(args.think)
            data = {"action": action, **form}
            t0 = time.time()
            room.sent[(table, count)] = t0
            r = await client.post(
                f"/p/{token}/move/",
                data=data,
                headers={"HX-Request": "true", "Referer": referer},
            )
            room.posts.append(time.time() - t0)
            if r.status_code != 200:
                room.errors.append(f"move {r.status_code}")

        url = f"/p/{token}/stream/?s={fields.get('s', '')}"
        try:
            async with client.stream("GET", url, timeout=None) as stream:
                if stream.status_code != 200:
                    room.errors.append(f"stream {stream.status_code}")
                    return
                room.open += 1
                event, event_id, data = "", "", []
                async for line in stream.aiter_lines():
                    if stop.is_set():
                        break
                    if line.startswith("event:"):
                        event = line[6:].strip()
                    elif line.startswith("id:"):
                        event_id = line[3:].strip()
                    elif line.startswith("data:"):
                        data.append(line[5:].removeprefix(" "))
                    elif line == "":
                        now = time.time()
                        text = "\n".join(data)
                        data = []
                        if event_id and event_id.split(".")[0].isdigit():
                            count = int(event_id.split(".")[0])
                            room.seen.setdefault((table, seat), []).append((count, now))
                        else:
                            count = None
                        if event == "reload":
                            room.errors.append("reload")
                            return
                        buttons = BUTTON.findall(text)
                        if count is not None and buttons and count > acted:
                            form = fields | dict(HIDDEN.findall(text))
                            acted = count
                            pending = asyncio.ensure_future(
                                move(count, html.unescape(buttons[0]), form)
                            )
        except (httpx.HTTPError, OSError) as exc:
            if not stop.is_set():
                room.errors.append(type(exc).__name__)
        finally:
            if pending is not None and not pending.done():
                pending.cancel()


async def run_room(port: int, tokens: dict, args, start_round) -> tuple[Room, float, float]:
    import threading

    room = Room()
    stop = threading.Event()
    tasks = [
        asyncio.ensure_future(phone(room, port, table, seat, token, args, stop))
        for table, seat_tokens in tokens.items()
        for seat, token in enumerate(seat_tokens)
    ]
    end = time.monotonic() + 60
    while room.open < len(tasks) and time.monotonic() < end:
        await asyncio.sleep(0.2)
    await asyncio.sleep(1)
    t0 = time.time()
    await asyncio.get_running_loop().run_in_executor(None, start_round)
    await asyncio.sleep(args.seconds)
    played = time.time() - t0
    stop.set()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return room, t0, played


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--think", type=float, default=0.3, help="a player's pause (s)")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--workers", default=None, help="web processes (Dockerfile's: 2)")
    args = parser.parse_args()

    prod = Production("bench_taps", redis_url="redis://127.0.0.1:6379/12")
    if not prod.setup():
        return 0
    try:
        from django.db import connection

        from tests.serverproc import docker_web_command, free_port
        from tournaments.models import TableAction

        try:
            from tournaments.services.round_life import round_start
        except ImportError:  # the code before the round's life had one module
            from tournaments.services.clock import round_start

        user, rnd, tokens = build(args.tables)
        connection.close()
        port = free_port()
        prod.start(docker_web_command(port, workers=args.workers), port)
        load0 = os.getloadavg()

        def start_round():
            round_start(round=rnd, by=user)
            connection.close()

        room, t0, played = asyncio.run(run_room(port, tokens, args, start_round))
        load1 = os.getloadavg()
        actions = list(
            TableAction.objects.filter(table__round=rnd).values_list("table_id", "number", "seat")
        )
        delays, missed = [], 0
        for table_id, number, seat in actions:
            sent = room.sent.get((table_id, number))
            if sent is None:
                continue
            for other in range(SEATS):
                if other == seat:
                    continue
                first = next(
                    (w for c, w in room.seen.get((table_id, other), []) if c > number), None
                )
                if first is None:
                    missed += 1
                else:
                    delays.append(first - sent)
        print(
            f"{args.tables} tables × {SEATS} phones ({GAME}), think {args.think} s, "
            f"{played:.0f} s; streams open {room.open}/{args.tables * SEATS}"
        )
        print(f"moves: {len(actions)} = {len(actions) / played:.1f} moves/s")
        if delays:
            print(
                f"send → other seats' events ({len(delays)} sightings, {missed} not seen): "
                f"median {statistics.median(delays) * 1000:.0f} ms, "
                f"p95 {pct(delays, 0.95) * 1000:.0f} ms, max {max(delays) * 1000:.0f} ms"
            )
        if room.posts:
            print(
                f"move POST send → answer: median {statistics.median(room.posts) * 1000:.0f} ms, "
                f"p95 {pct(room.posts, 0.95) * 1000:.0f} ms"
            )
        errors = {e: room.errors.count(e) for e in set(room.errors)}
        print(f"errors: {errors or 0}")
        print(
            f"load average {load0[0]:.1f} at the start, "
            f"{load1[0]:.1f} / {load1[1]:.1f} / {load1[2]:.1f} (1/5/15 min) at the end"
        )
    finally:
        prod.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
