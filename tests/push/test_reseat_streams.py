"""A seating that changes under open screens: every seat's page, stream and
poll of a published round are open when the round is re-seated before it
starts (a player is dropped, a player leaves through the seat link, or the
seating is unpublished, swapped and published again). Then the round starts
and three moves are played. Every phone must show its own player's seat and
cards only, every table's pushes must go on, and the spectator's board
shows no hand.

The phones are emulated as the browser runs them: the page is loaded
through the seat link, its stream opened with the address the page names
(``push.views``), the pushes are what the hub would send for the signals the
changes publish (``bus.publish`` captured: ``t:`` table, ``r:`` round,
``k:`` revoked link), a ``reload`` event or a revoked link loads the page
anew (and opens a new stream when the page has one), and the page's poll
asks with the version and seat its panel shows.
"""

from __future__ import annotations

import random
import re

import pytest
from django.test import RequestFactory
from django.urls import reverse

from games import get_engine
from tests.factories import PlayerFactory, TournamentFactory, deal_secret, seated_round
from tests.seat_tokens import token_for
from tournaments import bus
from tournaments.models import Seat, Table
from tournaments.play.tables import table_move
from tournaments.push import redraw
from tournaments.push import views as push_views
from tournaments.registrations import services as registrations
from tournaments.services import deadlines, players, round_life, seating

pytestmark = pytest.mark.django_db

GAMES = ["quartett", "terra_trumpf", "trumpet", "monddaemmerung", "altruismus"]
CHANGES = ["drop", "leave", "unpublish_swap_publish"]

CARD = re.compile(r'data-card="([^"]+)"')
SECTION = re.compile(r'<section id="play"[^>]*>')
ATTR = re.compile(r'(data-[a-z]+)="([^"]*)"')
HAND = re.compile(r'<ul class="play-cards play-hand">(.*?)</ul>', re.S)
ME = re.compile(r'<tr class="me[^"]*">.*?<td class="main">([^<]*)<', re.S)
BOARD_STREAM = re.compile(r'data-stream="([^"]+)"')


@pytest.fixture(autouse=True)
def signals(monkeypatch):
    """The bus's messages, as the hub would hear them after each commit."""
    heard: list[str] = []
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)
    monkeypatch.setattr(bus, "publish", lambda *messages: heard.extend(messages))
    return heard


def _attrs(html: str) -> dict:
    found = SECTION.search(html)
    return dict(ATTR.findall(found.group(0))) if found else {}


def _strings(value) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(_strings(v) | _strings(k) for k, v in value.items()), set())
    if isinstance(value, list | tuple):
        return set().union(*(_strings(v) for v in value), set())
    return set()


class Phone:
    """One player's phone: the seat page, its stream (a ``redraw.Conn``)
    and what the page shows now (the play partial's HTML)."""

    def __init__(self, world, player, token):
        self.world, self.player, self.token = world, player, token
        self.conn: redraw.Conn | None = None
        self.panel = ""
        self.gone = False  # the page shows why the link can't act (no stream, no poll)
        self.load()

    def load(self):
        self.conn = None
        response = self.world.client.get(reverse("seat_link", args=[self.token]))
        html = response.content.decode()
        if response.status_code != 200 or not SECTION.search(html):
            self.gone, self.panel = True, ""
            return
        self.gone = False
        self.panel = SECTION.search(html).group(0) + html[SECTION.search(html).end() :]
        self.open_stream()

    def open_stream(self):
        stream = _attrs(self.panel).get("data-stream")
        if not stream:
            return
        version = _attrs(self.panel).get("data-version", "")
        joiner = "&" if "?" in stream else "?"
        request = RequestFactory().get(f"{stream}{joiner}v={version}")
        request.user = self.world.owner
        self.conn = push_views._seat_conn(request, self.token)
        if self.conn is not None:
            self.world.fresh.add(self.conn)

    def poll(self):
        if self.gone:  # the page says why it can't act; its player loads it again
            self.load()
            return
        attrs = _attrs(self.panel)
        url = attrs.get("hx-get")
        if not url:
            return
        response = self.world.client.get(url.replace("&amp;", "&"), HTTP_HX_REQUEST="true")
        if response.status_code == 204:
            return
        if response.get("HX-Refresh") == "true":
            self.load()
            return
        if response.status_code not in (200, 286):
            self.load()  # the partial says why: htmx reloads the page (HX-Refresh)
            return
        self.panel = response.content.decode()
        self.world.check(self, self.panel, via="poll")


