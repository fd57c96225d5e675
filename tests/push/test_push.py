"""Live screens by push: each seat's stream carries its own screen only, the
spectator's the public view; a change is signalled across processes after
its commit (never for a rollback); a stream ends when its browser leaves;
the seat links' cache entries don't expire in step."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import time

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import get_engine
from tests.factories import TournamentFactory, digital_table, seated_round
from tests.seat_tokens import token_for
from tests.timetravel import past_deadline
from tournaments import bus, live
from tournaments.models import Seat
from tournaments.play import poll_cache
from tournaments.play import screen as play
from tournaments.play.tables import table_move
from tournaments.push import redraw
from tournaments.services import deadlines, round_life

pytestmark = pytest.mark.django_db

GAMES = ["quartett", "terra_trumpf", "trumpet", "monddaemmerung", "altruismus"]
CARD = re.compile(r'data-card="([^"]+)"')


@pytest.fixture(autouse=True)
def no_broker(monkeypatch):
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)


def _conns(table, seats: int) -> list[redraw.Conn]:
    conns = [
        redraw.Conn(
            kind=redraw.SEAT,
            table_id=table.pk,
            round_id=table.round_id,
            language="en",
            position=pos,
            token=token_for(table, pos),
            csrf_token="t" * 64,
        )
        for pos in range(seats)
    ]
    conns.append(
        redraw.Conn(kind=redraw.WATCH, table_id=table.pk, round_id=table.round_id, language="en")
    )
    return conns


def _strings(value) -> set[str]:
    """Every string anywhere in a JSON-like value."""
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_strings(v) | _strings(k) for k, v in value.items()), set())
    if isinstance(value, list | tuple):
        return set().union(*(_strings(v) for v in value), set())
    return set()


@pytest.mark.parametrize("game", GAMES)
def test_each_seats_push_carries_its_own_view_and_no_other_seats_hidden_cards(game):
    """After every move each seat's pushed screen shows only cards its own
    view of the game shows (its hand, the table), never a card held by
    another seat; the spectator's push only cards of the public view."""
    seats = 4
    table = digital_table(game=game, players=seats, secret=f"{77:064x}")
    engine = get_engine(game)
    rng = random.Random(3)
    conns = _conns(table, seats)
    checked = 0
    for _ in range(12):
        table.refresh_from_db()
        state = engine.load(table.state)
        if engine.is_over(state):
            break
        events = redraw.redraw({table.pk}, set(), conns)
        assert {conn for conn, *_ in events} == set(conns), "every open screen is redrawn"
        for conn, event, text, version in events:
            position = conn.position
            shown = set(CARD.findall(text))
            view = engine.view(state, position)  # position None: the public view
            assert shown <= _strings(view), (conn.kind, position, shown - _strings(view))
            others = {
                card
                for other in range(seats)
                if other != position
                for card in engine.view(state, other).get("hand") or []
            } - _strings(view)
            assert not shown & others, f"seat {position} was pushed another seat's cards"
            if conn.kind == redraw.SEAT:
                assert event == "panel"
                hand = set(view.get("hand") or [])
                assert hand <= shown | {""}, "the seat's own hand is on its screen"
                checked += 1
            else:
                assert event == "board"
            assert version == play.table_snapshot(table.pk).version
            conn.version = version
        # nothing changed: nothing is pushed
        assert redraw.redraw({table.pk}, set(), conns) == []
        seat = engine.to_act(state)[0]
        table_move(table=table, seat=seat, action=rng.choice(engine.legal_actions(state, seat)))
    assert checked >= seats * 3


def test_a_seat_push_is_the_seat_page_partial_a_poll_would_get(client):
    """The pushed panel and the polled one are the same screen (version,
    moves, the player's own link in the form)."""
    table = digital_table(game="trumpet", players=4, secret=f"{5:064x}")
    conn = _conns(table, 4)[1]
    [(conn_, event, text, version)] = redraw.redraw({table.pk}, set(), [conn])
    polled = client.get(reverse("seat_play", args=[conn.token])).content.decode()
    assert f'data-version="{version}"' in polled and f'data-version="{version}"' in text
    assert reverse("seat_move", args=[conn.token]) in text
    assert reverse("seat_stream", args=[conn.token]) in text
    assert set(CARD.findall(text)) == set(CARD.findall(polled))


