"""Monddämmerung: the rules engine (the rules: ``games/monddaemmerung/RULES.md``).

Rules summary
-------------
3-5 players, 64 cards: 63 numbered cards in yellow, red, green and blue (9 of
them carry two colours; every colour has exactly the numbers 1-18) and "Der
Allereinzigste" (the One). Twelve numbered cards carry a moon (six moons, two
cards each). The deck is a data file, see ``games/monddaemmerung/deck.py``.

- Deal 7 each, one at a time in play order from seat 0; the rest is the draw
  pile. Seat 0 starts the first round.
- A round: the starter plays a card, then each player in turn, twice round.
  The first card's colour is trump; a two-coloured first card: its player
  chooses which colour (action ``trump:<colour>``). Any card may be played,
  never the One. Playing a card of the trump colour (the first card always is)
  lets the player draw one card while the draw pile lasts (``draw``/``nodraw``).
- End of round: among the played cards of the trump colour (a two-coloured
  card is trump if either colour is; if none is left, every colour counts) the
  lowest number wins (highest after an odd number of sickle moons). Its player
  takes all played cards onto his win pile. Equal strength (only possible when
  every colour counts): the tied players share the cards evenly; the cards left
  over stay on the table for the next round's winner(s).
- The next round starts with the next player still in after the previous
  starter. A player with no cards is out; one who runs out during a round
  plays no further card in it. The game ends when only one player is left in.
- The One: a player whose hand is only the One may lay it on his win pile
  (``lay``; ``keep`` declines and plays no card this turn); it counts as a card
  there plus 5 points, and he is out.
- Moons act when played, their choices are actions of the player:
  full ``trump:<colour>`` (new trump from the next card), empty ``target:<seat>``
  then ``take:<card>`` (the looker sees that hand in his view as ``peek``),
  half ``target:<seat>`` (hands shuffled together and dealt alternately, the
  player first), sickle (automatic: highest wins / back to lowest), blood
  ``remove:<card>`` (zone ``removed``), eclipse ``takeback:<card>``. Removing or
  taking back a full or sickle moon undoes its effect. Trump and the sickle
  direction are reset at each round's start.
- Score = cards in the win pile (+5 for the laid One). Highest score wins;
  equal scores share the rank.
- Time called: the round in progress is finished, then the game ends and the
  players rank by score.

Actions
-------
``play:<card id>``, ``lay``, ``keep``, ``trump:<colour>``, ``target:<seat>``,
``take:<card id>``, ``remove:<card id>``, ``takeback:<card id>``, ``draw``,
``nodraw``. Order of a turn: play -> trump choice (two-coloured first card)
-> the moon's effect -> the draw choice.

Zones: ``hand:<seat>``, ``stock`` (draw pile), ``won:<seat>`` (win piles, open:
their cards were played face up), ``table`` (this round's plays plus cards
left over from a shared win), ``removed`` (blood moon).

Rulings (added)
---------------
- Ruling (added): a moon whose effect has no valid target has no effect: the
  empty and half moon need another player still in (one always exists while
  the game runs); the blood moon and the eclipse need a card played this round
  other than the moon itself -- they never act on themselves and never on the
  cards left over on the table from an earlier shared win. (This also makes
  every game end: each round's first play leaves the hands for good.)
- Ruling (added): moon effects are not optional: with a valid target the
  player must choose one (the original rules: the ability acts "automatically").
- Ruling (added): whether a card allows drawing is decided when it is played
  (against the trump in force then; the first card always allows it); the draw
  choice comes after the moon's effect.
- Ruling (added): a full moon may name any colour, the current one included.
  Trump in force is the latest full moon still on the table, else the colour
  set by the first card (removing the first card does not change trump).
- Ruling (added): going out is checked when a turn is fully resolved (moon
  effect and draw included), for every player: a player whose last card was
  taken by an empty moon or dealt away by a half moon goes out too. Out is for
  good. When at most one player is left in, the round in progress is scored
  at once and the game ends.
- Ruling (added): a shared win is dealt out one card at a time in table order
  (left-over cards first, then the plays in order) to the tied players in play
  order from the round's starter; the remainder (fewer cards than tied
  players) stays on the table. Left-over cards never compete, they only go to
  the next round's winner(s). Cards still on the table at the end score for
  nobody.
- Ruling (added): the One counts only when laid; a player may lay it only at
  his turn, instead of playing (``keep`` lets that turn pass without a card;
  he stays in). A One still in a hand at the end scores nothing. If the
  starter only keeps the One, the round's first card actually played sets
  trump.
- Ruling (added): seat 0 starts the first round. Two strongest cards of the
  same player are no tie: he alone wins.
- Ruling (added): win piles are open information (sizes and, through
  ``last_trick``, the cards); cards removed by a blood moon are public.

Public actions (``public_action``; what everyone sees of a move, for the
public replay): a played card is face up, ``{"kind": "play", "card": id}``;
``lay`` (the One goes face up onto the win pile), ``trump``
(``colour``, ``why``: first_trump or full), ``look`` and ``shuffle`` (the
empty and half moon's ``target``), ``remove`` (blood moon: the card lies
in the public ``removed``), ``draw`` and ``nodraw`` are public. Hidden:
``keep`` is ``{"kind": "no_card"}`` (the One is not named: it stays in the
hand), the empty moon's ``take`` names only the hand taken from
(``{"kind": "take", "target": seat, "card": None}``), and the eclipse's
``takeback`` no card (``card`` None: it is back in a hand).

View keys: ``phase``, ``to_act``, ``seat``, ``players``, ``hand``,
``hand_sizes``, ``scores``, ``won_sizes``, ``stock_size``, ``table`` (this
round's ``[seat, card]`` plays), ``carry`` (left-over cards), ``removed``,
``trump``, ``high_wins``, ``deck`` (the deck file's name: card data is public),
``round``, ``starter``, ``lap``, ``out``, ``one_laid``, ``time_called``,
``last_trick`` (``plays``, ``winner`` or None on a tie, ``winners``, ``trump``,
``high``), ``pending`` (the open decision: ``kind``, ``seat``, ``card``,
``target``) and, for the empty-moon player choosing his card, ``peek``.
"""

