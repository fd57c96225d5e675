"""What a push sends, built in one of the push threads of a web process
(never in the event loop): each connection's new screen after a change.

A connection asks for one of three things: a seat's play partial (its own
view only — :func:`tournaments.play.screen.seat_part` reads nothing but
``engine.view(state, seat)`` of the state), the spectator's board (the public
view), and the round's clock partial. What every seat of a table shares is
read once per table and change (:func:`tournaments.play.screen.table_snapshot`);
a seat adds its own hand and legal moves, and a screen equal to the one the
connection shows is not sent.

A seat's stream never trusts the seat it was opened with: before each redraw
its link is resolved anew — from the shared cache when the table's seat, read
with the change, still holds the link's player, else in the database
(:func:`tournaments.play.links.seats_now`, one query pair per table) — and a
link that now leads to another seat than the
page shows (a drop, a player leaving, a swap or a move of a re-published
seating), or can't act any more, gets a ``reload`` event and its stream ends:
the page is loaded anew with the link's seat. A screen that fails to draw
costs its own stream only (logged, reloaded), never the table's others.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from django.db import close_old_connections
from django.template.loader import render_to_string
from django.utils import translation

from tournaments import live
from tournaments.models import Table
from tournaments.play import links, poll_cache, screen, watch
from tournaments.play.panel import panel_html

log = logging.getLogger(__name__)

SEAT = "seat"
WATCH = "watch"
#: the event that has the page loaded anew; its stream ends after it
RELOAD = "reload"


@dataclass(eq=False)
class Conn:
    """One open stream: whose screen it shows and what it shows now."""

    kind: str
    table_id: int
    round_id: int
    language: str
    position: int | None = None
    token: str = ""
    #: the seat the page shows (``screen.seat_key``; "": the table and
    #: position above, the link's seat when the stream was opened): a link
    #: that leads elsewhere now has the page reloaded
    seat: str = ""
    csrf_token: str = ""
    #: the version of the screen the browser shows ("" unknown)
    version: str = ""
    #: the clock partial's figures the browser shows
    clock: tuple | None = None
    #: what is waiting to be sent: event name → its text (a newer one replaces it)
    outbox: dict = field(default_factory=dict)
    closed: bool = False
    #: set when there is something to send (the stream's event, in its loop)
    waiter: object = None


def in_thread(work, *args):
    """``work(*args)`` in a push thread, whose database connection is handled
    as a request's: one the database dropped, or past its age, is opened anew."""
    close_old_connections()
    try:
        return work(*args)
    finally:
        close_old_connections()


def versions_of_round(round_id: int) -> dict[int, str]:
    """The play-screen versions of a round's tables, read now (one query)."""
    return screen.round_table_versions(round_id)


def redraw(
    tables: set[int], rounds: set[int], conns: list[Conn]
) -> list[tuple[Conn, str, str, object]]:
    """The events to send: ``(connection, event, text, what it now shows)``
    for every connection among ``conns`` of a changed table (``tables``) or
    round (``rounds``: the clock partial, and any of its tables whose version
    moved) whose screen differs from the one it shows."""
    events, moved = round_pass(rounds, conns)
    tables = set(tables) | moved
    by_table: dict[int, list[Conn]] = {}
    for conn in conns:
        if conn.table_id in tables:
            by_table.setdefault(conn.table_id, []).append(conn)
    for table_id, members in by_table.items():
        events += table_pass(table_id, members)
    return events


def round_pass(rounds: set[int], conns: list[Conn]) -> tuple[list, set[int]]:
    """For changed rounds: the clock partial's events, and the tables among
    ``conns``' whose screens' versions moved (to be redrawn by
    :func:`table_pass`)."""
    events: list = []
    moved: set[int] = set()
    by_round: dict[int, list[Conn]] = {}
    for conn in conns:
        by_round.setdefault(conn.round_id, []).append(conn)
    for round_id in rounds:
        members = by_round.get(round_id, [])
        if not members:
            continue
        events += _clocks(round_id, members)
        versions = versions_of_round(round_id)
        moved.update(c.table_id for c in members if versions.get(c.table_id) != c.version)
    return events, moved


def table_pass(table_id: int, members: list[Conn]) -> list:
    """A changed table's events: its snapshot read once, each seat's own
    screen and the spectators' board where they differ from what is shown."""
    return _table(table_id, [c for c in members if c.table_id == table_id])