def test_a_pause_pushes_the_clock_alone_and_no_screen(organizer):
    """A pause or a resume changes no screen (the page greys its moves from
    the clock): the seats get the round's clock, nobody a redrawn screen."""
    table = digital_table(organizer, game="quartett", players=2, secret=f"{9:064x}")
    conns = _conns(table, 2)
    for conn in conns:
        conn.clock = redraw.initial_clock(table.round_id)
    for conn, _e, _t, version in redraw.redraw({table.pk}, set(), conns):
        conn.version = version
    for change, status in (
        (round_life.round_pause, "paused"),
        (round_life.round_resume, "running"),
    ):
        table.round.refresh_from_db()
        change(round=table.round, by=organizer)
        events = redraw.redraw(set(), {table.round_id}, conns)
        assert sorted((c.kind, e) for c, e, *_ in events) == [("seat", "clock")] * 2
        assert all(f'data-status="{status}"' in text for _c, _e, text, _v in events)
        for conn, _e, _t, figures in events:
            conn.clock = figures


def test_a_paused_seat_screen_is_the_running_one(organizer, client):
    """The play partial is the same paused and running (its moves too); the
    seat page says "paused" outside it, from the round's clock."""
    table = digital_table(organizer, game="quartett", players=2, secret=f"{9:064x}")
    token = token_for(table, 0)
    url = reverse("seat_play", args=[token])
    running = client.get(url).content.decode()
    round_life.round_pause(round=table.round, by=organizer)
    play.forget_snapshots()
    paused = client.get(url).content.decode()
    token_field = re.compile(r'name="csrfmiddlewaretoken" value="[^"]*"')  # masked anew each time
    assert token_field.sub("", paused) == token_field.sub("", running)
    assert "<button" in paused  # the moves stay; the page greys them while paused
    page = client.get(reverse("seat_link", args=[token])).content.decode()
    assert re.search(r"<p class=\"play-paused\" role=\"status\" data-paused-note>", page)
    round_life.round_resume(round=table.round, by=organizer)
    page = client.get(reverse("seat_link", args=[token])).content.decode()
    assert re.search(r"data-paused-note hidden>", page)


def test_time_called_pushes_the_clock_and_the_screens_that_changed(organizer):
    table = digital_table(organizer, game="quartett", players=2, secret=f"{9:064x}")
    conns = _conns(table, 2)
    for conn in conns:
        conn.clock = redraw.initial_clock(table.round_id)
    for conn, _e, _t, version in redraw.redraw({table.pk}, set(), conns):
        conn.version = version
    past_deadline(table.round)
    round_life.round_time_up(table.round_id, via="test")
    events = redraw.redraw(set(), {table.round_id}, conns)
    kinds = sorted((c.kind, e) for c, e, *_ in events)
    # the seats get the clock and their screens (time called), the spectator its board
    assert kinds == sorted([("seat", "clock")] * 2 + [("seat", "panel")] * 2 + [("watch", "board")])


