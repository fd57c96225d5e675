"""Terra Trumpf, "all against all / team against team": the rules in
``games/terra_trumpf/RULES.md``.

Rules summary
-------------
2–6 players, seats 0..n-1 in play order. At 4 and 6 players partners sit
opposite (seats i and i + n/2) and a team scores the sum of its players' points.

Cards: a deck (see ``games/terra_trumpf/cards.py`` for the file format) holds
card sets of animal categories with 5 cards each; every card has a value.
3 categories per player are in play, 15 cards per player.

A hand: the cards in play are shuffled and 15 are dealt to each player. The
Alpha chooser names one category in play as Alpha (trump) and leads the first
trick. Play passes in play order; a player must play the led category if he
can, but an Alpha card may always be played instead; a player who can't follow
plays any card. If any Alpha was played the highest Alpha value wins the trick,
else the highest value of the led category; equal values: the card played
first wins. The winner takes the trick onto his pile. The next trick is led by
the player after the previous trick's LEADER (not the winner). When all hands
are empty each player scores 1 point per full 1000 of collected value. The next
chooser is the player after the previous chooser; the first chooser is seat 0
(``options["first_chooser"]`` sets another seat, "the youngest player"). The
game ends after n hands (everybody chose Alpha once). Most points (team:
summed) wins; equal points share the rank unless the total collected value
(team: summed) differs: ``rank_keys = [points, total value]``.

Time called: the trick in progress is finished; the current hand is scored as
it stands (cards still held score for nobody); no new hand starts.

Actions
-------
- ``"alpha:<category key>"``: the chooser names the Alpha category (any category
  in play);
- ``"play:<card id>"``: play a card.

Options
-------
- ``deck``: a shipped deck name (default ``"tiere"``) or a deck object in the
  documented format;
- ``categories``: the category keys in play (exactly 3 per player), e.g. as
  entered by the organiser for a paper table; otherwise they are drawn at random;
- ``first_chooser``: the seat of the first Alpha chooser (default 0);
- ``stack``: the complete ordered list of card ids for the first deal (see
  below); ``sheet``: ``"values"`` (default) or ``"points"`` (paper sheets).

Cards in play, ``deck()`` and zones
-----------------------------------
``deck(players, options)`` returns the cards in play. With
``options["categories"]`` those are exactly the cards of these categories
(and the zone ``"removed"`` is empty). Without it the categories are drawn at
random in ``new_game``, so ``deck()`` returns ALL cards of the card sets used
at that player count (deterministic for the options); the cards of the
categories left out lie in the public zone ``"removed"`` for the whole game.
Other zones: ``"hand:<seat>"`` (secret), ``"pile:<seat>"`` (the tricks a seat
won this hand), ``"table"``.

At 2 and 3 players the categories in play come from ONE card set (RULES.md);
``options["categories"]`` mixing sets there is refused: ``new_game`` and
``deck`` raise ``MixedSetsError`` (a ``ValueError``), ``check_sheet`` reports
the problem ``categories_mixed_sets``.

Ruling (added): the sets used are those holding ``options["categories"]`` when
given; otherwise, at 2 and 3 players, the first set holding at least 3n
categories, and at 4-6 players the first sets in deck order until they hold at
least 3n categories (the shipped deck: one set for 2–3 players, both for 4–6).
A deck whose sets are all too small for 3n categories (an imported one) can't
keep the one-set rule; there the categories come from the first sets and mixed
categories are accepted.

Ruling (added): when the categories are drawn at random from several sets, the
3n categories are split as evenly as possible between the sets used, the first
set(s) taking the odd ones (shipped deck: 4 players 6+6, 5 players 8+7,
6 players 9+9); within each set the categories are drawn at random.

Ruling (added): with ``options["stack"]`` (which must list every card of
``deck()``) the first 15n cards are dealt (card i to seat i mod n) and their
categories are the categories in play — they must be whole categories (all 5
cards); the rest of the stack is the removed cards (none when
``options["categories"]`` is given). Later hands are shuffled from the game's random
generator.

Ruling (added): every hand is dealt one card at a time starting with seat 0,
whoever chooses Alpha.

Ruling (added): when time is called before the Alpha of the current hand is
chosen, that hand is not played and not recorded; called during a hand (Alpha
chosen) with no trick in progress, the hand is scored at once as it stands.

Ruling (added): collected piles are not secret (every card was played face up);
views show only the trick on the table and the last trick.

Public actions (``public_action``; what everyone sees of a move, for the
public replay): ``{"kind": "alpha", "category": key}`` and
``{"kind": "play", "card": id, "dealt_anew": False}`` (face up). The play
that ends a hand when a new hand is dealt at once names no card (``card``
None, ``dealt_anew`` True): its card is already back in a new hand when the
step is shown.

Ruling (added): at team games a seat's figure is its team's points, and the
tie-break is the team's total collected value, so partners always share a rank
(ranks are competition ranks over seats: at 4 players 1, 1, 3, 3).

Paper sheets (``games/terra_trumpf/sheet.py`` lists fields and problem codes):

Ruling (added): a hand is "finished" only when its checkbox is ticked; only the
last hand entered may be unfinished (time can cut only the hand in progress),
and hands are entered from hand 1 without gaps.

Ruling (added): a points-only sheet (``options["sheet"] == "points"``) has no
collected values, so equal points share the rank there; with the categories in
play known, a hand's points may add up to at most (full thousands of the cards
in play) and, when finished, to at least what the values can give.

Ruling (added): when ``options["first_chooser"]`` is set, a sheet's first
chooser must be that seat; otherwise the first chooser is as entered.

Views: ``"hand"`` is ``{card id: [category, value]}``; ``"table"`` lists
``[seat, card id, category, value]``; ``"last_trick"`` is ``{"plays": [[seat,
card id], ...], "winner": seat}``; also ``"categories"`` (in play), ``"alpha"``,
``"chooser"``, ``"leader"``, ``"collected"`` (this hand's values), ``"scores"``
(points of the hands scored), ``"teams"``.
"""

