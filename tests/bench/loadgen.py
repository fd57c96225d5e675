"""A small load generator for the live benches: simulated phones, each on its
own HTTP/1.1 keep-alive connection (raw asyncio sockets, no client library),
asking its URL once per ``period`` seconds at its own phase.

Latency is measured from the moment the request was due, so a server that
falls behind is charged for the wait; a phone whose answer is late skips the
requests it missed (they count as not served). ``served`` = good answers /
requests due. Good answers: 200, 204, 286. The generator's own ceiling is its
requests per second of its own CPU time (``ceiling_rps``), measured in the
same run.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field

GOOD = {200, 204, 286}


@dataclass
class Kind:
    """One group of phones: its name and the URL each phone asks."""

    name: str
    paths: list[str]
    latencies: list[float] = field(default_factory=list)
    due: int = 0
    good: int = 0
    bad: int = 0
    errors: int = 0

    def summary(self, seconds: float) -> dict:
        lat = sorted(self.latencies)

        def pct(q):
            return lat[min(len(lat) - 1, int(q * len(lat)))] * 1000 if lat else float("nan")

        return {
            "kind": self.name,
            "phones": len(self.paths),
            "due": self.due,
            "good": self.good,
            "served": self.good / self.due if self.due else 0.0,
            "rps": self.good / seconds,
            "p50": pct(0.50),
            "p95": pct(0.95),
            "p99": pct(0.99),
            "bad": self.bad,
            "errors": self.errors,
        }


def _request(path: str, host: str, headers: dict) -> bytes:
    lines = [f"GET {path} HTTP/1.1", f"Host: {host}", "Connection: keep-alive"]
    lines += [f"{k}: {v}" for k, v in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


async def _read_response(reader: asyncio.StreamReader) -> int:
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head[9:12])
    length = 0
    chunked = False
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        name = name.strip().lower()
        if name == b"content-length":
            length = int(value)
        elif name == b"transfer-encoding" and b"chunked" in value.lower():
            chunked = True
    if chunked:
        while True:
            size = int((await reader.readuntil(b"\r\n")).strip(), 16)
            await reader.readexactly(size + 2)
            if size == 0:
                break
    elif length:
        await reader.readexactly(length)
    return status


async def _phone(kind: Kind, path, address, host, headers, period, start, stop, timeout):
    loop = asyncio.get_running_loop()
    data = _request(path, host, headers)
    reader = writer = None
    due = start + random.random() * period
    while due < stop:
        now = loop.time()
        if due > now:
            await asyncio.sleep(due - now)
        kind.due += 1
        try:
            if writer is None:
                reader, writer = await asyncio.wait_for(asyncio.open_connection(*address), timeout)
            writer.write(data)
            status = await asyncio.wait_for(_read_response(reader), timeout)
        except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError):
            kind.errors += 1
            if writer is not None:
                writer.close()
            reader = writer = None
        else:
            if status in GOOD:
                kind.good += 1
                kind.latencies.append(loop.time() - due)
            else:
                kind.bad += 1
        # the next request when it is due; one that is already past is missed
        due += period
        now = loop.time()
        while due < now:
            kind.due += 1
            due += period
    if writer is not None:
        writer.close()


async def _run(kinds, address, host, headers, seconds, period, timeout):
    loop = asyncio.get_running_loop()
    start = loop.time() + 0.5
    stop = start + seconds
    await asyncio.gather(
        *(
            _phone(kind, path, address, host, headers, period, start, stop, timeout)
            for kind in kinds
            for path in kind.paths
        )
    )


def run(
    kinds: list[Kind],
    *,
    port: int,
    seconds: float,
    period: float = 1.0,
    host: str | None = None,
    headers: dict | None = None,
    timeout: float = 5.0,
    server_pid: int | None = None,
) -> dict:
    """Let the phones poll ``127.0.0.1:port`` for ``seconds``; the figures per
    kind and the generator's own CPU ceiling."""
    cpu0, wall0 = time.process_time(), time.perf_counter()
    server0 = server_cpu_seconds(server_pid) if server_pid else 0.0
    asyncio.run(
        _run(
            kinds,
            ("127.0.0.1", port),
            host or f"127.0.0.1:{port}",
            headers or {},
            seconds,
            period,
            timeout,
        )
    )
    cpu = time.process_time() - cpu0
    wall = time.perf_counter() - wall0
    sent = sum(k.good + k.bad + k.errors for k in kinds)
    extra = {}
    if server_pid:
        used = server_cpu_seconds(server_pid) - server0
        answers = sum(k.good + k.bad for k in kinds)
        extra = {"server_cpu_ms": used / max(1, answers) * 1000, "server_cores": used / wall}
    return extra | {
        "kinds": [k.summary(seconds) for k in kinds],
        "generator_cpu_share": cpu / wall,
        "ceiling_rps": sent / cpu if cpu else float("inf"),
    }


def server_cpu_seconds(pid: int) -> float:
    """CPU seconds used so far by a server process and its direct children
    (gunicorn's workers), from /proc (Linux); 0.0 elsewhere."""
    import os

    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    try:
        names = os.listdir("/proc")
    except OSError:
        return 0.0
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(name) == pid or int(fields[1]) == pid:
            total += (int(fields[11]) + int(fields[12])) / tick
    return total


def show(title: str, result: dict) -> None:
    print(f"-- {title}")
    for k in result["kinds"]:
        print(
            f"   {k['kind']:12s} {k['phones']:5d} phones: {k['rps']:7.1f} answers/s, "
            f"served {k['served'] * 100:5.1f} %, p50 {k['p50']:7.1f} ms, p95 {k['p95']:7.1f} ms, "
            f"p99 {k['p99']:7.1f} ms, bad {k['bad']}, errors {k['errors']}"
        )
    if "server_cpu_ms" in result:
        print(
            f"   server: {result['server_cpu_ms']:.2f} ms CPU per answer "
            f"({result['server_cores']:.2f} cores busy) — the cost a less busy machine pays"
        )
    print(
        f"   generator: {result['generator_cpu_share'] * 100:.0f} % of a core, "
        f"ceiling ≈ {result['ceiling_rps']:.0f} requests/s per core"
    )
