"""How many public replay labels give a hidden card away;
run ``python tests/bench/bench_replay_leaks.py [N]`` (N random games per
game, default 50; no database needed).

For every step of N seeded random games per game (``tests/public_replay.py``:
the engines' bots, every third game with time called) two labels of the move
are checked against what the public view of that step keeps hidden (every
hand's cards it doesn't show, the draw pile), as card ids and as English card
names, matched whole:

- before: the label the public review page showed until this change — the
  mover's button label (``action_label``) with no view, as
  ``watch._move_label`` built it then;
- after: the public label the page shows now
  (``watch.public_move_label``: ``engine.public_action`` and the public
  view only).

The figure is the number of labels naming at least one hidden card, per game
and by the kind of action.
"""

from __future__ import annotations

import os
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournaments.settings")

import django

django.setup()

from django.utils import translation  # noqa: E402

from games import ENGINES  # noqa: E402
from games.base import TIME_CALLED  # noqa: E402
from tests.public_replay import named, random_games  # noqa: E402
from tournaments.play import watch  # noqa: E402
from tournaments.play.base import Ctx, card_index  # noqa: E402
from tournaments.play.screen import presentation  # noqa: E402


def old_label(engine, state, names, seat, action) -> str:
    """The public label before this change (``watch._move_label`` then)."""
    if (seat, action) == TIME_CALLED:
        return "Time called."
    cards = card_index(engine, state["players"], state.get("options") or {})
    ctx = Ctx(engine=engine, view={}, legal=[], seat=None, names=names, cards=cards)
    return presentation(engine.id).action_label(ctx, action) or action


def measure(games: int) -> dict:
    out = {}
    for game_id, engine in ENGINES.items():
        game = presentation(game_id)
        labels = 0
        before, after = Counter(), Counter()
        examples = []
        for g in random_games(engine, games):
            names = [f"Spielerin {k}" for k in range(g.players)]
            cards = card_index(engine, g.players, g.states[0]["options"])
            ctx = Ctx(engine=engine, view={}, legal=[], seat=None, names=names, cards=cards)
            titles = {cid: game.card_title(ctx, cid) for cid in cards}
            for k, state_before, seat, action, state_after in g.steps():
                hidden = engine.hidden(state_after, None)
                secret = set(hidden) | {titles[c] for c in hidden}
                kind = "call_time" if seat < 0 else action.partition(":")[0]
                labels += 1
                old = old_label(engine, state_after, names, seat, action)
                if named(old, secret):
                    before[kind] += 1
                    if len(examples) < 3:
                        examples.append(old)
                step = watch.Step(k, None if seat < 0 else seat, action, False, None)
                new = watch.public_move_label(engine, state_before, state_after, names, step)
                if named(new, secret):
                    after[kind] += 1
        out[game_id] = {
            "labels": labels,
            "before": before,
            "after": after,
            "examples": examples,
        }
    return out


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    started = time.process_time()
    with translation.override("en"):
        figures = measure(games)
    for game_id, f in figures.items():
        b, a = sum(f["before"].values()), sum(f["after"].values())
        print(
            f"{game_id:15s} {games} games, {f['labels']:6d} labels: "
            f"before {b:5d} leak ({100 * b / f['labels']:4.1f} %) {dict(f['before'])}; "
            f"after {a} leak {dict(f['after']) or ''}"
        )
        if f["examples"]:
            print(f"{'':15s} e.g. {f['examples']}")
    print(f"({time.process_time() - started:.1f} s CPU)")


if __name__ == "__main__":
    main()
