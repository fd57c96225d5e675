"""Terra Trumpf: the hand by category, "alpha:<category>" and card plays."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.play.base import Ctx, Presentation
from tournaments.play.deck_texts import as_number, deck_text, number_text


class TerraTrumpf(Presentation):
    score_label = gettext_lazy("Points")

    def category(self, ctx: Ctx, key) -> str:
        if key is None:
            return "–"
        if "categories" not in ctx.extra:
            ctx.extra["categories"] = {
                c["category"]: c.get("category_label") or c["category"] for c in ctx.cards.values()
            }
        return deck_text(ctx.extra["categories"].get(key, key))

    def card_title(self, ctx: Ctx, cid: str) -> str:
        card = ctx.cards.get(cid) or {}
        return deck_text(card.get("name")) if card.get("name") else cid

    def card_lines(self, ctx: Ctx, cid: str) -> list[str]:
        card = ctx.cards.get(cid) or {}
        value = as_number(card.get("value"))
        shown = number_text(value) if value is not None else str(card.get("value", ""))
        lines = [self.category(ctx, card.get("category")), shown]
        if card.get("category") is not None and card.get("category") == ctx.view.get("alpha"):
            lines.append(_("Alpha"))
        return lines

    def card_css(self, ctx: Ctx, cid: str) -> str:
        card = ctx.cards.get(cid) or {}
        return "card--alpha" if card.get("category") == ctx.view.get("alpha") else ""

    def action_label(self, ctx: Ctx, action: str) -> str | None:
        kind, _sep, arg = action.partition(":")
        if kind == "alpha" and arg:
            return _("Choose %(category)s as Alpha") % {"category": self.category(ctx, arg)}
        if kind == "play" and arg:
            card = ctx.cards.get(arg) or {}
            return _("Play %(card)s (%(category)s, %(value)s)") % {
                "card": self.card_title(ctx, arg),
                "category": self.category(ctx, card.get("category")),
                "value": card.get("value", ""),
            }
        return super().action_label(ctx, action)

    def public_text(self, ctx: Ctx, mover, kind, public: dict, params: dict) -> str | None:
        if kind == "alpha":
            params["category"] = self.category(ctx, public.get("category"))
            return _("%(name)s chooses %(category)s as Alpha.") % params
        if kind == "play" and "card" in params:
            card = ctx.cards.get(public["card"]) or {}
            params["category"] = self.category(ctx, card.get("category"))
            params["value"] = card.get("value", "")
            return _("%(name)s plays %(card)s (%(category)s, %(value)s).") % params
        if kind == "play" and public.get("dealt_anew"):
            return (
                _(
                    "%(name)s plays the hand's last card; the cards are dealt anew for the next hand."
                )
                % params
            )
        return None

    def status(self, ctx: Ctx) -> str:
        v = ctx.view
        if v.get("phase") == "alpha":
            return ctx.turn(
                v.get("chooser"),
                _("Choose the Alpha category."),
                _("%(name)s chooses the Alpha category."),
            )
        turn = (v.get("to_act") or [None])[0]
        return ctx.turn(turn, _("Play a card."), _("%(name)s plays a card."))

    def facts(self, ctx: Ctx) -> list[tuple[str, str]]:
        v = ctx.view
        out = [
            (
                _("Hand"),
                _("%(n)s of %(total)s")
                % {"n": v.get("hand_number"), "total": v.get("hands_total")},
            ),
            (_("Alpha chooser"), ctx.name(v.get("chooser"))),
            (_("Alpha"), self.category(ctx, v.get("alpha"))),
            (
                _("Categories in play"),
                ", ".join(self.category(ctx, c) for c in v.get("categories") or []),
            ),
        ]
        teams = v.get("teams")
        if teams:
            out.append(
                (
                    _("Teams"),
                    " · ".join(" + ".join(ctx.name(s) for s in team) for team in teams),
                )
            )
        return out

    def player_note(self, ctx: Ctx, seat: int) -> str:
        collected = ctx.view.get("collected") or []
        if seat < len(collected):
            value = collected[seat]
            number = as_number(value)
            return _("collected this hand: %(value)s") % {
                "value": value if number is None else number_text(number)
            }
        return ""

    def trick(self, ctx: Ctx) -> dict | None:
        table = ctx.view.get("table") or []
        if not table:
            return None
        return {
            "title": _("On the table"),
            "plays": [{"name": ctx.name(row[0]), "card": self.card(ctx, row[1])} for row in table],
        }
