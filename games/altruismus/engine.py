"""Altruismus (2-4 players, 108 cards): the rules engine.

The rules: ``games/altruismus/RULES.md``. Seats 0..n-1 are in play order
(the original rules' "clockwise").

Deck files (``games/altruismus/decks/<name>.json``, option ``{"deck": name}``)::

    {"name": "standard",
     "colours": ["red", "orange", "yellow", "green", "blue", "purple"],
     "numbers": [1, 18],
     "symbols": {"red": {"pass": 3, "mission": 6, "even": 9,
                         "plusminus": 12, "exchange": 15}, ...}}

- ``colours``: exactly 6 distinct lowercase names (letters only);
- ``numbers``: must be ``[1, 18]`` (6 x 18 = 108 cards, as the rules say);
- ``symbols``: for every colour (and only those) a map from each of the five
  symbols ``pass`` (everyone hands on his card), ``mission`` (new mission),
  ``even`` (even out), ``plusminus`` (plus/minus 3) and ``exchange`` to the
  number of the one card of that colour carrying it; the five numbers of a
  colour are distinct and within ``numbers``.
Anything else raises ``DeckError`` with the reason. Card ids are
``AL-<colour>-<number, two digits>``, e.g. ``AL-red-07``.

Play (RULES.md "A turn"):
- Deal 10 each; the rest is the draw pile (``stock``, top = first); the top card
  is turned up as the mission card. ``missions`` lists every mission card on
  the table as ``[card id, owner seat]`` (owner ``None`` = unowned; the last
  one is the current).
- A turn is simultaneous: every seat picks ``play:<card>`` face down (others
  only see that he picked). When all have picked the cards are revealed and
  the symbol cards are carried out: the highest played symbol number first
  (equal highest: tie draw), then the other symbol cards in play order from
  that seat. The order is fixed per card at the reveal; when a card's turn
  comes, its current holder carries it out.
  Decisions: plus/minus 3 -> ``plus3`` / ``minus3``; exchange -> ``give:<seat>``
  (the card drawn is shown in the view as ``drawn``). pass, new mission and
  even out are automatic.
- The not-dropped played card nearest to ``printed mission number + changes``
  wins the turn (equal distance: tie draw). The winner owns that mission
  card, then ``take:<seat>`` (swap played cards with that seat) or ``keep``,
  then ``swap_pile:<card>``, ``swap_give:<card>:<seat>`` or ``noswap``.
  Everyone then puts his current played card on his collection and a new
  mission card is turned up.
- Tie draws (symbol order and winner): the tied players, in play order, each
  draw the top card of the pile; the highest number wins; the drawn cards go
  back under the pile in the order drawn; repeat among those still tied. The
  pile was shuffled from the state's rng, so these draws are random and
  automatic. Drawn numbers are shown in ``log``.
- The game ends when the hands are empty (after 10 turns).

View keys: ``phase`` (pick, symbol, take, swap, over), ``to_act``, ``hand``,
``hand_sizes``, ``pile_size``, ``missions``, ``mission_card``,
``mission_number`` (printed + changes), ``modifier``, ``picked`` (per seat),
``played`` (others' cards are ``None`` until all have picked), ``out``
(dropped out this turn), ``pending`` (the symbol waiting for a decision:
symbol, seat, card), ``drawn`` (the exchange card), ``winner``,
``collections`` (public), ``scores`` (live totals), ``log`` (this turn's
events: seats and numbers only), ``last_turn`` (``plays`` per seat, winner,
mission card, final mission number), ``turn`` (turns played), ``deck``.

Public actions (``public_action``; what everyone sees of a move, for the
public replay): a pick is face down, ``{"kind": "pick", "card": None}``,
until the turn's last pick turns every played card up: that one is
``{"kind": "pick", "card": <id>, "reveal": True}`` (the others' picks are
seen on the table from then on, never named in their own steps). ``plus3``,
``minus3``, ``take`` (``target``), ``keep`` and ``noswap`` are public;
``give`` names the drawn card (shown to all when drawn) and its ``target``;
the winner's swaps hide their cards: ``{"kind": "swap_pile", "card": None}``
and ``{"kind": "swap_give", "target": seat, "card": None}`` (a hand card
for a blind card). The played card an exchange puts under the pile is
never named (it is in the pile once the step is shown).

Scoring (RULES.md "The end and the score"), per seat's collection:
- colour bonus, read PER COLOUR: each colour with k >= 3 collected cards scores
  10 x (k - 2), at most 80 for that colour; the colour bonuses add up. A seat
  collects exactly one card per turn, so at most 10 cards: the summed bonus can
  never exceed 80 (sum of (k - 2) over bonus colours <= 10 - 2), hence the
  paper sheet's allowed bonus values 0, 10, ..., 80 hold for the sum too.
  Void cards (next point) still count for the colour bonus (the original rules
  sort by colour first and set the void cards aside afterwards).
- a card whose number equals the PRINTED number of a mission card on the table
  that is not his (owned by another or unowned) is void (scores no number),
  unless a mission card with the same printed number is his;
- score = colour bonus + numbers of the other cards. Highest wins; equal scores
  share the rank (rank key = [score]).

Ruling (added): a player who drops out (even out) stays out for the rest of
the turn, even if a pass hands him another card. A symbol is carried out only
if its card is still on the table, its holder is still in the turn and it was
not ignored; the symbols ignored by even out are those of the cards the
dropped players hold at that moment, and they stay ignored when passed on.
Ruling (added): a new mission card (symbol) discards the plus/minus changes
made so far; later changes apply to the new mission number.
Ruling (added): exchange may give the drawn card to any other player, also one
who dropped out (he stays out). A played card that goes under the pile loses
its pending symbol.
Ruling (added): swap_give: the winner takes the blind card (random, from the
state's rng) from the cards that player held before the gift, so he never
gets his own card back. swap_pile needs a non-empty draw pile; swap_give needs
a player with hand cards. When the winner's hand is empty only ``noswap`` is
possible and the step is skipped.
Ruling (added): all players may be taken from (also players who dropped out).
Ruling (added): no new mission card is turned up after the last turn (hands
empty) or when time was called: the game is over.
Ruling (added): the draw pile running out. The standard deck never runs out
(only the mission cards leave it for good: at most 11 of 68+ cards), but the
engine decides: a tie draw that lacks cards, or is still tied after 20
rounds, is decided by lot (the state's rng); new mission and exchange with an
empty pile do nothing; if no new mission card can be turned up the game ends.
Time called (Ruling (added) for the details): the turn in progress is
finished (all picks, symbols, winner decisions, collecting), then the game is
over. If nobody has picked yet in the current turn, the game ends at once and
that turn's mission card goes back under the draw pile (nobody could play for
it, so it voids nothing).
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path

from games import rng
from games.base import DeckError, Engine, TableResult, rank_by
from games.i18n import _
from games.sheets import field

DECK_DIR = Path(__file__).parent / "decks"
SYMBOLS = ("pass", "mission", "even", "plusminus", "exchange")
HAND_SIZE = 10
COLOURS_IN_DECK = 6
NUMBERS = (1, 18)
MAX_BONUS = 80
TIE_ROUNDS = 20
_COLOUR_RE = re.compile(r"^[a-z]+$")


# -- deck data ---------------------------------------------------------------
def validate_deck(data) -> dict:
    """Check deck data (see module docstring); returns ``{card id: [colour,
    number, symbol or None]}`` in deck order, or raises ``DeckError``."""
    if not isinstance(data, dict):
        raise DeckError("a deck file must hold a JSON object")
    unknown = sorted(set(data) - {"name", "colours", "numbers", "symbols"})
    if unknown:
        raise DeckError(f"unknown deck keys: {unknown}")
    colours = data.get("colours")
    if not isinstance(colours, list) or len(colours) != COLOURS_IN_DECK:
        raise DeckError(f"'colours' must list exactly {COLOURS_IN_DECK} colours")
    for c in colours:
        if not isinstance(c, str) or not _COLOUR_RE.match(c):
            raise DeckError(f"colour {c!r} must be a lowercase name of letters only")
    if len(set(colours)) != len(colours):
        raise DeckError("'colours' repeats a colour")
    if data.get("numbers") != list(NUMBERS):
        raise DeckError(f"'numbers' must be {list(NUMBERS)} (6 x 18 = 108 cards)")
    symbols = data.get("symbols")
    if not isinstance(symbols, dict) or set(symbols) != set(colours):
        raise DeckError("'symbols' must map every colour (and only those) to its symbol numbers")
    lo, hi = NUMBERS
    cards: dict[str, list] = {}
    for colour in colours:
        m = symbols[colour]
        if not isinstance(m, dict) or set(m) != set(SYMBOLS):
            raise DeckError(f"colour {colour!r} must carry each symbol {list(SYMBOLS)} once")
        by_number = {}
        for sym, num in m.items():
            if isinstance(num, bool) or not isinstance(num, int) or not lo <= num <= hi:
                raise DeckError(f"{colour} {sym}: number must be {lo}..{hi}, not {num!r}")
            if num in by_number:
                raise DeckError(f"{colour} {num} carries two symbols ({by_number[num]}, {sym})")
            by_number[num] = sym
        for num in range(lo, hi + 1):
            cards[card_id(colour, num)] = [colour, num, by_number.get(num)]
    return cards


def card_id(colour: str, number: int) -> str:
    return f"AL-{colour}-{number:02d}"


_NUM: dict[str, int] = {}
_COL: dict[str, str] = {}


def card_number(cid: str) -> int:
    """The printed number of a card id like ``AL-red-07``."""
    n = _NUM.get(cid)
    if n is None:
        n = _NUM[cid] = int(cid.rsplit("-", 1)[1])
    return n


def card_colour(cid: str) -> str:
    c = _COL.get(cid)
    if c is None:
        c = _COL[cid] = cid.split("-")[1]
    return c


def load_deck_file(path) -> dict:
    """Read and validate a deck file; ``DeckError`` if unreadable or wrong."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise DeckError(f"cannot read deck file {path}: {exc}") from None
    return validate_deck(data)


