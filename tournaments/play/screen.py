"""Digital tables in the browser: what a player sees at his seat.

``seat_screen(seat)`` reads a digital table and returns everything the play
partial (``tournaments/play/panel.py``) shows to that seat — built only from
``engine.view(state, seat)``, ``engine.legal_actions(state, seat)``, the
deck's card dicts and, at the end, ``engine.result(state)``; never from the
full state. ``move(seat, action)`` passes a move to
:func:`tournaments.play.tables.table_move` and turns a refusal into a
message for the player.

The per-game labels and summaries live in one small module per game
(``tournaments/play/<game id>.py``); the rules stay in ``games/``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Count, Exists, OuterRef, Subquery
from django.db.models.functions import Coalesce, Now
from django.utils.translation import gettext as _

from tournaments.clock import from_db
from tournaments.collation import name_key
from tournaments.models import Round, Seat, SeatingChange, Table, TableAction
from tournaments.play.altruismus import Altruismus
from tournaments.play.base import Ctx, Presentation, card_index
from tournaments.play.monddaemmerung import Monddaemmerung
from tournaments.play.quartett import Quartett
from tournaments.play.tables import table_move
from tournaments.play.terra_trumpf import TerraTrumpf
from tournaments.play.trumpet import Trumpet
from tournaments.prepared import PreparedQuery
from tournaments.selectors import seats_in_order
from tournaments.services.deadlines import TimeIsUp, db_now, playing_deadline
from tournaments.services.errors import ServiceError

PRESENTATIONS: dict[str, Presentation] = {
    "quartett": Quartett(),
    "terra_trumpf": TerraTrumpf(),
    "trumpet": Trumpet(),
    "monddaemmerung": Monddaemmerung(),
    "altruismus": Altruismus(),
}


def presentation(game_id: str) -> Presentation:
    """The game's presentation (the plain default for a game without one)."""
    return PRESENTATIONS.get(game_id) or Presentation()


def _names(table: Table) -> list[str]:
    return [seat.name for seat in seats_in_order(table)]


def _clock(table: Table, rnd: Round, now=None) -> dict:
    """Where the table stands on the clock, as the move service sees it."""
    now = now or db_now()
    grace = rnd.tournament.grace_seconds
    info = {
        "time_called": table.time_called_at is not None,
        "grace_end": None,
        "in_grace": False,
        "time_up": False,
        "paused": rnd.status == Round.PAUSED,
        "running": False,
    }
    if table.time_called_at is not None:
        end = table.time_called_at + timedelta(seconds=grace)
        info["grace_end"] = end
        info["in_grace"] = now < end and table.status != Table.DONE
        return info
    deadline = playing_deadline(table, rnd)
    if deadline is not None:
        if now >= deadline:
            info["time_up"] = True  # the close is due: moves are refused until it runs
        else:
            info["running"] = True
    return info


def _version(table: Table, rnd: Round, clock: dict) -> str:
    """Changes whenever what the screen shows may change: a move, a status,
    time called or up. Not a pause or a resume: the screen looks the same
    (the page greys its moves and says "paused" from the round's clock, which
    every stream gets as one small event), so a pause redraws no screen."""
    return ".".join(
        str(x)
        for x in (
            table.n_actions,
            table.status,
            Round.RUNNING if rnd.status == Round.PAUSED else rnd.status,
            int(clock["time_called"]),
            int(clock["time_up"]),
            int(clock["in_grace"]),
        )
    )


def _paused_on_time(clock: dict) -> bool:
    """Paused with time left: the moves are shown (the page disables them)."""
    return clock["paused"] and not clock["time_called"] and not clock["time_up"]


def seat_version(seat: Seat) -> str:
    """The screen's version without building it (the poll's cheap check)."""
    return table_version(seat.table_id) or ""


def table_version(table_id: int) -> str | None:
    """The play screen's version of a table in one query: the fields the
    version reads, the number of moves and the database's time — neither the
    game state nor the round's seating figures are loaded (None: no table)."""
    return _versions(_TABLE_VERSION(table_id)).get(table_id)


def round_table_versions(round_id: int) -> dict[int, str]:
    """The versions of every table of a round, in one query (what a poll of
    one of them computes for all, once a second)."""
    return _versions(_ROUND_VERSIONS(round_id))