from __future__ import annotations

from games import rng
from games.base import Engine, IllegalAction, TableResult, rank_by
from games.i18n import _
from games.monddaemmerung.deck import Deck, deck_names, load_deck
from games.sheets import field

HAND_SIZE = 7
ONE_BONUS = 5

_KIND_TEXT = {
    "first_trump": "choose the trump colour of your two-coloured first card",
    "full": "name the new trump colour (full moon)",
    "empty": "choose whose hand to look at (empty moon)",
    "empty_take": "take one card from the hand you are looking at (empty moon)",
    "half": "choose whose hand to shuffle with yours (half moon)",
    "blood": "remove one card played this round (blood moon)",
    "eclipse": "take one card played this round into your hand (eclipse)",
    "draw": "draw a card or not",
}


class MonddaemmerungEngine(Engine):
    id = "monddaemmerung"
    name = "Monddämmerung"
    min_players = 3
    max_players = 5
    time_called_text = _(
        "Finish the round in progress: everyone still in plays his cards and the "
        "strongest card wins the table. Then stop and write down, for each player, the "
        "cards in his win pile (the One included if he laid it), whether he laid the One, "
        "and the order in which players went out."
    )
    figure_label = _("points")
    play_direction = "right"  # seed: the player to the right starts the next round

    # -- options and deck ---------------------------------------------------
    def options_schema(self) -> list[dict]:
        names = deck_names()
        return [
            field(
                "deck",
                _("Deck"),
                "choice",
                choices=[[n, load_deck(n).name] for n in names],
            )
        ]

    def default_options(self) -> dict:
        return {"deck": "standard"}

    def _options(self, options) -> dict:
        options = self.check_options(options)
        out = {"deck": options.get("deck", "standard")}
        load_deck(out["deck"])  # raises ValueError / DeckError
        if "stack" in options and options["stack"] is not None:
            stack = options["stack"]
            if not isinstance(stack, list) or not all(isinstance(c, str) for c in stack):
                raise ValueError("stack must be a list of card ids")
            out["stack"] = list(options["stack"])
        return out

    def _deck(self, s: dict) -> Deck:
        return load_deck(s["options"]["deck"])

    def deck(self, players: int, options: dict | None = None) -> list[dict]:
        return load_deck(self._options(options)["deck"]).as_list()

    # -- setup ----------------------------------------------------------------
    def new_game(self, players: int, seed: int, options: dict | None = None) -> dict:
        self.check_players(players)
        opts = self._options(options)
        deck = load_deck(opts["deck"])
        s = {
            "game": self.id,
            "players": players,
            "options": opts,
            "rng": rng.seed_state(seed),
            "phase": "play",
        }
        if "stack" in opts:
            order = self.check_stack(opts["stack"], deck.as_list())
        else:
            order = deck.ids()
            rng.shuffle(s, order)
        hands = [[] for _seat in range(players)]
        for i in range(HAND_SIZE * players):
            hands[i % players].append(order[i])
        s.update(
            {
                "hands": hands,
                "stock": order[HAND_SIZE * players :],
                "won": [[] for _seat in range(players)],
                "removed": [],
                "carry": [],
                "plays": [],
                "one_laid": None,
                "out": [],
                "round": 0,
                "starter": 0,
                "order": [],
                "pos": 0,
                "trump0": None,
                "fulls": [],
                "sickles": [],
                "pending": None,
                "begun": False,
                "time_called": False,
                "last_trick": None,
            }
        )
        self._begin_round(s, 0)
        return s

    def copy(self, s: dict) -> dict:
        """A copy ``_apply`` may change. Only the hands are changed in place;
        every other list or dict of the state is replaced, never changed (the
        copy-on-write convention of this engine), so copies share them."""
        c = dict(s)
        c["hands"] = [list(h) for h in s["hands"]]
        return c

    # -- helpers ----------------------------------------------------------------
    def _in(self, s: dict) -> list[int]:
        out = s["out"]
        return [j for j in range(s["players"]) if j not in out]

    def _begin_round(self, s: dict, starter: int) -> None:
        n = s["players"]
        s["round"] += 1
        s["starter"] = starter
        s["order"] = [(starter + k) % n for k in range(n) if (starter + k) % n not in s["out"]]
        s["pos"] = 0
        s["plays"] = []
        s["trump0"] = None
        s["fulls"] = []
        s["sickles"] = []
        s["pending"] = None
        s["begun"] = False

    def _turn_seat(self, s: dict) -> int:
        order = s["order"]
        return order[s["pos"] % len(order)]

    def trump(self, s: dict) -> str | None:
        """The trump colour in force now (None before the round's first card)."""
        return s["fulls"][-1][1] if s["fulls"] else s["trump0"]

    def high_wins(self, s: dict) -> bool:
        return len(s["sickles"]) % 2 == 1

    def round_winners(self, s: dict) -> list[int]:
        """The seats holding the strongest card if the round ended now."""
        return _strongest(self._deck(s), s["plays"], self.trump(s), self.high_wins(s))

    def _targets(self, s: dict, seat: int) -> list[int]:
        return [j for j in self._in(s) if j != seat and s["hands"][j]]

    def _table_choices(self, s: dict, own: str) -> list[str]:
        return [cid for _seat, cid in s["plays"] if cid != own]

    # -- play -------------------------------------------------------------------
    def to_act(self, s: dict) -> list[int]:
        if s["phase"] == "over":
            return []
        if s["pending"] is not None:
            return [s["pending"]["seat"]]
        return [self._turn_seat(s)]

    def legal_actions(self, s: dict, seat: int) -> list[str]:
        if seat not in self.to_act(s):
            return []
        p = s["pending"]
        deck = self._deck(s)
        if p is None:
            hand = s["hands"][seat]
            plays = [f"play:{c}" for c in hand if c != deck.one]
            return plays or ["lay", "keep"]
        kind = p["kind"]
        if kind == "first_trump":
            return [f"trump:{c}" for c in deck.cards[p["card"]].colours]
        if kind == "full":
            return [f"trump:{c}" for c in deck.colours]
        if kind in ("empty", "half"):
            return [f"target:{j}" for j in self._targets(s, seat)]
        if kind == "empty_take":
            return [f"take:{c}" for c in s["hands"][p["target"]]]
        if kind == "blood":
            return [f"remove:{c}" for c in self._table_choices(s, p["card"])]
        if kind == "eclipse":
            return [f"takeback:{c}" for c in self._table_choices(s, p["card"])]
        if kind == "draw":
            return ["draw", "nodraw"]
        raise AssertionError(kind)

    def is_legal(self, s: dict, seat: int, action) -> bool:
        if s["pending"] is not None or s["phase"] == "over":
            return action in self.legal_actions(s, seat)
        # the hot case, a card play: any hand card but the One; "lay"/"keep"
        # only with nothing else to play
        if seat != self._turn_seat(s) or not isinstance(action, str):
            return False
        one = self._deck(s).one
        hand = s["hands"][seat]
        if action[:5] == "play:":
            cid = action[5:]
            return cid != one and cid in hand
        return action in ("lay", "keep") and all(c == one for c in hand)

    def explain_illegal(self, s: dict, seat: int, action: str) -> str:
        deck = self._deck(s)
        p = s["pending"]
        verb, _sep, arg = str(action).partition(":")
        if p is not None:
            kind = p["kind"]
            legal = self.legal_actions(s, seat)
            want = _KIND_TEXT[kind]
            if verb == "trump" and kind in ("first_trump", "full"):
                return f"{arg!r} is not a colour you may name; choose one of {legal}"
            if verb == "target" and kind in ("empty", "half"):
                if arg == str(seat):
                    return "choose another player, not yourself"
                return f"seat {arg} is not another player still holding cards"
            if verb == "take" and kind == "empty_take":
                return f"that card is not in the hand of seat {p['target']}"
            if verb in ("remove", "takeback") and kind in ("blood", "eclipse"):
                if arg == p["card"]:
                    return "the moon can't act on itself"
                return "that card was not played this round (or is no longer on the table)"
            return f"you must first {want}: one of {legal}"
        hand = s["hands"][seat]
        if verb == "play":
            if arg == deck.one:
                return "the One is never played; you may lay it when it is your only card"
            if arg not in hand:
                return "that card is not in your hand"
        if action in ("lay", "keep"):
            if deck.one not in hand:
                return "you do not hold the One"
            return "you may lay (or keep) the One only when it is your only card"
        if action in ("draw", "nodraw"):
            return "you may draw only right after playing a card of the trump colour"
        if verb in ("trump", "target", "take", "remove", "takeback"):
            return f"{verb!r} is only chosen after playing a card that calls for it"
        return f"{action!r} is not a Monddämmerung action; play a card from your hand"

    def _apply(self, s: dict, seat: int, action: str) -> None:
        deck = self._deck(s)
        s["begun"] = True
        p = s["pending"]
        hands = s["hands"]
        if p is None:
            if action == "lay":
                hands[seat].remove(deck.one)
                won = s["won"] = list(s["won"])
                won[seat] = [*won[seat], deck.one]
                s["one_laid"] = seat
                self._end_turn(s, seat)
            elif action == "keep":
                self._end_turn(s, seat)
            else:
                cid = action[5:]
                hands[seat].remove(cid)
                s["plays"] = [*s["plays"], [seat, cid]]
                card = deck.cards[cid]
                if s["trump0"] is None:
                    draw = True
                    if len(card.colours) == 1:
                        s["trump0"] = card.colours[0]
                        self._proceed(s, seat, cid, draw, 1)
                    else:
                        s["pending"] = {
                            "kind": "first_trump",
                            "seat": seat,
                            "card": cid,
                            "draw": draw,
                        }
                else:
                    draw = self.trump(s) in card.colours
                    self._proceed(s, seat, cid, draw, 1)
            return
        kind = p["kind"]
        cid = p["card"]
        draw = p["draw"]
        verb, _sep, arg = action.partition(":")
        if kind == "first_trump":
            s["trump0"] = arg
            self._proceed(s, seat, cid, draw, 1)
        elif kind == "full":
            s["fulls"] = [*s["fulls"], [cid, arg]]
            self._proceed(s, seat, cid, draw, 2)
        elif kind == "empty":
            s["pending"] = {**p, "kind": "empty_take", "target": int(arg)}
        elif kind == "empty_take":
            hands[p["target"]].remove(arg)
            hands[seat].append(arg)
            self._proceed(s, seat, cid, draw, 2)
        elif kind == "half":
            target = int(arg)
            both = hands[seat] + hands[target]
            rng.shuffle(s, both)
            hands[seat] = both[0::2]
            hands[target] = both[1::2]
            self._proceed(s, seat, cid, draw, 2)
        elif kind in ("blood", "eclipse"):
            s["plays"] = [pl for pl in s["plays"] if pl[1] != arg]
            s["fulls"] = [f for f in s["fulls"] if f[0] != arg]
            if arg in s["sickles"]:
                sickles = s["sickles"] = list(s["sickles"])
                sickles.remove(arg)
            if kind == "blood":
                s["removed"] = [*s["removed"], arg]
            else:
                hands[seat].append(arg)
            self._proceed(s, seat, cid, draw, 2)
        elif kind == "draw":
            if action == "draw":
                stock = s["stock"]
                hands[seat].append(stock[0])
                s["stock"] = stock[1:]
            self._end_turn(s, seat)
        else:  # pragma: no cover - legal_actions guards every kind
            raise IllegalAction(f"unknown pending decision {kind!r}")

    def _proceed(self, s: dict, seat: int, cid: str, draw: bool, stage: int) -> None:
        """Continue a turn after its play: stage 1 the moon, 2 the draw, then end."""
        s["pending"] = None
        if stage <= 1:
            moon = self._deck(s).cards[cid].moon
            kind = None
            if moon == "full":
                kind = "full"
            elif moon in ("empty", "half"):
                if self._targets(s, seat):
                    kind = moon
            elif moon in ("blood", "eclipse"):
                if self._table_choices(s, cid):
                    kind = moon
            elif moon == "sickle":
                s["sickles"] = [*s["sickles"], cid]
            if kind is not None:
                s["pending"] = {"kind": kind, "seat": seat, "card": cid, "draw": draw}
                return
        if draw and s["stock"]:
            s["pending"] = {"kind": "draw", "seat": seat, "card": cid, "draw": draw}
            return
        self._end_turn(s, seat)

    def _end_turn(self, s: dict, seat: int) -> None:
        s["pending"] = None
        n = s["players"]
        out = s["out"]
        newly = [
            j for j in ((seat + k) % n for k in range(n)) if j not in out and not s["hands"][j]
        ]
        if newly:
            s["out"] = out + newly
        if len(s["out"]) >= n - 1:
            self._score_round(s)
            s["phase"] = "over"
            return
        order = s["order"]
        laps = 2 * len(order)
        s["pos"] += 1
        while s["pos"] < laps and order[s["pos"] % len(order)] in s["out"]:
            s["pos"] += 1
        if s["pos"] >= laps:
            self._score_round(s)
            if s["time_called"]:
                s["phase"] = "over"
                return
            nxt = (s["starter"] + 1) % n
            while nxt in s["out"]:
                nxt = (nxt + 1) % n
            self._begin_round(s, nxt)

    def _score_round(self, s: dict) -> None:
        plays = s["plays"]
        winners = self.round_winners(s) if plays else []
        pool = s["carry"] + [cid for _seat, cid in plays]
        if winners:
            n = s["players"]
            winners.sort(key=lambda j: (j - s["starter"]) % n)
            k = len(winners)
            share = len(pool) // k
            won = s["won"] = list(s["won"])
            for j in winners:
                won[j] = list(won[j])
            for i in range(share * k):
                won[winners[i % k]].append(pool[i])
            s["carry"] = pool[share * k :]
        s["last_trick"] = {
            "plays": [list(pl) for pl in plays],
            "winner": winners[0] if len(winners) == 1 else None,
            "winners": winners,
            "trump": self.trump(s),
            "high": self.high_wins(s),
        }
        s["plays"] = []

    # -- views ------------------------------------------------------------------
    def scores(self, s: dict) -> list[int]:
        return [len(w) + (ONE_BONUS if s["one_laid"] == j else 0) for j, w in enumerate(s["won"])]

    def view(self, s: dict, seat: int | None) -> dict:
        p = s["pending"]
        hand = list(s["hands"][seat]) if seat is not None else []
        over = s["phase"] == "over"
        v = {
            "phase": s["phase"],
            "to_act": self.to_act(s),
            "seat": seat,
            "players": s["players"],
            "hand": hand,
            "hand_sizes": [len(h) for h in s["hands"]],
            "scores": self.scores(s),
            "won_sizes": [len(w) for w in s["won"]],
            "stock_size": len(s["stock"]),
            "table": [list(pl) for pl in s["plays"]],
            "carry": list(s["carry"]),
            "removed": list(s["removed"]),
            "trump": self.trump(s),
            "high_wins": self.high_wins(s),
            "deck": s["options"]["deck"],
            "round": s["round"],
            "starter": s["starter"],
            "lap": 0 if over else 1 + s["pos"] // len(s["order"]),
            "out": list(s["out"]),
            "one_laid": s["one_laid"],
            "time_called": s["time_called"],
            "last_trick": _copy_trick(s["last_trick"]),
            "pending": None,
        }
        if p is not None:
            v["pending"] = {"kind": p["kind"], "seat": p["seat"], "card": p["card"]}
            if "target" in p:
                v["pending"]["target"] = p["target"]
        if p is not None and p["kind"] == "empty_take" and seat == p["seat"]:
            v["peek"] = list(s["hands"][p["target"]])
        return v

    def public_action(self, s: dict, seat: int, action: str) -> dict:
        """See ``Engine.public_action`` and the module docstring: played and
        removed cards are named; a card taken from a hand or back into one
        is not, nor the One a player keeps."""
        kind, _sep, arg = action.partition(":")
        p = s["pending"] or {}
        if kind == "play":
            return {"kind": "play", "card": arg}
        if action == "lay":
            return {"kind": "lay"}
        if action == "keep":
            return {"kind": "no_card"}
        if action in ("draw", "nodraw"):
            return {"kind": action}
        if kind == "trump":
            return {"kind": "trump", "colour": arg, "why": p.get("kind")}
        if kind == "target":
            return {"kind": "shuffle" if p.get("kind") == "half" else "look", "target": int(arg)}
        if kind == "take":
            return {"kind": "take", "target": p.get("target"), "card": None}
        if kind == "remove":
            return {"kind": "remove", "card": arg}
        if kind == "takeback":
            return {"kind": "takeback", "card": None}
        return super().public_action(s, seat, action)

    def zones(self, s: dict) -> dict[str, list[str]]:
        z = {f"hand:{j}": list(h) for j, h in enumerate(s["hands"])}
        z.update({f"won:{j}": list(w) for j, w in enumerate(s["won"])})
        z["stock"] = list(s["stock"])
        z["table"] = list(s["carry"]) + [cid for _seat, cid in s["plays"]]
        z["removed"] = list(s["removed"])
        return z

    def hidden(self, s: dict, seat: int | None) -> set[str]:
        out = set(s["stock"])
        for j, h in enumerate(s["hands"]):
            if j != seat:
                out.update(h)
        p = s["pending"]
        if p is not None and p["kind"] == "empty_take" and seat == p["seat"]:
            out.difference_update(s["hands"][p["target"]])
        return out

    # -- end ----------------------------------------------------------------------
    def result(self, s: dict) -> TableResult:
        scores = self.scores(s)
        keys = [[sc] for sc in scores]
        return TableResult(
            ranks=rank_by(keys),
            figures=scores,
            details={
                "rank_keys": keys,
                "win_pile": [len(w) for w in s["won"]],
                "one_laid": s["one_laid"],
                "out_order": list(s["out"]),
                "time_called": s["time_called"],
            },
        )

    def call_time(self, s: dict) -> dict:
        s = self.copy(s)
        if s["phase"] == "over":
            return s
        s["time_called"] = True
        if not s["begun"]:
            s["phase"] = "over"
        return s


def _strongest(deck: Deck, plays: list, trump: str | None, high: bool) -> list[int]:
    """Seats holding the strongest of ``plays`` ([seat, card id] pairs)."""
    if not plays:
        return []
    cards = deck.cards
    contenders = [pl for pl in plays if trump in cards[pl[1]].colours] or plays
    nums = [cards[cid].number for _seat, cid in contenders]
    best = max(nums) if high else min(nums)
    seats: list[int] = []
    for (seat, _cid), num in zip(contenders, nums, strict=True):
        if num == best and seat not in seats:
            seats.append(seat)
    return seats


def _copy_trick(trick: dict | None) -> dict | None:
    if trick is None:
        return None
    return {**trick, "plays": [list(p) for p in trick["plays"]], "winners": list(trick["winners"])}