@pytest.mark.django_db(transaction=True)
def test_a_pause_reaches_every_open_stream_as_its_clock_before_any_redraw(organizer):
    """Many streams open on a round's tables (phones and second tabs): a
    pause sends every seat's stream the clock, and no stream a redrawn
    screen (nothing on the screens changed)."""
    from tournaments.push import hub as hub_module

    tournament = TournamentFactory(
        owner=organizer, game="quartett", digital_tables=True, allowed_sizes=[4], table_size=4
    )
    rnd = seated_round(tournament, players=8, start=True)
    tables = list(rnd.tables.all())
    conns = [
        redraw.Conn(
            kind=redraw.SEAT,
            table_id=t.pk,
            round_id=rnd.pk,
            language="en",
            position=pos,
            token=token_for(t, pos),
            csrf_token=f"{copy:064d}",
            version=play.table_version(t.pk),
            clock=redraw.initial_clock(rnd.pk),
        )
        for t in tables
        for pos in range(t.seats.count())
        for copy in range(6)
    ] + [
        redraw.Conn(kind=redraw.WATCH, table_id=t.pk, round_id=rnd.pk, language="en")
        for t in tables
    ]
    for conn in conns[-len(tables) :]:
        conn.version = play.table_version(conn.table_id)
    seats = [c for c in conns if c.kind == redraw.SEAT]
    assert len(seats) >= 40

    async def run():
        hub = hub_module.Hub()
        hub.listener = asyncio.get_running_loop().create_future()  # no bus here
        delivered = []
        deliver = hub._deliver

        def record(events):
            delivered.extend((c, e) for c, e, *_ in events)
            deliver(events)

        hub._deliver = record
        gens = [hub.stream(c) for c in conns]
        for g in gens:
            assert (await g.__anext__()).startswith("retry:")
        await settled(hub)  # the new streams' first check (nothing to send)
        assert delivered == []
        await asyncio.to_thread(round_life.round_pause, round=rnd, by=organizer)
        hub.on_messages([f"r:{rnd.pk}"])
        for _ in range(500):
            await asyncio.sleep(0.01)
            if len(delivered) >= len(seats):
                break
        await asyncio.sleep(0.3)  # a redraw would follow the clocks
        for g in gens:
            await g.aclose()
        return delivered

    delivered = asyncio.run(run())
    assert sorted(id(c) for c, e in delivered if e == "clock") == sorted(id(c) for c in seats)
    assert [e for _c, e in delivered if e != "clock"] == []
    assert all(c.clock[0] == "paused" for c in seats)


async def settled(hub, tries: int = 300) -> None:
    """Until the hub draws nothing (new streams' first screens, changes),
    ``tries`` × 10 ms at most."""
    for _ in range(tries):
        await asyncio.sleep(0.01)
        if not hub.fresh and not hub.drawing and not hub.tasks:
            return


async def streams_on_tables(hub_module, tables):
    """A hub without the bus and three seat streams on each of ``tables``
    (round 1), opened and settled: (hub, connections, stream generators)."""
    hub = hub_module.Hub()
    hub.listener = asyncio.get_running_loop().create_future()  # no bus here
    conns = [
        redraw.Conn(kind="seat", table_id=t, round_id=1, language="en", token=f"k{t}{p}")
        for t in tables
        for p in range(3)
    ]
    gens = [hub.stream(c) for c in conns]
    for g in gens:
        await g.__anext__()
    await settled(hub)
    return hub, conns, gens


def test_a_moves_screens_never_wait_behind_a_rounds_redraw(monkeypatch):
    """A round's change redrawing many screens is under way: a move at one
    of its tables is drawn and sent meanwhile, not after it."""
    import threading

    from tournaments.push import hub as hub_module

    release = threading.Event()
    order = []

    def fake_in_thread(work, *args):
        if work is hub_module.redraw.round_pass:
            release.wait(5)  # a long round redraw
            order.append("round")
            return [], set()
        table_id, conns = args
        order.append(f"table {table_id}")
        return [(c, "panel", "<section>", "v2") for c in conns]

    monkeypatch.setattr(hub_module.redraw, "in_thread", fake_in_thread)

    async def run():
        hub, conns, gens = await streams_on_tables(hub_module, (1, 2))
        order.clear()
        for conn in conns:
            conn.version = "v1"
            conn.outbox.clear()
        hub.on_messages(["r:1"])
        await asyncio.sleep(0.05)
        hub.on_messages(["t:2"])
        for _ in range(200):
            await asyncio.sleep(0.01)
            if "table 2" in order:
                break
        drawn_meanwhile = list(order)
        release.set()
        for g in gens:
            await g.aclose()
        return drawn_meanwhile, conns

    drawn, conns = asyncio.run(run())
    assert drawn == ["table 2"]
    assert all("panel" in c.outbox for c in conns if c.table_id == 2)


