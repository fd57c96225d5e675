"""Digital tables: the rules engine plays the game, the database keeps it.

A digital table stores the engine's dumped state (``Table.state``) and an
append-only action log (``TableAction``, replayable from the table's deal seed
as a ``games.base.Record``). Moves are checked against the clock under a row lock;
at time the engine calls time, and after the tournament's grace period the
game's smart bot plays out what is left; the result becomes the table's
confirmed submission.

The deal draws on a secret the server keeps: when a table is
dealt it gets 32 bytes from ``secrets`` (``Table.secret``), and the engine's
seed is the whole HMAC-SHA256 of that secret, which keys the engines'
SHAKE-256 stream (``games/rng.py``), so the stored secret replays the deal
exactly (tables dealt before with the 64 bits cut from it keep those). Nothing public decides the cards: the organizer's seed, the
tournament, round and table numbers only decide the seating. The bots draw
their own seeds from the same secret under another label, so a bot's
choices tell nothing about the deal. A table dealt before secrets existed
has none and replays from its stored (public) seed.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connections, transaction
from django.db.models import Max
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.base import TIME_CALLED, IllegalAction, Record
from scoring import services as results
from tournaments.clock import from_db
from tournaments.models import Round, Seat, Table, TableAction
from tournaments.selectors import seats_in_order
from tournaments.services import deadlines
from tournaments.services.deadlines import (
    TimeIsUp,
    check_before_time,
    db_now,
    db_now_sql,
    lock_table,
)
from tournaments.services.errors import ServiceError

log = logging.getLogger(__name__)


#: the deal secret's size: 256 bits from the operating system's CSPRNG
SECRET_BYTES = 32


def new_deal_secret() -> str:
    """A fresh deal secret (hex), for ``Table.secret``."""
    return secrets.token_hex(SECRET_BYTES)


def _from_secret(secret: str, label: str) -> int:
    """A 64-bit number drawn from ``secret`` for ``label``: HMAC-SHA256, so
    numbers for different labels tell nothing about each other or the secret."""
    digest = hmac.new(bytes.fromhex(secret), label.encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


def _whole_secret(secret: str, label: str) -> int:
    """A 257-bit seed drawn from ``secret`` for ``label``: all 256 bits of the
    HMAC-SHA256 above a leading 1, so the engines' generator keys its
    SHAKE-256 stream with it (``games.rng.KEYED``)."""
    digest = hmac.new(bytes.fromhex(secret), label.encode(), hashlib.sha256).digest()
    return (1 << 256) | int.from_bytes(digest, "big")


def _dealt_from_64_bits(table: Table) -> bool:
    """A table dealt before the deal drew on the whole secret: its stored
    state's generator is SplitMix64's integer (the keyed stream's is text)."""
    state = table.state
    return isinstance(state, dict) and isinstance(state.get("rng"), int)


def deal_seed(table: Table) -> int:
    """The engine seed the table's game is dealt and replayed with: drawn
    from its whole secret (a table dealt with the 64 bits cut from it before
    keeps them, so it replays as dealt); a table dealt before deal secrets:
    its stored seed."""
    if table.secret:
        if _dealt_from_64_bits(table):
            return _from_secret(table.secret, "deal")
        return _whole_secret(table.secret, "deal")
    return table.seed


def bot_seed(table: Table, move: int | str) -> int:
    """The seed of the bot choosing ``move`` at the table (a move number, or
    "finish" for the play-out after time): drawn from the table's secret
    under its own label, never the deal's seed."""
    if table.secret:
        return _from_secret(table.secret, f"bot:{move}")
    # a table dealt before deal secrets (its deal is public anyway)
    return (table.seed * 1_000_003 + (move if isinstance(move, int) else 0)) % (2**31)


def _draw_secret(table: Table) -> None:
    """Before the deal: the table's secret, unless it has one (a test or an
    imported file may give one to replay a known deal)."""
    if not table.secret:
        table.secret = new_deal_secret()


def game_options(table: Table) -> dict:
    """The options this table's game is dealt with: the tournament's, plus for
    Terra Trumpf the youngest player (by birth year, when known) choosing
    Alpha first."""
    tournament = table.round.tournament
    return _options(tournament.engine, tournament.game_options, seats_in_order(table))


def _options(engine, base: dict | None, seats) -> dict:
    options = dict(base or {})
    if "first_chooser" in engine.extra_options and "first_chooser" not in options:
        years = [
            (seat.player.birth_year, -seat.position)
            for seat in seats
            if seat.player is not None and seat.player.birth_year
        ]
        if years:
            options["first_chooser"] = -max(years)[1]
    return options


def tables_deal(*, round: Round) -> int:  # noqa: A002
    """Deal every digital table of ``round`` not dealt yet, in bulk: a few
    queries for the whole round, however many tables (``round_start`` calls
    it inside its transaction, the round locked). Returns the tables dealt.
    A table whose player count the game can't take refuses the whole deal."""
    tournament = round.tournament
    engine = tournament.engine
    tables = list(
        Table.objects.select_for_update()
        .filter(round=round, digital=True, state__isnull=True)
        .only("pk", "number", "secret", "seed", "state")
        .order_by("number")
    )
    if not tables:
        return 0
    seats: dict[int, list] = {t.pk: [] for t in tables}
    for seat in (
        Seat.objects.filter(table__in=[t.pk for t in tables])
        .select_related("player")
        .only("table_id", "position", "bot", "player__birth_year")
        .order_by("table_id", "position")
    ):
        seats[seat.table_id].append(seat)
    dealt = []
    for table in tables:
        at_table = seats[table.pk]
        if not engine.min_players <= len(at_table) <= engine.max_players:
            raise ServiceError(
                ngettext(
                    "Table %(table)s: %(game)s can't be played by %(n)s player.",
                    "Table %(table)s: %(game)s can't be played by %(n)s players.",
                    len(at_table),
                )
                % {"table": table.number, "game": engine.name, "n": len(at_table)}
            )
        _draw_secret(table)
        options = _options(engine, tournament.game_options, at_table)
        try:
            state = engine.new_game(players=len(at_table), seed=deal_seed(table), options=options)
        except Exception as exc:  # e.g. a deck the engine can't deal: the start is refused
            log.exception("round %s: table %s could not be dealt", table.round_id, table.number)
            raise ServiceError(
                _(
                    "Table %(table)s can't be dealt (%(why)s); the round was not started. "
                    "Check the deck and the table sizes in the settings."
                )
                % {"table": table.number, "why": str(exc)[:200]}
            ) from exc
        table.state = engine.dump(state)
        dealt.append((table, state, {s.position for s in at_table if s.bot}))
    Table.objects.bulk_update(tables, ["secret", "state"], batch_size=100)
    for table, state, bots in dealt:  # a bot seat to act first is woken (no query)
        if bots:
            wake_bots(table, engine, state, bots)
    return len(tables)


@transaction.atomic
def table_start(*, table: Table) -> Table:
    """Deal the game of a digital table (once)."""
    locked = Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
    if not locked.digital:
        raise ServiceError(_("Table %(table)s plays on paper.") % {"table": locked.number})
    if locked.state is not None:
        return locked
    engine = locked.round.tournament.engine
    players = locked.seats.count()
    if not engine.min_players <= players <= engine.max_players:
        raise ServiceError(
            ngettext(
                "%(game)s can't be played by %(n)s player.",
                "%(game)s can't be played by %(n)s players.",
                players,
            )
            % {"game": engine.name, "n": players}
        )
    _draw_secret(locked)
    state = engine.new_game(players=players, seed=deal_seed(locked), options=game_options(locked))
    locked.state = engine.dump(state)
    locked.save(update_fields=["secret", "state"])
    wake_bots(locked, engine, state)
    return locked


def next_number(table: Table) -> int:
    """The number the table's next action gets (its count: numbers run 0, 1, ...)."""
    last = table.actions.aggregate(n=Max("number"))["n"]
    return 0 if last is None else last + 1


def _append(
    table: Table, actions: list[tuple[int, str]], *, by_bot: bool = False, start=None
) -> None:
    if start is None:
        start = next_number(table)
    TableAction.objects.bulk_create(
        TableAction(table=table, number=start + i, seat=seat, action=action, by_bot=by_bot)
        for i, (seat, action) in enumerate(actions)
    )


@transaction.atomic
def table_move(*, table: Table, seat: int, action: str, seen: int | None = None) -> Table:
    """A player's move at a digital table: refused after the table's time
    (checked against the database clock under the row lock, with or without
    a worker), except the moves that finish what time left open during the
    grace period after time was called.

    ``seen``: the number of moves the player's screen showed. When this seat
    has moved since (a double click, a second tab, a retry), the move is
    refused, so the same move sent twice is applied once; other seats'
    moves in between don't matter (the engine judges the move). A seat the
    bot plays now is refused too."""
    # the round shared (other tables' moves go on), the table exclusively
    locked = lock_table(table)
    # the clock, the bot seats and the log's figures in one query for the
    # whole move (the refusals below, the action's number, the bots' wake-up)
    log_figures = _log_figures(locked, seat, seen)
    _check_clock(locked, log_figures["now"])
    if not locked.digital or locked.state is None:
        raise ServiceError(_("Table %(table)s is not a digital table.") % {"table": locked.number})
    bots = log_figures["bots"]
    if seat in bots:
        raise ServiceError(_("The bot plays this seat now; ask the organizer to hand it back."))
    if seen is not None and _moved_since(log_figures, seen):
        raise StaleMove(_("Your move was already played. Choose again on the new screen."))
    engine = locked.round.tournament.engine
    state = apply_move(
        locked, engine, engine.load(locked.state), seat, action, number=log_figures["next"]
    )
    wake_bots(locked, engine, state, bots)
    return locked


def _log_figures(table: Table, seat: int, seen: int | None) -> dict:
    """In one query, under the move's locks: the table's moves so far, the
    number its next action gets, whether ``seat`` moved at or after move
    ``seen``, the seats the bot plays (a set of positions) and the database
    clock (``now``). Written as SQL: every move asks it, and the ORM's
    aggregate took longer to compile than the database to answer (the
    table's index on (table, number))."""
    connection = connections[TableAction.objects.db]
    name = connection.ops.quote_name
    meta, seats = TableAction._meta, Seat._meta
    number, by, at = (name(meta.get_field(f).column) for f in ("number", "seat", "table"))
    position, bot, seat_at = (name(seats.get_field(f).column) for f in ("position", "bot", "table"))
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT COUNT(*), MAX({number}), "
            f"SUM(CASE WHEN {by} = %s AND {number} >= %s THEN 1 ELSE 0 END), "
            # the bot seats as bits of one number (a table has at most 6 seats)
            f"(SELECT COALESCE(SUM(1 << {position}), 0) FROM {name(seats.db_table)} "
            f"WHERE {seat_at} = %s AND {bot}), "
            f"{db_now_sql(connection)} "
            f"FROM {name(meta.db_table)} WHERE {at} = %s",
            [seat, seen if seen is not None else 0, table.pk, table.pk],
        )
        count, last, mine, bot_bits, now = cursor.fetchone()
    bot_bits = int(bot_bits)
    return {
        "count": count,
        "last": last,
        "mine": mine or 0,
        "next": 0 if last is None else last + 1,
        "bots": {p for p in range(bot_bits.bit_length()) if bot_bits >> p & 1},
        "now": from_db(now),
    }


