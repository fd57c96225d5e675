"""Conformance suite: properties every engine must keep, checked over random games.

Used by ``tests/games/test_conformance.py`` for every engine and player count,
and handy while writing an engine::

    from games.testing import check_engine
    check_engine(get_engine("trumpet"), players=4, games=50)

Checked at every step of every game:
- ``to_act`` is empty exactly when the game is over, and every seat to act has
  at least one legal action;
- every legal action applies (without changing the state it was applied to),
  an invented action and a seat not to act raise ``IllegalAction``;
- ``load(dump(s)) == s`` and the dump is JSON;
- no view leaks a card its seat (or the public) must not see;
- cards are conserved: the zones always hold exactly the cards in play;
and per game: it ends; replaying its record gives the same state (so the same
seed and actions give the same game); its result's ranks are the competition
ranking of its ``rank_keys`` and a strictly bigger figure never ranks worse.
Some games call time at a random moment and are finished by a bot.
"""

from __future__ import annotations

import json
import re
import statistics
from collections import Counter
from dataclasses import dataclass, field

from games import rng
from games.base import TIME_CALLED, Engine, IllegalAction, RandomBot, Record, rank_by

# every JSON string literal (keys and values); card ids hold no quotes or escapes
_JSON_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
INVENTED_ACTIONS = ("play:__no_such_card__", "announce:__nothing__", "bogus", "")


class ConformanceError(AssertionError):
    pass


def _fail(engine: Engine, seed: int, step: int, msg: str):
    raise ConformanceError(f"{engine.id} seed={seed} step={step}: {msg}")


@dataclass
class Stats:
    games: int = 0
    actions: int = 0
    time_called: int = 0
    wins: Counter = field(default_factory=Counter)


def check_state(
    engine: Engine,
    s: dict,
    players: int,
    deck_ids: list[str],
    seed: int,
    step: int,
    view_seats: list | None = None,
):
    """Serialisation, conservation and hidden information of one state.
    ``view_seats``: whose views to check (default: every seat and the public)."""
    # serialisation: for the base dump/load (a JSON round trip each) one round
    # trip is load(dump(s)); engines with their own dump/load are run through them
    if type(engine).dump is Engine.dump and type(engine).load is Engine.load:
        try:
            back = json.loads(json.dumps(s))
        except TypeError as exc:
            _fail(engine, seed, step, f"state is not JSON: {exc}")
        if back != s or back.get("game") != engine.id:
            _fail(engine, seed, step, "load(dump(s)) != s")
    else:
        try:
            text = json.dumps(engine.dump(s))
        except TypeError as exc:
            _fail(engine, seed, step, f"dump is not JSON: {exc}")
        if engine.load(json.loads(text)) != s:
            _fail(engine, seed, step, "load(dump(s)) != s")
    # conservation
    held = sorted(c for cards in engine.zones(s).values() for c in cards)
    if held != deck_ids:
        lost = Counter(deck_ids) - Counter(held)
        extra = Counter(held) - Counter(deck_ids)
        _fail(engine, seed, step, f"cards not conserved: lost {dict(lost)}, extra {dict(extra)}")
    # hidden information: a hidden id must not appear as any string of the view
    if view_seats is None:
        view_seats = [*range(players), None]
    for seat in view_seats:
        view = engine.view(s, seat)
        for key in ("phase", "to_act"):
            if key not in view:
                _fail(engine, seed, step, f"view lacks {key!r}")
        shown = set(_JSON_STRING.findall(json.dumps(view, ensure_ascii=False)))
        leaked = [c for c in engine.hidden(s, seat) if c in shown]
        if leaked:
            _fail(engine, seed, step, f"view of seat {seat} leaks {sorted(leaked)[:5]}")


def check_result(engine: Engine, s: dict, players: int, seed: int, step: int):
    res = engine.result(s)
    if len(res.ranks) != players or len(res.figures) != players:
        _fail(engine, seed, step, "result needs one rank and one figure per seat")
    keys = res.details.get("rank_keys")
    if keys is None or len(keys) != players:
        _fail(engine, seed, step, "result.details['rank_keys'] needs one key per seat")
    keys = [tuple(k) if isinstance(k, list) else k for k in keys]
    if res.ranks != rank_by(keys):
        _fail(engine, seed, step, f"ranks {res.ranks} do not follow rank_keys {keys}")
    for a in range(players):
        for b in range(players):
            if res.figures[a] > res.figures[b] and res.ranks[a] > res.ranks[b]:
                _fail(
                    engine, seed, step, f"seat {a} has the bigger figure but ranks below seat {b}"
                )
    json.dumps(res.as_dict())
    return res


