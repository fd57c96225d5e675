"""A small hand-made tournament through real rows (Round, Table, Seat, Bye,
Submission), shared by the standings, export and printing tests.

Placement points (3-2-1-0 at tables of 4, a bye = 1.5):

round 1  table 1: Ayşe 1st (10), Łukasz 2nd (6), Jürgen Weiß 3rd (3), Anna 4th (1)
         table 2: Bernd and Clara share 1st (8, 8), Dora 3rd (2), Emil 4th (0)
         bye: Fritz
round 2  table 1: Ayşe 1st (9), Bernd 2nd (5), Fritz 3rd (4), Emil 4th (0)
                  (version 1 was corrected: version 2 replaces it)
         table 2: Łukasz 1st (7), Clara 2nd (5), Jürgen 3rd (2), Dora 4th (1)
         bye: Anna;  Dora drops after round 2
round 3  table 1 (Ayşe, Łukasz, Bernd, Clara): a pending entry only
         table 2 (Fritz, Jürgen, Anna, Emil): nothing entered
Zoë Ødegaard and Ömer Kaya registered late and never played.

Standings: 1 Ayşe 6 · 2 Łukasz 5 · 3 Bernd 4.5 (figures 13, opponents 14/6)
· 4 Clara 4.5 (figures 13, opponents 13.5/6) · 5 Fritz 2.5 · 6 Jürgen 2
· 7 Anna 1.5 · 8 Dora 1 (dropped) · 9 Emil 0 · 10= Zoë, Ömer 0.
"""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from scoring.models import Confirmation, Submission
from tournaments import services
from tournaments.models import (
    Bye,
    ClockActivation,
    Round,
    Seat,
    SeatingChange,
    Table,
    TableAction,
)
from tournaments.play.tables import deal_seed

NAMES = {
    "A": "Ayşe Şahin",
    "L": "Łukasz Wróblewski",
    "J": "Jürgen Weiß",
    "N": "Anna Berg",
    "B": "Bernd Ćosić",
    "C": "Clara Dupont",
    "D": "Dora Quist",
    "E": "Emil Roth",
    "F": "Fritz Falk",
    "Z": "Zoë Ødegaard",
    "O": "Ömer Kaya",
}
ORDER = ["A", "L", "B", "C", "F", "J", "N", "D", "E"]  # then Z and Ö sharing 10th


def _table(rnd, number, letters, players):
    table = Table.objects.create(round=rnd, number=number)
    for pos, k in enumerate(letters):
        Seat.objects.create(table=table, player=players[k], position=pos)
    return table


def _result(table, ranks, figures, *, by, version=1, status=Submission.CONFIRMED, **extra):
    extra.setdefault("sheet", {"cards": figures})
    return Submission.objects.create(
        table=table,
        version=version,
        status=status,
        ranks=ranks,
        figures=figures,
        by=by,
        **extra,
    )


def build(tournament, organizer) -> dict:
    players = {}
    for k, name in NAMES.items():
        players[k] = services.player_add(
            tournament=tournament,
            by=organizer,
            name=name,
            club="SC Köln" if k in "AB" else "",
        )
    for k in "ZO":
        players[k].first_round = 3
        players[k].save()
    rounds = {n: Round.objects.create(tournament=tournament, number=n) for n in (1, 2, 3)}
    r1, r2, r3 = rounds[1], rounds[2], rounds[3]
    t = {}
    t[1, 1] = _table(r1, 1, "ALJN", players)
    t[1, 2] = _table(r1, 2, "BCDE", players)
    Bye.objects.create(round=r1, player=players["F"])
    _result(t[1, 1], [1, 2, 3, 4], [10, 6, 3, 1], by=organizer)
    _result(t[1, 2], [1, 1, 3, 4], [8, 8, 2, 0], by=organizer, from_address="192.0.2.7")
    t[2, 1] = _table(r2, 1, "ABFE", players)
    t[2, 2] = _table(r2, 2, "LCJD", players)
    Bye.objects.create(round=r2, player=players["N"])
    v1 = _result(t[2, 1], [1, 3, 2, 4], [9, 4, 5, 0], by=organizer, status=Submission.SUPERSEDED)
    v2 = _result(
        t[2, 1],
        [1, 2, 3, 4],
        [9, 5, 4, 0],
        by=organizer,
        version=2,
        replaces=v1,
        reason="Bernd and Fritz swapped on the sheet",
    )
    Confirmation.objects.create(submission=v2, by=organizer)
    Confirmation.objects.create(submission=v2, by_seat=2)
    # played as a digital table: the engine's result, no paper sheet
    _result(t[2, 2], [1, 2, 3, 4], [7, 5, 2, 1], by=None, source="digital", sheet={})
    r1.status = r2.status = Round.COMPLETE
    r1.save()
    r2.save()
    services.player_drop(player=players["D"], by=organizer)
    t[3, 1] = _table(r3, 1, "ALBC", players)
    t[3, 2] = _table(r3, 2, "FJNE", players)
    _result(t[3, 1], [1, 2, 3, 4], [5, 4, 3, 2], by=organizer, status=Submission.PENDING)
    # the clock and the seating log
    now = timezone.now().replace(microsecond=123456)
    for n, rnd in rounds.items():
        ClockActivation.objects.create(
            round=rnd, kind="start", seconds=2700, by=organizer, at=now + dt.timedelta(hours=n)
        )
        SeatingChange.objects.create(
            round=rnd, kind="seat", detail={"tables": 2, "note": "Ş"}, by=organizer
        )
    ClockActivation.objects.create(
        round=r2,
        table=t[2, 2],
        kind="extend",
        seconds=120,
        reason="Schiedsrichter",
        by=organizer,
        at=now + dt.timedelta(hours=2, minutes=5),
    )
    r1.completed_at = now
    r1.save()
    # a digital table: dealt from a fixed deal secret, its first move played
    engine = tournament.engine
    t[2, 2].digital = True
    t[2, 2].secret = "4711" * 16
    state = engine.new_game(4, deal_seed(t[2, 2]), tournament.game_options)
    seat = engine.to_act(state)[0]
    move = engine.legal_actions(state, seat)[0]
    t[2, 2].state = engine.dump(engine.apply(state, seat, move))
    t[2, 2].save()
    TableAction.objects.create(table=t[2, 2], number=0, seat=seat, action=move)
    return {"players": players, "rounds": rounds, "tables": t, "move": (seat, move)}
