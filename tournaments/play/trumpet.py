"""Trumpet: the race on the track, the trump scale, tricks and the winner's
decisions (move, crest chips)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.play.base import Ctx, Presentation, colour_name


class Trumpet(Presentation):
    score_label = gettext_lazy("Field")

    def card_title(self, ctx: Ctx, cid: str) -> str:
        card = ctx.cards.get(cid)
        if card is None:
            return cid
        if card.get("mega"):
            return _("Mega-Trump %(n)s") % {"n": cid.rsplit("-", 1)[-1]}
        return f"{colour_name(card.get('colour')).capitalize()} {card.get('value')}"

    def card_lines(self, ctx: Ctx, cid: str) -> list[str]:
        card = ctx.cards.get(cid) or {}
        scale = ctx.view.get("scale") or []
        if card.get("colour") in scale:
            return [_("trump")]
        return []

    def card_css(self, ctx: Ctx, cid: str) -> str:
        card = ctx.cards.get(cid) or {}
        return "card--mega" if card.get("mega") else f"card--{card.get('colour')}"

    def field(self, ctx: Ctx, pos) -> str:
        board = ctx.view.get("board") or {}
        track = board.get("track")
        if pos == 0:
            return _("start")
        if track is not None and pos is not None and pos > track:
            return _("Great Hall")
        text = str(pos)
        if pos in (board.get("crest_fields") or []):
            text += " ★"
        return text

    def score_text(self, ctx: Ctx, seat: int, score) -> str:
        return self.field(ctx, score)

    def action_label(self, ctx: Ctx, action: str) -> str | None:
        kind, _sep, arg = action.partition(":")
        if action == "advance":
            return _("Move your figure forward")
        if kind == "back" and arg.isdigit():
            seat = int(arg)
            if seat == ctx.seat:
                return _("Move your own figure back")
            return _("Move %(name)s's figure back") % {"name": ctx.name(seat)}
        if kind == "chip" and arg:
            return _("Lay the %(colour)s chip on the trump scale") % {"colour": colour_name(arg)}
        if kind == "swap" and arg.count(":") == 1:
            a, b = arg.split(":")
            return _("Swap the %(a)s and %(b)s chips") % {
                "a": colour_name(a),
                "b": colour_name(b),
            }
        if action == "skip":
            return _("No trump change")
        if action == "later":
            return _("Decide after the next deal")
        return super().action_label(ctx, action)

    def public_text(self, ctx: Ctx, mover, kind, public: dict, params: dict) -> str | None:
        if kind == "play" and "card" not in params and public.get("dealt_anew"):
            return _("%(name)s plays the deal's last card; the cards are dealt anew.") % params
        if kind == "advance":
            return _("%(name)s moves forward.") % params
        if kind == "back" and "target" in params:
            if public["target"] == mover:
                return _("%(name)s moves back their own figure.") % params
            return _("%(name)s moves the figure of %(target)s back.") % params
        if kind == "chip":
            params["colour"] = colour_name(public.get("colour"))
            return _("%(name)s lays the %(colour)s chip on the trump scale.") % params
        if kind == "swap" and len(public.get("colours") or []) == 2:
            params["a"], params["b"] = (colour_name(c) for c in public["colours"])
            return _("%(name)s swaps the %(a)s and %(b)s chips.") % params
        if kind == "skip":
            return _("%(name)s makes no trump change.") % params
        if kind == "later":
            return _("%(name)s decides after the next deal.") % params
        return None

    def status(self, ctx: Ctx) -> str:
        v = ctx.view
        who = (v.get("to_act") or [None])[0]
        phase = v.get("phase")
        if phase == "move":
            return ctx.turn(
                who,
                _("You won the trick on the final fields: move forward or move a figure back."),
                _("%(name)s won the trick on the final fields and moves a figure."),
            )
        if phase == "choose":
            return ctx.turn(
                who,
                _("Crest field: change the trump scale or skip."),
                _("%(name)s reached a crest field and may change the trump scale."),
            )
        return ctx.turn(who, _("Play a card."), _("%(name)s plays a card."))

    def facts(self, ctx: Ctx) -> list[tuple[str, str]]:
        v = ctx.view
        scale = v.get("scale") or []
        slots = []
        for i, colour in enumerate(scale):
            label = _("crest") if i == len(scale) - 1 else str(i + 1)
            slots.append(f"{label}: {colour_name(colour) if colour else '–'}")
        out = [(_("Trump scale (lowest first)"), " · ".join(slots))]
        out.append((_("Dealer"), ctx.name(v.get("dealer"))))
        board = v.get("board") or {}
        if board.get("final_fields"):
            out.append(
                (
                    _("Final fields"),
                    f"{min(board['final_fields'])}–{max(board['final_fields'])}",
                )
            )
        if v.get("winner") is not None:
            out.append((_("In the Great Hall"), ctx.name(v["winner"])))
        return out

    def trick(self, ctx: Ctx) -> dict | None:
        trick = ctx.view.get("trick") or []
        if not trick:
            return None
        return {
            "title": _("On the table"),
            "plays": [{"name": ctx.name(seat), "card": self.card(ctx, cid)} for seat, cid in trick],
        }