from __future__ import annotations

import json

from games import rng
from games.base import DeckError, Engine, IllegalAction, TableResult, rank_by
from games.i18n import _
from games.sheets import field
from games.terra_trumpf.cards import (
    CARDS_PER_CATEGORY,
    CATEGORIES_PER_PLAYER,
    Deck,
    categories_needed,
    load_deck,
    shipped_decks,
)

CARDS_PER_PLAYER = CATEGORIES_PER_PLAYER * CARDS_PER_CATEGORY  # 15
DEFAULT_DECK = "tiere"
SHEET_MODES = ("values", "points")
#: RULES.md "Cards in play": 2 players 6 categories of one set, 3 players 9 of one set
ONE_SET_UP_TO = 3


class _CardTable:
    """Fast look-ups for a deck: card id -> (category, value) and deck order."""

    def __init__(self, deck: Deck):
        self.deck = deck
        self.info = {
            card.id: (cat.key, card.value)
            for card_set in deck.sets
            for cat in card_set.categories
            for card in cat.cards
        }
        self.index = {cid: i for i, cid in enumerate(self.info)}
        self._removed: dict = {}

    def removed(self, sets: list[int], in_play: list[str]) -> list[str]:
        key = (tuple(sets), tuple(in_play))
        out = self._removed.get(key)
        if out is None:
            keep = set(in_play)
            out = [
                card.id
                for i in sets
                for cat in self.deck.sets[i].categories
                if cat.key not in keep
                for card in cat.cards
            ]
            if len(self._removed) > 256:
                self._removed.clear()
            self._removed[key] = out
        return list(out)


_NAMED_TABLES: dict[str, _CardTable] = {}
_DATA_TABLES: dict[int, tuple[dict, _CardTable]] = {}


def _cards(s: dict) -> _CardTable:
    """The card table of a state's deck (cached; states keep only card ids)."""
    deck = s["options"].get("deck", DEFAULT_DECK)
    if isinstance(deck, str):
        table = _NAMED_TABLES.get(deck)
        if table is None:
            table = _NAMED_TABLES[deck] = _CardTable(load_deck(deck))
        return table
    hit = _DATA_TABLES.get(id(deck))
    if hit is not None and hit[0] is deck:
        return hit[1]
    table = _CardTable(load_deck(deck))
    if len(_DATA_TABLES) > 16:
        _DATA_TABLES.clear()
    _DATA_TABLES[id(deck)] = (deck, table)
    return table


