"""Every engine, every player count: 300 random games through games/testing.py."""

import pytest

from games import ENGINES
from games.testing import check_engine

CASES = [
    (engine_id, n)
    for engine_id, engine in ENGINES.items()
    for n in range(engine.min_players, engine.max_players + 1)
]


@pytest.mark.parametrize(("engine_id", "players"), CASES)
def test_conformance(engine_id, players):
    engine = ENGINES[engine_id]
    stats = check_engine(engine, players, games=300)
    assert stats.games == 300
    assert stats.time_called >= 100
    # every seat can win: a seat that never wins in 300 games means a rule bug
    assert set(stats.wins) == set(range(players)), stats.wins


def test_all_five_engines_are_registered():
    assert set(ENGINES) == {"quartett", "terra_trumpf", "trumpet", "monddaemmerung", "altruismus"}
