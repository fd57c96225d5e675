"""Quartett bots. They see only a seat's view and its legal actions."""

from __future__ import annotations

from games import rng


class SmartBot:
    """Announces the attribute on which its visible card is strongest relative
    to the deck: the view's ``top["standing"]`` (the share of the deck's cards
    the card beats on each attribute, computed from the public deck). Ties
    between attributes are broken at random."""

    name = "smart"

    def __init__(self, seed: int = 0):
        self._s = {"rng": rng.seed_state(seed)}

    def choose(self, view: dict, legal: list[str]) -> str:
        top = view.get("top") or {}
        standing = top.get("standing") or {}
        best, best_score = [], None
        for action in legal:
            score = standing.get(action.split(":", 1)[1], -1.0)
            if best_score is None or score > best_score:
                best, best_score = [action], score
            elif score == best_score:
                best.append(action)
        return best[rng.randrange(self._s, len(best))]