def test_a_move_at_a_table_waiting_for_the_rounds_redraw_is_drawn_at_once(monkeypatch):
    """A resume changed every table's screens and the round's thread draws
    them table by table: a move at a table still waiting its turn is drawn
    at once in the moves' threads, while a move at the table being drawn
    waits for that pass (its screens never overtake each other)."""
    import threading

    from tournaments.push import hub as hub_module

    release = threading.Event()
    order = []

    def fake_in_thread(work, *args):
        if work is hub_module.redraw.round_pass:
            return [], {1, 2, 3}
        table_id, conns = args
        if threading.current_thread().name.startswith("push-round"):
            release.wait(5)  # the round's redraw of a table: slow
            order.append(f"round {table_id}")
        else:
            order.append(f"move {table_id}")
        return [(c, "panel", "<section>", "v2") for c in conns]

    monkeypatch.setattr(hub_module.redraw, "in_thread", fake_in_thread)

    async def run():
        hub, conns, gens = await streams_on_tables(hub_module, (1, 2, 3))
        order.clear()
        hub.on_messages(["r:1"])
        for _ in range(200):  # the round's thread is at its first table
            await asyncio.sleep(0.01)
            if hub.drawing:
                break
        drawing = set(hub.drawing)
        hub.on_messages(["t:3", "t:1"])
        for _ in range(200):
            await asyncio.sleep(0.01)
            if "move 3" in order:
                break
        await asyncio.sleep(0.1)
        meanwhile = list(order)
        release.set()
        await settled(hub)
        everything = list(order)
        for g in gens:
            await g.aclose()
        return drawing, meanwhile, everything

    drawing, meanwhile, everything = asyncio.run(run())
    assert drawing == {1}, "the round's tables are drawn one at a time"
    assert meanwhile == ["move 3"]
    # table 1's move after the round's pass of table 1; every table drawn
    assert everything.index("move 1") > everything.index("round 1")
    assert {"round 1", "round 2", "move 1", "move 3"} <= set(everything)


def test_a_rounds_redraw_gives_way_to_a_move_being_drawn(monkeypatch):
    """While a move's screens are being drawn, the round's redraw of its
    tables waits (a short while at most): the two share the process's
    interpreter, and the move's screens are the ones a player waits for."""
    import threading

    from tournaments.push import hub as hub_module

    move_drawing = threading.Event()
    order = []

    def fake_in_thread(work, *args):
        if work is hub_module.redraw.round_pass:
            return [], {1}
        table_id, conns = args
        if threading.current_thread().name.startswith("push-round"):
            order.append(f"round {table_id}")
        elif order == ["start"]:  # the move: 30 ms to draw
            move_drawing.set()
            time.sleep(0.03)
            order.append(f"move {table_id}")
        return [(c, "panel", "<section>", "v2") for c in conns]

    monkeypatch.setattr(hub_module.redraw, "in_thread", fake_in_thread)
    # the round waits as long as the move takes here (a busy machine's 30 ms
    # may last longer than the product's cap)
    monkeypatch.setattr(hub_module, "YIELD_TO_MOVES", 5.0)

    async def run():
        hub, conns, gens = await streams_on_tables(hub_module, (1, 2))
        order[:] = ["start"]
        hub.on_messages(["t:2"])
        await asyncio.to_thread(move_drawing.wait, 5)
        hub.on_messages(["r:1"])
        for _ in range(300):
            await asyncio.sleep(0.01)
            if "round 1" in order:
                break
        for g in gens:
            await g.aclose()
        return order[1:]

    assert asyncio.run(run()) == ["move 2", "round 1"]


# -- the signal ---------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_a_change_is_signalled_once_after_its_commit_and_never_for_a_rollback(monkeypatch):
    sent = []
    monkeypatch.setattr(bus, "publish_now", lambda messages: sent.append(list(messages)))
    with transaction.atomic():
        bus.table_changed(1)
        bus.round_changed(2)
        bus.table_changed(1)  # a move saves its table more than once
        assert sent == []  # not before the commit: the screen would read the old rows
    assert sent == [["t:1", "r:2"]]
    sent.clear()
    with pytest.raises(RuntimeError), transaction.atomic():
        bus.table_changed(3)
        raise RuntimeError
    with transaction.atomic():
        bus.table_changed(4)
    assert sent == [["t:4"]]