class MixedSetsError(ValueError):
    """``options["categories"]`` mixes card sets where the rules want one set."""

    def __init__(self, players: int, set_names: list[str]):
        self.players = players
        self.set_names = list(set_names)
        super().__init__(
            f"at {players} players the categories in play come from one card set; "
            f"options['categories'] mixes the sets {', '.join(map(repr, set_names))}"
        )


def _one_set(deck: Deck, players: int) -> int | None:
    """At 2 and 3 players the categories in play come from one card set: the
    first set holding enough of them (None: other player counts, or no set
    of this deck is big enough)."""
    if players > ONE_SET_UP_TO:
        return None
    need = categories_needed(players)
    for i, card_set in enumerate(deck.sets):
        if len(card_set.categories) >= need:
            return i
    return None


def _default_sets(deck: Deck, players: int) -> list[int]:
    """The card sets used when ``options["categories"]`` doesn't say."""
    one = _one_set(deck, players)
    if one is not None:
        return [one]
    used, count, need = [], 0, categories_needed(players)
    for i, card_set in enumerate(deck.sets):
        if count >= need:
            break
        used.append(i)
        count += len(card_set.categories)
    return used


def team_list(players: int) -> list[list[int]] | None:
    """Partners opposite at 4 and 6 players, else no teams."""
    if players in (4, 6):
        half = players // 2
        return [[i, i + half] for i in range(half)]
    return None


