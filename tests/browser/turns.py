"""Whose turn it is at a digital table played from phones in a browser.

The bot's moves run in the live server's thread after the player's move has
committed, while the phones may already show that move (by push or poll):
for a moment the bot is to act. A table stalls only when no player is to
act for seconds."""

import time

#: how long the bot may take over its seats' moves before the table counts
#: as stalled
STALL_SECONDS = 10


def players_turn(table, engine, players, timeout: float = STALL_SECONDS):
    """The table's state and the seats of ``players`` to act in it, once one
    of them is to act or the game is over (then no seats); fails when the
    table waits for the bot longer than ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        table.refresh_from_db()
        state = engine.load(table.state)
        if engine.is_over(state):
            return state, []
        to_act = [s for s in engine.to_act(state) if s in players]
        if to_act:
            return state, to_act
        assert time.monotonic() < deadline, (
            f"the table waits for the bot: it stalled ({timeout} s, to act {engine.to_act(state)})"
        )
        time.sleep(0.05)
