"""One hub per web process: the open streams, by table, round and link, and
the one subscriber task that hears the cross-process signal
(:mod:`tournaments.bus`) and fans it out to them.

Everything here runs in the server's event loop; an open stream is a
coroutine waiting on an event (a few kilobytes), with no thread and no
query while nothing changes. When a message arrives, the tables and rounds
it names are marked and one flush task hands them to the push threads
(:func:`tournaments.push.redraw.redraw`): each changed table is redrawn on
its own (one pass per table at a time, so a table's screens never overtake
each other; changes that arrive meanwhile are drawn together in its next
pass). A round's change (a pause, a resume, an extension, time called) goes
to a thread of its own: first the round's clock, one small event shared by
all its streams, then only the screens that really changed, table by table;
a move's table never waits behind it, neither for its drawing nor for its
sending (the clock wakes its streams a batch at a time, and a table counts
as being drawn only while its pass runs, not while it waits its turn).

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
#: streams a round's clock wakes at a time: between two batches the event
#: loop runs whatever else is ready, so a move's screens go out among a
#: thousand streams' clocks instead of after them
CLOCK_BATCH = 50
#: seconds a round's redraw lets a table wait at most for the moves' passes:
#: a table's pass of the round starts when no move's pass runs in this
#: process (they share its interpreter) or after this long
YIELD_TO_MOVES = 0.05


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
        #: the moves' tables and new streams' screens
        self.pool = ThreadPoolExecutor(2, thread_name_prefix="push")
        #: the rounds' changes: their clocks, then the screens they changed
        #: (a thread of their own: a move's screens never wait behind them)
        self.rounds_pool = ThreadPoolExecutor(1, thread_name_prefix="push-round")
        #: tables being redrawn now, and those changed meanwhile (→ the pool)
        self.drawing: set[int] = set()
        #: the moves' passes (in ``pool``) running or waiting for a thread
        self.moves_drawing = 0
        self.again: dict[int, ThreadPoolExecutor] = {}
        self.tasks: set[asyncio.Task] = set()
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
            # a move's table (or a new stream's) at once, in the push threads,
            # never behind a round's redraw
            for table_id in tables | {c.table_id for c in fresh}:
                self._start_table(table_id, self.pool)
            if rounds:
                self._keep(self.loop.create_task(self._rounds(rounds)))

    async def _rounds(self, rounds: set[int]) -> None:
        """A round's change: first its clock, one small event shared by every
        stream of the round (built once per language), then only the tables
        whose screens really changed (time called, a table closed), in the
        round thread, each as soon as it is drawn."""
        conns = [c for r in rounds for c in self.by_round.get(r, ()) if not c.closed]
        done = await self._run(self.rounds_pool, redraw.round_pass, rounds, conns)
        if done is None:
            return
        events, moved = done
        for start in range(0, len(events), CLOCK_BATCH):
            if start:
                await asyncio.sleep(0)  # the woken streams write; a move's go among them
            self._deliver(events[start : start + CLOCK_BATCH])
        # one table at a time, each counted as being drawn only while it is:
        # a move at a table still waiting its turn is drawn at once by the
        # moves' threads (its screens then show the round's change too), and
        # only a move at the very table being drawn waits for that pass
        for table_id in moved:
            await self._after_moves()
            if table_id in self.drawing:  # a move's pass: once more after it
                self.again.setdefault(table_id, self.rounds_pool)
                continue
            self.drawing.add(table_id)
            try:
                await self._table(table_id, self.rounds_pool)
            finally:
                self._table_done(table_id)

    async def _after_moves(self) -> None:
        """Wait until no move's pass runs (at most :data:`YIELD_TO_MOVES`):
        the round's screens give way to the moves' in the interpreter."""
        until = time.monotonic() + YIELD_TO_MOVES
        while self.moves_drawing and time.monotonic() < until:
            await asyncio.sleep(0.002)

    def _start_table(self, table_id: int, pool) -> None:
        """Redraw a table's screens; one pass per table at a time, so its
        screens never overtake each other (a change meanwhile runs after it)."""
        if table_id in self.drawing:
            self.again.setdefault(table_id, pool)
            return
        self.drawing.add(table_id)
        task = self.loop.create_task(self._table(table_id, pool))
        task.add_done_callback(lambda _task: self._table_done(table_id))
        self._keep(task)

    def _table_done(self, table_id: int) -> None:
        self.drawing.discard(table_id)
        pool = self.again.pop(table_id, None)
        if pool is not None:
            self._start_table(table_id, pool)

    def _keep(self, task: asyncio.Task) -> None:
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _table(self, table_id: int, pool) -> None:
        conns = [c for c in self.by_table.get(table_id, ()) if not c.closed]
        if not conns:
            return
        move = int(pool is self.pool)
        self.moves_drawing += move
        try:
            events = await self._run(pool, redraw.table_pass, table_id, conns)
        finally:
            self.moves_drawing -= move
        self._deliver(events or [])

    async def _run(self, pool, work, *args):
        try:
            return await asyncio.get_running_loop().run_in_executor(
                pool, redraw.in_thread, work, *args
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
