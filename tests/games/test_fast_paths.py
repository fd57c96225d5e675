"""The engines' fast paths (their speed work) decide exactly as the plain
rules code: ``is_legal`` agrees with ``legal_actions`` for every seat and
every action a client could send, a fast ``apply`` gives the same state as a
full copy plus ``_apply`` and leaves its input alone, and Altruismus' live
scores (kept incrementally) always equal the scoring of the collections."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import ENGINES
from games.altruismus import score_collection
from games.base import Engine, IllegalAction
from tests.examples import examples

CASES = [
    (game_id, n)
    for game_id, engine in ENGINES.items()
    for n in range(engine.min_players, engine.max_players + 1)
]
ODD_SEATS = [-1, None, "0", 1.5, 99]
ODD_ACTIONS = [None, 7, ["play:x"], "", "play:", "keep ", "PLAY:x", "noswap:1", "skip", "later"]


def states(engine, players: int, seed: int, every: int = 1):
    """The states of one random game (every ``every``-th one) with the seat to
    act and the action played there."""
    pick = random.Random(seed).choice
    s = engine.new_game(players, seed)
    step = 0
    while True:
        seats = engine.to_act(s)
        if not seats:
            return
        seat = seats[0]
        action = pick(engine.legal_actions(s, seat))
        if step % every == 0:
            yield s, seat, action
        s = engine.apply(s, seat, action)
        step += 1


def candidates(engine, s: dict, players: int, deck_ids: list[str]) -> list:
    out = set()
    for j in range(players):
        out.update(engine.legal_actions(s, j))
    out.update("play:" + c for c in deck_ids)
    # the same decisions with another seat or card, e.g. "back:5", "give:0"
    for a in list(out):
        head, sep, _tail = a.rpartition(":")
        if sep:
            out.update(f"{head}:{j}" for j in range(-1, players + 1))
    return sorted(out) + ODD_ACTIONS


@pytest.mark.parametrize("game_id,players", CASES)
@settings(max_examples=examples(3), deadline=None)
@given(seed=st.integers(0, 10**6))
def test_is_legal_agrees_with_legal_actions(game_id, players, seed):
    engine = ENGINES[game_id]
    deck_ids = [c["id"] for c in engine.deck(players)]
    for s, _seat, _action in states(engine, players, seed, every=7):
        actions = candidates(engine, s, players, deck_ids)
        for seat in [*range(players), *ODD_SEATS]:
            try:
                legal = engine.legal_actions(s, seat)
            except (TypeError, IndexError):
                legal = []  # a seat that is no seat: nothing is legal
            for action in actions:
                assert engine.is_legal(s, seat, action) == (action in legal), (
                    game_id,
                    seat,
                    action,
                    s["phase"],
                )


@pytest.mark.parametrize("game_id,players", CASES)
@settings(max_examples=examples(3), deadline=None)
@given(seed=st.integers(0, 10**6))
def test_fast_apply_equals_full_copy_and_leaves_its_input_alone(game_id, players, seed):
    engine = ENGINES[game_id]
    for s, seat, action in states(engine, players, seed):
        before = json.dumps(s, sort_keys=True)
        fast = engine.apply(s, seat, action)
        full = engine.copy(s)
        engine._apply(full, seat, action)
        assert fast == full
        assert json.dumps(s, sort_keys=True) == before
        # a state made by a fast path can itself be played on without
        # touching the state it shares lists with
        nxt = engine.to_act(fast)
        if nxt:
            engine.apply(fast, nxt[0], engine.legal_actions(fast, nxt[0])[0])
            assert json.dumps(s, sort_keys=True) == before


@pytest.mark.parametrize("game_id", list(ENGINES))
def test_illegal_actions_still_explained(game_id):
    engine = ENGINES[game_id]
    s = engine.new_game(engine.min_players, 3)
    seat = engine.to_act(s)[0]
    other = (seat + 1) % engine.min_players
    if other not in engine.to_act(s):
        with pytest.raises(IllegalAction, match="not to act"):
            engine.apply(s, other, engine.legal_actions(s, seat)[0])
    with pytest.raises(IllegalAction):
        engine.apply(s, seat, "play:__no_such_card__")
    with pytest.raises(IllegalAction):
        engine.apply(s, seat, None)


@pytest.mark.parametrize("players", [2, 3, 4])
@settings(max_examples=examples(10), deadline=None)
@given(seed=st.integers(0, 10**6))
def test_altruismus_live_scores_equal_the_scoring_of_the_collections(players, seed):
    engine = ENGINES["altruismus"]
    last = None
    for s, _seat, _action in states(engine, players, seed):
        want = [
            score_collection(s["collections"][j], s["missions"], j)["total"] for j in range(players)
        ]
        assert s["scores"] == want
        last = s
    assert last is not None


def test_base_is_legal_is_membership_in_legal_actions():
    engine = ENGINES["quartett"]
    s = engine.new_game(3, 1)
    seat = engine.to_act(s)[0]
    for action in [*engine.legal_actions(s, seat), "announce:nothing", None]:
        assert Engine.is_legal(engine, s, seat, action) == engine.is_legal(s, seat, action)
