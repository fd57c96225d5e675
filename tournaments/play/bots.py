"""Bots in the seats of digital tables.

The organizer gives a seat to the game's rule-aware bot (``games/<game>/bots.py``,
the "smart" bot) before or during play — for a player who left or whose phone
died — and hands it back. The bot moves through a Celery task
(``clock.bot_move``) after a short, human-like pause
(``settings.DIGITAL_BOT_DELAY``); it sees only ``engine.view(state, seat)`` and
``engine.legal_actions(state, seat)``, never the full state. After every move
at the table (a player's or a bot's) the next bot seat to act is woken after
commit (:func:`tournaments.play.tables.wake_bots`), and the bot sweep
(every few seconds) wakes a bot whose call was lost, so a table never stalls.

A bot seat's result counts for the seat's player (the bot is a stand-in,
like a substitute at a paper table) and is marked: README, "Bots in seats".
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models import Round, Seat, Table
from tournaments.play.tables import (
    _lock_for_move,
    apply_move,
    bot_seats_to_act,
    bot_seed,
    next_number,
    send_bot_task,
    wake_bots,
)
from tournaments.services.deadlines import TimeIsUp, db_now
from tournaments.services.errors import ServiceError

log = logging.getLogger(__name__)

#: at most this many bot moves in one task when the pause is 0
MAX_MOVES_PER_TASK = 2000


def _seat_for_change(table: Table, position: int) -> tuple[Table, Seat]:
    locked = Table.objects.select_for_update().select_related("round").get(pk=table.pk)
    if not locked.digital:
        raise ServiceError(_("Table %(table)s plays on paper.") % {"table": locked.number})
    if locked.status == Table.DONE or locked.round.status == Round.COMPLETE:
        raise ServiceError(_("The game at table %(table)s is over.") % {"table": locked.number})
    seat = Seat.objects.select_related("player").filter(table=locked, position=position).first()
    if seat is None:
        raise ServiceError(_("Table %(table)s has no such seat.") % {"table": locked.number})
    return locked, seat


@transaction.atomic
def seat_to_bot(*, table: Table, position: int, by=None) -> Seat:
    """The bot plays this seat from now on (before or during play). When the
    seat is to act, the bot moves after its pause."""
    locked, seat = _seat_for_change(table, position)
    if not seat.bot:
        seat.bot = True
        seat.save(update_fields=["bot"])
        log.info("table %s seat %s given to the bot by %s", locked.pk, position, by)
    if locked.state is not None:
        engine = locked.round.tournament.engine
        wake_bots(locked, engine, engine.load(locked.state))
    return seat


@transaction.atomic
def seat_to_player(*, table: Table, position: int, by=None) -> Seat:
    """Hand the seat back to its player: the bot stops at once (a bot task
    already on its way finds the seat no longer its own)."""
    _locked, seat = _seat_for_change(table, position)
    if seat.empty:
        raise ServiceError(
            _("Seat %(seat)s at table %(table)s has no player: the bot plays it.")
            % {"seat": position + 1, "table": _locked.number}
        )
    if seat.bot:
        seat.bot = False
        seat.save(update_fields=["bot"])
        log.info("table %s seat %s handed back by %s", table.pk, position, by)
    return seat


def _bot_for(table: Table, engine, number: int):
    """The game's smart bot, seeded per table and move from the table's
    secret (never its deal seed), so a replayed or re-delivered task chooses
    the same way."""
    return engine.bots()["smart"](bot_seed(table, number))


def _one_move(table_id: int) -> tuple[bool, bool]:
    """One bot move at the table, in its own transaction under the move's
    locks. Returns (moved, another bot seat is to act now)."""
    with transaction.atomic():
        table = Table.objects.only("pk", "round_id").filter(pk=table_id).first()
        if table is None:
            return False, False
        try:
            locked = _lock_for_move(table)
        except TimeIsUp:
            return False, False
        if not locked.digital or locked.state is None or locked.status == Table.DONE:
            return False, False
        if locked.round.tournament.archived_at is not None:  # read-only: bots stop
            return False, False
        engine = locked.round.tournament.engine
        state = engine.load(locked.state)
        rows = dict(locked.seats.filter(bot=True).values_list("position", "bot_played"))
        seats = bot_seats_to_act(locked, engine, state, set(rows))
        if not seats:
            return False, False
        seat = seats[0]
        view = engine.view(state, seat)
        legal = engine.legal_actions(state, seat)
        if not legal:
            return False, False
        number = next_number(locked)
        action = _bot_for(locked, engine, number).choose(view, legal)
        if not rows[seat]:
            Seat.objects.filter(table=locked, position=seat).update(bot_played=True)
        state = apply_move(locked, engine, state, seat, action, by_bot=True, number=number)
        more = bool(bot_seats_to_act(locked, engine, state, set(rows)))
        if more and settings.DIGITAL_BOT_DELAY > 0:
            wake_bots(locked, engine, state, set(rows))
        return True, more


def bot_move(*, table_id: int) -> int:
    """The bot task: the bot seat to act moves. With a pause of 0 the bots
    play on until a player is to act (one transaction per move); else the
    next bot move is its own task after the pause. Returns the moves made;
    0 when nothing was due (a stale or duplicate wake-up call)."""
    moves = 0
    while moves < MAX_MOVES_PER_TASK:
        moved, more = _one_move(table_id)
        moves += moved
        if not (moved and more and settings.DIGITAL_BOT_DELAY <= 0):
            break
    return moves


def bot_sweep() -> int:
    """Wake the bots of playing digital tables whose bot seat is to act and
    whose last move is older than the bot's pause plus a few seconds (the
    wake-up call was lost: a worker restart, a broker hiccup); an archived
    tournament's bots stay still. Returns the tables woken."""
    now = db_now()
    stale = now - timedelta(seconds=settings.DIGITAL_BOT_DELAY + 3)
    tables = (
        Table.objects.filter(
            digital=True,
            state__isnull=False,
            seats__bot=True,
            round__status__in=[Round.RUNNING, Round.TIME_CALLED],
            round__tournament__archived_at__isnull=True,
        )
        .exclude(status=Table.DONE)
        .select_related("round__tournament")
        .distinct()
    )
    woken = 0
    for table in tables:
        last = table.actions.order_by("-number").values_list("at", flat=True).first()
        if last is not None and last > stale:
            continue
        engine = table.round.tournament.engine
        if bot_seats_to_act(table, engine, engine.load(table.state)):
            send_bot_task(table.pk, 0)
            woken += 1
    return woken
