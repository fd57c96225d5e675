"""A digital final table in every game: a tournament of digital tables
plays its qualifying round, seats the final, and the final's table is dealt
when its clock starts, played move by move from the players' seats to the
game's end, and counts — the finalists first in the standings, ordered by
the final's result as the engine ranked it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import ENGINES
from scoring.models import Submission
from scoring.standings.selectors import standings
from tests.factories import PlayerFactory, TournamentFactory, seated_round
from tournaments.finals import services as finals
from tournaments.finals.models import FinalStage
from tournaments.models import Round, Table
from tournaments.play import tables as digital
from tournaments.services import deadlines, round_life

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_broker(monkeypatch):
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)
    monkeypatch.setattr(digital, "send_bot_task", lambda *a, **k: None)


def play_out(table: Table, seed: int) -> int:
    """The players at ``table`` play it to its end from their seats (each
    move the game's own bot would choose for that seat). Returns the moves."""
    engine = table.round.tournament.engine
    for moves in range(5000):
        table.refresh_from_db()
        state = engine.load(table.state)
        if engine.is_over(state):
            return moves
        seat = engine.to_act(state)[0]
        bot = engine.bots()["smart"](seed + moves)
        action = bot.choose(engine.view(state, seat), engine.legal_actions(state, seat))
        digital.table_move(table=table, seat=seat, action=action)
    raise AssertionError(f"table {table.number} did not end in 5000 moves")


def play_round(rnd: Round, seed: int) -> Round:
    for table in rnd.tables.order_by("number"):
        play_out(table, seed + table.number)
    round_life.round_end(round=rnd, by=rnd.tournament.owner)
    rnd.refresh_from_db()
    return rnd


@pytest.mark.parametrize("game", sorted(ENGINES))
def test_a_digital_final_table_plays_to_its_end_and_counts(client, organizer, game):
    t = TournamentFactory(owner=organizer, game=game, digital_tables=True, rounds=1)
    size = t.table_size
    for k in range(2 * size):
        PlayerFactory(tournament=t, name=f"Spieler {k}", birth_year=1970 + k)
    finals.final_stage_save(
        tournament=t, by=organizer, format=FinalStage.TABLE, final_size=size, minutes=20
    )
    first = play_round(seated_round(t, seed=3, start=True), seed=100)
    assert first.status == Round.COMPLETE
    final = finals.final_seat(tournament=t, by=organizer)
    assert final.tables.get().digital
    round_life.round_start(round=final, by=organizer)
    table = final.tables.get()
    # the spectator view and the review work as for any round
    args = [t.pk, final.number, table.number]
    assert client.get(reverse("table_watch", args=args)).status_code == 200
    assert play_out(table, seed=500) > 0
    client.force_login(organizer)
    assert client.get(reverse("table_review", args=args)).status_code == 200
    table.refresh_from_db()
    assert table.status == Table.DONE
    counted = Submission.objects.get(table=table, status=Submission.CONFIRMED)
    assert play_round(final, seed=900).status == Round.COMPLETE
    seats = list(table.seats.order_by("position").values_list("player_id", flat=True))
    ranks = dict(zip(seats, counted.ranks, strict=True))
    rows = standings(t)
    assert {r.player_id for r in rows[:size]} == set(seats)
    assert [r.stage for r in rows] == ["final"] * size + [""] * size
    assert [ranks[r.player_id] for r in rows[:size]] == sorted(ranks.values())
    assert [r.place for r in rows[:size]] == list(range(1, size + 1))
    assert all(r.place > size for r in rows[size:])  # the rest may share a place