def _moved_since(figures: dict, seen: int) -> bool:
    if seen < 0 or seen > figures["count"]:
        return True  # not a screen this table ever showed
    return figures["mine"] > 0


class StaleMove(ServiceError):
    """A move chosen on a screen older than the table's last move."""


def apply_move(
    locked: Table, engine, state: dict, seat: int, action: str, *, by_bot=False, number=None
):
    """Inside the move's transaction, on the locked table: apply, log (as
    action ``number`` when the caller knows it), store, and record the
    result when the game is over. Returns the new state."""
    try:
        state = engine.apply(state, seat, action)
    except IllegalAction as exc:
        # the engine's reason is for developers (action syntax, English); a
        # player only meets this with a stale page or a forged request
        log.info("table %s seat %s: %r refused: %s", locked.pk, seat, action, exc)
        raise ServiceError(
            _("This move is not allowed now: the game may have moved on. Choose again.")
        ) from None
    _append(locked, [(seat, action)], by_bot=by_bot, start=number)
    locked.state = engine.dump(state)
    locked.save(update_fields=["state"])
    if engine.is_over(state):
        _record_result(locked, engine, state)
    return state


def bot_seats_to_act(table: Table, engine, state: dict, bots: set[int] | None = None) -> list[int]:
    """The seats the bot plays (``bots``: read from the table when not given)
    that the engine waits for now."""
    if engine.is_over(state):
        return []
    to_act = engine.to_act(state)
    if not to_act:
        return []
    if bots is None:
        bots = set(table.seats.filter(bot=True).values_list("position", flat=True))
    return [seat for seat in to_act if seat in bots]


