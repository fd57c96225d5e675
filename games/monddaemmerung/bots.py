"""Monddämmerung bots. They see only ``view(s, seat)`` and the legal actions
(card data -- colours, number, moon -- comes from the public deck file named
in the view's ``"deck"``).

``SmartBot`` plays the cheapest card that makes it the round's current
winner (a low trump, or a high one after a sickle moon), weighing how many
plays are still to come; uses the blood moon on the opponent's winning card,
the eclipse on a card that wins it the round or is valuable (low number,
moon), the full moon to name a colour it wins in, the empty moon on the
biggest hand (taking the One or the best card), always draws when allowed and
lays the One as soon as it may.
"""

from __future__ import annotations

from games import rng
from games.monddaemmerung.deck import load_deck

_MOON_COST = {"blood": 3.0, "eclipse": 3.0, "full": 2.5, "sickle": 2.0, "empty": 2.0, "half": 1.0}


def _winners(info: dict, plays: list, trump, high: bool) -> list[int]:
    if not plays:
        return []
    cont = [p for p in plays if trump in info[p[1]]["colours"]] or plays
    nums = [info[c]["number"] for _s, c in cont]
    best = max(nums) if high else min(nums)
    return sorted({s for (s, _c), n in zip(cont, nums, strict=True) if n == best})


class SmartBot:
    name = "smart"

    def __init__(self, seed: int = 0):
        self._s = {"rng": rng.seed_state(seed)}

    # -- helpers -------------------------------------------------------------
    def _win_value(self, me: int, winners: list[int]) -> float:
        if me not in winners:
            return 0.0
        return 1.0 if len(winners) == 1 else 0.5

    def _strength(self, card: dict, high: bool) -> float:
        """How likely a card is to win later: 0 (weak) .. 3 (strong)."""
        n = card["number"] or 0
        return (n if high else 19 - n) / 6

    def _card_value(self, card: dict, high: bool) -> float:
        if card.get("one"):
            return 6.0
        return self._strength(card, high) + _MOON_COST.get(card["moon"], 0.0)

    def choose(self, view: dict, legal: list[str]) -> str:
        if len(legal) == 1:
            return legal[0]
        if "draw" in legal:
            return "draw"
        if "lay" in legal:
            return "lay"
        info = load_deck(view["deck"]).public
        me = view["seat"]
        table = view["table"]
        trump = view["trump"]
        high = view["high_wins"]
        pending = view.get("pending")
        kind = pending["kind"] if pending and pending["seat"] == me else None
        hand = [c for c in view["hand"] if not info[c].get("one")]

        if kind in ("first_trump", "full"):

            def colour_score(action):
                col = action.split(":", 1)[1]
                mine = [info[c] for c in hand if col in info[c]["colours"]]
                win = self._win_value(me, _winners(info, table, col, high)) if kind == "full" else 0
                return (win, sum(self._strength(c, high) for c in mine))

            return max(legal, key=colour_score)
        if kind in ("empty", "half"):
            sizes = view["hand_sizes"]
            return max(legal, key=lambda a: (sizes[int(a.split(":")[1])], a))
        if kind == "empty_take":
            return max(legal, key=lambda a: self._card_value(info[a.split(":", 1)[1]], high))
        if kind in ("blood", "eclipse"):
            return max(legal, key=lambda a: self._target_score(view, a, kind))
        # play a card
        remaining = max(0, 2 * (view["players"] - len(view["out"])) - len(table) - 1)
        weight = 3 + 9 / (1 + remaining)
        best, best_score = legal[0], None
        for action in legal:
            cid = action.split(":", 1)[1]
            card = info[cid]
            plays = [*table, [me, cid]]
            col = trump if trump is not None else card["colours"][0]
            h = high ^ (card["moon"] == "sickle")
            score = weight * self._win_value(me, _winners(info, plays, col, h))
            moon = card["moon"]
            if moon in ("blood", "eclipse") and table:
                gain = 0.0
                for _s, other in table:
                    rest = [p for p in plays if p[1] != other]
                    gain = max(gain, self._win_value(me, _winners(info, rest, col, h)))
                score = max(score, weight * gain) + (1.5 if moon == "eclipse" else 0)
            elif moon == "full":
                gain = max(
                    self._win_value(me, _winners(info, plays, c, h))
                    for c in load_deck(view["deck"]).colours
                )
                score = max(score, weight * gain)
            elif moon == "empty":
                score += 2.5
            if (trump is None or trump in card["colours"]) and view["stock_size"]:
                score += 2
            cost = self._card_value(card, high)
            score -= cost * (0.4 if score >= weight * 0.5 else 1.0)
            score += rng.randrange(self._s, 100) / 1000
            if best_score is None or score > best_score:
                best, best_score = action, score
        return best

    def _target_score(self, view: dict, action: str, kind: str) -> float:
        info = load_deck(view["deck"]).public
        me = view["seat"]
        high = view["high_wins"]
        target = action.split(":", 1)[1]
        rest = [p for p in view["table"] if p[1] != target]
        h = high ^ (info[target]["moon"] == "sickle")
        score = 10 * self._win_value(me, _winners(info, rest, view["trump"], h))
        owner = next(s for s, c in view["table"] if c == target)
        if kind == "eclipse":
            score += self._card_value(info[target], high)
        elif owner == me:
            score -= 3
        return score
