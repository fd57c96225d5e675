"""Quartett tournament ("Top Trumps"): the rules in ``games/quartett/RULES.md``.

Rules as played here (seats 0..n-1 in play order, 2-6 players):

- The deck (``options["deck"]``: a shipped deck name, default "space", or a
  deck dict; format in ``games/quartett/deck.py``) is shuffled and dealt one
  card at a time in play order from seat 0. When it does not divide evenly the
  remaining cards (fewer than the player count) are set aside out of play,
  zone ``"aside"``.
- Each player's face-down pile is zone ``"hand:<seat>"``, top card first. A
  player sees only his own top card; everyone sees the pile sizes.
- Seat 0 announces first: action ``"announce:<attribute key>"``. All players
  in the trick compare their top cards on it (this resolves at once). Unknown
  and not-definable values lose against every known value; two such values
  are equal. Years are compared in NGZ (NGZ = AD - 3587).
- A unique best value wins the trick: the winner puts the trick's cards under
  his pile, his own card first, then the others in play order, and announces
  the next trick.
- A tie for best: every top card of the trick goes into the pot (zone
  ``"pot"``). Only the tied players play a decision round with their next top
  cards; the previous announcer announces again if he is among them,
  otherwise the tied player next after him in play order. The winner takes the
  pot and the decision round's cards and announces next. A tie repeats the
  decision round among those tied (the pot grows). A tied player without
  cards drops out of the decision round; if every tied player is out of cards
  the pot goes to the winner of the next trick.
- A player with no cards is out; the last player holding cards wins.
- Time called (``call_time``): the trick in progress and its decision rounds
  are finished; then players rank by cards held; players who went out rank
  below, later exits above earlier ones. Players tied on cards held play
  decision rounds (phase ``"tiebreak"``, the same announce actions) until one
  is ahead.

Ruling (added): 2 to 6 players (the original rules give no count; tables seat 2-6),
and the deck must hold at least one card per player.

Ruling (added): the announcer may name any attribute of the deck, also one
his own card shows as unknown / not definable.

Ruling (added): the first card dealt to a seat is the top of his pile (with
``options["stack"]`` the first ``n`` ids are the seats' top cards, the next
``n`` their second cards, ...); the last ``len(deck) % n`` ids are set aside.

Ruling (added): "the others in play order" starts with the player after the
winner. A decision round's winner puts his own card first, then the other
decision cards in play order from him, then the pot in the order it was laid
(which is play order from the announcer, trick by trick).

Ruling (added): a decision round in which only one tied player still holds
cards is won by him without playing: he takes the pot and announces next.

Ruling (added): when the pot waits for "the next trick" and that trick's
announcer is needed, the previous announcer announces if he still holds
cards, otherwise the next player after him in play order who does.

Ruling (added): a pot waiting for the next trick belongs to the trick in
progress when time is called: that next trick is still played. If the game
ends (one player left holding cards) while a pot waits, that player takes it.
If the last cards of every remaining player go into the pot together, nobody
holds cards: they all went out together, share the rank, and the pot stays
unowned.

Ruling (added): players who go out in the same trick share their exit (the
exit order counts exit events: 1 = the first trick in which someone went out).

Ruling (added): the time-called decision rounds only decide the order among
players tied on cards held; cards do not change hands (the counts at time
called stay the figures, as the paper sheet records them). Tied groups are
decided from the most cards down. Each round the still-tied players reveal
their next card (the first round their top card, then the card below it);
the announcer follows the decision-round rule from the game's last
announcer. The unique best of a round wins the group and ranks ahead of the
group; the rest of the group share the next rank. If the tied players' piles
run out with the tie unbroken, the whole group shares the rank.

Phases: ``"play"`` (tricks and decision rounds; ``"decision"`` in the state
says a decision round is due among ``"active"``), ``"tiebreak"`` (time-called
decision rounds), ``"over"``. Result: figures are the cards held (0 when
out); ``rank_keys`` per seat are ``[cards, 1 if it won its tied group's
decision round else 0, 0]`` while holding cards and ``[0, 0, exit number]``
once out; details add ``out_order``, ``decision_winners``,
``undecided_ties``, ``pot`` (cards left unowned), ``tricks`` and
``time_called``.

Views: ``"hand"`` is the one card the seat may see (its top card; during a
time-called decision round the card it reveals next), ``"top"`` that card's
name and values, ``"hand_sizes"``/``"scores"`` the pile sizes, ``"pot_size"``
the cards in the pot (its cards were shown in their tricks), ``"last_trick"`` the last
comparison: ``{"attribute", "plays": [[seat, card id], ...], "winner": seat or
None, "tied": [seats]}``, ``"out"`` per seat the exit number or None,
``"deck_size"`` the deck's card count (labels and units of the attributes:
``deck_data(options)``); ``"top"`` also holds ``"standing"``:
per attribute the share of the deck's cards the visible card beats (equal
values count half, unknown beats nothing), which every player can work out
from the (public) deck.

Public action (``public_action``; what everyone sees of a move, for the
public replay): ``{"kind": "announce", "attribute": key}``. The announcer's
card and its value are not part of it: the cards compared are turned up in
the same step and shown in the view's ``"last_trick"``.
"""

