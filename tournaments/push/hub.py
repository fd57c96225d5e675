"""One hub per web process: the open streams, by table, round and link, and
the one subscriber task that hears the cross-process signal
(:mod:`tournaments.bus`) and fans it out to them.

Everything here runs in the server's event loop; an open stream is a
coroutine waiting on an event (a few kilobytes), with no thread and no
query while nothing changes. When a message arrives, the tables and rounds
it names are marked and one flush task redraws them in a push thread
(:func:`tournaments.push.redraw.redraw`): messages that arrive meanwhile
are redrawn together in the next pass, so a burst of moves costs one pass,
and a table's screens never overtake each other.

Each stream ends after :data:`MAX_AGE` seconds (with a little jitter, so
streams opened together do not reconnect together): the browser reconnects
at once and its link is checked again; a revoked link's streams end at once,
and a seat's stream whose link now leads to another seat ends after a
``reload`` event (:mod:`tournaments.push.redraw`).
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from concurrent.futures import ThreadPoolExecutor

from tournaments import bus
from tournaments.push import redraw
from tournaments.push.redraw import Conn

log = logging.getLogger(__name__)

#: seconds between comments on an idle stream (proxies close silent ones)
KEEPALIVE = 25.0
#: seconds a stream lives before the browser is asked to reconnect
MAX_AGE = 600.0
#: seconds the browser waits before it reconnects a stream that ended
RETRY_MS = 1000
#: seconds a flush waits for more messages of the same burst
GATHER = 0.01


class Hub:
    def __init__(self):
        self.by_table: dict[int, set[Conn]] = {}
        self.by_round: dict[int, set[Conn]] = {}
        self.by_token: dict[str, set[Conn]] = {}
        self.dirty_tables: set[int] = set()
        self.dirty_rounds: set[int] = set()
        self.fresh: set[Conn] = set()
        self.listener: asyncio.Task | None = None
        self.flusher: asyncio.Task | None = None
        self.pool = ThreadPoolExecutor(2, thread_name_prefix="push")
        self.loop: asyncio.AbstractEventLoop | None = None

    # -- connections ---------------------------------------------------------------

    def attach(self, conn: Conn) -> None:
        self.loop = asyncio.get_running_loop()
        self.by_table.setdefault(conn.table_id, set()).add(conn)
        self.by_round.setdefault(conn.round_id, set()).add(conn)
        if conn.token:
            self.by_token.setdefault(conn.token, set()).add(conn)
        if self.listener is None or self.listener.done():
            self.listener = self.loop.create_task(bus.listen(self.on_messages, self.resync))
        # a new stream gets the current screen when its page shows an older one
        self.fresh.add(conn)
        self._schedule()

    def detach(self, conn: Conn) -> None:
        conn.closed = True
        self.fresh.discard(conn)
        for index, key in (
            (self.by_table, conn.table_id),
            (self.by_round, conn.round_id),
            (self.by_token, conn.token),
        ):
            members = index.get(key)
            if members is not None:
                members.discard(conn)
                if not members:
                    del index[key]

    def count(self) -> int:
        return sum(len(m) for m in self.by_table.values())

    # -- messages --------------------------------------------------------------------

    def on_messages(self, messages: list[str]) -> None:
        for message in messages:
            kind, _, value = message.partition(":")
            if kind == "k":
                for conn in list(self.by_token.get(value, ())):
                    conn.closed = True
                    self._wake(conn)
                continue
            try:
                number = int(value)
            except ValueError:
                continue
            if kind == "t" and number in self.by_table:
                self.dirty_tables.add(number)
            elif kind == "r" and number in self.by_round:
                self.dirty_rounds.add(number)
        self._schedule()

    def resync(self) -> None:
        """Messages may have been missed: check every open stream's screen."""
        self.dirty_rounds.update(self.by_round)
        self._schedule()

    def _schedule(self) -> None:
        if not (self.dirty_tables or self.dirty_rounds or self.fresh):
            return
        if self.flusher is None or self.flusher.done():
            self.flusher = asyncio.get_running_loop().create_task(self._flush())

    async def _flush(self) -> None:
        while self.dirty_tables or self.dirty_rounds or self.fresh:
            await asyncio.sleep(GATHER)
            tables, rounds, fresh = self.dirty_tables, self.dirty_rounds, self.fresh
            self.dirty_tables, self.dirty_rounds, self.fresh = set(), set(), set()
            tables = tables | {c.table_id for c in fresh}
            if rounds:
                # first the clocks (one partial per round), then the tables
                conns = [c for r in rounds for c in self.by_round.get(r, ()) if not c.closed]
                done = await self._run(redraw.round_pass, rounds, conns)
                if done is not None:
                    events, moved = done
                    self._deliver(events)
                    tables |= moved
            # each table on its own, as many at once as there are push threads,
            # each table's screens sent as soon as they are drawn
            await asyncio.gather(*(self._table(t) for t in tables))

    async def _table(self, table_id: int) -> None:
        conns = [c for c in self.by_table.get(table_id, ()) if not c.closed]
        if conns:
            self._deliver(await self._run(redraw.table_pass, table_id, conns) or [])

    async def _run(self, work, *args):
        try:
            return await asyncio.get_running_loop().run_in_executor(
                self.pool, redraw.in_thread, work, *args
            )
        except Exception:  # a failed redraw: the next change or poll shows it
            log.exception("push: redraw failed")
            return None

    def _deliver(self, events) -> None:
        for conn, event, text, shows in events:
            if conn.closed:
                continue
            if event == redraw.RELOAD:
                # the page shows a seat its link no longer leads to (or the
                # table is gone): nothing else is sent, the page loads anew
                conn.outbox = {event: (text, None)}
                conn.closed = True
            elif event == "clock":
                conn.clock = shows
            else:
                conn.version = shows
            if event != redraw.RELOAD:
                conn.outbox[event] = (text, shows)
            self._wake(conn)

    @staticmethod
    def _wake(conn: Conn) -> None:
        if conn.waiter is not None:
            conn.waiter.set()

    # -- a stream ----------------------------------------------------------------------

    async def stream(self, conn: Conn):
        """The stream's text, as Server-Sent Events, until the browser leaves
        (the server cancels this generator), the link is revoked or
        :data:`MAX_AGE` has passed."""
        conn.waiter = asyncio.Event()
        self.attach(conn)
        ends = time.monotonic() + MAX_AGE * random.uniform(0.8, 1.0)
        try:
            yield f"retry: {RETRY_MS}\n\n"
            while True:
                # what is waiting goes out first, also to a stream that ends
                # now (a reload event is its last word)
                if conn.outbox:
                    outbox, conn.outbox = conn.outbox, {}
                    for event, (text, shows) in outbox.items():
                        plain = event in ("clock", redraw.RELOAD)
                        yield sse(event, text, None if plain else shows)
                if conn.closed:
                    break
                left = ends - time.monotonic()
                if left <= 0:
                    break
                try:
                    await asyncio.wait_for(conn.waiter.wait(), min(KEEPALIVE, left))
                except TimeoutError:
                    yield ": still here\n\n"
                    continue
                conn.waiter.clear()
        finally:
            self.detach(conn)


def sse(event: str, text: str, event_id=None) -> str:
    """One Server-Sent Event: its name, its id (the screen's version, which
    the browser sends back as Last-Event-ID when it reconnects) and its data
    line by line."""
    lines = [f"event: {event}"]
    if event_id:
        lines.append(f"id: {event_id}")
    lines += [f"data: {line}" for line in text.split("\n")]
    return "\n".join(lines) + "\n\n"


_hub: Hub | None = None


def hub() -> Hub:
    """This process's hub (made on the first stream)."""
    global _hub
    if _hub is None:
        _hub = Hub()
    return _hub
