"""Command line of the rules engines: ``python -m games ...``.

    python -m games list [--json]
    python -m games simulate GAME --players N --games K --seed S [--bot NAME ...]
                             [--options JSON]
    python -m games check-sheet GAME --players N [--options JSON] < sheet.json

``simulate`` plays K games with seeds S, S+1, ..., S+K-1 and prints one JSON
line::

    {"game", "players", "games", "seed", "bots", "mean_actions",
     "win_share", "win_share_by_bot", "actions_per_second"}

Bots are the engine's ``bots()`` by name, each built as ``Cls(seed)`` with a
seed derived from the game's seed and the seat. ``--bot`` is given once per
seat in seat order, or once for every seat; the default is ``random``. A game
is won by the seats ranked first; a shared first place splits the win, so
``win_share`` (per seat) sums to 1. ``win_share_by_bot`` is the share of all
games won by the seats a bot played (also summing to 1): a bot that played
k of n seats has a fair share of k/n.

``check-sheet`` reads a paper sheet (a JSON object of field values) on stdin
and prints the table result ``{"ranks", "figures", "details"}`` (exit 0), or
``{"problems": [{"code", "fields", "message", ...}, ...]}`` (exit 1).

Exit status 2: bad usage, an unknown game or bot, a player count the game
does not allow, or unreadable JSON (the reason goes to stderr). Exit status 3:
an engine failed (a bug; the traceback goes to stderr).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback
from collections import defaultdict

import games
from games.base import SheetError
from games.play import play_game


class UsageError(Exception):
    """Bad input from the command line; printed to stderr, exit status 2."""


def bot_seed(game_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` for the game with ``game_seed``."""
    return game_seed * 1009 + seat


def _engine(game_id: str):
    try:
        return games.get_engine(game_id)
    except KeyError as exc:
        raise UsageError(exc.args[0]) from None


def _players(engine, players: int) -> int:
    try:
        engine.check_players(players)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return players


def _options(text: str | None) -> dict | None:
    if text is None:
        return None
    try:
        options = json.loads(text)
    except ValueError as exc:
        raise UsageError(f"--options is not JSON: {exc}") from None
    if not isinstance(options, dict):
        raise UsageError("--options must be a JSON object")
    return options


def _emit(obj) -> None:
    sys.stdout.write(json.dumps(obj) + "\n")


# -- commands ------------------------------------------------------------------


def cmd_list(args) -> int:
    rows = [
        {
            "id": engine.id,
            "name": engine.name,
            "min_players": engine.min_players,
            "max_players": engine.max_players,
            "bots": sorted(engine.bots()),
        }
        for engine in games.ENGINES.values()
    ]
    if args.json:
        _emit(rows)
        return 0
    if not rows:
        print("no engines registered", file=sys.stderr)
    for r in rows:
        print(
            f"{r['id']:<16} {r['name']:<20} {r['min_players']}-{r['max_players']} players"
            f"   bots: {', '.join(r['bots'])}"
        )
    return 0


def simulate(
    engine, players: int, games_count: int, seed: int, bot_names: list[str], options=None
) -> dict:
    """Play ``games_count`` games and return the statistics ``simulate`` prints."""
    classes = engine.bots()
    names = list(bot_names) or ["random"]
    if len(names) == 1:
        names = names * players
    if len(names) != players:
        raise UsageError(
            f"give --bot once for every seat or once per seat: {players} seats, {len(names)} bots"
        )
    unknown = sorted({n for n in names if n not in classes})
    if unknown:
        raise UsageError(
            f"unknown bot(s) {', '.join(unknown)} for {engine.id}; known: {', '.join(sorted(classes))}"
        )
    if games_count < 1:
        raise UsageError("--games must be at least 1")

    wins = [0.0] * players
    total_actions = 0
    started = time.perf_counter()
    for i in range(games_count):
        game_seed = seed + i
        bots = [classes[name](bot_seed(game_seed, seat)) for seat, name in enumerate(names)]
        s, _record, actions = play_game(engine, players, game_seed, bots, options)
        total_actions += actions
        ranks = engine.result(s).ranks
        best = min(ranks)
        winners = [seat for seat, r in enumerate(ranks) if r == best]
        for seat in winners:
            wins[seat] += 1 / len(winners)
    elapsed = time.perf_counter() - started

    by_bot: dict[str, float] = defaultdict(float)
    for seat, name in enumerate(names):
        by_bot[name] += wins[seat]
    return {
        "game": engine.id,
        "players": players,
        "games": games_count,
        "seed": seed,
        "bots": names,
        "mean_actions": round(total_actions / games_count, 2),
        "win_share": [round(w / games_count, 4) for w in wins],
        "win_share_by_bot": {name: round(w / games_count, 4) for name, w in by_bot.items()},
        "actions_per_second": round(total_actions / elapsed, 1) if elapsed > 0 else None,
    }


def cmd_simulate(args) -> int:
    engine = _engine(args.game)
    players = _players(engine, args.players)
    out = simulate(engine, players, args.games, args.seed, args.bot or [], _options(args.options))
    _emit(out)
    return 0


def cmd_check_sheet(args) -> int:
    engine = _engine(args.game)
    players = _players(engine, args.players)
    options = _options(args.options)
    text = sys.stdin.read()
    try:
        sheet = json.loads(text)
    except ValueError as exc:
        raise UsageError(f"the sheet on stdin is not JSON: {exc}") from None
    try:
        result = engine.check_sheet(players, sheet, options)
    except SheetError as exc:
        _emit({"problems": [p.as_dict() for p in exc.problems]})
        return 1
    _emit(result.as_dict())
    return 0


# -- parser ---------------------------------------------------------------------


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m games", description="Turnierleiter rules engines: simulate and check."
    )
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("list", help="list the registered engines")
    p.add_argument("--json", action="store_true", help="print a JSON list")
    p.set_defaults(func=cmd_list)

    p = sub.add_parser("simulate", help="play games with bots, print statistics as JSON")
    p.add_argument("game")
    p.add_argument("--players", type=int, required=True)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument(
        "--bot",
        action="append",
        metavar="NAME",
        help="bot per seat in seat order, or once for every seat (default: random)",
    )
    p.add_argument("--options", metavar="JSON", help="game options as a JSON object")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("check-sheet", help="check a paper sheet (JSON on stdin)")
    p.add_argument("game")
    p.add_argument("--players", type=int, required=True)
    p.add_argument("--options", metavar="JSON", help="game options as a JSON object")
    p.set_defaults(func=cmd_check_sheet)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except UsageError as exc:
        print(f"python -m games {args.command}: {exc}", file=sys.stderr)
        return 2
    except Exception:  # an engine bug: keep exit 1 for "the sheet has problems"
        traceback.print_exc()
        return 3