@pytest.mark.django_db(transaction=True)
def test_a_move_signals_its_table(monkeypatch):
    table = digital_table(game="trumpet", players=4, secret=f"{11:064x}")
    sent = []
    monkeypatch.setattr(bus, "publish_now", lambda messages: sent.extend(messages))
    engine = get_engine("trumpet")
    state = engine.load(table.state)
    seat = engine.to_act(state)[0]
    table_move(table=table, seat=seat, action=engine.legal_actions(state, seat)[0])
    assert f"t:{table.pk}" in sent
    # a move leaves the round's clock as it was: no redraw of the round's other screens
    assert f"r:{table.round_id}" not in sent


def _receive(settings_push, publish, *, seconds=5.0, wanted=None) -> list[str]:
    """What the listener heard while ``publish`` was repeated, until it heard
    anything (or, with ``wanted``, that message: tests running beside this one
    publish on the same Redis channel)."""
    received: list[str] = []

    def done():
        return wanted in received if wanted else bool(received)

    async def run():
        task = asyncio.ensure_future(bus.listen(received.extend, lambda: None))
        try:
            end = time.monotonic() + seconds
            while time.monotonic() < end and not done():
                await asyncio.sleep(0.05)
                await asyncio.get_running_loop().run_in_executor(None, publish)
        finally:
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task

    asyncio.run(run())
    return received


def test_the_laptops_processes_hear_each_other_by_datagram(settings, tmp_path):
    """The embedded default: no server, a datagram to each listening web
    process of this machine (their ports in var/push/)."""
    settings.PUSH_REDIS_URL = ""
    settings.PUSH_DIR = tmp_path
    received = _receive(settings, lambda: bus.publish_now(["t:12", "k:abc"]))
    assert received[:2] == ["t:12", "k:abc"]
    # the listener's port file is removed when it stops; a stale one is ignored
    assert not list(tmp_path.glob("*.port"))
    (tmp_path / "1-9.port").write_text("9")
    old = time.time() - bus.STALE - 5

    os.utime(tmp_path / "1-9.port", (old, old))
    assert bus.listener_ports(tmp_path) == []


def test_web_boxes_hear_each_other_through_redis_pubsub(settings, require_redis):
    settings.PUSH_REDIS_URL = require_redis
    # Redis pub/sub ignores the database number: other test workers' messages
    # may arrive too, so this one waits for its own
    mine = f"r:{os.getpid()}{time.monotonic_ns() % 10**6}"
    received = _receive(settings, lambda: bus.publish_now([mine]), wanted=mine)
    assert mine in received
    # one channel per Redis database: CI's and a site's never mix
    assert bus.channel("redis://h:6379/15") != bus.channel("redis://h:6379/9")


# -- the stream -----------------------------------------------------------------------


def test_a_stream_asked_outside_the_asgi_server_is_204_and_the_page_polls(client):
    table = digital_table(game="quartett", players=2, secret=f"{4:064x}")
    response = client.get(reverse("seat_stream", args=[token_for(table, 0)]))
    assert response.status_code == 204
    assert client.get(reverse("seat_stream", args=["no-such-link"])).status_code == 204


def test_a_stream_ends_when_its_browser_leaves():
    """The server drops what is sent to a closed connection without a word:
    the client's disconnect cancels the stream, and its generator closes (a
    phone that left holds nothing)."""
    from django.http import StreamingHttpResponse

    from tournaments.asgi import PooledHandler

    closed = []

    async def events():
        try:
            while True:
                yield "data: x\n\n"
                await asyncio.sleep(0.01)
        finally:
            closed.append(True)

    async def run():
        sent = []
        leave = asyncio.Event()

        async def send(message):
            sent.append(message)
            if len(sent) > 5:
                leave.set()

        async def receive():
            await leave.wait()
            return {"type": "http.disconnect"}

        handler = PooledHandler(1)
        response = StreamingHttpResponse(events(), content_type="text/event-stream")
        await asyncio.wait_for(handler._send_until_disconnect(response, send, receive), 5)
        return sent

    sent = asyncio.run(run())
    assert len(sent) > 5
    assert closed == [True]