class World:
    """A published round of two digital tables, every seat's phone and each
    table's spectator open."""

    def __init__(self, game, client, heard):
        self.game, self.client, self.heard = game, client, heard
        self.engine = get_engine(game)
        self.tournament = TournamentFactory(
            game=game, digital_tables=True, allowed_sizes=[3, 4], table_size=4
        )
        self.owner = self.tournament.owner
        client.force_login(self.owner)  # the spectator view of a tournament not public
        made = [PlayerFactory(tournament=self.tournament, name=f"Name{k:02d}") for k in range(8)]
        self.by_pk = {p.pk: p for p in made}
        self.round = seated_round(
            self.tournament,
            players=made,
            deal_secrets=[deal_secret(1000 + k) for k in range(1, 4)],
        )
        self.fresh: set[redraw.Conn] = set()
        self.phones = [
            Phone(self, seat.player, token_for(seat.table, seat.position))
            for seat in Seat.objects.filter(table__round=self.round).select_related("table")
        ]
        self.boards: dict[int, redraw.Conn] = {}
        for table in self.round.tables.all():
            self.open_board(table)
        self.stopped: list[int] = []  # tables whose pushes failed
        self.wrong: list[str] = []  # screens that showed another seat's cards or name
        self.checked = 0  # screens checked
        self.bad = 0  # of them, screens with another seat's name, seat or cards
        self.flush()

    def open_board(self, table):
        request = RequestFactory().get("/")
        request.user = self.owner
        conn = push_views._watch_conn(request, self.tournament.pk, self.round.number, table.number)
        if conn is not None:
            self.boards[table.pk] = conn
            self.fresh.add(conn)

    def conns(self):
        out = [p.conn for p in self.phones if p.conn is not None and not p.conn.closed]
        return out + [c for c in self.boards.values() if not c.closed]

    def flush(self):
        """What the hub does with the messages heard since the last flush."""
        heard, self.heard[:] = list(self.heard), []
        tables = {int(m[2:]) for m in heard if m.startswith("t:")}
        rounds = {int(m[2:]) for m in heard if m.startswith("r:")}
        revoked = {m[2:] for m in heard if m.startswith("k:")}
        for phone in self.phones:
            if phone.conn is not None and phone.conn.token in revoked:
                phone.load()  # the stream ended: the browser reconnects (204: it polls)
        fresh, self.fresh = self.fresh, set()
        conns = self.conns()
        tables |= {c.table_id for c in fresh}
        events = []
        if rounds:
            round_events, moved = redraw.round_pass(rounds, conns)
            events += round_events
            tables |= moved
        for table_id in tables:
            members = [c for c in conns if c.table_id == table_id]
            if not members:
                continue
            try:
                events += redraw.table_pass(table_id, members)
            except Exception:  # as the hub: the whole table's pushes are lost
                self.stopped.append(table_id)
        reload = []
        for conn, event, text, shows in events:
            if event == "clock":
                continue
            if event == "reload":
                conn.closed = True
                reload.append(conn)
                continue
            conn.version = shows
            if conn.kind == redraw.WATCH:
                self.check_board(conn, text)
                continue
            phone = next(p for p in self.phones if p.conn is conn)
            phone.panel = text
            self.check(phone, text, via="push")
        for conn in reload:
            phone = next((p for p in self.phones if p.conn is conn), None)
            if phone is not None:
                phone.load()
        if self.fresh:
            self.flush()

    def check(self, phone, html, *, via):
        """The phone's screen shows its own player's seat and cards only."""
        before = len(self.wrong)
        self._check(phone, html, via)
        self.checked += 1
        self.bad += len(self.wrong) > before

    def _check(self, phone, html, via):
        seat = (
            Seat.objects.filter(table__round=self.round, player=phone.player)
            .select_related("table")
            .first()
        )
        if seat is None:
            self.wrong.append(f"{via}: {phone.player.name} has no seat but sees one")
            return
        names = [n.strip() for n in ME.findall(html)]
        if names and names != [phone.player.name]:
            self.wrong.append(f"{via}: {phone.player.name}'s screen names {names} as its player")
        attrs = _attrs(html)
        if attrs.get("data-seat") not in (None, f"{seat.table_id}.{seat.position}"):
            self.wrong.append(
                f"{via}: {phone.player.name}'s screen is of seat {attrs['data-seat']}"
            )
        table = Table.objects.get(pk=seat.table_id)
        if table.state is None:
            return
        state = self.engine.load(table.state)
        view = self.engine.view(state, seat.position)
        own = set(view.get("hand") or [])
        hand = HAND.search(html)
        shown_hand = set(CARD.findall(hand.group(1))) if hand else set()
        if shown_hand != own:
            self.wrong.append(
                f"{via}: {phone.player.name} (table {table.number}, seat {seat.position}) "
                f"was shown the hand {sorted(shown_hand)}, holds {sorted(own)}"
            )
        others = set()
        for other in Seat.objects.filter(table__round=self.round).select_related("table"):
            if other.table.state is None or other.player_id == phone.player.pk:
                continue
            other_state = self.engine.load(other.table.state)
            others |= set(self.engine.view(other_state, other.position).get("hand") or [])
        leaked = set(CARD.findall(html)) & (others - _strings(view))
        if leaked:
            self.wrong.append(f"{via}: {phone.player.name} was shown others' cards {leaked}")

    def check_board(self, conn, html):
        table = Table.objects.filter(pk=conn.table_id).first()
        if table is None or table.state is None:
            return
        public = _strings(self.engine.view(self.engine.load(table.state), None))
        shown = set(CARD.findall(html))
        if not shown <= public:
            self.wrong.append(f"spectator of table {table.number} was shown {shown - public}")

    def poll_all(self):
        for phone in self.phones:
            phone.poll()
        for conn in list(self.boards.values()):
            table = Table.objects.filter(pk=conn.table_id).select_related("round").first()
            if table is None:
                continue
            url = reverse(
                "table_watch_board", args=[self.tournament.pk, self.round.number, table.number]
            )
            response = self.client.get(url)
            if response.status_code == 200:
                self.check_board(conn, response.content.decode())


