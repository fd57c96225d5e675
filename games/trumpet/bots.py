"""Trumpet bots. ``SmartBot`` sees only the view and the legal actions.

Heuristics:
- playing: compute the card now winning the trick; if a card can beat it,
  play the cheapest one that does (Mega-Trumps only when playing last or when
  nothing else wins and the trick matters); when leading, lead the strongest
  trump-scale card (else the highest card); when it can't win, throw the
  cheapest card, keeping trump colours and Mega-Trumps;
- final six: move the leading opponent back when he stands ahead of (or level
  with) its own figure, otherwise advance;
- crest: lay the chip of the colour it holds most (by value) / swap that colour
  to the top of the scale; with an empty hand it waits for the next deal;
  when a change is compulsory (after a back move) and none helps, it swaps two
  chips below the crest slot.
"""

from __future__ import annotations

from games.base import RandomBot
from games.trumpet.engine import card_info, led_colour, trick_winner


class SmartBot:
    name = "smart"

    def __init__(self, seed: int = 0):
        self._random = RandomBot(seed)

    # -- helpers ---------------------------------------------------------------
    @staticmethod
    def _strength(cid: str, scale: list) -> tuple:
        colour, value = card_info(cid)
        if colour is None:
            return (3, 0, 0)
        if colour in scale:
            return (2, scale.index(colour), value)
        return (1, 0, value)

    @staticmethod
    def _colour_worth(hand: list[str]) -> dict[str, int]:
        worth: dict[str, int] = {}
        for cid in hand:
            colour, value = card_info(cid)
            if colour is not None:
                worth[colour] = worth.get(colour, 0) + value
        return worth

    # -- choice ------------------------------------------------------------------
    def choose(self, view: dict, legal: list[str]) -> str:
        if len(legal) == 1:
            return legal[0]
        first = legal[0]
        if first.startswith("play:"):
            return self._play(view, legal)
        if first == "advance":
            return self._move(view, legal)
        return self._crest(view, legal)

    def _play(self, view: dict, legal: list[str]) -> str:
        scale = view["scale"]
        trick = view["trick"]
        seat = view["seat"]
        cards = [a[5:] for a in legal]
        players = len(view["hand_sizes"])
        if not trick:
            # lead: the strongest non-mega card (megas are best kept for the last seat)
            coloured = [c for c in cards if card_info(c)[0] is not None] or cards
            best = max(coloured, key=lambda c: self._strength(c, scale))
            return "play:" + best
        last = len(trick) == players - 1
        winners = [c for c in cards if trick_winner([*trick, [seat, c]], scale) == seat]
        if winners:
            non_mega = [c for c in winners if card_info(c)[0] is not None]
            if non_mega:
                # cheapest winning coloured card; when not last, prefer a strong one
                pick = min(non_mega, key=lambda c: self._strength(c, scale))
                if not last:
                    strong = [c for c in non_mega if self._strength(c, scale)[0] == 2]
                    if strong and led_colour(trick) not in scale:
                        pick = min(strong, key=lambda c: self._strength(c, scale))
                return "play:" + pick
            if last or self._urgent(view):
                return "play:" + winners[0]
        # can't (or won't) win: throw the cheapest card, keep megas and trumps
        throw = [c for c in cards if card_info(c)[0] is not None] or cards
        return "play:" + min(throw, key=lambda c: self._strength(c, scale))

    @staticmethod
    def _urgent(view: dict) -> bool:
        board = view["board"]
        pos = view["scores"]
        return max(pos) >= board["track"] - 6

    def _move(self, view: dict, legal: list[str]) -> str:
        pos = view["scores"]
        me = view["seat"]
        targets = [int(a[5:]) for a in legal if a.startswith("back:") and int(a[5:]) != me]
        if targets:
            lead = max(targets, key=lambda j: pos[j])
            if pos[lead] >= pos[me]:
                return f"back:{lead}"
        return "advance"

    def _crest(self, view: dict, legal: list[str]) -> str:
        if "later" in legal:
            return "later"
        worth = self._colour_worth(view["hand"])
        chips = [a for a in legal if a.startswith("chip:")]
        if chips:
            best = max(chips, key=lambda a: worth.get(a[5:], 0))
            if worth.get(best[5:], 0) > 0 or "skip" not in legal:
                return best
            return "skip"
        scale = view["scale"]
        if worth:
            best_colour = max(worth, key=worth.get)
            top = scale[-1]
            if top != best_colour:
                for a in legal:
                    parts = a.split(":")
                    if parts[0] == "swap" and set(parts[1:]) == {best_colour, top}:
                        return a
        return self._no_change(view, legal)

    @staticmethod
    def _no_change(view: dict, legal: list[str]) -> str:
        """``skip`` where allowed; after a back move the choice is compulsory:
        then a swap that leaves the crest slot (the top) alone."""
        if "skip" in legal:
            return "skip"
        top = view["scale"][-1]
        for a in legal:
            if a.startswith("swap:") and top not in a.split(":")[1:]:
                return a
        return legal[0]