from __future__ import annotations

import json
from bisect import bisect_left

from games import rng
from games.base import DeckError, Engine, TableResult, rank_by
from games.i18n import _
from games.quartett.deck import DEFAULT_DECK, load_deck, shipped_decks


class QuartettEngine(Engine):
    id = "quartett"
    name = "Quartett"
    min_players = 2
    max_players = 6
    time_called_text = _(
        "Finish the trick in progress, including any decision rounds. Then count "
        "the cards each player holds. Players who are out write the order in which "
        "they went out. Players with the same number of cards play a decision round "
        "(reveal the next card, the previous announcer names an attribute); write "
        "down who won it."
    )
    figure_label = _("cards held")

    # -- options ---------------------------------------------------------------
    def options_schema(self) -> list[dict]:
        from games.sheets import field

        return [
            field(
                "deck",
                _("Deck"),
                "choice",
                required=False,
                choices=[[d, d] for d in shipped_decks()],
                help=_("A shipped deck, or an imported deck."),
            )
        ]

    def default_options(self) -> dict:
        return {"deck": DEFAULT_DECK}

    def deck_data(self, options: dict | None = None) -> dict:
        """The parsed deck of these options (see ``deck.py``)."""
        options = self.check_options(options)
        return load_deck(options.get("deck", DEFAULT_DECK))

    def deck(self, players: int, options: dict | None = None) -> list[dict]:
        """Every card of the deck: the ones a deal sets aside lie in zone "aside"."""
        self.check_players(players)
        d = self.deck_data(options)
        if len(d["cards"]) < players:
            raise DeckError(
                f"deck {d['name']!r} has {len(d['cards'])} cards, too few for {players} players"
            )
        return [dict(c) for c in d["cards"]]

    def in_play_count(self, players: int, options: dict | None = None) -> int:
        """Cards dealt (the deck minus the cards set aside)."""
        n = len(self.deck_data(options)["cards"])
        return n - n % players

    # -- setup -----------------------------------------------------------------
    def new_game(self, players: int, seed: int, options: dict | None = None) -> dict:
        self.check_players(players)
        options = self.check_options(options)
        try:
            options = json.loads(json.dumps(options))
        except (TypeError, ValueError):
            raise ValueError("options must be plain JSON data") from None
        cards = self.deck(players, options)
        s = {
            "game": self.id,
            "players": players,
            "options": options,
            "rng": rng.seed_state(seed),
            "phase": "play",
        }
        if "stack" in options:
            stack = options["stack"]
            if not isinstance(stack, list) or not all(isinstance(c, str) for c in stack):
                raise ValueError("options['stack'] must be a list of card ids")
            order = self.check_stack(options["stack"], cards)
        else:
            order = [c["id"] for c in cards]
            rng.shuffle(s, order)
        per = len(order) // players
        dealt = per * players
        s["piles"] = [order[seat:dealt:players] for seat in range(players)]
        s["aside"] = order[dealt:]
        s["pot"] = []
        s["announcer"] = 0
        s["active"] = list(range(players))
        s["decision"] = False
        s["out"] = [None] * players
        s["exits"] = 0
        s["tricks"] = 0
        s["last_trick"] = None
        s["time_called"] = False
        s["tiebreak"] = None
        return s

    def copy(self, s: dict) -> dict:
        c = dict(s)
        c["piles"] = [list(p) for p in s["piles"]]
        c["pot"] = list(s["pot"])
        c["active"] = list(s["active"])
        c["out"] = list(s["out"])
        tb = s["tiebreak"]
        if tb is not None:
            c["tiebreak"] = {
                "groups": [list(g) for g in tb["groups"]],
                "active": list(tb["active"]),
                "depth": tb["depth"],
                "winners": list(tb["winners"]),
                "undecided": [list(g) for g in tb["undecided"]],
            }
        return c

    # -- play ------------------------------------------------------------------
    def to_act(self, s: dict) -> list[int]:
        if s["phase"] == "over":
            return []
        return [s["announcer"]]

    def legal_actions(self, s: dict, seat: int) -> list[str]:
        if s["phase"] == "over" or seat != s["announcer"]:
            return []
        return list(_actions(self._deck(s)))

    def is_legal(self, s: dict, seat: int, action) -> bool:
        return s["phase"] != "over" and seat == s["announcer"] and action in _actions(self._deck(s))

    def explain_illegal(self, s: dict, seat: int, action: str) -> str:
        keys = [a["key"] for a in self._deck(s)["attributes"]]
        if not isinstance(action, str) or not action.startswith("announce:"):
            return (
                f"{action!r} is not a Quartett action: announce an attribute, "
                f"e.g. 'announce:{keys[0]}'"
            )
        return (
            f"this deck has no attribute {action[len('announce:') :]!r}; "
            f"announce one of {', '.join(keys)}"
        )

    def _deck(self, s: dict) -> dict:
        opts = s["options"]
        hit = _OPTIONS_CACHE.get(id(opts))
        if hit is not None and hit[0] is opts:
            return hit[1]
        deck = load_deck(opts.get("deck", DEFAULT_DECK))
        if len(_OPTIONS_CACHE) > 256:
            _OPTIONS_CACHE.clear()
        _OPTIONS_CACHE[id(opts)] = (opts, deck)
        return deck

    def _apply(self, s: dict, seat: int, action: str) -> None:
        deck = self._deck(s)
        key = action[len("announce:") :]
        index = _attribute_index(deck)[key]
        if s["phase"] == "tiebreak":
            self._tiebreak_round(s, deck, key, index)
        else:
            self._trick(s, deck, key, index)

    @staticmethod
    def _from(order_start: int, seats: list[int], n: int) -> list[int]:
        """``seats`` (distinct seats of the table) in play order starting at
        ``order_start`` (inclusive): the seats from it upwards, then the
        seats below it, as ``sorted(seats, key=lambda p: (p - order_start) % n)``."""
        ordered = sorted(seats)
        i = bisect_left(ordered, order_start)
        return ordered[i:] + ordered[:i] if i else ordered

    @staticmethod
    def _best(deck: dict, cards: list[tuple[int, str]], index: int) -> list[int]:
        """Seats whose card is best on attribute ``index``."""
        strength = deck["strength"]
        vals = [(seat, strength[cid][index]) for seat, cid in cards]
        known = [v for _seat, v in vals if v is not None]
        if not known:
            return [seat for seat, _v in vals]
        top = max(known)
        return [seat for seat, v in vals if v == top]

    def _trick(self, s: dict, deck: dict, key: str, index: int) -> None:
        n = s["players"]
        announcer = s["announcer"]
        piles = s["piles"]
        seats = self._from(announcer, s["active"], n)
        plays = [(p, piles[p].pop(0)) for p in seats]
        best = self._best(deck, plays, index)
        s["tricks"] += 1
        if len(best) == 1:
            w = best[0]
            by_seat = sorted(plays)  # distinct seats: never compares cards
            i = next(k for k, pc in enumerate(by_seat) if pc[0] == w)
            own = by_seat[i][1]
            # the others in play order from the winner
            others = [c for _p, c in by_seat[i + 1 :]] + [c for _p, c in by_seat[:i]]
            piles[w].extend([own, *others, *s["pot"]])
            s["pot"] = []
            s["decision"] = False
            s["last_trick"] = {
                "attribute": key,
                "plays": [[p, c] for p, c in plays],
                "winner": w,
                "tied": [],
            }
            s["announcer"] = w
            self._mark_out(s)
            self._after_trick(s)
            return
        s["pot"].extend(c for _p, c in plays)
        s["last_trick"] = {
            "attribute": key,
            "plays": [[p, c] for p, c in plays],
            "winner": None,
            "tied": list(best),
        }
        self._mark_out(s)
        stay = sorted(p for p in best if piles[p])
        if len(stay) >= 2:
            s["decision"] = True
            s["active"] = stay
            if announcer not in stay:
                s["announcer"] = self._from((announcer + 1) % n, stay, n)[0]
            return
        if len(stay) == 1:
            # Ruling (added): the only tied player left takes the pot unplayed
            w = stay[0]
            piles[w].extend(s["pot"])
            s["pot"] = []
            s["decision"] = False
            s["announcer"] = w
            s["last_trick"]["winner"] = w
        else:
            # every tied player is out of cards: the pot waits for the next trick
            s["decision"] = False
            holders = self._holders(s)
            if holders:
                s["announcer"] = self._from(announcer, holders, n)[0]
        self._after_trick(s)

    def _holders(self, s: dict) -> list[int]:
        return [p for p, pile in enumerate(s["piles"]) if pile]

    def _mark_out(self, s: dict) -> None:
        newly = [p for p, pile in enumerate(s["piles"]) if not pile and s["out"][p] is None]
        if newly:
            s["exits"] += 1
            for p in newly:
                s["out"][p] = s["exits"]

    def _after_trick(self, s: dict) -> None:
        """A trick (with its decision rounds) is over: next trick, or the end."""
        holders = self._holders(s)
        if len(holders) <= 1:
            if holders and s["pot"]:
                s["piles"][holders[0]].extend(s["pot"])
                s["pot"] = []
            if holders:
                s["announcer"] = holders[0]
            s["active"] = holders
            s["decision"] = False
            s["phase"] = "over"
            return
        s["active"] = holders
        if s["time_called"] and not s["pot"]:
            self._start_tiebreak(s)

    # -- time ------------------------------------------------------------------
    def call_time(self, s: dict) -> dict:
        s = self.copy(s)
        if s["phase"] == "over" or s["time_called"]:
            s["time_called"] = True
            return s
        s["time_called"] = True
        if not s["decision"] and not s["pot"]:
            self._start_tiebreak(s)
        return s

    def _start_tiebreak(self, s: dict) -> None:
        counts: dict[int, list[int]] = {}
        for p in self._holders(s):
            counts.setdefault(len(s["piles"][p]), []).append(p)
        groups = [counts[c] for c in sorted(counts, reverse=True) if len(counts[c]) >= 2]
        if not groups:
            s["phase"] = "over"
            return
        s["phase"] = "tiebreak"
        s["tiebreak"] = {
            "groups": groups,
            "active": list(groups[0]),
            "depth": 0,
            "winners": [],
            "undecided": [],
        }
        self._tiebreak_announcer(s)

    def _tiebreak_announcer(self, s: dict) -> None:
        active = s["tiebreak"]["active"]
        if s["announcer"] not in active:
            n = s["players"]
            s["announcer"] = self._from((s["announcer"] + 1) % n, active, n)[0]

    def _tiebreak_round(self, s: dict, deck: dict, key: str, index: int) -> None:
        n = s["players"]
        tb = s["tiebreak"]
        depth = tb["depth"]
        seats = self._from(s["announcer"], tb["active"], n)
        plays = [(p, s["piles"][p][depth]) for p in seats]
        best = self._best(deck, plays, index)
        s["last_trick"] = {
            "attribute": key,
            "plays": [[p, c] for p, c in plays],
            "winner": best[0] if len(best) == 1 else None,
            "tied": list(best) if len(best) > 1 else [],
        }
        group = tb["groups"][0]
        if len(best) == 1:
            tb["winners"].append(best[0])
            s["announcer"] = best[0]
        elif depth + 1 >= len(s["piles"][best[0]]):
            tb["undecided"].append(list(group))
        else:
            tb["active"] = sorted(best)
            tb["depth"] = depth + 1
            self._tiebreak_announcer(s)
            return
        tb["groups"].pop(0)
        if not tb["groups"]:
            s["phase"] = "over"
            tb["active"] = []
            return
        tb["active"] = list(tb["groups"][0])
        tb["depth"] = 0
        self._tiebreak_announcer(s)

    # -- views -----------------------------------------------------------------
    def _visible(self, s: dict, seat: int | None) -> str | None:
        """The one card of his own pile that ``seat`` sees."""
        if seat is None or not (0 <= seat < s["players"]):
            return None
        pile = s["piles"][seat]
        if not pile:
            return None
        tb = s["tiebreak"]
        if s["phase"] == "tiebreak" and seat in tb["active"] and tb["depth"] < len(pile):
            return pile[tb["depth"]]
        return pile[0]

    def public_action(self, s: dict, seat: int, action: str) -> dict:
        """See ``Engine.public_action``: the attribute named, no card."""
        kind, _sep, key = action.partition(":")
        if kind == "announce":
            return {"kind": "announce", "attribute": key}
        return super().public_action(s, seat, action)

    def hidden(self, s: dict, seat: int | None) -> set[str]:
        public = set()
        if s["last_trick"]:
            public.update(c for _p, c in s["last_trick"]["plays"])
        mine = self._visible(s, seat)
        out = set(s["aside"])
        for pile in s["piles"]:
            out.update(c for c in pile if c not in public and c != mine)
        return out

    def zones(self, s: dict) -> dict[str, list[str]]:
        z = {f"hand:{p}": list(pile) for p, pile in enumerate(s["piles"])}
        z["pot"] = list(s["pot"])
        z["aside"] = list(s["aside"])
        return z

    def view(self, s: dict, seat: int | None) -> dict:
        deck = self._deck(s)
        mine = self._visible(s, seat)
        top = None
        if mine is not None:
            card = _card_index(deck)[mine]
            top = {
                "id": mine,
                "name": card["name"],
                "values": dict(card["values"]),
                "standing": dict(standing(deck)[mine]),
            }
        sizes = [len(p) for p in s["piles"]]
        tb = s["tiebreak"]
        view = {
            "phase": s["phase"],
            "to_act": self.to_act(s),
            "announcer": s["announcer"],
            "active": list(s["active"]),
            "decision": s["decision"],
            "hand": [mine] if mine is not None else [],
            "top": top,
            "hand_sizes": sizes,
            "scores": list(sizes),
            "pot_size": len(s["pot"]),
            "aside_count": len(s["aside"]),
            "out": list(s["out"]),
            "time_called": s["time_called"],
            "deck_size": len(deck["cards"]),
            "tiebreak": None,
            "last_trick": None,
        }
        if tb is not None:
            view["tiebreak"] = {"active": list(tb["active"]), "winners": list(tb["winners"])}
        lt = s["last_trick"]
        if lt is not None:
            view["last_trick"] = {
                "attribute": lt["attribute"],
                "plays": [list(pc) for pc in lt["plays"]],
                "winner": lt["winner"],
                "tied": list(lt["tied"]),
            }
        return view

    # -- result ----------------------------------------------------------------
    def result(self, s: dict) -> TableResult:
        tb = s["tiebreak"] or {"winners": [], "undecided": []}
        return ranking(
            [len(p) for p in s["piles"]],
            s["out"],
            tb["winners"],
            details={
                "out_order": list(s["out"]),
                "decision_winners": list(tb["winners"]),
                "undecided_ties": [list(g) for g in tb["undecided"]],
                "pot": len(s["pot"]),
                "tricks": s["tricks"],
                "time_called": s["time_called"],
            },
        )