class TerraTrumpf(Engine):
    id = "terra_trumpf"
    name = "Terra Trumpf"
    min_players = 2
    max_players = 6
    time_called_text = _(
        "Finish the trick in progress, then stop. Count the value each "
        "player has collected in this hand (cards still in hand score for nobody) and "
        "enter it as this hand's result without ticking 'Hand finished'. Do not start a new hand."
    )
    figure_label = _("points")
    extra_options = ("categories", "first_chooser")
    #: the original rules: "Der Spieler **rechts** von ihm" — play passes to the right
    play_direction = "right"

    # -- options ---------------------------------------------------------------
    def options_schema(self) -> list[dict]:
        return [
            field(
                "deck",
                _("Deck"),
                "choice",
                choices=[[name, name] for name in shipped_decks()],
                required=False,
            ),
            field(
                "sheet",
                _("Paper sheet"),
                "choice",
                choices=[["values", _("collected values")], ["points", _("points only")]],
                required=False,
            ),
        ]

    def default_options(self) -> dict:
        return {"deck": DEFAULT_DECK, "sheet": "values"}

    def teams(self, players: int, options: dict | None = None) -> list[list[int]] | None:
        return team_list(players)

    def _setup(
        self, players: int, options: dict | None, *, allow_mixed: bool = False
    ) -> tuple[Deck, list[int], list | None]:
        """The deck, the set indices used and the given categories (or None).
        Categories from several sets where one set must do raise
        ``MixedSetsError`` unless ``allow_mixed`` (the paper sheet reports
        them as a problem instead)."""
        self.check_players(players)
        options = self.check_options(options)
        deck = load_deck(options.get("deck", DEFAULT_DECK))
        need = categories_needed(players)
        if deck.category_count < need:
            raise DeckError(
                f"deck {deck.name!r} has {deck.category_count} categories; "
                f"{players} players need {need} (3 per player)"
            )
        cats = options.get("categories")
        if cats is not None:
            known = deck.categories
            if not isinstance(cats, list) or not all(isinstance(c, str) for c in cats):
                raise ValueError("options['categories'] must be a list of category keys")
            unknown = [c for c in cats if c not in known]
            if unknown:
                raise ValueError(
                    f"unknown categor{'y' if len(unknown) == 1 else 'ies'} "
                    f"{', '.join(map(repr, unknown))} in options['categories']"
                )
            if len(set(cats)) != len(cats):
                raise ValueError("options['categories'] lists a category twice")
            if len(cats) != need:
                raise ValueError(
                    f"{players} players play with exactly {need} categories "
                    f"(3 per player), options['categories'] lists {len(cats)}"
                )
            used = sorted({known[c].set_index for c in cats})
            if len(used) > 1 and not allow_mixed and _one_set(deck, players) is not None:
                raise MixedSetsError(players, [deck.sets[i].name for i in used])
        else:
            used = _default_sets(deck, players)
        fc = options.get("first_chooser", 0)
        if isinstance(fc, bool) or not isinstance(fc, int) or not 0 <= fc < players:
            raise ValueError(f"options['first_chooser'] must be a seat from 0 to {players - 1}")
        mode = options.get("sheet", "values")
        if mode not in SHEET_MODES:
            raise ValueError("options['sheet'] must be 'values' or 'points'")
        return deck, used, cats

    def mixed_sets(self, players: int, options: dict | None = None) -> list[str] | None:
        """The names of the card sets ``options["categories"]`` mixes where
        the rules want one set (2 and 3 players), else None."""
        deck, used, cats = self._setup(players, options, allow_mixed=True)
        if cats is None or len(used) < 2 or _one_set(deck, players) is None:
            return None
        return [deck.sets[i].name for i in used]

    # -- setup -----------------------------------------------------------------
    def deck(self, players: int, options: dict | None = None) -> list[dict]:
        """The cards in play, each ``{"id", "name", "value", "category",
        "category_label", "set"}``, in deck order.

        With ``options["categories"]``: exactly the cards of those categories
        (15 per player). Without it the categories in play are drawn by
        ``new_game`` from the seed, so this returns every card of the card
        sets used at this player count (see "Cards in play" in the module
        docstring), a superset of the cards dealt; the rest lie in the zone
        "removed"."""
        deck, used, cats = self._setup(players, options)
        keep = None if cats is None else set(cats)
        return [
            {
                "id": card.id,
                "name": card.name,
                "value": card.value,
                "category": cat.key,
                "category_label": cat.label,
                "set": deck.sets[i].name,
            }
            for i in used
            for cat in deck.sets[i].categories
            if keep is None or cat.key in keep
            for card in cat.cards
        ]

    @staticmethod
    def _quotas(sizes: list[int], need: int) -> list[int]:
        k = len(sizes)
        quotas = [min(size, need // k + (1 if i < need % k else 0)) for i, size in enumerate(sizes)]
        left = need - sum(quotas)
        for i, size in enumerate(sizes):  # sets too small pass their share on
            extra = min(left, size - quotas[i])
            quotas[i] += extra
            left -= extra
        return quotas

    def new_game(self, players: int, seed: int, options: dict | None = None) -> dict:
        options = {} if options is None else options
        deck, used, cats = self._setup(players, options)
        try:
            options = json.loads(json.dumps(options))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"options must be JSON data: {exc}") from None
        n = players
        need = categories_needed(n)
        s: dict = {"game": self.id, "players": n, "options": options, "rng": rng.seed_state(seed)}
        all_cats = [cat for i in used for cat in deck.sets[i].categories]
        stack = options.get("stack")
        if stack is not None:
            if not isinstance(stack, list) or not all(isinstance(c, str) for c in stack):
                raise ValueError("options['stack'] must be a list of card ids")
            order = self.check_stack(stack, self.deck(n, options))
            owner = {card.id: cat.key for cat in all_cats for card in cat.cards}
            dealt = order[: n * CARDS_PER_PLAYER]
            counts: dict[str, int] = {}
            for cid in dealt:
                counts[owner[cid]] = counts.get(owner[cid], 0) + 1
            partial = sorted(k for k, v in counts.items() if v != CARDS_PER_CATEGORY)
            if partial:
                raise ValueError(
                    f"the first {len(dealt)} cards of options['stack'] must be whole "
                    f"categories; incomplete: {', '.join(partial)}"
                )
            if cats is not None and set(counts) != set(cats):
                raise ValueError(
                    "the first cards of options['stack'] are not the categories "
                    "of options['categories']"
                )
            chosen = set(counts)
        elif cats is not None:
            chosen = set(cats)
            order = None
        else:
            chosen = set()
            sizes = [len(deck.sets[i].categories) for i in used]
            for i, quota in zip(used, self._quotas(sizes, need), strict=True):
                keys = [cat.key for cat in deck.sets[i].categories]
                rng.shuffle(s, keys)
                chosen.update(keys[:quota])
            order = None
        in_play = [cat for cat in all_cats if cat.key in chosen]
        s["in_play"] = [cat.key for cat in in_play]
        s["sets"] = used
        if order is None:
            order = [card.id for cat in in_play for card in cat.cards]
            rng.shuffle(s, order)
        first = options.get("first_chooser", 0)
        s.update(
            {
                "phase": "alpha",
                "hands": [order[j : n * CARDS_PER_PLAYER : n] for j in range(n)],
                "piles": [[] for _ in range(n)],
                "table": [],
                "chooser": first,
                "leader": first,
                "turn": first,
                "alpha": None,
                "tricks": 0,
                "values": [0] * n,
                "history": [],
                "scores": [0] * n,
                "last_trick": None,
                "time_called": False,
            }
        )
        return s

    def copy(self, s: dict) -> dict:
        # "options", "sets", "in_play" and "last_trick" are never
        # changed in place, so they are shared between copies.
        c = dict(s)
        c["hands"] = [h[:] for h in s["hands"]]
        c["piles"] = [p[:] for p in s["piles"]]
        c["table"] = s["table"][:]
        c["values"] = s["values"][:]
        c["history"] = s["history"][:]
        c["scores"] = s["scores"][:]
        return c

    # -- play ------------------------------------------------------------------
    def to_act(self, s: dict) -> list[int]:
        if s["phase"] == "over":
            return []
        return [s["turn"]]

    def _playable(self, s: dict, hand: list[str]) -> list[str]:
        table = s["table"]
        if not table:
            return hand
        cards = _cards(s).info
        led = cards[table[0]][0]
        alpha = s["alpha"]
        follow = [c for c in hand if cards[c][0] == led]
        if not follow:
            return hand
        if led == alpha:
            return follow
        return [c for c in hand if cards[c][0] in (led, alpha)]

    def legal_actions(self, s: dict, seat: int) -> list[str]:
        if s["phase"] == "over" or seat != s["turn"]:
            return []
        if s["phase"] == "alpha":
            return ["alpha:" + key for key in s["in_play"]]
        return ["play:" + c for c in self._playable(s, s["hands"][seat])]

    def apply(self, s: dict, seat: int, action: str) -> dict:
        """As ``Engine.apply``; a card play that doesn't complete the trick
        changes only the seat's hand, the table and the turn, so only those
        are copied (the new state shares the rest with ``s``; lists are
        changed in place only on a full ``copy``)."""
        if (
            s["phase"] == "play"
            and len(s["table"]) < s["players"] - 1
            and self.is_legal(s, seat, action)
        ):
            t = dict(s)
            hands = t["hands"] = list(s["hands"])
            hand = hands[seat] = list(hands[seat])
            cid = action[5:]
            hand.remove(cid)
            t["table"] = [*s["table"], cid]
            t["turn"] = (seat + 1) % s["players"]
            return t
        return super().apply(s, seat, action)

    def is_legal(self, s: dict, seat: int, action) -> bool:
        if s["phase"] != "play":
            return action in self.legal_actions(s, seat)
        # the hot case, a card play, decided as _playable decides
        if seat != s["turn"] or not isinstance(action, str) or action[:5] != "play:":
            return False
        hand = s["hands"][seat]
        cid = action[5:]
        if cid not in hand:
            return False
        table = s["table"]
        if not table:
            return True
        cards = _cards(s).info
        led = cards[table[0]][0]
        cat = cards[cid][0]
        if cat == led:
            return True
        if not any(cards[c][0] == led for c in hand):
            return True  # can't follow: any card
        return cat == s["alpha"]  # an Alpha card may always be played instead

    def explain_illegal(self, s: dict, seat: int, action: str) -> str:
        if s["phase"] == "over":
            return "the game is over"
        if seat != s["turn"]:
            return f"seat {seat} is not to act now; seat {s['turn']} is"
        kind, _sep, arg = str(action).partition(":")
        if s["phase"] == "alpha":
            if kind == "alpha":
                return f"{arg!r} is not a category in play; choose one of {', '.join(s['in_play'])}"
            if kind == "play":
                return "first choose the Alpha category ('alpha:<category>')"
            return f"unknown action {action!r}; choose the Alpha category with 'alpha:<category>'"
        if kind == "alpha":
            return f"the Alpha category of this hand is already chosen ({s['alpha']})"
        if kind != "play":
            return f"unknown action {action!r}; play a card with 'play:<card id>'"
        hand = s["hands"][seat]
        if arg not in hand:
            return "that card is not in your hand"
        led = _cards(s).info[s["table"][0]][0]
        return (
            f"you must follow {led}: you hold {led} cards "
            f"(an Alpha card, {s['alpha']}, may always be played instead)"
        )

    def _apply(self, s: dict, seat: int, action: str) -> None:
        kind, _sep, arg = action.partition(":")
        if kind == "alpha":
            s["alpha"] = arg
            s["phase"] = "play"
            return
        if kind != "play":  # pragma: no cover - legal_actions guards this
            raise IllegalAction(f"unknown action {action!r}")
        n = s["players"]
        s["hands"][seat].remove(arg)
        table = s["table"]
        table.append(arg)
        if len(table) < n:
            s["turn"] = (seat + 1) % n
            return
        cards = _cards(s).info
        alpha = s["alpha"]
        led = cards[table[0]][0]
        best_i, best_key, total = 0, None, 0
        for i, cid in enumerate(table):
            cat, value = cards[cid]
            total += value
            key = (2 if cat == alpha else 1 if cat == led else 0, value)
            if best_key is None or key > best_key:
                best_i, best_key = i, key
        leader = s["leader"]
        winner = (leader + best_i) % n
        s["piles"][winner].extend(table)
        s["values"][winner] += total
        s["last_trick"] = {
            "plays": [[(leader + i) % n, cid] for i, cid in enumerate(table)],
            "winner": winner,
        }
        s["table"] = []
        s["tricks"] += 1
        if s["tricks"] == CARDS_PER_PLAYER:
            self._end_hand(s, finished=True)
        elif s["time_called"]:
            self._end_hand(s, finished=False)
        else:
            s["leader"] = s["turn"] = (leader + 1) % n

    def _end_hand(self, s: dict, *, finished: bool) -> None:
        n = s["players"]
        s["history"].append(
            {
                "chooser": s["chooser"],
                "alpha": s["alpha"],
                "values": s["values"][:],
                "finished": finished,
            }
        )
        s["scores"] = [p + v // 1000 for p, v in zip(s["scores"], s["values"], strict=True)]
        if s["time_called"] or len(s["history"]) >= n:
            s["phase"] = "over"
            s["turn"] = None
            return
        order = [cid for h in s["piles"] for cid in h] + [cid for h in s["hands"] for cid in h]
        order.sort(key=_cards(s).index.__getitem__)
        rng.shuffle(s, order)
        chooser = (s["chooser"] + 1) % n
        s.update(
            {
                "phase": "alpha",
                "hands": [order[j::n] for j in range(n)],
                "piles": [[] for _ in range(n)],
                "table": [],
                "chooser": chooser,
                "leader": chooser,
                "turn": chooser,
                "alpha": None,
                "tricks": 0,
                "values": [0] * n,
                "last_trick": None,
            }
        )

    # -- time ------------------------------------------------------------------
    def call_time(self, s: dict) -> dict:
        s = self.copy(s)
        if s["phase"] == "over":
            return s
        s["time_called"] = True
        if s["phase"] == "alpha":
            s["phase"] = "over"
            s["turn"] = None
        elif not s["table"]:
            self._end_hand(s, finished=False)
        return s

    # -- views -----------------------------------------------------------------
    def points(self, s: dict) -> tuple[list[int], list[int]]:
        """Per seat: points and total collected value over the recorded hands."""
        n = s["players"]
        pts, vals = [0] * n, [0] * n
        for hand in s["history"]:
            for j, v in enumerate(hand["values"]):
                pts[j] += v // 1000
                vals[j] += v
        return pts, vals

    def view(self, s: dict, seat: int | None) -> dict:
        """What ``seat`` sees (None: the public). Cards carry their data:
        ``"hand"`` is ``{card id: [category, value]}`` in deck order, ``"table"``
        lists ``[seat, card id, category, value]`` in play order; ``"scores"``
        are the points of the hands scored so far, ``"collected"`` the values
        won in the current hand."""
        n = s["players"]
        table = _cards(s)
        cards = table.info
        hand = {}
        if seat is not None and 0 <= seat < n:
            for c in sorted(s["hands"][seat], key=table.index.__getitem__):
                hand[c] = list(cards[c])
        leader = s["leader"]
        return {
            "phase": s["phase"],
            "to_act": [] if s["phase"] == "over" else [s["turn"]],
            "seat": seat,
            "players": n,
            "teams": team_list(n),
            "categories": s["in_play"][:],
            "hand": hand,
            "hand_sizes": [len(h) for h in s["hands"]],
            "hand_number": len(s["history"]) + (0 if s["phase"] == "over" else 1),
            "hands_total": n,
            "chooser": s["chooser"],
            "alpha": s["alpha"],
            "leader": leader,
            "table": [[(leader + i) % n, c, *cards[c]] for i, c in enumerate(s["table"])],
            "last_trick": s["last_trick"],
            "collected": s["values"][:],
            "scores": s["scores"][:],
            "time_called": s["time_called"],
        }

    def zones(self, s: dict) -> dict[str, list[str]]:
        z = {f"hand:{j}": h for j, h in enumerate(s["hands"])}
        z.update({f"pile:{j}": p for j, p in enumerate(s["piles"])})
        z["table"] = s["table"]
        if s["options"].get("categories") is None:
            z["removed"] = _cards(s).removed(s["sets"], s["in_play"])
        else:  # deck() is exactly the categories in play: nothing removed
            z["removed"] = []
        return z

    def public_action(self, s: dict, seat: int, action: str) -> dict:
        """See ``Engine.public_action`` and the module docstring."""
        kind, _sep, arg = action.partition(":")
        if kind == "alpha":
            return {"kind": "alpha", "category": arg}
        if kind == "play":
            dealt_anew = self.apply(s, seat, action)["phase"] == "alpha"
            return {"kind": "play", "card": None if dealt_anew else arg, "dealt_anew": dealt_anew}
        return super().public_action(s, seat, action)

    def hidden(self, s: dict, seat: int | None) -> set[str]:
        out: set[str] = set()
        for j, h in enumerate(s["hands"]):
            if j != seat:
                out.update(h)
        return out

    # -- result ----------------------------------------------------------------
    def result(self, s: dict) -> TableResult:
        pts, vals = self.points(s)
        hands = [dict(h, values=h["values"][:]) for h in s["history"]]
        return ranked_result(s["players"], pts, vals, {"hands": hands})


def ranked_result(
    players: int, pts: list[int], vals: list[int] | None, details: dict
) -> TableResult:
    """Ranks by points, then total collected value (both summed per team)."""
    teams = team_list(players)
    if teams:
        team_of = {seat: team for team in teams for seat in team}
        figures = [sum(pts[m] for m in team_of[j]) for j in range(players)]
        tvals = None if vals is None else [sum(vals[m] for m in team_of[j]) for j in range(players)]
    else:
        figures, tvals = list(pts), (None if vals is None else list(vals))
    keys = [[figures[j]] + ([] if tvals is None else [tvals[j]]) for j in range(players)]
    out = dict(details)
    out.update(
        {
            "points": list(pts),
            "values": None if vals is None else list(vals),
            "teams": teams,
            "rank_keys": keys,
        }
    )
    return TableResult(rank_by(keys), figures, out)