def _with_version(tables):
    """``tables`` annotated with what a screen's version reads — the number
    of moves, of bot seats and the database's time — in the same statement
    that reads the table, so the version always belongs to the state read
    with it (a move committed while a screen is built can't hide behind a
    version that already counts it)."""
    moves = (
        TableAction.objects.filter(table=OuterRef("pk"))
        .order_by()
        .values("table")
        .annotate(n=Count("pk"))
        .values("n")
    )
    # a seat given to the bot or handed back shows at once on every screen
    bots = (
        Seat.objects.filter(table=OuterRef("pk"), bot=True)
        .order_by()
        .values("table")
        .annotate(n=Count("pk"))
        .values("n")
    )
    # a re-seat (a drop, a swap, a move, unpublish and publish) is logged on
    # its round: every screen of the round is redrawn, each from its link
    seating = (
        SeatingChange.objects.filter(round=OuterRef("round_id"))
        .order_by()
        .values("round")
        .annotate(n=Count("pk"))
        .values("n")
    )
    return tables.annotate(
        n_actions=Coalesce(Subquery(moves), 0),
        n_bots=Coalesce(Subquery(bots), 0),
        n_seating=Coalesce(Subquery(seating), 0),
        db_time=Now(),
    )


def _full_version(table: Table, rnd: Round, clock: dict) -> str:
    """The version of every screen of the table: its moves, status and clock
    (:func:`_version`), its bot seats (a seat given to the bot or handed back
    changes every screen) and the round's seating changes (a re-seat changes
    who sits where)."""
    return f"{_version(table, rnd, clock)}.{table.n_bots}.{table.n_seating}"


def seat_key(table_id: int, position: int) -> str:
    """Which seat a seat page shows: its table and position. A page, a poll
    and a stream carry it, so one whose link now leads elsewhere (a re-seat)
    is reloaded instead of showing that seat's cards to someone else."""
    return f"{table_id}.{position}"


def _for_versions(tables):
    """``tables`` with what a version reads and no more (their state and
    secret stay in the database)."""
    return _with_version(
        tables.select_related("round__tournament").only(
            "status",
            "deadline",
            "time_called_at",
            "round__status",
            "round__deadline",
            "round__tournament__grace_seconds",
        )
    )


#: the version queries every poll and push runs, compiled once per process
_TABLE_VERSION = PreparedQuery(lambda table_id: _for_versions(Table.objects.filter(pk=table_id)))
_ROUND_VERSIONS = PreparedQuery(
    lambda round_id: _for_versions(Table.objects.filter(round_id=round_id))
)


def _versions(tables) -> dict[int, str]:
    out = {}
    for table in tables:
        clock = _clock(table, table.round, from_db(table.db_time))
        out[table.pk] = _full_version(table, table.round, clock)
    return out


@dataclass(frozen=True)
class TableSnapshot:
    """What every seat of a digital table shares at one version: the table,
    its round, the seats in order, the clock and the game state loaded once.
    A seat's screen adds only its own view, hand and legal moves
    (:func:`seat_part`). Kept in this process for the table's latest version
    only, and never sent anywhere: it holds the full state."""

    table: Table
    round: Round
    seats: list
    names: list[str]
    bots: frozenset
    clock: dict
    version: str
    state: dict | None
    cards: dict | None
    over: bool


#: a snapshot's table: its round and tournament, its version's counts and
#: whether the bot moved, in one statement compiled once per process
_SNAPSHOT_TABLE = PreparedQuery(
    lambda table_id: _with_version(
        Table.objects.select_related("round__tournament").filter(pk=table_id)
    ).annotate(bot_moved=Exists(TableAction.objects.filter(table=OuterRef("pk"), by_bot=True)))
)

#: table id → its latest snapshot in this process (see table_snapshot)
_SNAPSHOTS: dict[int, TableSnapshot] = {}
_SNAPSHOTS_MAX = 4000


