"""The phones model of ``bench_live.py``: a room of phones on the round's
clock for two consecutive passes, each phone polling its seat's clock every
3 s — or, with push, every digital player's phone holding its push stream
instead (the page polls nothing while its stream is open) while the organizer
pauses and resumes the round; then what 1,000 idle streams cost the server.

A pass is judged by the clock polls (p95 and share served, as ``loadgen``
measures them) and, with push, by the streams: all still open at the end of
the pass, and the time from each clock change's commit to its event on every
stream (p50/p95/max).
"""

from __future__ import annotations

import asyncio
import os
import re
import threading
import time
from pathlib import Path

from tests.bench import loadgen

POLL_PERIOD = 3.0
#: seconds between the organizer's clock changes during a pass with push
CHANGE_EVERY = 20.0


class Streams:
    """Phones holding their push streams, in an event loop of their own."""

    def __init__(self, port: int, paths: list[str], headers: dict):
        self.port, self.paths, self.headers = port, paths, headers
        self.open = 0
        self.failed = 0
        self.arrivals: list[list[float]] = [[] for _ in paths]
        self.stop = threading.Event()
        self.thread = threading.Thread(target=lambda: asyncio.run(self._main()), daemon=True)

    def start(self, wait: float = 60.0) -> None:
        self.thread.start()
        end = time.monotonic() + wait
        while self.open + self.failed < len(self.paths) and time.monotonic() < end:
            time.sleep(0.2)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(15)

    async def _main(self):
        await asyncio.gather(*(self._hold(i, path) for i, path in enumerate(self.paths)))

    async def _hold(self, index: int, path: str):
        lines = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{self.port}"]
        lines += [f"{k}: {v}" for k, v in self.headers.items()]
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", self.port), 30
            )
            writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30)
        except (OSError, TimeoutError, asyncio.IncompleteReadError):
            self.failed += 1
            return
        if head[9:12] != b"200":
            self.failed += 1
            writer.close()
            return
        self.open += 1
        try:
            while not self.stop.is_set():
                try:
                    data = await asyncio.wait_for(reader.read(65536), 0.5)
                except TimeoutError:
                    continue
                if not data:
                    break
                now = time.time()
                self.arrivals[index] += [now] * data.count(b"event: clock")
        except OSError:
            pass
        finally:
            self.open -= 1
            writer.close()


def server_processes(pid: int) -> list[int]:
    out = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(name) == pid or int(fields[1]) == pid:
            out.append(int(name))
    return out


def rss_and_threads(pid: int) -> tuple[int, int]:
    """Resident memory (bytes) and threads of the server and its workers."""
    rss = threads = 0
    for p in server_processes(pid):
        try:
            text = Path(f"/proc/{p}/status").read_text()
        except OSError:
            continue
        rss += int(re.search(r"VmRSS:\s+(\d+)", text).group(1)) * 1024
        threads += int(re.search(r"Threads:\s+(\d+)", text).group(1))
    return rss, threads


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))] if values else float("nan")


def run(*, port, pid, clock_paths, stream_paths, headers, seconds, rnd, owner, table_reads):
    """Two passes; then, with streams, the idle cost of 1,000 of them.
    ``table_reads()``: the scans of the site's tables so far (PostgreSQL's
    statistics)."""
    from tournaments.services import round_life

    push = bool(stream_paths)
    pollers = clock_paths[len(stream_paths) :] if push else clock_paths
    ok = True
    streams = None
    if push:
        streams = Streams(port, stream_paths, headers)
        streams.start()
        print(f"-- {streams.open} of {len(stream_paths)} push streams open")
    for number in (1, 2):
        changes: list[float] = []
        stop = threading.Event()

        def organizer(stop=stop, changes=changes):
            paused = False
            while not stop.wait(CHANGE_EVERY):
                rnd.refresh_from_db()
                if paused:
                    round_life.round_resume(round=rnd, by=owner)
                else:
                    round_life.round_pause(round=rnd, by=owner)
                paused = not paused
                changes.append(time.time())
            if paused:
                round_life.round_resume(round=rnd, by=owner)

        changer = threading.Thread(target=organizer, daemon=True) if push else None
        if changer:
            changer.start()
        kinds = [loadgen.Kind("clock poll", pollers)]
        result = loadgen.run(
            kinds, port=port, seconds=seconds, period=POLL_PERIOD, headers=headers, server_pid=pid
        )
        stop.set()
        if changer:
            changer.join(30)
            time.sleep(2)  # a change made as the pass ended reaches the streams
        title = f"pass {number}: {len(pollers)} phones poll the clock every {POLL_PERIOD:.0f} s"
        if push:
            title += f", {len(stream_paths)} hold their push stream"
        loadgen.show(f"{title}, {seconds:.0f} s; load average {os.getloadavg()[0]:.1f}", result)
        k = result["kinds"][0]
        good = k["p95"] <= 200 and k["served"] >= 1.0
        if push:
            delays, lost = [], 0
            for arrivals in streams.arrivals:
                for at in changes:
                    later = [a for a in arrivals if a >= at - 0.05]
                    if later:
                        delays.append(max(0.0, min(later) - at))
                    else:
                        lost += 1
            for arrivals in streams.arrivals:
                arrivals.clear()
            print(
                f"   push: {streams.open} of {len(stream_paths)} streams open at the end; "
                f"{len(changes)} clock changes → every stream: {len(delays)} delivered, "
                f"{lost} not; p50 {pct(delays, 0.5) * 1000:.0f} ms, "
                f"p95 {pct(delays, 0.95) * 1000:.0f} ms, max {max(delays or [0]) * 1000:.0f} ms"
            )
            good = good and streams.open == len(stream_paths) and lost == 0
        print(f"   pass {number}: {'ok' if good else 'NOT MET'} (p95 ≤ 200 ms, 100 % served)")
        ok = ok and good
    if streams:
        streams.close()
        idle_cost(port, pid, stream_paths, headers, table_reads)
    return ok


def idle_cost(port, pid, stream_paths, headers, table_reads, count=1000, idle=20.0):
    """1,000 open streams and nothing happening: the server's memory and
    threads before and after, and the reads of the site's tables meanwhile."""
    time.sleep(2)
    rss0, threads0 = rss_and_threads(pid)
    paths = [stream_paths[i % len(stream_paths)] for i in range(count)]
    streams = Streams(port, paths, headers)
    streams.start()
    # every new stream's first screen is drawn (that reads the tables), and
    # PostgreSQL counts a connection's reads up to 10 s late: wait that out
    time.sleep(15)
    rss1, threads1 = rss_and_threads(pid)
    reads0 = table_reads()
    time.sleep(idle)
    reads1 = table_reads()
    rss2, threads2 = rss_and_threads(pid)
    print(
        f"-- {streams.open} idle push streams ({streams.failed} refused): server memory "
        f"{rss0 / 2**20:.0f} → {rss2 / 2**20:.0f} MB = {(rss2 - rss0) / max(1, streams.open) / 1024:.1f} "
        f"KB per stream; threads {threads0} → {threads1} → {threads2}; "
        f"{reads1 - reads0} reads of the site's tables in {idle:.0f} s of quiet"
    )
    streams.close()