def _table(table_id: int, members: list[Conn]) -> list:
    snapshot = screen.table_snapshot(table_id)
    if snapshot is None:  # the table is gone (a re-seat removed it): pages anew
        return [(conn, RELOAD, "", None) for conn in members]
    seats = _seats_now(snapshot, table_id, {c.token for c in members if c.kind == SEAT})
    out = []
    boards: dict[str, str] = {}
    # one seat's screen drawn once for all its streams (a phone and a second
    # tab, a page reloaded): each gets it with its own form token
    panels: dict[tuple, str] = {}
    for conn in members:
        if conn.kind == SEAT:
            now = seats.get(conn.token)
            shows = conn.seat or screen.seat_key(conn.table_id, conn.position)
            if now is None or screen.seat_key(*now) != shows or now[0] != table_id:
                # the link leads to another seat, or can't act: never this seat's screen
                out.append((conn, RELOAD, "", None))
                continue
            conn.position = now[1]
        if conn.version == snapshot.version:
            continue
        try:
            with translation.override(conn.language):
                if conn.kind == SEAT:
                    key = (conn.position, conn.language, conn.token)
                    if key not in panels:
                        panels[key] = seat_panel(snapshot, conn, csrf_token=_CSRF_MARK)
                    text = panels[key].replace(_CSRF_MARK, conn.csrf_token)
                    out.append((conn, "panel", text, snapshot.version))
                else:
                    if conn.language not in boards:
                        boards[conn.language] = spectator_board(table_id)
                    out.append((conn, "board", boards[conn.language], snapshot.version))
        except Exception:  # one screen that can't be drawn ends its own stream only
            log.exception("push: table %s: a %s screen could not be drawn", table_id, conn.kind)
            out.append((conn, RELOAD, "", None))
    return out


def _seats_now(snapshot, table_id: int, tokens: set[str]) -> dict[str, tuple[int, int]]:
    """Where each stream's seat link leads now (``links.seats_now``): a link
    the shared cache knows whose seat in the snapshot, read after the change,
    still holds its player is checked without a query; the others (a re-seat
    moved the player, the cache doesn't know the link) in the database."""
    out, unknown = {}, []
    for token in tokens:
        known = poll_cache.seat_table(token)
        if known is not None and known[0] == table_id:
            position = int(known[2].rpartition(".")[2])
            if screen.seat_holding(snapshot, position, known[3]) is not None:
                out[token] = (table_id, position)
                continue
        unknown.append(token)
    if unknown:
        out.update(links.seats_now(unknown))
    return out


#: stands for a stream's form token in a seat's screen drawn once for all its streams
_CSRF_MARK = "csrf0mark0of0a0push0stream"


def seat_panel(snapshot, conn: Conn, *, csrf_token: str | None = None) -> str:
    """A seat's play partial: its own screen, nothing of another seat's cards."""
    return panel_html(
        screen.seat_part(snapshot, conn.position),
        conn.token,
        conn.csrf_token if csrf_token is None else csrf_token,
    )


def spectator_board(table_id: int) -> str:
    """The spectator view's board: the public view only."""
    table = Table.objects.select_related("round__tournament").get(pk=table_id)
    return render_to_string("play/watch_board.html", {"screen": watch.spectator_screen(table)})


def _clock_figures(entry: dict) -> tuple:
    """What the clock partial shows that changes only with the round (the
    countdown itself runs in the browser)."""
    return (
        entry["status"],
        entry["deadline_ms"],
        entry["left"] if entry["left"] is None else round(entry["left"]),
        entry["tables_done"],
        entry["tables_total"],
        tuple(entry["open_tables"]),
    )


def _clocks(round_id: int, members: list[Conn]) -> list:
    entry = live.clock_entry_now(round_id)
    if entry is None:
        return []
    figures = _clock_figures(entry)
    out = []
    rendered: dict[str, str] = {}
    for conn in members:
        if conn.kind != SEAT or conn.clock == figures:
            continue
        if conn.language not in rendered:
            with translation.override(conn.language):
                rendered[conn.language] = clock_partial(entry)
        out.append((conn, "clock", rendered[conn.language], figures))
    return out


def clock_partial(entry: dict) -> str:
    """The round's clock partial as the seat page polls it (no request: the
    link's poll address is filled in by the browser's page)."""
    context = live.clock_context(entry)
    return render_to_string(
        "tournaments/round/status.html", context | {"status_url": "", "big": False}
    )


def initial_clock(round_id: int) -> tuple | None:
    entry = live.clock_entry(round_id)
    return _clock_figures(entry) if entry is not None else None