def play_one(
    engine: Engine,
    players: int,
    seed: int,
    *,
    options: dict | None = None,
    call_time_at: float | None = None,
    all_actions: bool = True,
    max_steps: int = 20_000,
) -> tuple[dict, Record]:
    """Play one random game with every check; returns the final state and record."""
    options = dict(options or {})
    s = engine.new_game(players, seed, options)
    if engine.new_game(players, seed, options) != s:
        _fail(engine, seed, 0, "the same seed gives another game (randomness outside the state?)")
    deck_ids = sorted(c["id"] for c in engine.deck(players, options))
    record = Record(engine.id, players, seed, options)
    chooser = {"rng": rng.seed_state(seed * 7919 + 13)}
    step = 0
    called = False
    while True:
        seats = engine.to_act(s)
        # every seat's view in the thorough games; else the seats to act and the public
        views = None if all_actions else [*seats[:1], None]
        check_state(engine, s, players, deck_ids, seed, step, views)
        if engine.is_over(s):
            if seats:
                _fail(engine, seed, step, f"game over but to_act = {seats}")
            break
        if not seats:
            _fail(engine, seed, step, "no seat to act but the game is not over")
        for seat in range(players):
            if seat not in seats:
                try:
                    engine.apply(s, seat, (engine.legal_actions(s, seats[0]) or ["x"])[0])
                except IllegalAction:
                    pass
                else:
                    _fail(engine, seed, step, f"seat {seat} acted out of turn")
        seat = seats[rng.randrange(chooser, len(seats))]
        legal = engine.legal_actions(s, seat)
        if not legal:
            _fail(engine, seed, step, f"seat {seat} to act has no legal action")
        if len(set(legal)) != len(legal):
            _fail(engine, seed, step, f"legal actions repeat: {legal}")
        before = json.dumps(s, sort_keys=True) if all_actions else None
        if all_actions:
            for a in legal:
                try:
                    engine.apply(s, seat, a)
                except IllegalAction as exc:
                    _fail(engine, seed, step, f"legal action {a!r} raised: {exc}")
        for bad in INVENTED_ACTIONS:
            if bad in legal:
                continue
            try:
                engine.apply(s, seat, bad)
            except IllegalAction as exc:
                if not str(exc):
                    _fail(engine, seed, step, "IllegalAction without a reason")
            else:
                _fail(engine, seed, step, f"invented action {bad!r} was accepted")
        if before is not None and json.dumps(s, sort_keys=True) != before:
            _fail(engine, seed, step, "apply changed the state it was given")
        action = legal[rng.randrange(chooser, len(legal))]
        s = engine.apply(s, seat, action)
        record.actions.append((seat, action))
        step += 1
        if step > max_steps:
            _fail(engine, seed, step, "game did not end")
        if call_time_at is not None and not called and step >= call_time_at:
            called = True
            s = engine.call_time(s)
            record.actions.append(TIME_CALLED)
            check_state(engine, s, players, deck_ids, seed, step)
            # the rest is played by a bot, recorded as ordinary actions
            bot = RandomBot(seed)
            while not engine.is_over(s):
                seat = engine.to_act(s)[0]
                a = bot.choose(engine.view(s, seat), engine.legal_actions(s, seat))
                s = engine.apply(s, seat, a)
                record.actions.append((seat, a))
                check_state(engine, s, players, deck_ids, seed, step)
                step += 1
                if step > max_steps:
                    _fail(engine, seed, step, "game did not end after time was called")
            break
    if record.replay(engine) != s:
        _fail(engine, seed, step, "replaying the record gives another state")
    check_result(engine, s, players, seed, step)
    return s, record


def check_engine(
    engine: Engine,
    players: int,
    games: int = 300,
    *,
    first_seed: int = 1,
    options: dict | None = None,
    all_actions_games: int = 40,
    time_call_every: int = 3,
) -> Stats:
    """Run ``games`` random games with every check. Every
    ``time_call_every``-th game calls time at a step spread over the whole
    game (up to four fifths of the median game played so far: early, in the middle
    and in the last tricks, where the rules for a called time differ most);
    ``Stats.time_called`` counts the games where time was really called.
    Checking every legal action is costly, so it is done for the first
    ``all_actions_games`` games (which also check every seat's view at every
    step); the rest apply only the chosen action and check the view of the
    seat to act and the public view."""
    stats = Stats()
    lengths: list[int] = []  # the games played to their end so far
    for i in range(games):
        seed = first_seed + i
        call_at = None
        if i % time_call_every == time_call_every - 1:
            # over four fifths of a game's usual length (a game may end early)
            span = max(2, int(0.8 * statistics.median(lengths))) if lengths else 60
            call_at = 1 + (seed * 37) % span
        s, record = play_one(
            engine,
            players,
            seed,
            options=options,
            call_time_at=call_at,
            all_actions=i < all_actions_games,
        )
        stats.games += 1
        stats.actions += len(record.actions)
        called = TIME_CALLED in record.actions
        stats.time_called += called
        if call_at is None:
            lengths.append(len(record.actions))
        res = engine.result(s)
        for seat, r in enumerate(res.ranks):
            if r == 1:
                stats.wins[seat] += 1
    return stats
