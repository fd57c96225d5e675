"""Monddämmerung: numbered cards with moons, the round's plays, and the moon
decisions (trump, target, take, remove, take back, draw)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from tournaments.play.base import Ctx, Presentation, colour_name

MOONS = {
    "full": gettext_lazy("full moon"),
    "empty": gettext_lazy("empty moon"),
    "half": gettext_lazy("half moon"),
    "sickle": gettext_lazy("sickle moon"),
    "blood": gettext_lazy("blood moon"),
    "eclipse": gettext_lazy("eclipse"),
}

#: the open decision: (what this player does, what the others read)
PENDING = {
    "first_trump": (
        gettext_lazy("Choose the trump colour of your two-coloured first card."),
        gettext_lazy("%(name)s chooses the trump colour of the two-coloured first card."),
    ),
    "full": (
        gettext_lazy("Name the new trump colour (full moon)."),
        gettext_lazy("%(name)s names the new trump colour (full moon)."),
    ),
    "empty": (
        gettext_lazy("Choose whose hand to look at (empty moon)."),
        gettext_lazy("%(name)s chooses whose hand to look at (empty moon)."),
    ),
    "empty_take": (
        gettext_lazy("Take one card from the hand you are looking at (empty moon)."),
        gettext_lazy("%(name)s takes one card from the hand looked at (empty moon)."),
    ),
    "half": (
        gettext_lazy("Choose whose hand to shuffle with yours (half moon)."),
        gettext_lazy("%(name)s chooses whose hand to shuffle with (half moon)."),
    ),
    "blood": (
        gettext_lazy("Remove one card played this round (blood moon)."),
        gettext_lazy("%(name)s removes one card played this round (blood moon)."),
    ),
    "eclipse": (
        gettext_lazy("Take one card played this round back into your hand (eclipse)."),
        gettext_lazy("%(name)s takes one card played this round back (eclipse)."),
    ),
    "draw": (
        gettext_lazy("You may draw a card."),
        gettext_lazy("%(name)s may draw a card."),
    ),
}


class Monddaemmerung(Presentation):
    score_label = gettext_lazy("Points")

    def card_title(self, ctx: Ctx, cid: str) -> str:
        card = ctx.cards.get(cid)
        if card is None:
            return cid
        if card.get("one"):
            return _("The One")
        colours = "/".join(colour_name(c).capitalize() for c in card.get("colours") or [])
        return f"{colours} {card.get('number')}"

    def card_lines(self, ctx: Ctx, cid: str) -> list[str]:
        card = ctx.cards.get(cid) or {}
        if card.get("one"):
            return [_("Der Allereinzigste")]
        moon = card.get("moon")
        return [f"☾ {MOONS.get(moon, moon)}"] if moon else []

    def card_css(self, ctx: Ctx, cid: str) -> str:
        card = ctx.cards.get(cid) or {}
        if card.get("one"):
            return "card--one"
        colours = card.get("colours") or []
        return " ".join(f"card--{c}" for c in colours[:1]) + (
            " card--two" if len(colours) > 1 else ""
        )

    def action_label(self, ctx: Ctx, action: str) -> str | None:
        kind, _sep, arg = action.partition(":")
        pending = ctx.view.get("pending") or {}
        if action == "lay":
            return _("Lay the One on your win pile")
        if action == "keep":
            return _("Keep the One (play no card)")
        if action == "draw":
            return _("Draw a card")
        if action == "nodraw":
            return _("Don't draw")
        if kind == "trump" and arg:
            return _("Make %(colour)s trump") % {"colour": colour_name(arg)}
        if kind == "target" and arg.isdigit():
            name = ctx.name(int(arg))
            if pending.get("kind") == "half":
                return _("Shuffle hands with %(name)s") % {"name": name}
            return _("Look at %(name)s's hand") % {"name": name}
        if kind == "take" and arg:
            return _("Take %(card)s") % {"card": self.card_title(ctx, arg)}
        if kind == "remove" and arg:
            return _("Remove %(card)s") % {"card": self.card_title(ctx, arg)}
        if kind == "takeback" and arg:
            return _("Take %(card)s back into your hand") % {"card": self.card_title(ctx, arg)}
        return super().action_label(ctx, action)

    def public_text(self, ctx: Ctx, mover, kind, public: dict, params: dict) -> str | None:
        if kind == "lay":
            return _("%(name)s lays the One on the win pile.") % params
        if kind == "no_card":
            return _("%(name)s plays no card.") % params
        if kind == "draw":
            return _("%(name)s draws a card.") % params
        if kind == "nodraw":
            return _("%(name)s does not draw.") % params
        if kind == "trump":
            params["colour"] = colour_name(public.get("colour"))
            if public.get("why") == "full":
                return _("%(name)s names %(colour)s as the new trump colour (full moon).") % params
            return _("%(name)s makes %(colour)s trump.") % params
        if kind == "look" and "target" in params:
            return _("%(name)s looks at the hand of %(target)s (empty moon).") % params
        if kind == "shuffle" and "target" in params:
            return _("%(name)s shuffles hands with %(target)s (half moon).") % params
        if kind == "take" and "target" in params:
            return _("%(name)s takes a card from the hand of %(target)s (empty moon).") % params
        if kind == "remove" and "card" in params:
            return _("%(name)s removes %(card)s (blood moon).") % params
        if kind == "takeback":
            return _("%(name)s takes a card played this round back into the hand (eclipse).") % (
                params
            )
        return None

    def status(self, ctx: Ctx) -> str:
        v = ctx.view
        pending = v.get("pending")
        if pending:
            texts = PENDING.get(pending.get("kind"))
            if texts:
                return ctx.turn(pending.get("seat"), *texts)
        turn = (v.get("to_act") or [None])[0]
        return ctx.turn(turn, _("Play a card."), _("%(name)s plays a card."))

    def facts(self, ctx: Ctx) -> list[tuple[str, str]]:
        v = ctx.view
        out = [
            (pgettext("a round of play at a Monddämmerung table", "Round"), str(v.get("round"))),
            (_("Starter"), ctx.name(v.get("starter"))),
            (_("Trump"), colour_name(v.get("trump")) if v.get("trump") else "–"),
            (
                _("Winning card"),
                _("highest number (sickle moon)") if v.get("high_wins") else _("lowest number"),
            ),
            (_("Draw pile"), str(v.get("stock_size"))),
        ]
        if v.get("one_laid") is not None:
            out.append((_("The One laid by"), ctx.name(v["one_laid"])))
        return out

    def player_note(self, ctx: Ctx, seat: int) -> str:
        if seat in (ctx.view.get("out") or []):
            return _("out")
        return ""

    def trick(self, ctx: Ctx) -> dict | None:
        table = ctx.view.get("table") or []
        if not table:
            return None
        return {
            "title": _("Played this round"),
            "plays": [{"name": ctx.name(seat), "card": self.card(ctx, cid)} for seat, cid in table],
        }

    def last_trick(self, ctx: Ctx) -> dict | None:
        lt = ctx.view.get("last_trick")
        if not lt or not lt.get("plays"):
            return None
        out = super().last_trick(ctx)
        out["title"] = _("Previous round of play")
        winners = lt.get("winners") or []
        if lt.get("winner") is None and winners:
            out["outcome"] = _("Shared by %(names)s.") % {
                "names": ", ".join(ctx.name(s) for s in winners)
            }
        return out

    def extra_cards(self, ctx: Ctx) -> list[dict]:
        v = ctx.view
        out = []
        if v.get("peek"):
            out.append(
                {
                    "title": _("The hand you are looking at"),
                    "cards": [self.card(ctx, c) for c in v["peek"]],
                }
            )
        if v.get("carry"):
            out.append(
                {
                    "title": _("Left over on the table"),
                    "cards": [self.card(ctx, c) for c in v["carry"]],
                }
            )
        if v.get("removed"):
            out.append(
                {
                    "title": _("Removed (blood moon)"),
                    "cards": [self.card(ctx, c) for c in v["removed"]],
                }
            )
        return out
