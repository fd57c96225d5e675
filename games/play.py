"""Play a whole game with bots: used by the CLI's ``simulate``, the bot tests
and benchmarks.

    from games import get_engine
    from games.play import play_game
    engine = get_engine("quartett")
    bots = [cls(seed) for cls in (engine.bots()["smart"], engine.bots()["random"])]
    state, record, actions = play_game(engine, 2, seed=7, bots=bots)

The game is played by ``Engine.finish`` (the same loop that plays out a game
after time was called), so a bot sees exactly what ``finish`` shows it: the
view of its own seat and that seat's legal actions, never the state.
``finish`` asks one bot for every seat; ``SeatBots`` is that one bot: it reads
the seat to act from the view's ``"to_act"`` (a common view key, ``games/base.py``;
``finish`` always lets ``to_act(s)[0]`` act), hands the decision to that
seat's bot and writes ``(seat, action)`` into the record.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.base import Bot, Engine, Record


class SeatBots:
    """One ``Bot`` for ``Engine.finish`` that lets every seat's own bot choose
    and records each decision as ``(seat, action)``."""

    name = "seats"

    def __init__(self, bots: Sequence[Bot], record: Record):
        self.bots = list(bots)
        self.record = record

    def choose(self, view: dict, legal: list[str]) -> str:
        to_act = view.get("to_act") if isinstance(view, dict) else None
        if not to_act or not isinstance(to_act[0], int) or not 0 <= to_act[0] < len(self.bots):
            raise RuntimeError(
                f"{self.record.game}: the view must name the seats to act in 'to_act', got {to_act!r}"
            )
        seat = to_act[0]
        action = self.bots[seat].choose(view, legal)
        self.record.actions.append((seat, action))
        return action


def play_game(
    engine: Engine,
    players: int,
    seed: int,
    bots: Bot | Sequence[Bot],
    options: dict | None = None,
) -> tuple[dict, Record, int]:
    """Play one game from ``new_game(players, seed, options)`` to its end.

    ``bots`` is one bot per seat (in seat order) or a single bot for every
    seat. Returns the final state, the game's ``Record`` (replaying it gives
    the final state) and the number of actions played.
    """
    options = dict(options or {})
    if isinstance(bots, Sequence):
        seat_bots = list(bots)
        if len(seat_bots) != players:
            raise ValueError(f"need one bot per seat: {players} seats, {len(seat_bots)} bots")
    else:
        seat_bots = [bots] * players
    record = Record(engine.id, players, seed, dict(options))
    s = engine.new_game(players, seed, options)
    s = engine.finish(s, SeatBots(seat_bots, record))
    return s, record, len(record.actions)
