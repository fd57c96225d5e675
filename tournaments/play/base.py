"""What every game's presentation shares: card look-up, player names, the
generic parts of a seat's screen.

A presentation only reads engine output — ``engine.view(state, seat)``,
``engine.legal_actions``, ``engine.deck`` card dicts, ``engine.result`` — and
turns it into labels. It never decides what is legal: a button is shown for
exactly the actions the engine lists, and a label it does not know falls back
to the raw action string.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from django.utils.translation import get_language, gettext_lazy, gettext_noop
from django.utils.translation import gettext as _

from tournaments.play.deck_texts import as_number, deck_text, number_text

#: colour names of the games' decks (unknown colours print as they are);
#: translated when a card is shown (plain msgids: a screen names a dozen
#: cards, and a lazy string costs several times a gettext)
COLOURS = {
    "red": gettext_noop("red"),
    "orange": gettext_noop("orange"),
    "yellow": gettext_noop("yellow"),
    "green": gettext_noop("green"),
    "blue": gettext_noop("blue"),
    "violet": gettext_noop("violet"),
    "purple": gettext_noop("purple"),
}


#: (language, message) -> its translation (see translated)
_TRANSLATED: dict[tuple[str | None, str], str] = {}


def translated(message: str) -> str:
    """``gettext(message)``, kept per language: a seat's screen names the
    same few messages (colours, "Play …", its headings) dozens of times, and
    each gettext looks the language up and walks the catalogues. The message
    is marked where it is written (``gettext_noop``)."""
    key = (get_language(), message)
    hit = _TRANSLATED.get(key)
    if hit is None:
        if len(_TRANSLATED) > 8192:
            _TRANSLATED.clear()
        hit = _TRANSLATED[key] = _(message)
    return hit


_PLAY_CARD = gettext_noop("Play %(card)s")


def colour_name(colour) -> str:
    if colour is None:
        return ""
    if colour in COLOURS:
        return translated(COLOURS[colour])
    return deck_text(colour)  # an uploaded deck's own colour


_DECKS: dict[str, dict[str, dict]] = {}


def card_index(engine, players: int, options: dict) -> dict[str, dict]:
    """``engine.deck(...)`` as ``{card id: card dict}`` (cached per options)."""
    key = json.dumps([engine.id, players, options], sort_keys=True, default=str)
    hit = _DECKS.get(key)
    if hit is None:
        try:
            cards = engine.deck(players, dict(options or {}))
        except ValueError:  # a deck() that refuses the deal's stack: the plain deck
            opts = {k: v for k, v in (options or {}).items() if k != "stack"}
            cards = engine.deck(players, opts)
        hit = {c["id"]: c for c in cards}
        if len(_DECKS) > 64:
            _DECKS.clear()
        _DECKS[key] = hit
    return hit


@dataclass
class Ctx:
    """One seat's look at a table: the engine's view and legal actions plus
    the names of the players in seat order."""

    engine: object
    view: dict
    legal: list[str]
    seat: int
    names: list[str]
    cards: dict[str, dict]
    extra: dict = field(default_factory=dict)

    def name(self, seat) -> str:
        try:
            seat = int(seat)
        except (TypeError, ValueError):
            return str(seat)
        if 0 <= seat < len(self.names):
            return self.names[seat]
        return _("seat %(n)s") % {"n": seat + 1}

    def turn(self, seat, mine, theirs, **params) -> str:
        """``mine`` when ``seat`` is this seat, else ``theirs`` with the
        player's name filled in (``%(name)s``); both get ``params``."""
        if seat == self.seat:
            return str(mine) % params if params else str(mine)
        return str(theirs) % {"name": self.name(seat), **params}