def table_snapshot(table_id: int, version: str | None = None) -> TableSnapshot | None:
    """The table's shared part: reused when this process already built it at
    ``version`` (the version a poll or a push knows without a query), else
    read in two queries — the table with its version in one statement, then
    its seats — and the state loaded once (None: no such table)."""
    if version is not None:
        hit = _SNAPSHOTS.get(table_id)
        if hit is not None and hit.version == version:
            return hit
    found = _SNAPSHOT_TABLE(table_id)
    if not found:
        return None
    table = found[0]
    rnd = table.round
    engine = rnd.tournament.engine
    seats = seats_in_order(table)  # after the version: at worst newer than it
    clock = _clock(table, rnd, from_db(table.db_time))
    state = engine.load(table.state) if table.state is not None else None
    snapshot = TableSnapshot(
        table=table,
        round=rnd,
        seats=seats,
        names=[s.name for s in seats],
        bots=frozenset(s.position for s in seats if s.bot),
        clock=clock,
        # as the poll's version (_versions)
        version=_full_version(table, rnd, clock),
        state=state,
        cards=(
            card_index(engine, state["players"], state.get("options") or {})
            if state is not None
            else None
        ),
        over=engine.is_over(state) if state is not None else False,
    )
    if len(_SNAPSHOTS) >= _SNAPSHOTS_MAX:
        _SNAPSHOTS.clear()
    _SNAPSHOTS[table_id] = snapshot
    return snapshot


def forget_snapshots() -> None:
    """Forget this process's snapshots (tests)."""
    _SNAPSHOTS.clear()


def seat_screen(seat: Seat, *, error: str = "", version: str | None = None) -> dict:
    """Everything the play partial shows to ``seat`` (read fresh, or from
    this process's snapshot of the table at ``version``)."""
    snapshot = table_snapshot(seat.table_id, version)
    if snapshot is None:
        raise Table.DoesNotExist
    return seat_part(snapshot, seat.position, error=error, me=seat)


def known_seat_screen(
    table_id: int, shown_seat: str, player_id: int, version: str | None
) -> dict | None:
    """The screen of the seat ``shown_seat`` (:func:`seat_key`) for a seat
    link the shared cache knows (its player ``player_id``), from the table's
    snapshot at ``version``, without the link's query — or None when the
    link must be checked against the database (:func:`seat_holding`)."""
    position = int(shown_seat.rpartition(".")[2])
    snapshot = table_snapshot(table_id, version)
    if snapshot is None:
        return None
    seat = seat_holding(snapshot, position, player_id)
    return None if seat is None else seat_part(snapshot, position, me=seat)


def seat_holding(snapshot: TableSnapshot, position: int, player_id: int):
    """The snapshot's seat at ``position`` when it still holds the player a
    seat link the shared cache knows is for, and that link may act — else
    None, and the link must be checked against the database: the round is a
    draft again or its tournament archived, that seat no longer holds the
    link's player (a re-seat), or the player dropped. A revoked link is
    forgotten by the cache at once (``poll_cache.forget_seats``)."""
    if not snapshot.round.published or snapshot.round.tournament.archived_at is not None:
        return None
    seat = next((s for s in snapshot.seats if s.position == position), None)
    if seat is None or seat.player is None or seat.player_id != player_id:
        return None
    if seat.player.dropped:
        return None
    return seat


