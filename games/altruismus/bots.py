"""Altruismus bots. ``SmartBot`` sees only the view and the legal actions.

Plan: play the hand card nearest the mission number (higher on a tie); steer
plus/minus 3 and exchange towards winning the turn; as winner take the played
card worth most for its own collection (number, colour bonus, void cards);
swap a low hand card (< 7) into the draw pile.
"""

from __future__ import annotations

from games import rng
from games.altruismus.engine import card_number, score_collection


class SmartBot:
    name = "smart"

    def __init__(self, seed: int = 0):
        self._s = {"rng": rng.seed_state(seed)}

    def choose(self, view: dict, legal: list[str]) -> str:
        phase = view["phase"]
        seat = view["seat"]
        try:
            if phase == "pick":
                return self._pick(view, legal)
            if phase == "symbol":
                return self._symbol(view, legal, seat)
            if phase == "take":
                return self._take(view, legal, seat)
            if phase == "swap":
                return self._swap(view, legal)
        except (KeyError, ValueError, TypeError, IndexError):
            pass
        return legal[rng.randrange(self._s, len(legal))]

    def _pick(self, view, legal):
        target = view["mission_number"]

        def key(a):
            n = card_number(a[5:])
            return (abs(n - target), -n)

        return min(legal, key=key)

    def _margin(self, played, out, seat, target):
        """How much nearer I am than the best other player (bigger is better)."""
        others = [
            abs(card_number(c) - target) for j, c in enumerate(played) if j != seat and not out[j]
        ]
        best_other = min(others) if others else 99
        if out[seat]:
            return -99 + best_other
        return best_other - abs(card_number(played[seat]) - target)

    def _symbol(self, view, legal, seat):
        played, out = view["played"], view["out"]
        target = view["mission_number"]
        if "plus3" in legal:
            return max(
                ("plus3", "minus3"),
                key=lambda a: self._margin(played, out, seat, target + (3 if a == "plus3" else -3)),
            )

        def after(a):
            p = list(played)
            p[int(a[5:])] = view["drawn"]
            return self._margin(p, out, seat, target)

        return max(legal, key=after)

    def _take(self, view, legal, seat):
        missions = view["missions"]
        coll = view["collections"][seat]
        played = view["played"]

        def value(a):
            card = played[seat] if a == "keep" else played[int(a[5:])]
            return (score_collection([*coll, card], missions, seat)["total"], a == "keep")

        return max(legal, key=value)

    def _swap(self, view, legal):
        piles = [a for a in legal if a.startswith("swap_pile:")]
        if piles:
            low = min(piles, key=lambda a: card_number(a[10:]))
            if card_number(low[10:]) < 7:
                return low
        return "noswap"
