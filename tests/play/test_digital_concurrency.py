"""Digital tables under concurrent moves on PostgreSQL (row locks are real
there): the same move sent twice at once is applied once, and seats moving
at the same moment end in a legal order — the stored state is the replay of
the log — or are refused with a message."""

import threading

import pytest
from django.db import connection

from games import get_engine
from tests.factories import digital_table
from tournaments.models import Seat, TableAction
from tournaments.play import tables as digital
from tournaments.play.screen import move as play_move
from tournaments.services import deadlines

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def no_broker(monkeypatch):
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)
    monkeypatch.setattr(digital, "send_bot_task", lambda *a: None)


def make_table(organizer, game, players):
    """A started digital table seated through the services (``P0`` at seat 0…)."""
    return digital_table(
        organizer,
        game,
        players,
        names=[f"P{pos}" for pos in range(players)],
        name=f"Parallel {game}",
        round_minutes=30,
    )


def at_once(calls):
    """Run the calls in threads released together; their results in order."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(i, call):
        try:
            barrier.wait()
            results[i] = call()
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, c)) for i, c in enumerate(calls)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(30)
    return results


def stored(table):
    table.refresh_from_db()
    return table.round.tournament.engine.load(table.state)


def test_the_same_move_sent_twice_at_once_is_applied_once(require_postgres, organizer):
    table = make_table(organizer, "trumpet", 3)
    engine = get_engine("trumpet")
    for _ in range(5):
        state = stored(table)
        seat = engine.to_act(state)[0]
        action = engine.legal_actions(state, seat)[0]
        seen = str(TableAction.objects.filter(table=table).count())
        row = Seat.objects.get(table=table, position=seat)
        errors = at_once([lambda r=row, a=action, n=seen: play_move(r, a, n)] * 2)
        assert sorted(bool(e) for e in errors) == [False, True], errors
        assert [e for e in errors if e][0]  # the refusal says why
        assert TableAction.objects.filter(table=table, number=int(seen)).count() == 1
        assert TableAction.objects.filter(table=table).count() == int(seen) + 1


@pytest.mark.parametrize("game,players", [("quartett", 2), ("altruismus", 3), ("trumpet", 4)])
def test_seats_moving_at_once_end_in_a_legal_order_or_are_refused(
    require_postgres, organizer, game, players
):
    table = make_table(organizer, game, players)
    engine = get_engine(game)
    seats = {s.position: s for s in Seat.objects.filter(table=table)}
    refused = 0
    for _ in range(12):
        state = stored(table)
        if engine.is_over(state):
            break
        seen = str(TableAction.objects.filter(table=table).count())
        # every seat sends a move at the same moment: the ones to act a legal
        # one, the others whatever they would press on a stale screen
        calls = []
        for pos in range(players):
            legal = engine.legal_actions(state, pos)
            action = legal[-1] if legal else "play:x"
            calls.append(lambda p=pos, a=action, n=seen: play_move(seats[p], a, n))
        errors = at_once(calls)
        refused += sum(1 for e in errors if e)
        assert all(isinstance(e, str) for e in errors)
        assert any(e == "" for e in errors), "one move of the seats to act goes through"
        # the log is a legal order: replaying it gives the stored state
        rows = list(TableAction.objects.filter(table=table).order_by("number"))
        assert [r.number for r in rows] == list(range(len(rows)))
        assert digital.replay_states(table, rows)[-1] == stored(table)
    assert refused  # the seats not to act were told why