def test_the_hub_fans_a_message_out_to_the_streams_of_that_table_only(monkeypatch):
    """One message, the streams of its table redrawn in one pass; a revoked
    link's stream ends."""
    from tournaments.push import hub as hub_module

    calls = []

    def fake_in_thread(work, *args):
        if work is hub_module.redraw.round_pass:
            return [], set()
        table_id, conns = args
        calls.append((table_id, len(conns)))
        return [(c, "panel", f"<section data-version='{c.table_id}'>", "v2") for c in conns]

    async def no_listen(on_messages, on_resync):
        await asyncio.sleep(3600)

    monkeypatch.setattr(hub_module.redraw, "in_thread", fake_in_thread)
    monkeypatch.setattr(hub_module.bus, "listen", no_listen)

    async def run():
        hub = hub_module.Hub()
        conns = [
            redraw.Conn(kind="seat", table_id=t, round_id=1, language="en", token=f"k{t}{p}")
            for t in (1, 2)
            for p in range(3)
        ]
        gens = [hub.stream(c) for c in conns]
        firsts = [await g.__anext__() for g in gens]  # "retry: …", attached
        assert all(f.startswith("retry:") for f in firsts)
        pending = [asyncio.ensure_future(g.__anext__()) for g in gens]
        # the new streams' first check: one redraw pass per table (waited
        # for, not slept for: a loaded machine may take longer than 0.1 s)
        for _ in range(500):
            if {t for t, _n in calls} >= {1, 2}:
                break
            await asyncio.sleep(0.01)
        calls.clear()
        for conn in conns:
            conn.version = "v1"
        for task in pending:
            task.cancel()
        pending = [asyncio.ensure_future(g.__anext__()) for g in gens[:3]]
        hub.on_messages(["t:1", "t:99", "bogus", "t:x"])
        texts = await asyncio.wait_for(asyncio.gather(*pending), 2)
        assert calls == [(1, 3)]
        assert all(t.startswith("event: panel\nid: v2\n") for t in texts)
        hub.on_messages(["k:k20"])
        with pytest.raises(StopAsyncIteration):
            await asyncio.wait_for(gens[3].__anext__(), 2)
        assert hub.count() == 5
        for g in gens:
            await g.aclose()
        assert hub.count() == 0
        hub.listener.cancel()

    asyncio.run(run())


# -- no cache that expires in step ----------------------------------------------------


def test_after_a_quiet_minute_most_phones_clock_polls_still_cost_no_query(
    client, organizer, monkeypatch
):
    """Phones that joined together don't go back to the database together:
    each link's round is kept 10–15 minutes, drawn for it, so 65 s (and 9
    minutes) later the polls are still answered from the cache, and those
    that ask after that are spread over five minutes instead of one second."""
    tournament = TournamentFactory(owner=organizer, allowed_sizes=[2], table_size=2)
    rnd = seated_round(tournament, players=60, start=True)
    urls = [
        reverse("seat_clock", args=[token_for(table, pos)])
        for table in rnd.tables.all()
        for pos in range(2)
    ]
    random.seed(27)
    for url in urls:
        assert client.get(url).status_code == 200
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() + 65)
    live.forget_local()  # this process's own copies are long gone by then
    asked = 0
    for url in urls:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        asked += any("seatlink" in q["sql"].lower() for q in queries.captured_queries)
    assert asked == 0, f"{asked} of {len(urls)} phones asked the database"
    # later, a few at a time: 11 minutes after they joined, about a fifth
    monkeypatch.setattr(time, "time", lambda: real() + 660)
    live.forget_local()
    asked = 0
    for url in urls:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        asked += any("seatlink" in q["sql"].lower() for q in queries.captured_queries)
    assert 0 < asked <= len(urls) // 2, f"{asked} of {len(urls)} phones asked the database"


def test_a_revoked_links_entries_are_forgotten_at_once(client):
    table = digital_table(game="quartett", players=2, secret=f"{8:064x}")
    token = token_for(table, 0)
    client.get(reverse("seat_clock", args=[token]))
    assert poll_cache.seat_round(token) == table.round_id
    poll_cache.forget_seats([token])
    assert poll_cache.seat_round(token) is None


