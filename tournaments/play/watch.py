"""Reads for looking at a digital table from outside a seat: the spectator
view (public information only), the review of the record move by move
(every seat's hand for the organizer, and for scorekeepers once the table is
over; the public replay without), and the organizer's list of bot and idle
seats.

The public screens are built from ``engine.view(state, None)`` alone and a
move's public label from ``engine.public_action`` (what everyone saw of it);
the seat views from ``engine.view(state, seat)``. The rules stay in
``games/``; the record is the table's ``TableAction`` rows replayed from the
deal (:func:`tournaments.play.tables.table_record`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db.models import Count, Max
from django.utils.translation import gettext as _

from games.base import TIME_CALLED
from tournaments.collation import name_key
from tournaments.models import ClockActivation, Round, Seat, SeatingChange, Table, TableAction
from tournaments.play.base import Ctx, card_index
from tournaments.play.screen import presentation
from tournaments.play.tables import replay_states
from tournaments.services.deadlines import db_now


def _presentation(engine):
    return presentation(engine.id)


def _seats(table: Table) -> list[Seat]:
    return list(table.seats.select_related("player").order_by("position"))


def board(engine, state: dict, names: list[str], *, seat: int | None = None) -> dict:
    """What one look at the table shows: the players' rows, the trick, the
    last trick, the facts and whose turn it is; with ``seat`` also that
    seat's hand and own cards (the organizer's review). Built only from
    ``engine.view(state, seat)`` (``seat`` None: the public view)."""
    view = engine.view(state, seat)
    game = _presentation(engine)
    options = state.get("options") or {}
    ctx = Ctx(
        engine=engine,
        view=view,
        legal=[],
        seat=seat,
        names=names,
        cards=card_index(engine, state["players"], options),
        extra={"options": options},
    )
    over = engine.is_over(state)
    to_act = [s for s in (view.get("to_act") or []) if isinstance(s, int) and s < len(names)]
    out = {
        "over": over,
        "status": "" if over else game.status(ctx),
        "to_act": [names[s] for s in to_act] if not over else [],
        "players": game.player_rows(ctx),
        "score_label": game.score_label,
        "hand_label": game.hand_label,
        "show_hand": game.show_hand,
        "facts": game.facts(ctx),
        "trick": game.trick(ctx),
        "last_trick": game.last_trick(ctx),
        "hand": [],
        "extra_cards": [],
    }
    if seat is not None:
        out["hand"] = [game.card(ctx, cid) for cid in game.hand(ctx)]
        out["extra_cards"] = game.extra_cards(ctx)
    if over:
        result = engine.result(state)
        out["result"] = sorted(
            (
                {"rank": result.ranks[i], "name": name, "figure": result.figures[i]}
                for i, name in enumerate(names)
            ),
            key=lambda r: (r["rank"], name_key(r["name"])),
        )
        out["figure_label"] = _(engine.figure_label) if engine.figure_label else ""
    return out


# -- the spectator view -----------------------------------------------------------


def spectator_version(table: Table) -> str:
    """Changes whenever the spectator view may change (one small query)."""
    row = Table.objects.filter(pk=table.pk).values("status", "round_id", "round__status").get()
    moves = TableAction.objects.filter(table_id=table.pk).aggregate(n=Max("number"))["n"]
    bots = Seat.objects.filter(table_id=table.pk, bot=True).count()
    # a re-seat (logged on the round) changes the names the board shows
    seating = SeatingChange.objects.filter(round_id=row["round_id"]).count()
    return (
        f"{-1 if moves is None else moves}.{row['status']}.{row['round__status']}.{bots}.{seating}"
    )


def spectator_screen(table: Table) -> dict:
    """The public view of a table (nobody's cards), read fresh."""
    # the version before the state: the view shown is at least as new as its
    # version, so a move made meanwhile makes the next poll redraw
    version = spectator_version(table)
    table = Table.objects.select_related("round__tournament").get(pk=table.pk)
    engine = table.round.tournament.engine
    seats = _seats(table)
    names = [s.name for s in seats]
    screen = {
        "table": table,
        "round": table.round,
        "tournament": table.round.tournament,
        "game_name": engine.name,
        "started": table.state is not None,
        "version": version,
        "bots": [s.position for s in seats if s.bot],
    }
    if table.state is not None:
        screen["board"] = board(engine, engine.load(table.state), names)
        _mark_bots(screen["board"]["players"], screen["bots"])
    return screen


def _mark_bots(rows: list[dict], bots: list[int]) -> None:
    for row in rows:
        row["bot"] = row["seat"] in bots


# -- the review ---------------------------------------------------------------------


@dataclass
class Step:
    number: int  # 0 = the deal, k = after the k-th action
    seat: int | None
    action: str
    by_bot: bool
    at: object


def review_shows_hands(table: Table, role: str | None) -> bool:
    """Whether the review shows every seat's hand to a user of ``role``
    ("owner", "scorekeeper", None = the public): the organizer always, to
    settle a dispute; a scorekeeper once the table is over (while it runs a
    scorekeeper could pass a hand on to a player); the public never."""
    if role == "owner":
        return True
    if role != "scorekeeper":
        return False
    if table.status == Table.DONE:
        return True
    engine = table.round.tournament.engine
    return table.state is not None and engine.is_over(engine.load(table.state))


def review(table: Table, step: int | None, *, role: str | None = None) -> dict:
    """The table's record replayed up to ``step`` (default: the end).

    ``role`` is the user's in the tournament ("owner", "scorekeeper", None
    for the public page). Everyone gets the public board and the public
    label of the move — both built only from ``engine.view(state, None)``
    and ``engine.public_action``, so no step names a card some seat keeps
    hidden. When :func:`review_shows_hands`, also every seat's own view
    (hand) and the move as its mover made it ("hands")."""
    table = Table.objects.select_related("round__tournament").get(pk=table.pk)
    engine = table.round.tournament.engine
    seats = _seats(table)
    names = [s.name for s in seats]
    rows = list(table.actions.order_by("number"))
    steps = [Step(0, None, "", False, None)] + [
        Step(i + 1, None if r.seat < 0 else r.seat, r.action, r.by_bot, r.at)
        for i, r in enumerate(rows)
    ]
    last = len(steps) - 1
    if step is None or step > last:
        step = last
    step = max(step, 0)
    hands = review_shows_hands(table, role)
    out = {
        "table": table,
        "round": table.round,
        "tournament": table.round.tournament,
        "game_name": engine.name,
        "started": table.state is not None,
        "step": step,
        "last": last,
        "steps": steps,
        "staff_page": role is not None,
        "role": role,
        "hands": hands,
    }
    if table.state is None:
        return out
    states = replay_states(table, rows[:step])
    state = states[-1]
    current = steps[step]
    out["current"] = current
    out["board"] = board(engine, state, names)
    if step:
        before = states[-2]
        out["public_label"] = public_move_label(engine, before, state, names, current)
    if hands:
        out["mover"] = names[current.seat] if current.seat is not None else ""
        out["move_label"] = _move_label(engine, states[-2], names, current) if step else ""
        out["seat_views"] = [
            {"name": names[pos], "number": pos + 1, "board": board(engine, state, names, seat=pos)}
            for pos in range(len(names))
        ]
    return out


def _ctx(engine, state: dict, view: dict, seat: int | None, names: list[str]) -> Ctx:
    options = state.get("options") or {}
    return Ctx(
        engine=engine,
        view=view,
        legal=[],
        seat=seat,
        names=names,
        cards=card_index(engine, state["players"], options),
        extra={"options": options},
    )


def public_move_label(engine, before: dict, after: dict, names: list[str], step: Step) -> str:
    """The move of a step in a sentence for everyone: the presentation's
    words for ``engine.public_action(before, seat, action)``, with the
    public view after the move (``engine.view(after, None)``) and nothing
    else — never the mover's hand, the action string or the full state."""
    seat = step.seat if step.seat is not None else -1
    public = engine.public_action(before, seat, step.action)
    ctx = _ctx(engine, after, engine.view(after, None), None, names)
    return _presentation(engine).public_label(ctx, step.seat, public)


def _move_label(engine, before, names, step: Step) -> str:
    """The move of a step as its mover made it (the presentation's button
    label from the mover's view before the move; the raw action when it has
    none), for those who see every hand."""
    if (step.seat if step.seat is not None else -1, step.action) == TIME_CALLED:
        return _("Time called.")
    game = _presentation(engine)
    ctx = _ctx(engine, before, engine.view(before, step.seat), step.seat, names)
    return game.action_label(ctx, step.action) or step.action


# -- the organizer's list of digital seats --------------------------------------------


def digital_seats(rnd: Round) -> list[dict]:
    """Per digital table of the round: its seats (player, bot or not,
    seconds idle when the game waits for that player longer than
    ``settings.DIGITAL_IDLE_SECONDS``), for the organizer's round page."""
    rnd = Round.objects.select_related("tournament").get(pk=rnd.pk)
    tables = list(
        Table.objects.filter(round=rnd, digital=True)
        .select_related("round__tournament")
        .annotate(last_at=Max("actions__at"), moves=Count("actions"))
        .order_by("number")
    )
    if not tables:
        return []
    seats: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(table__in=tables).select_related("player").order_by("position"):
        seats.setdefault(seat.table_id, []).append(seat)
    started = ClockActivation.objects.filter(
        round=rnd, table__isnull=True, kind__in=[ClockActivation.START, ClockActivation.RESUME]
    ).aggregate(at=Max("at"))["at"]
    now = db_now()
    limit = timedelta(seconds=settings.DIGITAL_IDLE_SECONDS)
    engine = rnd.tournament.engine
    out = []
    for table in tables:
        waiting: set[int] = set()
        playing = (
            table.state is not None and table.status != Table.DONE and rnd.status == Round.RUNNING
        )
        if playing:
            state = engine.load(table.state)
            if not engine.is_over(state):
                waiting = set(engine.to_act(state))
        # waiting since the table's last move, or the clock's last start/resume
        times = [t for t in (table.last_at, started) if t is not None]
        idle_for = now - max(times) if times else None
        rows = []
        for seat in seats.get(table.pk, []):
            idle = (
                seat.position in waiting
                and not seat.bot
                and idle_for is not None
                and idle_for >= limit
            )
            rows.append(
                {
                    "seat": seat,
                    "idle": idle,
                    "idle_seconds": int(idle_for.total_seconds()) if idle else 0,
                    "to_act": seat.position in waiting,
                }
            )
        out.append(
            {
                "table": table,
                "seats": rows,
                "moves": table.moves,
                "can_change": table.status != Table.DONE and rnd.status != Round.COMPLETE,
                "idle": any(r["idle"] for r in rows),
            }
        )
    return out