def deck_names() -> list[str]:
    return sorted(p.stem for p in DECK_DIR.glob("*.json"))


@cache
def load_deck(name: str) -> dict:
    """The validated card table of a named deck in ``decks/``."""
    if not isinstance(name, str) or name not in deck_names():
        raise ValueError(f"unknown Altruismus deck {name!r}; known: {deck_names()}")
    return load_deck_file(DECK_DIR / f"{name}.json")


def symbol_of(deck: str, cid: str) -> str | None:
    """The symbol of card ``cid`` in ``deck`` (None for a plain card)."""
    return load_deck(deck)[cid][2]


# -- scoring -----------------------------------------------------------------
def colour_bonus(cards: list[str]) -> int:
    """Per colour with k >= 3 cards: 10 x (k - 2), at most 80 per colour; summed."""
    counts: dict[str, int] = {}
    for c in cards:
        col = card_colour(c)
        counts[col] = counts.get(col, 0) + 1
    return sum(min(MAX_BONUS, 10 * (k - 2)) for k in counts.values() if k >= 3)


def score_collection(cards: list[str], missions: list, seat: int) -> dict:
    """``{"sum", "bonus", "total", "void"}`` of one seat's collection.
    ``missions``: ``[card id, owner seat or None]`` pairs."""
    mine = set()
    other = set()
    for card, owner in missions:
        (mine if owner == seat else other).add(card_number(card))
    void = []
    total_sum = 0
    for c in cards:
        n = card_number(c)
        if n in other and n not in mine:
            void.append(c)
        else:
            total_sum += n
    bonus = colour_bonus(cards)
    return {"sum": total_sum, "bonus": bonus, "total": total_sum + bonus, "void": void}