def test_versions_in_the_pushed_panel_match_the_poll_so_a_poll_after_a_push_is_204(client):
    table = digital_table(game="quartett", players=2, secret=f"{6:064x}")
    seat = Seat.objects.get(table=table, position=0)
    conn = _conns(table, 2)[0]
    [(_c, _e, text, version)] = redraw.redraw({table.pk}, set(), [conn])
    url = reverse("seat_play", args=[token_for(table, 0)])
    assert client.get(url, {"v": version}).status_code == 204
    assert play.seat_version(seat) == version
    assert json.loads(json.dumps(version)) == version


@pytest.mark.django_db(transaction=True)
def test_the_bot_in_the_worker_and_the_clocks_close_signal_too(monkeypatch, settings):
    """A bot's move (in the Celery worker) and the round's close (beat or a
    scheduled task) reach the web processes like a player's move."""
    from tests.timetravel import past_deadline
    from tournaments.play import bots

    settings.DIGITAL_BOT_DELAY = 0
    table = digital_table(game="trumpet", players=4, secret=f"{12:064x}")
    engine = get_engine("trumpet")
    state = engine.load(table.state)
    acting = engine.to_act(state)[0]
    sent = []
    monkeypatch.setattr(bus, "publish_now", lambda messages: sent.extend(messages))
    bots.seat_to_bot(table=table, position=acting)
    assert f"t:{table.pk}" in sent  # every screen shows the seat's bot tag
    sent.clear()
    bots.bot_move(table_id=table.pk)
    table.refresh_from_db()
    assert table.actions.filter(by_bot=True).exists()
    assert f"t:{table.pk}" in sent
    sent.clear()
    past_deadline(table.round)
    assert round_life.round_time_up(table.round_id, via="test")
    assert f"r:{table.round_id}" in sent


def test_a_moves_screens_go_out_among_a_rounds_clocks_not_after_all_of_them(monkeypatch):
    """A pause's clock is being sent to a thousand streams when a move is
    made at one of the round's tables: its screens are written among the
    clocks, within a few batches, not after the last of the thousand
    (issue 37: a move during a broadcast reaches its table within a quarter
    second)."""
    import threading

    from tournaments.push import hub as hub_module

    armed = threading.Event()

    def fake_in_thread(work, *args):
        if work is hub_module.redraw.round_pass:
            _rounds, conns = args
            return [(c, "clock", "<p>paused</p>", ("paused",)) for c in conns], set()
        table_id, conns = args
        if not armed.is_set():  # the new streams' first check: nothing to send
            return []
        return [(c, "panel", "<section>", "v2") for c in conns if c.table_id == table_id]

    monkeypatch.setattr(hub_module.redraw, "in_thread", fake_in_thread)

    async def run():
        hub = hub_module.Hub()
        hub.listener = asyncio.get_running_loop().create_future()  # no bus here
        conns = [
            redraw.Conn(kind="seat", table_id=t, round_id=1, language="en", token=f"k{t}.{p}")
            for t in range(250)
            for p in range(4)
        ]
        sent = []

        async def phone(index, gen):
            async for text in gen:
                sent.append(text.partition("\n")[0])
                if armed.is_set():
                    time.sleep(0.0002)  # what writing to a real phone's socket costs
                    if sent.count("event: clock") == 1:  # the move, as the clocks go out
                        hub.on_messages(["t:7"])

        tasks = [asyncio.create_task(phone(i, hub.stream(c))) for i, c in enumerate(conns)]
        await settled(hub, tries=500)  # the new streams' first screens
        for conn in conns:
            conn.version, conn.clock = "v1", ("running",)
        sent.clear()
        armed.set()
        hub.on_messages(["r:1"])
        for _ in range(1000):
            await asyncio.sleep(0.01)
            if len(sent) >= len(conns) + 4:
                break
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return sent

    sent = asyncio.run(run())
    clocks = [i for i, line in enumerate(sent) if line == "event: clock"]
    panels = [i for i, line in enumerate(sent) if line == "event: panel"]
    assert len(clocks) == 1000 and len(panels) == 4
    # the move's four screens went out while most of the clocks still waited
    # (before: after the thousandth, every clock's stream woken at once)
    assert max(panels) < 750, (max(panels), len(sent))