def wake_bots(table: Table, engine, state: dict, bots: set[int] | None = None) -> bool:
    """After a move, a deal or a hand-over: when a bot seat is to act, its
    Celery task is sent after commit (after the bot's pause), so a table
    never waits for a bot. True when one was sent."""
    if not bot_seats_to_act(table, engine, state, bots):
        return False
    table_id = table.pk
    delay = settings.DIGITAL_BOT_DELAY
    transaction.on_commit(lambda: send_bot_task(table_id, delay))
    return True


def send_bot_task(table_id: int, delay: float) -> None:
    """The bot's wake-up call on the clock queue; a lost call is covered by
    the bot sweep, so a broker that is down only logs."""
    from tournaments.celery import app

    try:
        app.send_task(
            "clock.bot_move", args=[table_id], countdown=delay, queue=settings.CLOCK_QUEUE
        )
    except Exception:  # the sweep wakes the bot; the player's move must not fail
        log.exception("could not wake the bot of table %s", table_id)


def _lock_for_move(table: Table) -> Table:
    """The move's locks, refused with :class:`TimeIsUp` once the table's time
    is up (:func:`_check_clock`)."""
    locked = lock_table(table)
    _check_clock(locked, db_now())
    return locked


def _check_clock(locked: Table, now: datetime) -> None:
    """A move is refused once the table's time is up (``now``: the database
    clock read under the move's locks), except during the grace period after
    time was called, until the table is done."""
    if locked.time_called_at is None:
        check_before_time(locked, locked.round, now)
        return
    grace_end = locked.time_called_at + timedelta(seconds=locked.round.tournament.grace_seconds)
    if locked.status == Table.DONE or now >= grace_end:
        raise TimeIsUp(_("Time is up for table %(table)s.") % {"table": locked.number})