def score_totals(collections: list[list[str]], missions: list) -> list[int]:
    """``score_collection(cards, missions, seat)["total"]`` of every seat at
    once (the engine's live scores, kept after every change): the mission
    numbers are read once; a number is void for a seat when a mission card
    carries it and none of those is the seat's."""
    owners: dict[int, set] = {}
    for card, owner in missions:
        owners.setdefault(card_number(card), set()).add(owner)
    info = _INFO
    out = []
    for seat, cards in enumerate(collections):
        total = 0
        counts: dict[str, int] = {}
        for c in cards:
            try:
                n, colour = info[c]
            except KeyError:
                n, colour = info[c] = (card_number(c), card_colour(c))
            if n in owners and seat not in owners[n]:
                pass  # void: a mission card carries the number, none of them his
            else:
                total += n
            counts[colour] = counts.get(colour, 0) + 1
        if len(cards) >= 3:
            for k in counts.values():
                if k >= 3:
                    total += min(MAX_BONUS, 10 * (k - 2))
        out.append(total)
    return out


def _seat_index(s: dict, seat) -> int | None:
    """``seat`` if it is a seat of this table (an int 0..n-1), else None."""
    if isinstance(seat, int) and 0 <= seat < s["players"]:
        return seat
    return None


#: card id -> (number, colour), filled as cards are seen
_INFO: dict[str, tuple[int, str]] = {}


