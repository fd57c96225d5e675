"""Trumpet: a trick-taking race to the Great Hall.

Rules summary (the binding rules: ``games/trumpet/RULES.md``)
---------------------------------------------------------------
2-6 players. 69 cards: 6 colours (red, yellow, green, blue, violet, orange)
with values 1-11, and 3 Mega-Trumps. Every figure starts on the start field 0;
the track has fields 1-30, the Great Hall lies after field 30. Crest fields:
3, 7, 11, 15, 19, 23, 27; the "final six" are fields 25-30.

- Trump scale: six slots, slot 1 (lowest) .. slot 5 and the crest slot
  (highest, index 5 here); one chip per colour. At the start no colour is trump.
- Deal: 7 cards each, the rest is the stock (unused). When every hand is
  empty, the deal passes to the next seat, ALL cards are collected and
  reshuffled, and 7 cards each are dealt again. The player after the dealer
  leads the first trick of a deal; a trick's winner leads the next.
- Follow the led colour if able. A Mega-Trump may always be played; when a
  Mega-Trump is led, the first coloured card after it sets the colour to
  follow. A player who can't follow plays any card.
- Trick winner: any Mega-Trump played -> the LAST one played wins. Otherwise,
  if a card of a colour on the trump scale was played, the card of the
  highest-placed trump colour wins (highest value within that colour).
  Otherwise the highest card of the led colour.
- The winner moves his figure to the next unoccupied field ahead (one figure
  per track field; occupied fields are skipped; the start holds any number).
  Moving past the last track field enters the Great Hall and wins at once.
- Final six: a winner whose figure stands on a final field may instead move
  any figure on a final field (his own included) back to the nearest
  unoccupied field behind it (the start if none is free).
- Crest field: a figure that lands on a crest field moving forward lets its
  owner lay an unused chip on the lowest free slot, or - when all slots are
  full - swap two chips; the owner may also skip ("darf"). A figure moved back
  onto a crest field: the player who moved it MUST make that choice ("muß"):
  no skip. A player with no cards in hand may make the choice after the next
  deal (a compulsory choice stays compulsory).
- Penalty (not following colour) exists only on paper: digital tables enforce
  following, so the engine never applies it; a paper sheet simply records the
  final fields, which already include any penalty moves.
- Time called: the trick in progress is finished, then the game ends; rank by
  board position, the Great Hall first, then the furthest field.

Actions
-------
- ``play:<card id>`` - play a card (phase "play").
- ``advance`` / ``back:<seat>`` - the trick winner standing on a final field
  decides: move his own figure forward, or move the figure of ``<seat>`` (on
  a final field) back (phase "move").
- ``chip:<colour>`` - lay that unused chip on the lowest free slot;
  ``swap:<colour>:<colour>`` - when all slots are full, the two chips change
  places; ``skip`` - make no trump change, only after a forward move (after a
  back move the choice is compulsory); ``later`` - only with an empty hand:
  make the choice after the next deal (phase "choose").

View keys: "phase" (play | move | choose | over), "to_act", "seat", "hand",
"hand_sizes", "scores" (each figure's field), "board", "scale" (slot 1 first,
crest slot last; None = free), "trick" ([[seat, card id], ...] so far),
"last_trick" ({"plays", "winner"}; None after a new deal, as its cards are back
in hands and stock), "dealer", "leader", "pending_choice" (seat with a
deferred crest choice), "choice_compulsory" (the crest choice open now, or
deferred, came from a back move: no ``skip``), "winner" (seat in the Great
Hall).

Zones: "hand:<seat>", "stock" (undealt, face down; derived, not stored),
"pile" (this deal's finished tricks, face up), "table" (the trick in play).

Card ids: ``TP-<colour>-<value>`` (e.g. ``TP-red-7``) and ``TP-mega-<n>``.

Figures: the figure of a seat is its field; the Great Hall counts as
``track + 1`` (31 on the standard board). ``rank_keys = [[field], ...]``.

Rulings (added)
---------------
- Ruling (added): the first dealer is the last seat (n-1), so seat 0 leads the
  first trick; the deal then passes to seat 0, 1, ... in play order. Cards are
  always dealt one at a time starting with seat 0 (as options["stack"] does).
- Ruling (added): the final-six back move may target any figure on a final
  field, the winner's own included, as the original rules say "any figure". When only
  the winner himself could be moved back (no choice worth offering) the choice
  is still offered: it is the player's decision.
- Ruling (added): a figure moved back with no free field behind it goes to the
  start field 0. Moving back onto the start never triggers anything.
- Ruling (added): ``later`` (defer the crest choice) is offered only while the
  chooser's hand is empty, i.e. after the last trick of a deal. The deferred
  choice is made right after the next deal, before the first lead.
- Ruling (added): a swap needs two chips on the scale, so it is offered only
  when all slots are full; otherwise only unused chips can be laid.
- Ruling (added): when time is called, the trick in progress is finished
  including the winner's move (forward, Great Hall, or final-six back move);
  a crest choice still open at that moment is dropped (it can't change the
  ranking). With no trick in progress the game ends at once.
- Ruling (added): the stock is never drawn from; it only holds the cards not
  dealt. Tricks go face up to the public "pile".

Public actions (``public_action``; what everyone sees of a move, for the
public replay): ``{"kind": "play", "card": id, "dealt_anew": False}``
(face up); the play that ends a deal when the next deal follows at once
names no card (``card`` None, ``dealt_anew`` True: its card is already back
in a new hand or the stock when the step is shown). ``advance``, ``back`` (``target``), ``chip`` (``colour``),
``swap`` (``colours``), ``skip`` and ``later`` are public.

Data files
----------
Deck file ``decks/<name>.json`` (options["deck"], default "standard")::

    {"name": "standard", "label": "...",
     "colours": ["red", ...],          # distinct lowercase names [a-z]+
     "values": [1, 2, ..., 11],        # distinct positive ints
     "mega_trumps": 3}                 # int >= 0

Board file ``boards/<name>.json`` (options["board"], default "standard"; the
option may also be such a dict itself)::

    {"name": "standard", "label": "...",
     "track": 30,                      # last track field (>= 1); Hall = track+1
     "crest_fields": [3, 7, ...],      # distinct fields within 1..track
     "final_fields": [25, ..., 30]}    # distinct fields within 1..track

The trump scale has one slot per colour. A bad file or option raises
``DeckError`` (a ``ValueError``) with the reason.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from itertools import combinations
from pathlib import Path

from games import rng
from games.base import DeckError, Engine, IllegalAction, TableResult, rank_by
from games.i18n import _

HERE = Path(__file__).parent
HAND_SIZE = 7
_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


# -- data files ---------------------------------------------------------------
def _read_json(kind: str, name) -> dict:
    if not isinstance(name, str) or not _NAME.match(name):
        raise DeckError(f"{kind} name must be a simple lowercase name, not {name!r}")
    path = HERE / f"{kind}s" / f"{name}.json"
    if not path.exists():
        known = ", ".join(available(kind))
        raise DeckError(f"unknown {kind} {name!r}; known: {known}")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise DeckError(f"{kind} file {path.name} is not valid JSON: {exc}") from None


def available(kind: str) -> list[str]:
    return sorted(p.stem for p in (HERE / f"{kind}s").glob("*.json"))


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def validate_deck(data) -> dict:
    """Check a deck dict (format in the module docstring); returns a clean copy."""
    if not isinstance(data, dict):
        raise DeckError("a deck must be a JSON object")
    colours = data.get("colours")
    if (
        not isinstance(colours, list)
        or not colours
        or not all(isinstance(c, str) and re.match(r"^[a-z]+$", c) for c in colours)
        or len(set(colours)) != len(colours)
        or "mega" in colours
    ):
        raise DeckError("deck 'colours' must be a non-empty list of distinct lowercase names")
    values = data.get("values")
    if (
        not isinstance(values, list)
        or not values
        or not all(_is_int(v) and v > 0 for v in values)
        or len(set(values)) != len(values)
    ):
        raise DeckError("deck 'values' must be a non-empty list of distinct positive integers")
    megas = data.get("mega_trumps", 0)
    if not _is_int(megas) or megas < 0:
        raise DeckError("deck 'mega_trumps' must be an integer >= 0")
    return {
        "name": str(data.get("name", "")),
        "colours": list(colours),
        "values": sorted(values),
        "mega_trumps": megas,
    }


def validate_board(data) -> dict:
    """Check a board dict (format in the module docstring); returns a clean copy."""
    if not isinstance(data, dict):
        raise DeckError("a board must be a JSON object")
    track = data.get("track")
    if not _is_int(track) or not (1 <= track <= 500):
        raise DeckError("board 'track' must be the last track field, an integer 1..500")
    out = {"name": str(data.get("name", "custom")), "track": track}
    for key in ("crest_fields", "final_fields"):
        fields = data.get(key, [])
        if (
            not isinstance(fields, list)
            or not all(_is_int(f) and 1 <= f <= track for f in fields)
            or len(set(fields)) != len(fields)
        ):
            raise DeckError(f"board {key!r} must list distinct track fields within 1..{track}")
        out[key] = sorted(fields)
    return out


@lru_cache(maxsize=32)
def _deck_file(name: str) -> tuple:
    d = validate_deck(_read_json("deck", name))
    return (tuple(d["colours"]), tuple(d["values"]), d["mega_trumps"])


def load_deck(name: str = "standard") -> dict:
    colours, values, megas = _deck_file(name)
    return {"name": name, "colours": list(colours), "values": list(values), "mega_trumps": megas}


def load_board(option="standard") -> dict:
    """The board for options["board"]: a board file name or a board dict."""
    if isinstance(option, dict):
        return validate_board(option)
    return validate_board(_read_json("board", option))


def cards_of(deck: dict) -> list[dict]:
    out = [
        {"id": f"TP-{c}-{v}", "colour": c, "value": v, "mega": False}
        for c in deck["colours"]
        for v in deck["values"]
    ]
    out += [
        {"id": f"TP-mega-{i}", "colour": None, "value": None, "mega": True}
        for i in range(1, deck["mega_trumps"] + 1)
    ]
    return out


@lru_cache(maxsize=4096)
def card_info(cid: str) -> tuple:
    """(colour or None for a Mega-Trump, value) from a card id."""
    _tp, colour, value = cid.split("-")
    if colour == "mega":
        return (None, 0)
    return (colour, int(value))


class _ColourOf(dict):
    """card id -> colour (None for a Mega-Trump), filled on first look-up."""

    def __missing__(self, cid: str) -> str | None:
        colour = self[cid] = card_info(cid)[0]
        return colour


COLOUR_OF = _ColourOf()


def led_colour(trick: list) -> str | None:
    """The colour to follow: that of the first coloured card in the trick."""
    colour_of = COLOUR_OF
    for _seat, cid in trick:
        colour = colour_of[cid]
        if colour is not None:
            return colour
    return None


def trick_winner(trick: list, scale: list) -> int:
    """The seat winning ``trick`` ([[seat, card id], ...]) under ``scale``."""
    megas = [seat for seat, cid in trick if card_info(cid)[0] is None]
    if megas:
        return megas[-1]
    rank = {c: i for i, c in enumerate(scale) if c is not None}
    best = None
    best_key = None
    led = led_colour(trick)
    for seat, cid in trick:
        colour, value = card_info(cid)
        if colour in rank:
            key = (2, rank[colour], value)
        elif colour == led:
            key = (1, 0, value)
        else:
            key = (0, 0, 0)
        if best_key is None or key > best_key:
            best, best_key = seat, key
    return best


class Trumpet(Engine):
    id = "trumpet"
    name = "Trumpet"
    min_players = 2
    max_players = 6
    time_called_text = _(
        "Finish the trick in progress (the winner still moves his figure), then stop. "
        "Write down each figure's field; tick 'Reached the Great Hall' for a figure that reached it."
    )
    figure_label = _("field")

    # -- options ---------------------------------------------------------------
    def options_schema(self) -> list[dict]:
        from games.sheets import field

        return [
            field(
                "board",
                _("Board"),
                "choice",
                choices=[[b, b] for b in available("board")],
                required=False,
            ),
            field(
                "deck",
                _("Deck"),
                "choice",
                choices=[[d, d] for d in available("deck")],
                required=False,
            ),
        ]

    def default_options(self) -> dict:
        return {"deck": "standard", "board": "standard"}

    def _options(self, options) -> dict:
        return self.check_options(options)

    def deck(self, players: int, options: dict | None = None) -> list[dict]:
        options = self._options(options)
        return cards_of(load_deck(options.get("deck", "standard")))

    # -- setup -------------------------------------------------------------------
    def new_game(self, players: int, seed: int, options: dict | None = None) -> dict:
        self.check_players(players)
        options = self._options(options)
        deck = load_deck(options.get("deck", "standard"))
        board = load_board(options.get("board", "standard"))
        cards = cards_of(deck)
        if len(cards) < HAND_SIZE * players:
            raise DeckError(
                f"the deck has {len(cards)} cards, {HAND_SIZE * players} are needed "
                f"for {players} players"
            )
        stack = None
        if "stack" in options:
            if not isinstance(options["stack"], list) or not all(
                isinstance(c, str) for c in options["stack"]
            ):
                raise ValueError("options['stack'] must be a list of card ids")
            stack = self.check_stack(options["stack"], cards)
        s = {
            "game": self.id,
            "players": players,
            "options": json.loads(json.dumps(options)),
            "rng": rng.seed_state(seed),
            "phase": "play",
            "board": board,
            "hands": [[] for _ in range(players)],
            "pile": [],
            "trick": [],
            "pos": [0] * players,
            "scale": [None] * len(deck["colours"]),
            "dealer": players - 1,
            "leader": 0,
            "turn": 0,
            "chooser": None,
            "pending": None,
            "compulsory": False,
            "deal": 0,
            "last_trick": None,
            "winner": None,
            "time_called": False,
        }
        self._deal(s, stack)
        return s

    def _deal(self, s: dict, stack: list | None = None) -> None:
        """Collect every card, shuffle (or use ``stack``) and deal 7 each."""
        n = s["players"]
        if stack is None:
            cards = list(_deck_ids(s["options"].get("deck", "standard")))
            rng.shuffle(s, cards)
        else:
            cards = list(stack)
        hands = [[] for _ in range(n)]
        for i in range(HAND_SIZE * n):
            hands[i % n].append(cards[i])
        s["hands"] = hands
        # the stock (cards[7n:]) is never used, so it is not stored: zones()
        # derives it as the cards in no other place
        s["pile"] = []
        # the last trick's cards are back in hands and stock: no longer shown
        s["last_trick"] = None
        s["deal"] += 1
        s["leader"] = s["turn"] = (s["dealer"] + 1) % n

    # -- copy --------------------------------------------------------------------
    def copy(self, s: dict) -> dict:
        c = dict(s)
        c["hands"] = [list(h) for h in s["hands"]]
        c["pile"] = list(s["pile"])
        c["trick"] = list(s["trick"])  # its [seat, card] pairs are never changed
        c["pos"] = list(s["pos"])
        c["scale"] = list(s["scale"])
        # board, options and last_trick are never mutated in place
        return c

    # -- queries -----------------------------------------------------------------
    def to_act(self, s: dict) -> list[int]:
        phase = s["phase"]
        if phase == "over":
            return []
        if phase == "play":
            return [s["turn"]]
        return [s["chooser"]]

    def _playable(self, s: dict, seat: int) -> list[str]:
        """The hand, or - when it holds the led colour - the cards of that
        colour and the Mega-Trumps."""
        hand = s["hands"][seat]
        led = led_colour(s["trick"])
        if led is None:
            return list(hand)
        colours = [COLOUR_OF[c] for c in hand]
        if led not in colours:
            return list(hand)
        return [c for c, k in zip(hand, colours, strict=True) if k is None or k == led]

    def _free_colours(self, s: dict) -> list[str]:
        used = set(s["scale"])
        return [c for c in _colours(s) if c not in used]

    def _choice_actions(self, s: dict, seat: int) -> list[str]:
        if None in s["scale"]:
            out = [f"chip:{c}" for c in self._free_colours(s)]
        else:
            out = [f"swap:{a}:{b}" for a, b in combinations(_colours(s), 2)]
        if not out or not s.get("compulsory"):
            # a back move onto a crest field obliges a change; only a deck of
            # one colour with its chip laid leaves nothing to change
            out.append("skip")
        if not s["hands"][seat] and s["pending"] is None:
            out.append("later")
        return out

    def _final_seats(self, s: dict) -> list[int]:
        final = s["board"]["final_fields"]
        return [j for j, p in enumerate(s["pos"]) if p in final]

    def legal_actions(self, s: dict, seat: int) -> list[str]:
        if seat not in self.to_act(s):
            return []
        phase = s["phase"]
        if phase == "play":
            return ["play:" + c for c in self._playable(s, seat)]
        if phase == "move":
            return ["advance"] + [f"back:{j}" for j in self._final_seats(s)]
        return self._choice_actions(s, seat)

    def apply(self, s: dict, seat: int, action: str) -> dict:
        """As ``Engine.apply``; a card play that doesn't complete the trick
        changes only the seat's hand, the trick and the turn, so only those
        are copied (the new state shares the rest with ``s``; lists are
        changed in place only on a full ``copy``)."""
        if (
            s["phase"] == "play"
            and len(s["trick"]) < s["players"] - 1
            and self.is_legal(s, seat, action)
        ):
            t = dict(s)
            hands = t["hands"] = list(s["hands"])
            hand = hands[seat] = list(hands[seat])
            cid = action[5:]
            hand.remove(cid)
            t["trick"] = [*s["trick"], [seat, cid]]
            t["turn"] = (seat + 1) % s["players"]
            return t
        return super().apply(s, seat, action)

    def is_legal(self, s: dict, seat: int, action) -> bool:
        if s["phase"] != "play":
            return action in self.legal_actions(s, seat)
        # the hot case, a card play: in hand, and following the led colour
        # when the hand holds it (Mega-Trumps always), as _playable says
        if seat != s["turn"] or not isinstance(action, str) or action[:5] != "play:":
            return False
        hand = s["hands"][seat]
        cid = action[5:]
        if cid not in hand:
            return False
        led = led_colour(s["trick"])
        if led is None:
            return True
        colour_of = COLOUR_OF
        colour = colour_of[cid]
        return colour is None or colour == led or all(colour_of[c] != led for c in hand)

    def explain_illegal(self, s: dict, seat: int, action: str) -> str:
        if s["phase"] == "over":
            return "the game is over"
        if seat not in self.to_act(s):
            return f"seat {seat} is not to act now"
        phase = s["phase"]
        if not isinstance(action, str):
            return "an action must be a string"
        if phase == "play":
            if not action.startswith("play:"):
                return "play a card now (play:<card id>)"
            cid = action[5:]
            if cid not in s["hands"][seat]:
                return f"card {cid!r} is not in your hand"
            led = led_colour(s["trick"])
            return f"you must follow {led}: you hold {led} cards"
        if phase == "move":
            if action.startswith("back:"):
                return (
                    "only a figure on the final fields "
                    f"{s['board']['final_fields']} can be moved back"
                )
            return "you won the trick: choose 'advance' or 'back:<seat>'"
        if action.startswith("chip:"):
            if None not in s["scale"]:
                if s.get("compulsory"):
                    return "the trump scale is full: swap two chips"
                return "the trump scale is full: swap two chips or skip"
            return f"{action[5:]!r} is not an unused chip"
        if action.startswith("swap:"):
            if None in s["scale"]:
                return "chips can be swapped only when all slots of the trump scale are full"
            return "swap two different colours: swap:<colour>:<colour>"
        if action == "later":
            return "you may wait for the next deal only while your hand is empty"
        if action == "skip" and s.get("compulsory"):
            return (
                "a figure moved back onto a crest field: the choice is compulsory, "
                "lay a chip or swap two chips"
            )
        if s.get("compulsory"):
            return "choose a trump chip (chip:<colour>) or swap:<colour>:<colour>"
        return "choose a trump chip (chip:<colour>), swap:<colour>:<colour>, or skip"

    # -- play --------------------------------------------------------------------
    def _apply(self, s: dict, seat: int, action: str) -> None:
        phase = s["phase"]
        if phase == "play":
            cid = action[5:]
            s["hands"][seat].remove(cid)
            s["trick"].append([seat, cid])
            n = s["players"]
            if len(s["trick"]) < n:
                s["turn"] = (seat + 1) % n
                return
            self._end_trick(s)
        elif phase == "move":
            if action == "advance":
                self._advance(s, seat)
            else:
                self._back(s, seat, int(action[5:]))
        else:
            self._choose(s, seat, action)

    def _end_trick(self, s: dict) -> None:
        trick = s["trick"]
        winner = trick_winner(trick, s["scale"])
        s["last_trick"] = {"plays": trick, "winner": winner}
        s["pile"].extend(cid for _seat, cid in trick)
        s["trick"] = []
        s["leader"] = s["turn"] = winner
        if s["pos"][winner] in s["board"]["final_fields"]:
            s["phase"] = "move"
            s["chooser"] = winner
        else:
            self._advance(s, winner)

    def _occupied(self, s: dict, field: int, seat: int) -> bool:
        return any(p == field for j, p in enumerate(s["pos"]) if j != seat)

    def _advance(self, s: dict, seat: int) -> None:
        track = s["board"]["track"]
        p = s["pos"][seat] + 1
        while p <= track and self._occupied(s, p, seat):
            p += 1
        s["pos"][seat] = p
        if p > track:
            s["pos"][seat] = track + 1
            s["winner"] = seat
            self._end(s)
            return
        self._landed(s, seat, p)

    def _back(self, s: dict, mover: int, target: int) -> None:
        p = s["pos"][target] - 1
        while p > 0 and self._occupied(s, p, target):
            p -= 1
        p = max(p, 0)
        s["pos"][target] = p
        self._landed(s, mover, p, compulsory=True)

    def _landed(self, s: dict, chooser: int, field: int, compulsory: bool = False) -> None:
        if field in s["board"]["crest_fields"] and not s["time_called"]:
            s["phase"] = "choose"
            s["chooser"] = chooser
            s["compulsory"] = compulsory
        else:
            self._next(s)

    def _choose(self, s: dict, seat: int, action: str) -> None:
        if action == "later":
            s["pending"] = seat  # "compulsory" stays as it is for the deferred choice
        else:
            s["compulsory"] = False
            if action.startswith("chip:"):
                s["scale"][s["scale"].index(None)] = action[5:]
            elif action.startswith("swap:"):
                _w, a, b = action.split(":")
                scale = s["scale"]
                i, j = scale.index(a), scale.index(b)
                scale[i], scale[j] = b, a
            if s["pending"] == seat and s["hands"][seat]:
                # the deferred choice, made after the new deal
                s["pending"] = None
                s["phase"] = "play"
                s["chooser"] = None
                s["turn"] = s["leader"]
                return
        self._next(s)

    def _next(self, s: dict) -> None:
        """After a trick and its consequences: next trick, or a new deal."""
        s["chooser"] = None
        if s["time_called"]:
            self._end(s)
            return
        if any(s["hands"]):
            s["phase"] = "play"
            s["turn"] = s["leader"]
            return
        s["dealer"] = (s["dealer"] + 1) % s["players"]
        self._deal(s)
        if s["pending"] is not None:
            s["phase"] = "choose"
            s["chooser"] = s["pending"]
        else:
            s["phase"] = "play"

    def _end(self, s: dict) -> None:
        s["phase"] = "over"
        s["chooser"] = None

    # -- time ----------------------------------------------------------------------
    def call_time(self, s: dict) -> dict:
        if s["phase"] == "over":
            return s
        s = self.copy(s)
        s["time_called"] = True
        if s["phase"] == "choose" or (s["phase"] == "play" and not s["trick"]):
            self._end(s)
        return s

    # -- views ---------------------------------------------------------------------
    def view(self, s: dict, seat: int | None) -> dict:
        """What ``seat`` sees: own hand, the public board, scale and trick.
        "scores" are the figures' fields (the Hall is ``track + 1``)."""
        return {
            "phase": s["phase"],
            "to_act": self.to_act(s),
            "seat": seat,
            "hand": list(s["hands"][seat]) if seat is not None else [],
            "hand_sizes": [len(h) for h in s["hands"]],
            "scores": list(s["pos"]),
            "board": s["board"],
            "scale": list(s["scale"]),
            "trick": [list(p) for p in s["trick"]],
            "last_trick": s["last_trick"],
            "dealer": s["dealer"],
            "leader": s["leader"],
            "pending_choice": s["pending"],
            "choice_compulsory": bool(s.get("compulsory")),
            "winner": s["winner"],
        }

    def public_action(self, s: dict, seat: int, action: str) -> dict:
        """See ``Engine.public_action`` and the module docstring."""
        kind, _sep, arg = action.partition(":")
        if kind == "play":
            # a new deal takes every card back (the view's last_trick is None)
            dealt_anew = self.apply(s, seat, action)["deal"] != s["deal"]
            return {"kind": "play", "card": None if dealt_anew else arg, "dealt_anew": dealt_anew}
        if action in ("advance", "skip", "later"):
            return {"kind": action}
        if kind == "back":
            return {"kind": "back", "target": int(arg)}
        if kind == "chip":
            return {"kind": "chip", "colour": arg}
        if kind == "swap":
            return {"kind": "swap", "colours": arg.split(":")}
        return super().public_action(s, seat, action)

    def hidden(self, s: dict, seat: int | None) -> set[str]:
        placed = set(s["pile"]).union(*s["hands"])
        placed.update(cid for _seat, cid in s["trick"])
        out = {c for c in _deck_ids(s["options"].get("deck", "standard")) if c not in placed}
        for j, h in enumerate(s["hands"]):
            if j != seat:
                out.update(h)
        return out

    def zones(self, s: dict) -> dict[str, list[str]]:
        z = {f"hand:{j}": list(h) for j, h in enumerate(s["hands"])}
        z["pile"] = list(s["pile"])
        z["table"] = [cid for _seat, cid in s["trick"]]
        placed = set(z["pile"]).union(z["table"], *s["hands"])
        z["stock"] = [c for c in _deck_ids(s["options"].get("deck", "standard")) if c not in placed]
        return z

    # -- result --------------------------------------------------------------------
    def result(self, s: dict) -> TableResult:
        figures = list(s["pos"])
        keys = [[f] for f in figures]
        return TableResult(
            ranks=rank_by(keys),
            figures=figures,
            details={
                "rank_keys": keys,
                "great_hall": s["winner"],
                "hall_field": s["board"]["track"] + 1,
                "time_called": s["time_called"],
                "scale": list(s["scale"]),
            },
        )


@lru_cache(maxsize=32)
def _deck_ids(name: str) -> tuple:
    return tuple(c["id"] for c in cards_of(load_deck(name)))


def _colours(s: dict) -> tuple:
    return _deck_file(s["options"].get("deck", "standard"))[0]


__all__ = [
    "IllegalAction",
    "Trumpet",
    "available",
    "card_info",
    "cards_of",
    "led_colour",
    "load_board",
    "load_deck",
    "trick_winner",
    "validate_board",
    "validate_deck",
]