def table_call_time(*, table: Table) -> None:
    """Inside the close: the engine calls time on the stored state; a game not
    over yet is finished by the bot after the grace period."""
    if table.state is None:
        table_start(table=table)
        table.refresh_from_db(fields=["state", "secret", "seed"])
    engine = table.round.tournament.engine
    state = engine.call_time(engine.load(table.state))
    _append(table, [TIME_CALLED])
    table.state = engine.dump(state)
    table.save(update_fields=["state"])
    if engine.is_over(state):
        _record_result(table, engine, state)
        return
    wake_bots(table, engine, state)  # bot seats finish the open trick too
    grace = table.round.tournament.grace_seconds
    eta = table.time_called_at + timedelta(seconds=grace)
    transaction.on_commit(lambda: deadlines.schedule("clock.finish_table", table.pk, eta))


class _RecordingBot:
    """Passes the smart bot's choices to ``engine.finish`` and notes each with
    its seat (following the game along, as ``finish`` asks seats in turn)."""

    def __init__(self, engine, state, bot):
        self.engine, self.state, self.bot = engine, state, bot
        self.name = getattr(bot, "name", "smart")
        self.actions: list[tuple[int, str]] = []

    def choose(self, view: dict, legal: list[str]) -> str:
        action = self.bot.choose(view, legal)
        seat = self.engine.to_act(self.state)[0]
        self.state = self.engine.apply(self.state, seat, action)
        self.actions.append((seat, action))
        return action