#: options dict (shared by the copies of one game's states) -> its parsed deck;
#: the options are never mutated, the entry keeps the dict alive.
_OPTIONS_CACHE: dict[int, tuple[dict, dict]] = {}
_INDEX_CACHE: dict[int, tuple[dict, dict]] = {}


def _card_index(deck: dict) -> dict:
    hit = _INDEX_CACHE.get(id(deck))
    if hit is None or hit[0] is not deck:
        if len(_INDEX_CACHE) > 64:
            _INDEX_CACHE.clear()
        hit = (deck, {c["id"]: c for c in deck["cards"]})
        _INDEX_CACHE[id(deck)] = hit
    return hit[1]


_ATTRIBUTE_CACHE: dict[int, tuple[dict, dict]] = {}


def _attribute_index(deck: dict) -> dict[str, int]:
    """Attribute key -> its index in the deck's strength rows (cached)."""
    hit = _ATTRIBUTE_CACHE.get(id(deck))
    if hit is None or hit[0] is not deck:
        if len(_ATTRIBUTE_CACHE) > 64:
            _ATTRIBUTE_CACHE.clear()
        hit = (deck, {a["key"]: i for i, a in enumerate(deck["attributes"])})
        _ATTRIBUTE_CACHE[id(deck)] = hit
    return hit[1]