class Presentation:
    """The default presentation; the games' modules override what they know."""

    #: the label of the ``scores`` column in the players' table
    score_label = gettext_lazy("Score")
    #: the label of the ``hand_sizes`` column; ``show_hand`` False: no such column
    hand_label = gettext_lazy("Cards in hand")
    show_hand = True

    # -- cards ---------------------------------------------------------------
    def card_title(self, ctx: Ctx, cid: str) -> str:
        card = ctx.cards.get(cid) or {}
        return deck_text(card.get("name")) if card.get("name") else cid

    def card_lines(self, ctx: Ctx, cid: str) -> list[str]:
        return []

    def card_css(self, ctx: Ctx, cid: str) -> str:
        return ""

    def card(self, ctx: Ctx, cid: str) -> dict:
        return {
            "id": cid,
            "title": self.card_title(ctx, cid),
            "lines": self.card_lines(ctx, cid),
            "css": self.card_css(ctx, cid),
        }

    def hand(self, ctx: Ctx) -> list[str]:
        hand = ctx.view.get("hand") or []
        return list(hand.keys()) if isinstance(hand, dict) else list(hand)

    # -- actions -------------------------------------------------------------
    def action_label(self, ctx: Ctx, action: str) -> str | None:
        """A human label for ``action``, None when unknown (the raw string shows)."""
        kind, _sep, arg = action.partition(":")
        if kind == "play" and arg:
            return translated(_PLAY_CARD) % {"card": self.card_title(ctx, arg)}
        return None

    def public_label(self, ctx: Ctx, mover: int | None, public: dict) -> str:
        """The move in a sentence for everyone (the public replay), built
        from the engine's ``public_action`` and nothing else: ``ctx`` holds
        the public view after the move, never a seat's. A card is named only
        where ``public`` names it (a card everyone sees face up then)."""
        kind = public.get("kind")
        if kind == "call_time":
            return _("Time called.")
        params = {"name": ctx.name(mover)}
        if public.get("target") is not None:
            params["target"] = ctx.name(public["target"])
        card = public.get("card")
        if card:
            params["card"] = self.card_title(ctx, card)
        text = self.public_text(ctx, mover, kind, public, params)
        if text is not None:
            return text
        if kind == "play":
            if card:
                return _("%(name)s plays %(card)s.") % params
            return _("%(name)s plays a card.") % params
        return _("%(name)s makes a move.") % params

    def public_text(self, ctx: Ctx, mover, kind, public: dict, params: dict) -> str | None:
        """A game's sentence for a public move of ``kind`` by seat ``mover``
        (None: the plain one); ``params`` holds ``name`` (the mover's),
        ``target`` (the other seat's name, when ``public`` has one) and
        ``card`` (its title, when ``public`` names a card)."""
        return None

    # -- the table -----------------------------------------------------------
    def status(self, ctx: Ctx) -> str:
        """What the game waits for, in a sentence."""
        return ""

    def facts(self, ctx: Ctx) -> list[tuple[str, str]]:
        """Public information as (label, value) pairs."""
        return []

    def player_rows(self, ctx: Ctx) -> list[dict]:
        v = ctx.view
        sizes = v.get("hand_sizes") or []
        scores = v.get("scores") or []
        to_act = set(v.get("to_act") or [])
        rows = []
        for seat, name in enumerate(ctx.names):
            rows.append(
                {
                    "seat": seat,
                    "number": seat + 1,
                    "name": name,
                    "me": seat == ctx.seat,
                    "to_act": seat in to_act,
                    "hand": sizes[seat] if seat < len(sizes) else None,
                    "score": self.score_text(ctx, seat, scores[seat])
                    if seat < len(scores)
                    else None,
                    "note": self.player_note(ctx, seat),
                }
            )
        return rows

    def score_text(self, ctx: Ctx, seat: int, score) -> str:
        """A seat's score as the reader's language writes a number ("25.110")."""
        number = as_number(score)
        return str(score) if number is None else number_text(number)

    def player_note(self, ctx: Ctx, seat: int) -> str:
        return ""

    def trick(self, ctx: Ctx) -> dict | None:
        """The cards on the table now: ``{"title", "plays": [{"name", "card"}]}``."""
        return None

    def last_trick(self, ctx: Ctx) -> dict | None:
        lt = ctx.view.get("last_trick")
        if not lt or not lt.get("plays"):
            return None
        winner = lt.get("winner")
        return {
            "title": _("Last trick"),
            "plays": [
                {"name": ctx.name(seat), "card": self.card(ctx, cid)} for seat, cid in lt["plays"]
            ],
            "outcome": (_("%(name)s won it.") % {"name": ctx.name(winner)})
            if winner is not None
            else "",
        }

    def extra_cards(self, ctx: Ctx) -> list[dict]:
        """Other card groups the seat may see: ``[{"title", "cards": [...]}]``."""
        return []
