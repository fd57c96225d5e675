"""Digital tables: the engine deals when the round starts, moves are checked
against the clock, time is called by the engine, and after the grace period
the game's bot plays out the rest — each step logged, the result confirmed."""

import pytest

from games import get_engine
from games.base import Record
from scoring.models import Submission
from tests.factories import digital_table
from tests.timetravel import travel
from tournaments.models import Round, Table
from tournaments.play import tables as digital
from tournaments.play import tasks
from tournaments.services import ServiceError, clock, deadlines, round_life

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_broker(monkeypatch):
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)


def make_round(organizer, game="quartett", players=2, birth_years=None, grace=60):
    """Round 1 of a digital tournament seated through the services, a draft
    not started yet: one table, ``Spieler 0`` at seat 0 and so on."""
    table = digital_table(
        organizer,
        game,
        players,
        start=False,
        publish=False,
        grace_seconds=grace,
        round_minutes=30,
        birth_year=birth_years,
    )
    return table.round, table


def play_first_legal(table):
    engine = table.round.tournament.engine
    table.refresh_from_db()
    state = engine.load(table.state)
    seat = engine.to_act(state)[0]
    action = engine.legal_actions(state, seat)[0]
    return digital.table_move(table=table, seat=seat, action=action), seat, action


def record_of(table) -> Record:
    table.refresh_from_db()
    state = table.state
    return Record(
        game=state["game"],
        players=table.seats.count(),
        seed=digital.deal_seed(table),
        options=state["options"],
        actions=list(table.actions.order_by("number").values_list("seat", "action")),
    )


def test_the_round_start_deals_every_digital_table(organizer):
    rnd, table = make_round(organizer)
    round_life.round_start(round=rnd, by=organizer)
    table.refresh_from_db()
    engine = get_engine("quartett")
    expected = engine.new_game(2, digital.deal_seed(table), rnd.tournament.game_options)
    assert engine.load(table.state) == engine.load(engine.dump(expected))


def test_the_youngest_player_chooses_alpha_first_in_terra_trumpf(organizer):
    rnd, table = make_round(
        organizer, game="terra_trumpf", players=3, birth_years=[1980, 2004, 1999]
    )
    round_life.round_start(round=rnd, by=organizer)
    table.refresh_from_db()
    engine = get_engine("terra_trumpf")
    assert engine.to_act(engine.load(table.state)) == [1]


def test_a_move_is_applied_logged_and_stored(organizer):
    rnd, table = make_round(organizer)
    round_life.round_start(round=rnd, by=organizer)
    _, seat, action = play_first_legal(table)
    logged = table.actions.get()
    assert (logged.number, logged.seat, logged.action, logged.by_bot) == (0, seat, action, False)
    record = record_of(table)
    assert record.replay() == get_engine("quartett").load(table.state)


def test_an_illegal_move_is_refused_with_the_reason_and_changes_nothing(organizer):
    rnd, table = make_round(organizer)
    round_life.round_start(round=rnd, by=organizer)
    table.refresh_from_db()
    before = table.state
    with pytest.raises(ServiceError, match="not allowed"):
        digital.table_move(table=table, seat=0, action="announce:colour_of_the_sky")
    with pytest.raises(ServiceError, match="not allowed"):
        digital.table_move(table=table, seat=1, action="announce:distance")
    table.refresh_from_db()
    assert table.state == before and not table.actions.exists()


def test_with_no_worker_a_move_after_the_deadline_is_refused(organizer):
    rnd, table = make_round(organizer)
    round_life.round_start(round=rnd, by=organizer)
    travel(rnd, 30 * 60)
    with pytest.raises(clock.TimeIsUp):
        play_first_legal(table)
    assert not table.actions.exists()


def test_time_called_then_the_bot_finishes_after_the_grace_period(
    organizer, django_capture_on_commit_callbacks
):
    rnd, table = make_round(organizer, grace=60)
    round_life.round_start(round=rnd, by=organizer)
    travel(rnd, 30 * 60)  # the first trick was not played out
    assert round_life.round_time_up(rnd.pk) is True
    table.refresh_from_db()
    assert table.actions.filter(seat=-1, action="call_time").count() == 1
    engine = get_engine("quartett")
    state = engine.load(table.state)
    assert not engine.is_over(state) and table.status == Table.PLAYING
    assert digital.table_finish(table_id=table.pk) is False  # grace period not over
    assert round_life.sweep()["finished"] == 0
    travel(rnd, 61)
    with django_capture_on_commit_callbacks(execute=True):
        assert round_life.sweep()["finished"] == 1
    rnd.refresh_from_db()
    assert rnd.status == Round.COMPLETE  # its only table is done
    assert tasks.finish_table.apply(args=[table.pk]).get() is False  # once only
    table.refresh_from_db()
    assert table.status == Table.DONE
    bot_moves = table.actions.filter(by_bot=True)
    assert bot_moves.exists() and not bot_moves.filter(seat=-1).exists()
    final = engine.load(table.state)
    assert engine.is_over(final)
    assert record_of(table).replay() == final  # the log replays to the stored game
    result = engine.result(final)
    sub = Submission.objects.get(table=table)
    assert (sub.status, sub.source, sub.ranks, sub.figures) == (
        Submission.CONFIRMED,
        "digital",
        result.ranks,
        result.figures,
    )


def open_trick_at_time(organizer):
    """Terra Trumpf, two players: Alpha chosen, a card led, then time."""
    rnd, table = make_round(organizer, game="terra_trumpf", grace=60)
    round_life.round_start(round=rnd, by=organizer)
    play_first_legal(table)  # Alpha
    play_first_legal(table)  # the lead: the trick is open
    travel(rnd, 30 * 60)
    assert round_life.round_time_up(rnd.pk)
    return rnd, table


def test_players_may_finish_the_open_trick_during_the_grace_period(organizer):
    rnd, table = open_trick_at_time(organizer)
    engine = get_engine("terra_trumpf")
    table.refresh_from_db()
    assert not engine.is_over(engine.load(table.state))
    play_first_legal(table)  # in the grace period: allowed, and it ends the game
    table.refresh_from_db()
    assert engine.is_over(engine.load(table.state)) and table.status == Table.DONE
    assert not table.actions.filter(by_bot=True).exists()
    assert Submission.objects.get(table=table).status == Submission.CONFIRMED
    assert round_life.sweep()["finished"] == 0


def test_after_the_grace_period_moves_are_refused_and_the_bot_plays(organizer):
    rnd, table = open_trick_at_time(organizer)
    travel(rnd, 61)
    with pytest.raises(clock.TimeIsUp):
        play_first_legal(table)
    assert round_life.sweep()["finished"] == 1
    table.refresh_from_db()
    assert table.status == Table.DONE and table.actions.filter(by_bot=True).count() == 1
