"""Bots: the rule-aware ("smart") bot of every engine beats random bots, and
bots only ever see their seat's view and legal actions.

Every registered engine is tested (``games.ENGINES``); engines still being
written are simply absent. ``games.play.play_game`` is tested on the toy engine
of ``test_base.py`` as well.
"""

from __future__ import annotations

import json
import math

import pytest

from games import ENGINES, IllegalAction
from games.base import RandomBot
from games.play import play_game
from tests.games.test_base import TOY, ToySmartBot

#: games per engine in the strength test
GAMES = 200
#: one-sided z for the strength test: a bot no better than random passes with ~1%
Z = 2.33


def player_count(engine) -> int:
    """The smallest player count without teams (else the smallest)."""
    for n in range(engine.min_players, engine.max_players + 1):
        if not engine.teams(n):
            return n
    return engine.min_players


def win_share(ranks: list[int], seat: int, teams: list[list[int]] | None) -> float:
    """``seat``'s share of this game's win: a shared first place splits the
    win between the seats (or the teams) ranked first."""
    best = min(ranks)
    winners = [s for s, r in enumerate(ranks) if r == best]
    if seat not in winners:
        return 0.0
    if not teams:
        return 1 / len(winners)
    winning_teams = {i for i, team in enumerate(teams) for s in winners if s in team}
    return 1 / len(winning_teams)


def bot_seeds(game_seed: int, players: int) -> list[int]:
    return [game_seed * 1009 + seat for seat in range(players)]


def lineup(engine, smart_seat: int, players: int, game_seed: int) -> list:
    classes = engine.bots()
    return [
        (classes["smart"] if seat == smart_seat else classes["random"])(seed)
        for seat, seed in enumerate(bot_seeds(game_seed, players))
    ]


CASES = sorted(ENGINES)


# -- every engine ------------------------------------------------------------------


@pytest.mark.parametrize("game", CASES)
def test_engine_has_random_and_smart_bots(game):
    engine = ENGINES[game]
    classes = engine.bots()
    assert {"random", "smart"} <= set(classes)
    for cls in classes.values():
        bot = cls(7)
        assert callable(bot.choose)


@pytest.mark.parametrize("game", CASES)
def test_smart_bot_beats_random_bots(game):
    """The smart bot takes a clearly bigger share of the wins than its fair
    share (1/n, or 1/teams). It plays every seat in turn (game i: seat i mod n)
    so that a seat's own advantage (e.g. leading first) does not count."""
    engine = ENGINES[game]
    n = player_count(engine)
    teams = engine.teams(n)
    fair = 1 / (len(teams) if teams else n)
    total = 0.0
    for i in range(GAMES):
        seed = 10_000 + i
        smart_seat = i % n
        s, _record, _n = play_game(engine, n, seed, lineup(engine, smart_seat, n, seed))
        total += win_share(engine.result(s).ranks, smart_seat, teams)
    share = total / GAMES
    threshold = fair + Z * math.sqrt(fair * (1 - fair) / GAMES)
    assert share >= threshold, (
        f"{game}, {n} players: smart bot won {share:.3f} of {GAMES} games, "
        f"fair share {fair:.3f}, needs {threshold:.3f}"
    )


class Spy:
    """Wraps a bot and logs what it is handed."""

    def __init__(self, bot, log: list):
        self.bot = bot
        self.name = getattr(bot, "name", "spy")
        self.log = log

    def choose(self, view, legal):
        self.log.append((view, legal))
        action = self.bot.choose(view, legal)
        assert action in legal, f"bot chose {action!r}, not one of {legal}"
        return action


def spy_on(engine, monkeypatch):
    """Record every object ``engine.view`` and ``engine.legal_actions`` return."""
    made: dict[str, list] = {"views": [], "legal": []}
    view, legal_actions = engine.view, engine.legal_actions

    def logged_view(s, seat):
        v = view(s, seat)
        made["views"].append((seat, v))
        return v

    def logged_legal(s, seat):
        actions = legal_actions(s, seat)
        made["legal"].append(actions)
        return actions

    monkeypatch.setattr(engine, "view", logged_view)
    monkeypatch.setattr(engine, "legal_actions", logged_legal)
    return made


@pytest.mark.parametrize("game", CASES)
def test_bots_see_only_their_view_and_legal_actions(game, monkeypatch):
    engine = ENGINES[game]
    n = player_count(engine)
    made = spy_on(engine, monkeypatch)
    log: list = []
    for seed in (1, 2, 3):
        bots = [Spy(bot, log) for bot in lineup(engine, seed % n, n, seed)]
        play_game(engine, n, seed, bots)
    assert log
    views = {id(v): seat for seat, v in made["views"]}
    legals = {id(a) for a in made["legal"]}
    for view, legal in log:
        # the very objects view(s, seat) and legal_actions(s, seat) made, for a seat
        assert isinstance(view, dict) and id(view) in views and views[id(view)] is not None
        assert isinstance(legal, list) and id(legal) in legals
        assert legal and all(isinstance(a, str) for a in legal)
        json.dumps(view)


@pytest.mark.parametrize("game", CASES)
def test_bot_games_are_reproducible_and_replay(game):
    engine = ENGINES[game]
    n = player_count(engine)
    runs = [play_game(engine, n, 77, lineup(engine, 0, n, 77)) for _i in range(2)]
    (s1, r1, n1), (s2, r2, n2) = runs
    assert r1 == r2 and n1 == n2 == len(r1.actions) and s1 == s2
    assert engine.is_over(s1)
    assert r1.replay() == s1  # every action was recorded for the seat that played it


# -- play_game on the toy engine ------------------------------------------------------


def test_play_game_records_every_action_for_its_seat(monkeypatch):
    from games import ENGINES as registry

    monkeypatch.setitem(registry, TOY.id, TOY)
    s, record, n = play_game(TOY, 3, 4, [ToySmartBot(), RandomBot(1), RandomBot(2)])
    assert TOY.is_over(s) and n == 9 == len(record.actions)
    assert (record.game, record.players, record.seed, record.options) == ("toy", 3, 4, {})
    assert record.replay() == s
    # the first trick is led by seat 0, then each in turn
    assert [seat for seat, _a in record.actions[:3]] == [0, 1, 2]


def test_play_game_with_one_bot_for_every_seat_and_options(monkeypatch):
    from games import ENGINES as registry

    monkeypatch.setitem(registry, TOY.id, TOY)
    stack = ["t1a", "t1b", "t2a", "t2b", "t3a", "t3b"]
    s, record, n = play_game(TOY, 2, 1, ToySmartBot(), {"stack": stack})
    assert record.options == {"stack": stack} and record.replay() == s
    # smart vs smart: 3 takes 1, seat 1 beats the 2 with its 3 and then leads 2 over 1
    assert s["tricks"] == [1, 2]
    assert [a for _seat, a in record.actions[:4]] == [
        "play:t3a",
        "play:t1b",
        "play:t2a",
        "play:t3b",
    ]


def test_play_game_wants_one_bot_per_seat():
    with pytest.raises(ValueError, match="one bot per seat"):
        play_game(TOY, 3, 1, [RandomBot(1), RandomBot(2)])


def test_play_game_with_a_bot_choosing_an_illegal_action():
    class Cheat:
        name = "cheat"

        def choose(self, view, legal):
            return "play:t9z"

    with pytest.raises(IllegalAction):
        play_game(TOY, 2, 1, Cheat())