# -- the engine ----------------------------------------------------------------
class AltruismusEngine(Engine):
    id = "altruismus"
    name = "Altruismus"
    min_players = 2
    max_players = 4
    time_called_text = _(
        "Finish the turn in progress (symbols, winner, collecting), then stop. "
        "If nobody has laid a card yet, stop at once and put the new mission "
        "card back under the draw pile. Then score the collections."
    )
    figure_label = _("points")

    # -- options / deck ----------------------------------------------------------
    def options_schema(self) -> list[dict]:
        return [
            field(
                "deck",
                _("Deck"),
                "choice",
                required=False,
                choices=[[n, n] for n in deck_names()],
            )
        ]

    def default_options(self) -> dict:
        return {"deck": "standard"}

    def _options(self, options) -> dict:
        options = self.check_options(options)
        out = dict(self.default_options())
        out.update(options)
        if not isinstance(out["deck"], str):
            raise ValueError(f"options['deck'] must be a deck name, not {out['deck']!r}")
        load_deck(out["deck"])  # ValueError for an unknown name
        if "stack" in out and not isinstance(out["stack"], list):
            raise ValueError("options['stack'] must be a list of card ids")
        return out

    def deck(self, players: int, options: dict | None = None) -> list[dict]:
        opts = self._options(options)
        return [
            {"id": cid, "colour": col, "number": num, "symbol": sym}
            for cid, (col, num, sym) in load_deck(opts["deck"]).items()
        ]

    # -- setup -------------------------------------------------------------------
    def new_game(self, players: int, seed: int, options: dict | None = None) -> dict:
        self.check_players(players)
        opts = self._options(options)
        deck = self.deck(players, opts)
        s = {
            "game": self.id,
            "players": players,
            "options": opts,
            "rng": rng.seed_state(seed),
        }
        if "stack" in opts:
            order = self.check_stack(opts["stack"], deck)
        else:
            order = [c["id"] for c in deck]
            rng.shuffle(s, order)
        hands: list[list[str]] = [[] for _i in range(players)]
        for k in range(HAND_SIZE * players):
            hands[k % players].append(order[k])
        pile = order[HAND_SIZE * players :]
        s.update(
            {
                "phase": "pick",
                "hands": [sorted(h) for h in hands],
                "pile": pile,
                "missions": [[pile.pop(0), None]],
                "mod": 0,
                "played": [None] * players,
                "collections": [[] for _i in range(players)],
                "out": [False] * players,
                "queue": [],
                "void": [],
                "pending": None,
                "drawn": None,
                "winner": None,
                "turn": 0,
                "time_called": False,
                "log": [],
                "last_turn": None,
                "scores": [0] * players,
            }
        )
        return s

    def copy(self, s: dict) -> dict:
        t = dict(s)  # options is never mutated: shared
        t["hands"] = [list(h) for h in s["hands"]]
        t["pile"] = list(s["pile"])
        t["missions"] = [list(m) for m in s["missions"]]
        t["played"] = list(s["played"])
        t["collections"] = [list(c) for c in s["collections"]]
        t["out"] = list(s["out"])
        t["queue"] = list(s["queue"])
        t["void"] = list(s["void"])
        t["scores"] = list(s["scores"])
        t["log"] = list(s["log"])  # entries are replaced, never mutated
        if s["pending"] is not None:
            t["pending"] = dict(s["pending"])
        return t

    # -- helpers -------------------------------------------------------------------
    def _sym(self, s, cid):
        return symbol_of(s["options"]["deck"], cid)

    def target(self, s: dict) -> int:
        """The current mission number: printed number plus the changes."""
        return card_number(s["missions"][-1][0]) + s["mod"]

    def _tie_draw(self, s: dict, seats: list[int], why: str) -> int:
        contenders = sorted(seats)
        pile = s["pile"]
        rounds = 0
        while len(contenders) > 1:
            if len(pile) < len(contenders) or rounds >= TIE_ROUNDS:
                w = contenders[rng.randrange(s, len(contenders))]
                s["log"].append({"event": "lot", "for": why, "seats": contenders, "winner": w})
                return w
            drawn = [pile.pop(0) for _i in contenders]
            pile.extend(drawn)
            nums = [card_number(c) for c in drawn]
            s["log"].append(
                {
                    "event": "draw",
                    "for": why,
                    "draws": [list(x) for x in zip(contenders, nums, strict=True)],
                }
            )
            best = max(nums)
            contenders = [seat for seat, nb in zip(contenders, nums, strict=True) if nb == best]
            rounds += 1
        return contenders[0]

    # -- turn flow -------------------------------------------------------------------
    def _reveal(self, s: dict) -> None:
        n = s["players"]
        played = s["played"]
        s["log"] = [{"event": "reveal", "target": self.target(s)}]
        sym_seats = [i for i in range(n) if self._sym(s, played[i])]
        queue = []
        if sym_seats:
            top = max(card_number(played[i]) for i in sym_seats)
            tied = [i for i in sym_seats if card_number(played[i]) == top]
            first = tied[0] if len(tied) == 1 else self._tie_draw(s, tied, "symbols")
            queue = [played[(first + k) % n] for k in range(n) if (first + k) % n in sym_seats]
        s["queue"] = queue
        s["phase"] = "symbol"
        self._advance(s)

    def _holder(self, s: dict, cid: str):
        try:
            return s["played"].index(cid)
        except ValueError:
            return None

    def _advance(self, s: dict) -> None:
        n = s["players"]
        while s["queue"]:
            cid = s["queue"][0]
            holder = self._holder(s, cid)
            sym = self._sym(s, cid)
            if holder is None or cid in s["void"] or s["out"][holder]:
                s["queue"].pop(0)
                s["log"].append({"event": "ignored", "symbol": sym, "seat": holder})
                continue
            if sym in ("plusminus", "exchange"):
                if sym == "exchange":
                    if not s["pile"]:
                        s["queue"].pop(0)
                        s["log"].append({"event": "ignored", "symbol": sym, "seat": holder})
                        continue
                    s["drawn"] = s["pile"].pop(0)
                s["pending"] = {"symbol": sym, "seat": holder, "card": cid}
                return
            s["queue"].pop(0)
            s["log"].append({"event": sym, "seat": holder})
            if sym == "pass":
                p = s["played"]
                s["played"] = [p[(i - 1) % n] for i in range(n)]
            elif sym == "mission":
                if s["pile"]:
                    s["pile"].append(s["missions"][-1][0])
                    s["missions"][-1] = [s["pile"].pop(0), None]
                    s["mod"] = 0
                    self._rescore(s)
            elif sym == "even":
                for i in range(n):
                    if not s["out"][i] and card_number(s["played"][i]) % 2 == 0:
                        s["out"][i] = True
                        if s["played"][i] in s["queue"]:
                            s["void"].append(s["played"][i])
        self._decide_winner(s)

    def _decide_winner(self, s: dict) -> None:
        cands = [i for i in range(s["players"]) if not s["out"][i]]
        if not cands:
            s["winner"] = None
            s["log"].append({"event": "no_winner"})
            self._end_turn(s)
            return
        target = self.target(s)
        dist = {i: abs(card_number(s["played"][i]) - target) for i in cands}
        best = min(dist.values())
        tied = [i for i in cands if dist[i] == best]
        w = tied[0] if len(tied) == 1 else self._tie_draw(s, tied, "winner")
        s["winner"] = w
        self._claim_mission(s, w)
        s["log"].append({"event": "winner", "seat": w, "target": target})
        s["pending"] = None
        s["phase"] = "take"

    def _can_swap(self, s: dict, w: int) -> bool:
        """Whether ``_swap_actions`` offers more than ``noswap``."""
        if not s["hands"][w]:
            return False
        hands = s["hands"]
        return bool(s["pile"]) or any(hands[j] for j in range(s["players"]) if j != w)

    def _swap_actions(self, s: dict, w: int) -> list[str]:
        hand = s["hands"][w]
        out = []
        if hand:
            if s["pile"]:
                out.extend(f"swap_pile:{c}" for c in hand)
            others = [j for j in range(s["players"]) if j != w and s["hands"][j]]
            out.extend(f"swap_give:{c}:{j}" for c in hand for j in others)
        out.append("noswap")
        return out

    def _end_turn(self, s: dict) -> None:
        n = s["players"]
        for i in range(n):
            s["collections"][i].append(s["played"][i])
        s["last_turn"] = {
            "plays": list(s["played"]),
            "winner": s["winner"],
            "mission": s["missions"][-1][0],
            "target": self.target(s),
        }
        s["played"] = [None] * n
        s["out"] = [False] * n
        s["mod"] = 0
        s["queue"] = []
        s["void"] = []
        s["pending"] = None
        s["winner"] = None
        s["turn"] += 1
        if s["time_called"] or not any(s["hands"]) or not s["pile"]:
            s["phase"] = "over"
        else:
            s["missions"].append([s["pile"].pop(0), None])
            s["phase"] = "pick"
        self._rescore(s)

    # -- play -------------------------------------------------------------------------
    def to_act(self, s: dict) -> list[int]:
        ph = s["phase"]
        if ph == "pick":
            return [i for i, c in enumerate(s["played"]) if c is None]
        if ph == "symbol":
            return [s["pending"]["seat"]]
        if ph in ("take", "swap"):
            return [s["winner"]]
        return []

    def legal_actions(self, s: dict, seat: int) -> list[str]:
        ph = s["phase"]
        if ph == "pick":
            if _seat_index(s, seat) is None or s["played"][seat] is not None:
                return []
            return ["play:" + c for c in s["hands"][seat]]
        if seat not in self.to_act(s):
            return []
        if ph == "symbol":
            if s["pending"]["symbol"] == "plusminus":
                return ["plus3", "minus3"]
            return [f"give:{j}" for j in range(s["players"]) if j != seat]
        if ph == "take":
            return [f"take:{j}" for j in range(s["players"]) if j != seat] + ["keep"]
        return self._swap_actions(s, seat)

    def apply(self, s: dict, seat: int, action: str) -> dict:
        """As ``Engine.apply``. Two frequent steps change little, so only what
        they change is copied (the new state shares the rest with ``s``; no
        list is ever changed in place but on a full ``copy``): a pick that is
        not the turn's last (the seat's hand and ``played``), and the
        winner's take or keep when a swap follows (``played``, ``log``)."""
        phase = s["phase"]
        played = s["played"]
        if phase == "pick" and played.count(None) > 1 and self.is_legal(s, seat, action):
            t = dict(s)
            hands = t["hands"] = list(s["hands"])
            hand = hands[seat] = list(hands[seat])
            cid = action[5:]
            hand.remove(cid)
            played = t["played"] = list(played)
            played[seat] = cid
            return t
        if phase == "take" and self._can_swap(s, seat) and self.is_legal(s, seat, action):
            t = dict(s)
            j = None
            if action != "keep":
                j = int(action[5:])
                played = t["played"] = list(played)
                played[seat], played[j] = played[j], played[seat]
            t["log"] = [*s["log"], {"event": "take", "seat": seat, "from": j}]
            t["phase"] = "swap"
            return t
        return super().apply(s, seat, action)

    def is_legal(self, s: dict, seat: int, action) -> bool:
        ph = s["phase"]
        if not isinstance(action, str):
            return False
        if ph == "pick":  # the hot case: a card picked face down
            return (
                action[:5] == "play:"
                and _seat_index(s, seat) is not None
                and s["played"][seat] is None
                and action[5:] in s["hands"][seat]
            )
        if ph == "swap":  # decided as _swap_actions lists it
            if seat != s["winner"]:
                return False
            if action == "noswap":
                return True
            hand = s["hands"][seat]
            if action[:10] == "swap_pile:":
                return bool(s["pile"]) and action[10:] in hand
            if action[:10] == "swap_give:":
                cid, _sep, j = action[10:].rpartition(":")
                if not (j.isascii() and j.isdigit() and str(int(j)) == j and cid in hand):
                    return False
                j = int(j)
                return j != seat and j < s["players"] and bool(s["hands"][j])
            return False
        return action in self.legal_actions(s, seat)

    def _apply(self, s: dict, seat: int, action: str) -> None:
        ph = s["phase"]
        if ph == "pick":
            cid = action[5:]
            s["hands"][seat].remove(cid)
            s["played"][seat] = cid
            if all(c is not None for c in s["played"]):
                self._reveal(s)
        elif ph == "symbol":
            pend = s["pending"]
            s["queue"].pop(0)
            s["pending"] = None
            if pend["symbol"] == "plusminus":
                s["mod"] += 3 if action == "plus3" else -3
                s["log"].append({"event": action, "seat": seat})
            else:
                j = int(action[5:])
                old = s["played"][j]
                s["pile"].append(old)
                if old in s["queue"]:
                    s["queue"].remove(old)
                s["played"][j] = s["drawn"]
                s["drawn"] = None
                s["log"].append({"event": "exchange", "seat": seat, "to": j})
            self._advance(s)
        elif ph == "take":
            if action != "keep":
                j = int(action[5:])
                p = s["played"]
                p[seat], p[j] = p[j], p[seat]
            s["log"].append(
                {"event": "take", "seat": seat, "from": None if action == "keep" else j}
            )
            s["phase"] = "swap"
            if not self._can_swap(s, seat):
                self._end_turn(s)
        else:
            hand = s["hands"][seat]
            if action.startswith("swap_pile:"):
                cid = action[10:]
                hand.remove(cid)
                s["pile"].append(cid)
                hand.append(s["pile"].pop(0))
                hand.sort()
                s["log"].append({"event": "swap_pile", "seat": seat})
            elif action.startswith("swap_give:"):
                _x, cid, j = action.split(":")
                j = int(j)
                other = s["hands"][j]
                taken = other.pop(rng.randrange(s, len(other)))
                other.append(cid)
                other.sort()
                hand.remove(cid)
                hand.append(taken)
                hand.sort()
                s["log"].append({"event": "swap_give", "seat": seat, "to": j})
            self._end_turn(s)

    def explain_illegal(self, s: dict, seat: int, action: str) -> str:
        ph = s["phase"]
        if not isinstance(action, str):
            return "an action must be a string"
        if ph == "pick":
            if action.startswith("play:"):
                return f"that card ({action[5:]}) is not in your hand"
            return "pick a hand card to play face down: play:<card>"
        if ph == "symbol":
            if s["pending"]["symbol"] == "plusminus":
                return "carry out plus/minus 3: choose plus3 or minus3"
            if action.startswith("give:"):
                return "give the drawn card to another player (not yourself): give:<seat>"
            return "carry out the exchange: give the drawn card with give:<seat>"
        if ph == "take":
            if action.startswith("take:"):
                return "you can only take the played card of another player: take:<seat>"
            return "as the winner choose take:<seat> or keep"
        if ph == "swap":
            if action.startswith("swap_pile:"):
                if not s["pile"]:
                    return "the draw pile is empty: you cannot swap with it"
                return "that card is not in your hand"
            if action.startswith("swap_give:"):
                return (
                    "swap_give:<card>:<seat> needs a card of your hand and another "
                    "player who still holds hand cards"
                )
            return "swap one hand card (swap_pile:<card>, swap_give:<card>:<seat>) or noswap"
        return f"{action!r} is not a legal action now"

    # -- views ---------------------------------------------------------------------------
    def view(self, s: dict, seat: int | None) -> dict:
        n = s["players"]
        ph = s["phase"]
        if ph == "pick":
            played = [s["played"][i] if i == seat else None for i in range(n)]
        else:
            played = list(s["played"])
        pend = s["pending"]
        return {
            "game": self.id,
            "deck": s["options"]["deck"],
            "phase": ph,
            "to_act": self.to_act(s),
            "seat": seat,
            "players": n,
            "turn": s["turn"],
            "hand": list(s["hands"][seat]) if seat is not None else [],
            "hand_sizes": [len(h) for h in s["hands"]],
            "pile_size": len(s["pile"]),
            "missions": [list(m) for m in s["missions"]],
            "mission_card": s["missions"][-1][0] if s["missions"] else None,
            "mission_number": self.target(s) if s["missions"] and ph != "over" else None,
            "modifier": s["mod"],
            "picked": [c is not None for c in s["played"]],
            "played": played,
            "out": list(s["out"]),
            "pending": dict(pend) if pend else None,
            "drawn": s["drawn"],
            "winner": s["winner"],
            "collections": [list(c) for c in s["collections"]],
            "scores": list(s["scores"]),
            "log": [dict(e) for e in s["log"]],
            "last_turn": s["last_turn"],
            "time_called": s["time_called"],
        }

    def public_action(self, s: dict, seat: int, action: str) -> dict:
        """See ``Engine.public_action`` and the module docstring: picks are
        face down until the last one turns every played card up; the
        winner's swaps show no card."""
        kind, _sep, arg = action.partition(":")
        if s["phase"] == "pick" and kind == "play":
            last = s["played"].count(None) == 1 and s["played"][seat] is None
            if last:  # all cards are turned up at once: this one too
                return {"kind": "pick", "card": arg, "reveal": True}
            return {"kind": "pick", "card": None, "reveal": False}
        if action in ("plus3", "minus3", "keep", "noswap"):
            return {"kind": action}
        if kind == "give":  # the drawn card was shown to all; it lies face up now
            return {"kind": "give", "target": int(arg), "card": s["drawn"]}
        if kind == "take":
            return {"kind": "take", "target": int(arg)}
        if kind == "swap_pile":
            return {"kind": "swap_pile", "card": None}
        if kind == "swap_give":
            return {"kind": "swap_give", "target": int(arg.rpartition(":")[2]), "card": None}
        return super().public_action(s, seat, action)

    def zones(self, s: dict) -> dict[str, list[str]]:
        z = {f"hand:{i}": list(h) for i, h in enumerate(s["hands"])}
        z["stock"] = list(s["pile"])
        for i, c in enumerate(s["played"]):
            z[f"played:{i}"] = [c] if c is not None else []
        for i, c in enumerate(s["collections"]):
            z[f"collection:{i}"] = list(c)
        z["missions"] = [m[0] for m in s["missions"]]
        z["drawn"] = [s["drawn"]] if s["drawn"] else []
        return z

    def hidden(self, s: dict, seat: int | None) -> set[str]:
        out = set(s["pile"])
        for i, h in enumerate(s["hands"]):
            if i != seat:
                out.update(h)
        if s["phase"] == "pick":
            out.update(c for i, c in enumerate(s["played"]) if c is not None and i != seat)
        return out

    # -- result ------------------------------------------------------------------------------
    def _claim_mission(self, s: dict, w: int) -> None:
        """The turn's winner owns the (so far unowned) mission card. Only his
        score can change: cards of its number in his collection were void
        (the number of a mission card not his) unless he already owned a
        mission card of that number; now they count."""
        missions = s["missions"]
        number = card_number(missions[-1][0])
        missions[-1][1] = w
        if any(o == w and card_number(m) == number for m, o in missions[:-1]):
            return
        held = sum(1 for c in s["collections"][w] if card_number(c) == number)
        if held:
            scores = s["scores"] = list(s["scores"])
            scores[w] += number * held

    def _rescore(self, s: dict) -> None:
        """Keep ``s["scores"]`` (the live totals) up to date; called whenever the
        collections or the mission cards change."""
        s["scores"] = score_totals(s["collections"], s["missions"])

    def _score(self, s: dict, seat: int) -> dict:
        return score_collection(s["collections"][seat], s["missions"], seat)

    def result(self, s: dict) -> TableResult:
        n = s["players"]
        scores = [self._score(s, i) for i in range(n)]
        totals = [sc["total"] for sc in scores]
        keys = [[t] for t in totals]
        return TableResult(
            ranks=rank_by(keys),
            figures=totals,
            details={
                "rank_keys": keys,
                "sums": [sc["sum"] for sc in scores],
                "bonuses": [sc["bonus"] for sc in scores],
                "void": [sc["void"] for sc in scores],
                "cards": [len(c) for c in s["collections"]],
                "turns": s["turn"],
            },
        )

    # -- time ---------------------------------------------------------------------------------
    def call_time(self, s: dict) -> dict:
        s = self.copy(s)
        if s["phase"] == "over":
            return s
        if s["phase"] == "pick" and all(c is None for c in s["played"]):
            s["pile"].append(s["missions"].pop()[0])
            s["phase"] = "over"
            self._rescore(s)
            return s
        s["time_called"] = True
        return s