def seat_part(snapshot: TableSnapshot, position: int, *, error: str = "", me=None) -> dict:
    """One seat's screen from the table's snapshot: its own view of the game,
    its hand and its legal moves — nothing of another seat's hidden cards
    (``engine.view(state, position)`` is the only view of the state used)."""
    table, rnd = snapshot.table, snapshot.round
    engine = rnd.tournament.engine
    names = snapshot.names
    clock = snapshot.clock
    screen = {
        "table": table,
        "round": rnd,
        "me": me,
        "names": names,
        "error": error,
        "started": snapshot.state is not None,
        "game_name": engine.name,
        "clock": clock,
        "version": snapshot.version,
        "seat_key": seat_key(table.pk, position),
    }
    if snapshot.state is None:
        screen["polling"] = True
        return screen
    state = snapshot.state
    view = engine.view(state, position)
    over = snapshot.over
    bots = snapshot.bots
    screen["bot"] = position in bots
    screen["seen"] = table.n_actions  # the moves this screen shows
    # a paused clock shows the moves as running would (the page disables them
    # from the clock's status; the move service refuses them meanwhile)
    on_clock = clock["running"] or clock["in_grace"] or _paused_on_time(clock)
    can_move = not over and on_clock and not screen["bot"]
    legal = engine.legal_actions(state, position) if can_move else []
    game = presentation(engine.id)
    ctx = Ctx(
        engine=engine,
        view=view,
        legal=legal,
        seat=position,
        names=names,
        cards=snapshot.cards,
        extra={"options": state.get("options") or {}},
    )
    labels = {a: game.action_label(ctx, a) or a for a in legal}
    hand, attached = _hand(game, ctx, labels)
    to_act = list(view.get("to_act") or [])
    rows = game.player_rows(ctx)
    for row in rows:
        row["bot"] = row["seat"] in bots
    screen.update(
        over=over,
        polling=not over,
        my_turn=position in to_act and bool(legal),
        waiting_for=[names[s] for s in to_act if s != position and s < len(names)],
        status=game.status(ctx) if not over else "",
        phase=view.get("phase"),
        hand=hand,
        hand_label=game.hand_label,
        show_hand=game.show_hand,
        actions=[{"action": a, "label": labels[a]} for a in legal if a not in attached],
        players=rows,
        score_label=game.score_label,
        facts=game.facts(ctx),
        trick=game.trick(ctx),
        last_trick=game.last_trick(ctx),
        extra_cards=game.extra_cards(ctx),
        bot_finished=table.bot_moved,
    )
    if over:
        screen["result"] = _result(engine, state, names, position)
    return screen


def _hand(game: Presentation, ctx: Ctx, labels: dict[str, str]) -> tuple[list[dict], set[str]]:
    """The seat's cards, each with the move that plays it when that move is
    legal now (``labels``: the legal moves' labels), and the moves so
    attached to a card (the other legal moves are shown as buttons)."""
    hand, attached = [], set()
    for cid in game.hand(ctx):
        action = f"play:{cid}"
        playable = action in labels
        if playable:
            attached.add(action)
        hand.append(
            {
                "card": game.card(ctx, cid),
                "action": action if playable else None,
                "label": labels.get(action, ""),
            }
        )
    return hand, attached


def _result(engine, state, names: list[str], me: int) -> dict:
    result = engine.result(state)
    rows = sorted(
        (
            {
                "rank": result.ranks[i],
                "name": name,
                "figure": result.figures[i],
                "me": i == me,
            }
            for i, name in enumerate(names)
        ),
        key=lambda r: (r["rank"], name_key(r["name"])),
    )
    return {"rows": rows, "figure_label": _(engine.figure_label) if engine.figure_label else ""}


def move(seat: Seat, action: str, seen: str | None = None) -> str:
    """Play ``action`` for ``seat``; "" when done, else the reason it was refused.
    ``seen``: the number of moves the player's screen showed (a move from an
    older screen is refused, so a double click plays once)."""
    action = (action or "").strip()[:200]
    if not action:
        return _("Choose a move.")
    try:
        shown = int(seen) if seen not in (None, "") else None
    except (TypeError, ValueError):
        shown = -1  # a forged number: refused as a stale screen
    try:
        table_move(table=seat.table, seat=seat.position, action=action, seen=shown)
    except TimeIsUp as exc:
        return str(exc)
    except ServiceError as exc:
        return _refusal(seat, exc)
    return ""


def _refusal(seat: Seat, exc: ServiceError) -> str:
    """Why a move was refused, said for the player: "not your turn" with the
    names of those the engine waits for; otherwise the service's reason."""
    table = Table.objects.select_related("round__tournament").get(pk=seat.table_id)
    if table.state is None:
        return _("The game starts when the organizer starts the round.")
    engine = table.round.tournament.engine
    state = engine.load(table.state)
    if engine.is_over(state):
        return _("The game is over.")
    if table.seats.filter(position=seat.position, bot=True).exists():
        return str(exc)
    to_act = engine.to_act(state)
    if seat.position not in to_act:
        names = _names(table)
        return _("It is not your turn: waiting for %(names)s.") % {
            "names": ", ".join(names[s] for s in to_act if s < len(names))
        }
    return str(exc)
