"""The engine interface shared by all five games; the rules each engine
plays are in ``games/<game>/RULES.md`` (what they share: ``games/RULES.md``).

The interface (binding names; a game module may add more)::

    from games import ENGINES, get_engine   # quartett, terra_trumpf, trumpet,
    engine = get_engine("quartett")         # monddaemmerung, altruismus
    engine.id, engine.name, engine.min_players, engine.max_players
    engine.deck(players, options)           # the cards in play, each with "id"
    s = engine.new_game(players, seed, options=None)
    engine.to_act(s)                        # the seats that must act; [] when over
    engine.legal_actions(s, seat)           # card plays are "play:<card id>"
    s2 = engine.apply(s, seat, action)      # s unchanged; IllegalAction if not legal
    engine.view(s, seat)                    # JSON-safe; seat None: the public view
    engine.dump(s); engine.load(d)          # an exact JSON round trip
    engine.is_over(s); engine.result(s)     # TableResult(ranks, figures, details)
    engine.call_time(s)                     # time called (each game's RULES.md)
    engine.finish(s, bot)                   # play out what call_time left open
    engine.sheet_schema(players, options)   # the fields of a paper sheet
    engine.check_sheet(players, sheet, options)  # TableResult, or SheetError

``options["stack"]`` replaces the random choice and shuffle of the first deal
with the complete ordered list of card ids (top first); cards are dealt one at
a time in play order from seat 0, the rest is the stock or draw pile. Common
view keys: ``"phase"``, ``"to_act"``, ``"hand"`` (the seat's own cards),
``"hand_sizes"``, ``"scores"`` and, where there are tricks, ``"last_trick"``:
``{"plays": [[seat, card id], ...], "winner": seat}``. ``ranks`` are per
seat, 1 = best, ties share; ``figures`` are the game's figure per seat.

A game state is a plain JSON-safe ``dict``. Engines never mutate a state they
were given: ``apply`` copies first. ``dump``/``load`` are therefore exact JSON
round trips, and two states are equal when their dicts are equal.

For speed a new state may share the lists it didn't change with the state it
came from (each engine's ``copy`` and ``apply`` say which), so treat states
as values: replace a key (``s["pos"] = [...]``), never change a state's lists
in place; ``load(dump(s))`` gives a fully independent copy.

Every state holds at least::

    {"game": <engine id>, "players": n, "options": {...}, "rng": <int>,
     "phase": <str>, ...}

Concepts an engine provides beyond these, used by the conformance suite
(``games/testing.py``) and by the Django side:

- ``zones(s)``: every card location, ``{"hand:0": [...], "stock": [...], ...}``.
  Zone names ``hand:<seat>`` and ``stock`` are secret by default; the union of
  all zones is always the multiset of cards in play (cards are conserved).
- ``hidden(s, seat)``: the card ids ``seat`` must not see (``None`` = public).
- ``public_action(s, seat, action)``: what everyone sees of a move (the
  public replay's labels are built from it and the public view only): a
  ``{"kind": ..., ...}`` dict naming a card only where everyone sees that
  card face up after the move (see the method).
- ``rank_keys`` in ``TableResult.details``: one list per seat, bigger is
  better, whose competition ranking is ``ranks`` (the ranks follow from the
  figures and the game's tie-breaks).

Error and label texts are English; they are marked with ``_`` (a no-op here)
so Django's ``makemessages`` extracts them and the web UI translates them.
A ``Problem`` keeps its template and parameters apart for the same reason.
"""

from __future__ import annotations

import copy
import importlib
import json
from dataclasses import dataclass, field
from typing import Any, Protocol

from games import rng
from games.i18n import _


class IllegalAction(ValueError):
    """An action that the rules do not allow in this state; the message says why."""


class DeckError(ValueError):
    """A deck file or card list that can't be used; the message says why."""


@dataclass(frozen=True)
class Problem:
    """One inconsistency found on a paper sheet.

    ``code`` is stable (tests and translations key on it), ``fields`` names the
    sheet fields concerned, ``template`` is the English message with ``{name}``
    placeholders filled from ``params``.
    """

    code: str
    fields: tuple[str, ...]
    template: str
    params: dict = field(default_factory=dict)

    @property
    def message(self) -> str:
        return self.template.format(**self.params)

    def as_dict(self) -> dict:
        return {
            "code": self.code,
            "fields": list(self.fields),
            "message": self.message,
            "template": self.template,
            "params": self.params,
        }


