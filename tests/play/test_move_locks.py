"""Moves at different tables of one round never wait for each other: a move
locks its table, and the round only against a change of the clock (which
must still wait for the moves under way, and they for it)."""

from __future__ import annotations

import threading

import pytest
from django.db import OperationalError, connection, transaction

from tests.factories import TournamentFactory, seated_round
from tournaments.models import Round, Table
from tournaments.play import tables as digital
from tournaments.play.tables import _lock_for_move
from tournaments.services import round_life

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("require_postgres", "inline_bots"),
]


def two_tables(organizer):
    tournament = TournamentFactory(
        owner=organizer, game="quartett", digital_tables=True, allowed_sizes=[2], table_size=2
    )
    rnd = seated_round(tournament, players=4, start=True)
    return rnd, list(Table.objects.filter(round=rnd).order_by("number"))


def first_move(table):
    table.refresh_from_db()
    engine = table.round.tournament.engine
    state = engine.load(table.state)
    seat = engine.to_act(state)[0]
    return seat, engine.legal_actions(state, seat)[0]


def hold_a_move(table, held: threading.Event, release: threading.Event):
    """A move's transaction at ``table`` that keeps its locks until released."""
    try:
        with transaction.atomic():
            _lock_for_move(table)
            held.set()
            release.wait(20)
    finally:
        connection.close()


def in_own_connection(call):
    out = {}

    def run():
        try:
            with transaction.atomic():
                with connection.cursor() as cursor:
                    cursor.execute("SET LOCAL lock_timeout = '3s'")
                out["value"] = call()
        except Exception as exc:  # the outcome under test
            out["error"] = exc
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(30)
    return out


def test_a_move_at_another_table_does_not_wait_for_a_move_under_way(organizer):
    rnd, (one, other) = two_tables(organizer)
    seat, action = first_move(other)
    held, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=hold_a_move, args=(one, held, release))
    holder.start()
    try:
        assert held.wait(10)
        out = in_own_connection(
            lambda: digital.table_move(
                table=Table.objects.get(pk=other.pk), seat=seat, action=action
            )
        )
    finally:
        release.set()
        holder.join(30)
    assert "error" not in out, out.get("error")  # no lock timeout: it went on at once
    assert other.actions.count() == 1


def test_a_pause_waits_for_the_move_under_way(organizer):
    rnd, (one, _other) = two_tables(organizer)
    held, release = threading.Event(), threading.Event()
    holder = threading.Thread(target=hold_a_move, args=(one, held, release))
    holder.start()
    try:
        assert held.wait(10)
        out = in_own_connection(lambda: round_life.round_pause(round=rnd, by=organizer))
    finally:
        release.set()
        holder.join(30)
    # the clock's change of the round could not pass the move's share of it
    assert isinstance(out.get("error"), OperationalError), out
    assert Round.objects.get(pk=rnd.pk).status == Round.RUNNING
