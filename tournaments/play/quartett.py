"""Quartett: the top card with its values; "announce:<attribute>" buttons."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.play.base import Ctx, Presentation
from tournaments.play.deck_texts import as_number, deck_text, number_text

#: the deck format's words for a value without a number (``games.quartett.deck``)
NO_NUMBER = {
    "unbekannt": "unknown",
    "unknown": "unknown",
    "nicht definierbar": "not definable",
    "not definable": "not definable",
}


def _attributes(ctx: Ctx) -> dict[str, dict]:
    if "attributes" not in ctx.extra:
        data = ctx.engine.deck_data(ctx.extra.get("options"))
        ctx.extra["attributes"] = {a["key"]: a for a in data["attributes"]}
    return ctx.extra["attributes"]


def _value(attr: dict, value) -> str:
    if value is None:
        return _("unknown")
    unit = attr.get("unit") or ""
    year = attr.get("direction") == "earlier"
    number = as_number(value)
    if number is not None:
        text = number_text(number, grouping=not year)
        return f"{text} {deck_text(unit)}" if unit and not year else text
    if isinstance(value, str):
        word = NO_NUMBER.get(value.strip().lower())
        if word:
            return deck_text(word)
        number, sep, era = value.strip().rpartition(" ")  # a year: "2150 AD"
        if sep and number.lstrip("-").isdigit() and era:
            return f"{number} {deck_text(era)}"
        return deck_text(value)
    return str(value)


class Quartett(Presentation):
    score_label = gettext_lazy("Cards held")
    show_hand = False  # the piles are the scores

    def label(self, ctx: Ctx, key: str) -> str:
        attr = _attributes(ctx).get(key)
        return deck_text(attr.get("label") or key) if attr else key

    def card_lines(self, ctx: Ctx, cid: str) -> list[str]:
        card = ctx.cards.get(cid) or {}
        attrs = _attributes(ctx)
        return [
            f"{self.label(ctx, key)}: {_value(attrs.get(key, {}), value)}"
            for key, value in (card.get("values") or {}).items()
        ]

    def action_label(self, ctx: Ctx, action: str) -> str | None:
        kind, _sep, key = action.partition(":")
        if kind != "announce" or not key:
            return super().action_label(ctx, action)
        top = ctx.view.get("top") or {}
        values = top.get("values") or {}
        if key in values:
            return _("Announce %(attribute)s (%(value)s)") % {
                "attribute": self.label(ctx, key),
                "value": _value(_attributes(ctx).get(key, {}), values[key]),
            }
        return _("Announce %(attribute)s") % {"attribute": self.label(ctx, key)}

    def public_text(self, ctx: Ctx, mover, kind, public: dict, params: dict) -> str | None:
        if kind == "announce":
            params["attribute"] = self.label(ctx, public.get("attribute"))
            return _("%(name)s names %(attribute)s.") % params
        return None

    def hand(self, ctx: Ctx) -> list[str]:
        return list(ctx.view.get("hand") or [])

    def status(self, ctx: Ctx) -> str:
        v = ctx.view
        who = v.get("announcer")
        if v.get("phase") == "tiebreak":
            return (
                _("Decision round after time among the players tied on cards.")
                + " "
                + ctx.turn(who, _("Name an attribute."), _("%(name)s names an attribute."))
            )
        if v.get("decision"):
            return (
                _("Decision round.")
                + " "
                + ctx.turn(who, _("Name an attribute."), _("%(name)s names an attribute."))
            )
        return ctx.turn(who, _("Name an attribute."), _("%(name)s names an attribute."))

    def facts(self, ctx: Ctx) -> list[tuple[str, str]]:
        v = ctx.view
        out = []
        if v.get("pot_size"):
            out.append((_("Pot"), str(v["pot_size"])))
        if v.get("aside_count"):
            out.append((_("Set aside"), str(v["aside_count"])))
        active = v.get("active")
        if v.get("decision") and active:
            out.append((_("In the decision round"), ", ".join(ctx.name(s) for s in active)))
        return out

    def player_note(self, ctx: Ctx, seat: int) -> str:
        out = ctx.view.get("out") or []
        if seat < len(out) and out[seat] is not None:
            return _("out")
        return ""

    def last_trick(self, ctx: Ctx) -> dict | None:
        lt = ctx.view.get("last_trick")
        if not lt or not lt.get("plays"):
            return None
        key = lt.get("attribute")
        attr = _attributes(ctx).get(key, {})
        plays = []
        for seat, cid in lt["plays"]:
            card = self.card(ctx, cid)
            value = (ctx.cards.get(cid) or {}).get("values", {}).get(key)
            card["lines"] = [f"{self.label(ctx, key)}: {_value(attr, value)}"]
            plays.append({"name": ctx.name(seat), "card": card})
        if lt.get("winner") is not None:
            outcome = _("%(name)s won it.") % {"name": ctx.name(lt["winner"])}
        else:
            outcome = _("Tie between %(names)s: the cards go into the pot.") % {
                "names": ", ".join(ctx.name(s) for s in lt.get("tied") or [])
            }
        return {
            "title": _("Last comparison: %(attribute)s") % {"attribute": self.label(ctx, key)},
            "plays": plays,
            "outcome": outcome,
        }