def tables_to_finish(now: datetime) -> list[int]:
    """Digital tables whose grace period after time is over and not done; an
    archived tournament is read-only, so its bots play nothing out."""
    rows = Table.objects.filter(
        digital=True,
        time_called_at__isnull=False,
        state__isnull=False,
        round__tournament__archived_at__isnull=True,
    ).exclude(status=Table.DONE)
    return [
        pk
        for pk, called, grace in rows.values_list(
            "pk", "time_called_at", "round__tournament__grace_seconds"
        )
        if now >= called + timedelta(seconds=grace)
    ]


def table_finish(*, table_id: int) -> bool:
    """After the grace period: the game's smart bot plays out what time left
    open; each bot action is logged; the result is confirmed. Runs once (a
    busy or done table is skipped)."""
    with transaction.atomic():
        locked = (
            Table.objects.select_for_update(skip_locked=True)
            .select_related("round__tournament")
            .filter(pk=table_id, digital=True)
            .first()
        )
        if locked is None or locked.status == Table.DONE or locked.state is None:
            return False
        if locked.time_called_at is None:
            return False
        tournament = locked.round.tournament
        if db_now() < locked.time_called_at + timedelta(seconds=tournament.grace_seconds):
            return False
        engine = tournament.engine
        state = engine.load(locked.state)
        bot = _RecordingBot(engine, state, engine.bots()["smart"](bot_seed(locked, "finish")))
        state = engine.finish(state, bot)
        _append(locked, bot.actions, by_bot=True)
        locked.state = engine.dump(state)
        locked.save(update_fields=["state"])
        _record_result(locked, engine, state)
    return True


def _record_result(table: Table, engine, state) -> None:
    """The engine's result as the table's confirmed submission; the table is done."""
    result = engine.result(state)
    details = dict(result.details)
    bot_seats = list(table.seats.filter(bot_played=True).values_list("position", flat=True))
    if bot_seats:  # marked in standings and exports (README: bots in seats)
        details["bot_seats"] = bot_seats
    # the same service as a confirmed paper sheet: the table is done, the
    # round completes when it was the last
    results.result_record_engine(table=table, result=result, details=details)
    table.status = Table.DONE


def _dealt(table: Table, engine, state: dict) -> dict:
    """The deal of a table: its deal seed and the options its stored state
    was dealt with (so a replay needs nothing but the rows)."""
    return engine.new_game(state["players"], deal_seed(table), state.get("options") or {})


def replay_states(table: Table, rows) -> list[dict]:
    """The table's state after the deal and after each of ``rows`` (its
    TableAction rows in order), replayed by the engine."""
    engine = table.round.tournament.engine
    state = _dealt(table, engine, table.state)
    states = [state]
    for row in rows:
        if (row.seat, row.action) == TIME_CALLED:
            state = engine.call_time(state)
        else:
            state = engine.apply(state, row.seat, row.action)
        states.append(state)
    return states


def table_record(table: Table) -> Record:
    """The table's game as a ``games.base.Record``: its deal seed, its options and
    its TableAction rows (the append-only truth the stored state follows)."""
    engine = table.round.tournament.engine
    return table_record_of(table, engine, table.actions.values_list("seat", "action"))


def table_record_of(table: Table, engine, actions) -> Record:
    """The record of a dealt ``table`` (saved or not) with ``actions``,
    ``(seat, action)`` pairs in order."""
    options = (table.state or {}).get("options") or {}
    return Record(
        game=engine.id,
        players=table.state["players"],
        seed=deal_seed(table),
        options=dict(options),
        actions=[(seat, action) for seat, action in actions],
    )