_ACTIONS_CACHE: dict[int, tuple[dict, tuple]] = {}


def _actions(deck: dict) -> tuple:
    hit = _ACTIONS_CACHE.get(id(deck))
    if hit is None or hit[0] is not deck:
        if len(_ACTIONS_CACHE) > 64:
            _ACTIONS_CACHE.clear()
        hit = (deck, tuple("announce:" + a["key"] for a in deck["attributes"]))
        _ACTIONS_CACHE[id(deck)] = hit
    return hit[1]


_STANDING_CACHE: dict[int, tuple[dict, dict]] = {}


def standing(deck: dict) -> dict[str, dict[str, float]]:
    """Per card id and attribute key: the share of the deck's cards that card
    beats on that attribute (equal values count half, unknown beats nothing).
    Public knowledge about the deck; cached per parsed deck."""
    hit = _STANDING_CACHE.get(id(deck))
    if hit is None or hit[0] is not deck:
        from bisect import bisect_left, bisect_right

        total = len(deck["cards"])
        table: dict[str, dict[str, float]] = {cid: {} for cid in deck["strength"]}
        for i, a in enumerate(deck["attributes"]):
            known = sorted(row[i] for row in deck["strength"].values() if row[i] is not None)
            unknown = total - len(known)
            for cid, row in deck["strength"].items():
                v = row[i]
                if v is None:
                    share = 0.5 * (unknown - 1) / total
                else:
                    below = bisect_left(known, v)
                    equal = bisect_right(known, v) - below
                    share = (unknown + below + 0.5 * (equal - 1)) / total
                table[cid][a["key"]] = round(share, 4)
        if len(_STANDING_CACHE) > 64:
            _STANDING_CACHE.clear()
        hit = (deck, table)
        _STANDING_CACHE[id(deck)] = hit
    return hit[1]


def ranking(counts: list[int], out: list, decision_winners: list[int], details=None):
    """The table result from cards held, exit numbers (None = still in) and
    the seats that won a tied group's decision round."""
    keys = []
    for p, count in enumerate(counts):
        if out[p] is not None:
            keys.append([0, 0, out[p]])
        else:
            keys.append([count, 1 if p in decision_winners else 0, 0])
    details = dict(details or {})
    details["rank_keys"] = keys
    return TableResult(rank_by([tuple(k) for k in keys]), list(counts), details)
