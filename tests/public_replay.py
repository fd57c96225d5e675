"""Random games and a whole-word card finder for the public-replay tests
(``tests/games/test_public_action.py``, ``tests/play/test_public_replay.py``)
and ``tests/bench/bench_replay_leaks.py``.

A game is played by the engine's own bots (seeded: "random" and "smart"
alternate by seat), one seat at a time as ``Engine.finish`` does; every third
game the clock calls time at a seeded step. Each game comes back as every
state from the deal on and the record's ``(seat, action)`` entries, so step
``k`` is ``actions[k - 1]`` applied to ``states[k - 1]`` giving ``states[k]``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass

from games.base import TIME_CALLED, Engine

#: every JSON string literal of a dump (card ids hold no quotes or escapes)
_JSON_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')


@dataclass
class PlayedGame:
    players: int
    seed: int
    states: list[dict]
    actions: list[tuple[int, str]]

    def steps(self) -> Iterator[tuple[int, dict, int, str, dict]]:
        """``(k, state before, seat, action, state after)`` for every step."""
        for k, (seat, action) in enumerate(self.actions, start=1):
            yield k, self.states[k - 1], seat, action, self.states[k]


def random_games(engine: Engine, games: int, first_seed: int = 1000) -> Iterator[PlayedGame]:
    """``games`` seeded random games of ``engine``, player counts in turn."""
    counts = list(range(engine.min_players, engine.max_players + 1))
    bot_classes = engine.bots()
    for i in range(games):
        players = counts[i % len(counts)]
        seed = first_seed + i
        bots = [
            bot_classes["smart" if (seat + i) % 2 else "random"](seed * 10 + seat)
            for seat in range(players)
        ]
        call_at = 5 + (seed * 37) % 80 if i % 3 == 2 else None
        s = engine.new_game(players, seed, {})
        states, actions = [s], []
        while not engine.is_over(s):
            if call_at is not None and len(actions) == call_at:
                s = engine.call_time(s)
                actions.append(TIME_CALLED)
            else:
                seat = engine.to_act(s)[0]
                action = bots[seat].choose(engine.view(s, seat), engine.legal_actions(s, seat))
                s = engine.apply(s, seat, action)
                actions.append((seat, action))
            states.append(s)
        yield PlayedGame(players, seed, states, actions)


def json_strings(data) -> set[str]:
    """Every string (keys and values) in ``data`` as JSON would hold it."""
    return set(_JSON_STRING.findall(json.dumps(data, ensure_ascii=False)))


def finder(tokens) -> re.Pattern | None:
    """A pattern matching any of ``tokens`` as a whole: not inside a longer
    id or name ('TP-green-1' is not found in 'TP-green-10', 'Blue 1' not in
    'Blue 13'); None for no tokens."""
    tokens = sorted({t for t in tokens if t}, key=len, reverse=True)
    if not tokens:
        return None
    return re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(t) for t in tokens) + r")(?![\w-])")


def named(text: str, tokens) -> list[str]:
    """The ``tokens`` that ``text`` names as a whole (a cheap substring test
    first, the whole-word pattern only on a hit)."""
    hits = [t for t in tokens if t and t in text]
    if not hits:
        return []
    pattern = finder(hits)
    return sorted({m.group(0) for m in pattern.finditer(text)})
