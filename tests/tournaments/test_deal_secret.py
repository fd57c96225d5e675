"""Issue 28, point 1: a digital deal draws on a secret the server keeps.

An outsider with the open-source engines and every public fact (tournament
id, round and table numbers, the organizer's seating seed) computes none of
the hands or draw piles; two installations given the same public story deal
different cards; the organizer's seed decides the seating, never the cards.
"""

from __future__ import annotations

import pytest

from tests.deal_attack import PublicFacts, reproduced
from tests.factories import PlayerFactory, TournamentFactory, seated_round

pytestmark = pytest.mark.django_db

#: the five games with a table size each plays at
GAMES = [
    ("quartett", 2),
    ("terra_trumpf", 3),
    ("trumpet", 3),
    ("monddaemmerung", 4),
    ("altruismus", 3),
]


def _digital_round(owner, game, size, tables, seed=None, name=None):
    """Round 1 of a new digital tournament of ``game``: ``tables`` tables of
    ``size`` players, seated (with the organizer's ``seed``) and started."""
    t = TournamentFactory(
        owner=owner,
        game=game,
        digital_tables=True,
        allowed_sizes=[size],
        table_size=size,
        **({"name": name} if name else {}),
    )
    for k in range(size * tables):
        PlayerFactory(tournament=t, name=f"Spieler {k:02d}")
    return seated_round(t, seed=seed, start=True)


def _dealt_tables(rnd, organizer_seeds=()):
    """(public facts, dealt state) of each table of a round just started."""
    t = rnd.tournament
    return [
        (PublicFacts(t.game, t.pk, rnd.number, table.number, tuple(organizer_seeds)), table.state)
        for table in rnd.tables.order_by("number")
    ]


def test_no_deal_of_ten_tables_follows_from_public_facts(organizer, capsys):
    """The measurement of the issue: 10 digital tables (two per game, half
    of them seated with the organizer's seed 7), attacked with every public
    fact. Before deal secrets an outsider computed all 10."""
    tables = []
    for k, (game, size) in enumerate(GAMES):
        seed = 7 if k % 2 else None
        rnd = _digital_round(organizer, game, size, tables=2, seed=seed)
        tables += _dealt_tables(rnd, organizer_seeds=(7,) if seed else ())
    assert len(tables) == 10
    hit = reproduced(tables)
    with capsys.disabled():
        print(f"\n[deal attack] {hit} of {len(tables)} tables' hands and draw piles reproduced")
    assert hit == 0, f"{hit} of {len(tables)} deals computed from public facts"