def _at(rnd, number: int, position: int):
    return Seat.objects.get(table__round=rnd, table__number=number, position=position).player


def _reseat(world: World, change: str) -> None:
    rnd, owner = world.round, world.owner
    if change == "drop":
        players.player_drop(player=_at(rnd, 1, 0), by=owner)
    elif change == "leave":
        registrations.player_leave(player=_at(rnd, 1, 1))
    else:
        rnd = seating.seating_unpublish(round=rnd, by=owner)
        world.flush()
        seating.seating_swap(round=rnd, player_a=_at(rnd, 1, 0), player_b=_at(rnd, 2, 3), by=owner)
        seating.seating_swap(round=rnd, player_a=_at(rnd, 1, 1), player_b=_at(rnd, 1, 2), by=owner)
        seating.seating_publish(round=rnd, by=owner)


@pytest.mark.parametrize("change", CHANGES)
@pytest.mark.parametrize("game", GAMES)
def test_after_a_reseat_every_phone_shows_its_own_players_hand_only(game, change, client, signals):
    world = World(game, client, signals)
    _reseat(world, change)
    world.flush()
    world.poll_all()
    round_life.round_start(round=world.round, by=world.owner)
    world.flush()
    world.poll_all()
    rng = random.Random(7)
    for _move in range(3):
        tables = [t for t in world.round.tables.all() if t.state is not None]
        table = tables[_move % len(tables)]
        state = world.engine.load(table.state)
        seat = world.engine.to_act(state)[0]
        action = rng.choice(world.engine.legal_actions(state, seat))
        table_move(table=table, seat=seat, action=action)
        world.flush()
        world.poll_all()
    seated = Seat.objects.filter(table__round=world.round, player__isnull=False).count()
    live = [p for p in world.phones if p.conn is not None and not p.conn.closed]
    assert not world.wrong, (
        f"{world.bad} of {world.checked} screens showed another seat: " + "; ".join(world.wrong[:4])
    )
    assert not world.stopped, f"the pushes of tables {set(world.stopped)} stopped"
    assert len(live) == seated, "every seated player's phone has its stream open again"
    assert world.checked >= seated + 9, "every screen was pushed at the start and after each move"


def test_a_screen_that_fails_to_draw_ends_its_own_stream_only(monkeypatch):
    """One seat's screen raising (a bug, a state it can't show) costs that
    stream a reload; the table's other screens are still pushed."""
    from tests.factories import digital_table

    table = digital_table(game="trumpet", players=4, secret=deal_secret(5))
    conns = [
        redraw.Conn(
            kind=redraw.SEAT,
            table_id=table.pk,
            round_id=table.round_id,
            language="en",
            position=pos,
            token=token_for(table, pos),
        )
        for pos in range(4)
    ]
    drawn = redraw.seat_panel

    def seat_panel(snapshot, conn, **kwargs):
        if conn.position == 2:
            raise IndexError("list index out of range")
        return drawn(snapshot, conn, **kwargs)

    monkeypatch.setattr(redraw, "seat_panel", seat_panel)
    events = {conn.position: event for conn, event, _text, _v in redraw.table_pass(table.pk, conns)}
    assert events == {0: "panel", 1: "panel", 2: redraw.RELOAD, 3: "panel"}


def test_a_reload_event_is_the_streams_last_word(monkeypatch):
    """The hub sends the reload event and ends the stream (the browser then
    loads the page anew, with the link's seat)."""
    import asyncio

    from tournaments.push import hub as hub_module

    def fake_in_thread(work, *args):
        if work is hub_module.redraw.round_pass:
            return [], set()
        _table_id, conns = args
        return [(c, redraw.RELOAD, "", None) for c in conns]

    async def no_listen(on_messages, on_resync):
        await asyncio.sleep(3600)

    monkeypatch.setattr(hub_module.redraw, "in_thread", fake_in_thread)
    monkeypatch.setattr(hub_module.bus, "listen", no_listen)

    async def run():
        hub = hub_module.Hub()
        conn = redraw.Conn(kind="seat", table_id=1, round_id=1, language="en", token="k1")
        stream = hub.stream(conn)
        assert (await stream.__anext__()).startswith("retry:")
        sent = await asyncio.wait_for(stream.__anext__(), 5)
        assert sent == "event: reload\ndata: \n\n"
        with pytest.raises(StopAsyncIteration):
            await asyncio.wait_for(stream.__anext__(), 5)
        assert hub.count() == 0
        hub.listener.cancel()

    asyncio.run(run())
