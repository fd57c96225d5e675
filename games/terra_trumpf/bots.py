"""Terra Trumpf bots. They see only ``view`` and the legal actions."""

from __future__ import annotations

from games import rng


class SmartBot:
    """A simple card player.

    - Alpha: the category in which it holds the most value.
    - Leading: its highest non-Alpha card (highest Alpha when it holds only Alphas).
    - Following: when its partner is winning the trick, it gives its most valuable
      non-Alpha card; else it wins with the cheapest winning card (a card of the
      led category before an Alpha) or, when it can't win, dumps its cheapest card
      (a non-Alpha card before an Alpha).
    """

    name = "smart"

    def __init__(self, seed: int = 0):
        self._s = {"rng": rng.seed_state(seed)}

    def choose(self, view: dict, legal: list[str]) -> str:
        if not legal:
            raise ValueError("no legal action")
        info = {cid: (cat, value) for cid, (cat, value) in (view.get("hand") or {}).items()}
        if legal[0].startswith("alpha:"):
            held: dict[str, int] = {}
            for cat, value in info.values():
                held[cat] = held.get(cat, 0) + value
            return max(legal, key=lambda a: held.get(a.partition(":")[2], 0))
        plays = [a for a in legal if a.startswith("play:") and a[5:] in info]
        if not plays:
            return legal[rng.randrange(self._s, len(legal))]
        alpha = view.get("alpha")
        table = view.get("table") or []

        def is_alpha(a: str) -> bool:
            return info[a[5:]][0] == alpha

        def value(a: str) -> int:
            return info[a[5:]][1]

        if not table:
            plain = [a for a in plays if not is_alpha(a)]
            return max(plain or plays, key=value)
        led = table[0][2]

        def rank(cat: str, v: int) -> tuple[int, int]:
            return (2 if cat == alpha else 1 if cat == led else 0, v)

        best_i = 0
        best = rank(table[0][2], table[0][3])
        for i, t in enumerate(table[1:], 1):
            key = rank(t[2], t[3])
            if key > best:
                best_i, best = i, key
        partner = None
        seat = view.get("seat")
        for team in view.get("teams") or []:
            if seat in team:
                partner = next(m for m in team if m != seat)
        if partner is not None and table[best_i][0] == partner:
            plain = [a for a in plays if not is_alpha(a)]
            if plain:
                return max(plain, key=value)
            return min(plays, key=value)
        winners = [a for a in plays if rank(*info[a[5:]]) > best]
        if winners:
            return min(winners, key=lambda a: (is_alpha(a), value(a)))
        return min(plays, key=lambda a: (is_alpha(a), value(a)))