class SheetError(ValueError):
    """A paper sheet that can't be true; ``problems`` lists everything found."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("; ".join(p.message for p in self.problems))


@dataclass
class TableResult:
    """How a table ended: ``ranks`` (1 = best, ties share, competition style),
    ``figures`` (the game's figure per seat) and game-specific ``details``."""

    ranks: list[int]
    figures: list[Any]
    details: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {"ranks": self.ranks, "figures": self.figures, "details": self.details}


def rank_by(keys: list) -> list[int]:
    """Competition ranking of per-seat keys, bigger is better: [5, 9, 5] -> [2, 1, 2]."""
    return [1 + sum(1 for other in keys if other > k) for k in keys]


def _comparable(keys: list) -> bool:
    """Whether per-seat rank keys can be compared: lists of numbers of one length."""
    lengths = {len(k) for k in keys}
    return len(lengths) <= 1 and all(
        isinstance(x, int | float) and not isinstance(x, bool) for k in keys for x in k
    )


#: The record entry for "the tournament clock called time" (seat -1).
TIME_CALLED = (-1, "call_time")


@dataclass
class Record:
    """A game as its setup and its actions: how digital tables are stored.
    ``actions`` holds ``(seat, action)`` pairs and ``TIME_CALLED``."""

    game: str
    players: int
    seed: int
    options: dict = field(default_factory=dict)
    actions: list[tuple[int, str]] = field(default_factory=list)

    def replay(self, engine: Engine | None = None):
        """The state after every action of this record, applied in order
        (by ``engine``, or the registered engine of ``self.game``)."""
        engine = engine or get_engine_by_id(self.game)
        s = engine.new_game(self.players, self.seed, self.options)
        for seat, action in self.actions:
            if (seat, action) == TIME_CALLED:
                s = engine.call_time(s)
            else:
                s = engine.apply(s, seat, action)
        return s

    def as_dict(self) -> dict:
        return {
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "options": self.options,
            "actions": [[seat, action] for seat, action in self.actions],
        }

    @classmethod
    def from_dict(cls, d: dict) -> Record:
        return cls(
            game=d["game"],
            players=d["players"],
            seed=d["seed"],
            options=d.get("options") or {},
            actions=[(int(a), str(b)) for a, b in d.get("actions", [])],
        )


#: the registered engines by id; ``games/__init__.py`` fills it (as
#: ``games.ENGINES``), so a record can find its engine without this module
#: importing the package
REGISTRY: dict[str, Engine] = {}


def get_engine_by_id(game_id: str) -> Engine:
    try:
        return REGISTRY[game_id]
    except (KeyError, TypeError):
        raise KeyError(f"unknown game {game_id!r}") from None


class Bot(Protocol):
    """A player program. It sees only its seat's view and legal actions."""

    name: str

    def choose(self, view: dict, legal: list[str]) -> str: ...


class RandomBot:
    """Chooses uniformly among the legal actions; deterministic for a seed."""

    name = "random"

    def __init__(self, seed: int = 0):
        self._s = {"rng": rng.seed_state(seed)}

    def choose(self, view: dict, legal: list[str]) -> str:
        return legal[rng.randrange(self._s, len(legal))]


class Engine:
    """Base class of the five engines. Subclasses set the class attributes and
    implement the methods that raise ``NotImplementedError``."""

    id: str = ""
    name: str = ""
    min_players: int = 2
    max_players: int = 6
    #: What players do when the tournament clock calls time (printed on sheets).
    time_called_text: str = ""
    #: The figure's name on sheets and standings, e.g. "cards held".
    figure_label: str = ""
    #: Which way play passes at the physical table, as the original rules say: "left"
    #: (clockwise) or "right" (counter-clockwise). Seats are in play order;
    #: only printed sheets need the physical direction.
    play_direction: str = "left"

    def options_schema(self) -> list[dict]:
        """Game options a tournament may set, as sheet-style fields (see
        ``games/sheets.py``), e.g. which deck. Default: none."""
        return []

    def default_options(self) -> dict:
        return {}

    #: Option keys ``new_game`` accepts beyond ``options_schema()`` and "stack".
    extra_options: tuple[str, ...] = ()

    def check_options(self, options) -> dict:
        """A copy of ``options`` (None: empty), refusing anything but a dict
        of known keys, so a mistyped option is not silently ignored."""
        if options is None:
            return {}
        if not isinstance(options, dict):
            raise ValueError(f"{self.name} options must be a dict, not {type(options).__name__}")
        allowed = {f["name"] for f in self.options_schema()} | {"stack", *self.extra_options}
        unknown = sorted(str(k) for k in options if k not in allowed)
        if unknown:
            raise ValueError(f"unknown {self.name} option(s): {', '.join(unknown)}")
        return dict(options)

    def teams(self, players: int, options: dict | None = None) -> list[list[int]] | None:
        """Seats that play as one team, or None when the game has no teams here."""
        return None

    # -- setup ---------------------------------------------------------------
    def deck(self, players: int, options: dict | None = None) -> list[dict]:
        raise NotImplementedError

    def new_game(self, players: int, seed: int, options: dict | None = None) -> dict:
        raise NotImplementedError

    def check_players(self, players: int) -> None:
        if not isinstance(players, int) or not (self.min_players <= players <= self.max_players):
            raise ValueError(
                f"{self.name} is played by {self.min_players} to {self.max_players} players, "
                f"not {players}"
            )

    def check_stack(self, stack: list[str], deck: list[dict]) -> list[str]:
        """Validate ``options["stack"]``: exactly the ids of the cards in play."""
        ids = [c["id"] for c in deck]
        if sorted(stack) != sorted(ids):
            missing = sorted(set(ids) - set(stack))
            extra = sorted(set(stack) - set(ids))
            raise ValueError(
                f"stack must list every card in play exactly once "
                f"(missing: {missing[:5]}, unknown or repeated: {extra[:5]})"
            )
        return list(stack)

    # -- play ----------------------------------------------------------------
    def to_act(self, s: dict) -> list[int]:
        raise NotImplementedError

    def legal_actions(self, s: dict, seat: int) -> list[str]:
        raise NotImplementedError

    def apply(self, s: dict, seat: int, action: str) -> dict:
        """Check and apply; returns a new state. Subclasses implement ``_apply``
        on a private copy, raising ``IllegalAction`` with the reason."""
        if not self.is_legal(s, seat, action):
            if seat not in self.to_act(s):
                if self.is_over(s):
                    raise IllegalAction("the game is over")
                raise IllegalAction(f"seat {seat} is not to act now")
            raise IllegalAction(self.explain_illegal(s, seat, action))
        s2 = self.copy(s)
        self._apply(s2, seat, action)
        return s2

    def is_legal(self, s: dict, seat: int, action) -> bool:
        """``action in legal_actions(s, seat)``, which is ``[]`` for a seat
        not to act. Engines override it with a cheaper test for their
        frequent actions (``apply`` asks it at every step); the test suite
        checks that both always agree."""
        return action in self.legal_actions(s, seat)

    def _apply(self, s: dict, seat: int, action: str) -> None:
        raise NotImplementedError

    def explain_illegal(self, s: dict, seat: int, action: str) -> str:
        """Why ``action`` is not legal; engines override for precise reasons."""
        return f"{action!r} is not a legal action for seat {seat} now"

    def view(self, s: dict, seat: int | None) -> dict:
        raise NotImplementedError

    def is_over(self, s: dict) -> bool:
        return s["phase"] == "over"

    def result(self, s: dict) -> TableResult:
        raise NotImplementedError

    def public_action(self, s: dict, seat: int, action: str) -> dict:
        """The publicly visible form of the legal move ``action`` of ``seat``
        in state ``s`` (the state BEFORE the move): what a spectator, and
        every player not concerned, sees happen. The public replay's label of
        the move is built from this and ``view(state after, None)`` alone.

        A plain JSON-safe dict ``{"kind": <what was done>, ...}``; each engine
        documents its kinds. Optional keys every engine reads the same:

        - ``"card"``: a card id, or None. A card id only when everyone sees
          that card face up once the move is made: it is not in
          ``hidden(after, None)`` and ``view(after, None)`` shows it (on the
          table, in the last trick, a public pile). None for a card played
          face down, taken from or going into a hand or the draw pile, or
          dealt anew by the move — "plays a card", never which;
        - ``"target"``: the other seat the move concerns;
        - other public facts (a colour, a category, an attribute key): never
          a card id.

        So a label made from it never names a card the public view at that
        step does not show, nor one that is only revealed later. The record
        entry ``TIME_CALLED`` gives ``{"kind": "call_time"}``. This default
        reveals nothing beyond that a move was made; the five engines
        override it."""
        if (seat, action) == TIME_CALLED:
            return {"kind": "call_time"}
        return {"kind": "move", "card": None}

    # -- time ----------------------------------------------------------------
    def call_time(self, s: dict) -> dict:
        raise NotImplementedError

    def finish(self, s: dict, bot: Bot | None = None) -> dict:
        """Play out what ``call_time`` (or the game) left open, with ``bot``
        choosing for every seat from that seat's view only."""
        bot = bot or RandomBot(0)
        guard = 0
        while not self.is_over(s):
            seats = self.to_act(s)
            if not seats:
                raise RuntimeError(f"{self.id}: no seat to act but the game is not over")
            seat = seats[0]
            action = bot.choose(self.view(s, seat), self.legal_actions(s, seat))
            s = self.apply(s, seat, action)
            guard += 1
            if guard > 100_000:
                raise RuntimeError(f"{self.id}: finish did not end")
        return s

    # -- serialisation ------------------------------------------------------
    def copy(self, s: dict) -> dict:
        return copy.deepcopy(s)

    def dump(self, s: dict) -> dict:
        return json.loads(json.dumps(s))

    def load(self, d: dict) -> dict:
        s = json.loads(json.dumps(d))
        if s.get("game") != self.id:
            raise ValueError(f"not a {self.id} state")
        return s

    # -- cards ----------------------------------------------------------------
    def zones(self, s: dict) -> dict[str, list[str]]:
        raise NotImplementedError

    def hidden(self, s: dict, seat: int | None) -> set[str]:
        """Card ids ``seat`` must not see: other hands and the stock."""
        out: set[str] = set()
        for name, cards in self.zones(s).items():
            if name == "stock" or (name.startswith("hand:") and name != f"hand:{seat}"):
                out.update(cards)
        return out

    # -- paper and bots: by convention in games/<id>/sheet.py and bots.py ------
    def _needed(self, name: str):
        module = f"games.{self.id}.{name}"
        try:
            if self.id:
                return importlib.import_module(module)
        except ModuleNotFoundError as exc:
            if exc.name not in (f"games.{self.id}", module):
                raise
        raise NotImplementedError(f"{self.name or 'this engine'} has no {module}")

    def sheet_schema(self, players: int, options: dict | None = None) -> list[dict]:
        """The fields a paper sheet asks for (``games/<id>/sheet.py``)."""
        return self._needed("sheet").sheet_schema(self, players, options)

    def check_sheet(self, players: int, sheet: dict, options: dict | None = None) -> TableResult:
        """The table result of a consistent sheet, or ``SheetError``."""
        return self._needed("sheet").check_sheet(self, players, sheet, options)

    def sheet_unfinished(self, result: TableResult, players: int) -> Problem | None:
        """Why the result of a checked sheet can't be a game played to its end
        (asked when a sheet is entered while the round still runs); None when
        it may be finished or the sheet can't tell. A game module says so with
        ``unfinished(engine, result, players)`` in its ``sheet.py``."""
        check = getattr(self._needed("sheet"), "unfinished", None)
        return check(self, result, players) if check else None

    def check_outcome(self, players: int, ranks, figures, details) -> list[Problem]:
        """Why a table's outcome told without its game (ranks, figures and
        ``details`` per seat, as ``result`` gives them) can't be one this game
        ends with at ``players`` seats; empty when it can. What is checked:
        ranks in competition style, a figure per seat, a strictly bigger
        figure never ranking worse, and ranks that are the competition ranking
        of the ``rank_keys`` when the details give them."""
        problems: list[Problem] = []
        whole = all(isinstance(r, int) and not isinstance(r, bool) for r in ranks or [None])
        if not isinstance(ranks, list) or len(ranks) != players or not whole:
            return [
                Problem(
                    "outcome_ranks",
                    ("ranks",),
                    _("expected a whole-number rank for each of the {players} seats"),
                    {"players": players},
                )
            ]
        if ranks != rank_by([-r for r in ranks]):
            problems.append(
                Problem(
                    "outcome_rank_order",
                    ("ranks",),
                    _("ranks must be 1, 2, … with tied seats sharing a rank and the next skipped"),
                )
            )
        numbers = isinstance(figures, list) and all(
            isinstance(f, int | float) and not isinstance(f, bool) and f == f for f in figures
        )
        if not numbers or len(figures) != players:
            problems.append(
                Problem(
                    "outcome_figures",
                    ("figures",),
                    _("expected a number for each of the {players} seats"),
                    {"players": players},
                )
            )
        elif any(
            figures[i] > figures[j] and ranks[i] > ranks[j]
            for i in range(players)
            for j in range(players)
        ):
            problems.append(
                Problem(
                    "outcome_figure_order",
                    ("figures",),
                    _("a seat with a bigger figure can't be ranked below one with a smaller"),
                )
            )
        keys = details.get("rank_keys") if isinstance(details, dict) else None
        if keys is not None and not (
            isinstance(keys, list)
            and len(keys) == players
            and all(isinstance(k, list) for k in keys)
            and _comparable(keys)
            and rank_by([tuple(k) for k in keys]) == ranks
        ):
            problems.append(
                Problem(
                    "outcome_rank_keys",
                    ("details",),
                    _("the ranks are not the ones the game's tie-breaks give"),
                )
            )
        return problems

    def bots(self) -> dict[str, type]:
        """Bot classes by name: "random" and the game's "smart" one
        (``games/<id>/bots.py``)."""
        return {"random": RandomBot, "smart": self._needed("bots").SmartBot}
