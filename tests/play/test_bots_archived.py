"""An archived tournament is read-only: its bots stop. Neither the
bot's task nor the sweep that wakes bots moves a seat of an archived
tournament; restored, its bots play on."""

import pytest

from tests.factories import digital_table
from tests.timetravel import past_deadline
from tournaments.models import TableAction
from tournaments.play import bots, tasks
from tournaments.play import tables as digital
from tournaments.services import deadlines, lifecycle, round_life

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def calls(monkeypatch):
    """No broker: the clock's calls dropped, the bots' wake-up calls noted."""
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)
    sent = []

    def send(table_id, delay):
        sent.append(table_id)

    monkeypatch.setattr(digital, "send_bot_task", send)
    monkeypatch.setattr(bots, "send_bot_task", send)  # the sweep's own reference
    return sent


def play_first_legal(table):
    engine = table.round.tournament.engine
    table.refresh_from_db()
    state = engine.load(table.state)
    seat = engine.to_act(state)[0]
    digital.table_move(table=table, seat=seat, action=engine.legal_actions(state, seat)[0])


def bot_due_in_the_grace_period(organizer):
    """Terra Trumpf for two: a trick open when time is called (an archive is
    allowed then), the seat to finish it given to the bot, its call lost."""
    table = digital_table(
        organizer, "terra_trumpf", 2, start=False, publish=False, grace_seconds=600
    )
    rnd = table.round
    round_life.round_start(round=rnd, by=organizer)
    play_first_legal(table)  # Alpha
    play_first_legal(table)  # the lead: the trick is open
    past_deadline(rnd)
    assert round_life.round_time_up(rnd.pk)
    table.refresh_from_db()
    engine = table.round.tournament.engine
    seat = engine.to_act(engine.load(table.state))[0]
    bots.seat_to_bot(table=table, position=seat)
    # the wake-up call is lost; the last move is long ago
    TableAction.objects.filter(table=table).update(at="2000-01-01T00:00:00Z")
    return table


def test_an_archived_tournaments_bots_stay_still(organizer, settings, calls):
    settings.DIGITAL_BOT_DELAY = 0
    table = bot_due_in_the_grace_period(organizer)
    lifecycle.tournament_archive(tournament=table.round.tournament, by=organizer)
    moves = TableAction.objects.filter(table=table).count()
    calls.clear()

    assert bots.bot_sweep() == 0 and calls == []  # the sweep wakes no bot
    assert bots.bot_move(table_id=table.pk) == 0  # a call already on its way does nothing
    assert tasks.bot_move.apply(args=[table.pk]).get() == 0
    assert TableAction.objects.filter(table=table).count() == moves

    # restored: the sweep wakes the bot and it finishes the trick
    lifecycle.tournament_restore(tournament=table.round.tournament, by=organizer)
    assert bots.bot_sweep() == 1 and calls == [table.pk]
    assert bots.bot_move(table_id=table.pk) >= 1
    assert TableAction.objects.filter(table=table, by_bot=True).exists()


def test_the_clock_plays_nothing_out_in_an_archived_tournament(organizer, settings, calls):
    """The play-out after the grace period is the clock's bot: it too leaves an
    archived tournament's tables as they are, and finishes them once restored."""
    from datetime import timedelta

    from django.utils import timezone

    table = bot_due_in_the_grace_period(organizer)
    later = timezone.now() + timedelta(seconds=601)
    assert table.pk in digital.tables_to_finish(later)
    lifecycle.tournament_archive(tournament=table.round.tournament, by=organizer)
    assert digital.tables_to_finish(later) == []
    lifecycle.tournament_restore(tournament=table.round.tournament, by=organizer)
    assert digital.tables_to_finish(later) == [table.pk]
