"""Altruismus: the simultaneous pick, the mission card, the symbols'
decisions and the winner's take and swap."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.play.base import Ctx, Presentation, colour_name

SYMBOLS = {
    "pass": gettext_lazy("pass on"),
    "mission": gettext_lazy("new mission"),
    "even": gettext_lazy("even out"),
    "plusminus": gettext_lazy("plus/minus 3"),
    "exchange": gettext_lazy("exchange"),
}


class Altruismus(Presentation):
    score_label = gettext_lazy("Points")

    def card_title(self, ctx: Ctx, cid: str) -> str:
        card = ctx.cards.get(cid)
        if card is None:
            return cid
        return f"{colour_name(card.get('colour')).capitalize()} {card.get('number')}"

    def card_lines(self, ctx: Ctx, cid: str) -> list[str]:
        symbol = (ctx.cards.get(cid) or {}).get("symbol")
        return [str(SYMBOLS.get(symbol, symbol))] if symbol else []

    def card_css(self, ctx: Ctx, cid: str) -> str:
        return f"card--{(ctx.cards.get(cid) or {}).get('colour')}"

    def action_label(self, ctx: Ctx, action: str) -> str | None:
        kind, _sep, arg = action.partition(":")
        if kind == "play" and arg:
            return _("Pick %(card)s") % {"card": self.card_title(ctx, arg)}
        if action == "plus3":
            return _("Mission number +3")
        if action == "minus3":
            return _("Mission number −3")
        if kind == "give" and arg.isdigit():
            return _("Give the drawn card to %(name)s") % {"name": ctx.name(int(arg))}
        if kind == "take" and arg.isdigit():
            return _("Swap played cards with %(name)s") % {"name": ctx.name(int(arg))}
        if action == "keep":
            return _("Keep your played card")
        if kind == "swap_pile" and arg:
            return _("Swap %(card)s with the draw pile") % {"card": self.card_title(ctx, arg)}
        if kind == "swap_give" and arg.count(":") == 1:
            card, seat = arg.split(":")
            if seat.isdigit():
                return _("Give %(card)s to %(name)s for a blind card") % {
                    "card": self.card_title(ctx, card),
                    "name": ctx.name(int(seat)),
                }
        if action == "noswap":
            return _("No swap")
        return super().action_label(ctx, action)

    def public_text(self, ctx: Ctx, mover, kind, public: dict, params: dict) -> str | None:
        if kind == "pick":
            if "card" in params:  # the last pick: every played card is turned up
                return (
                    _("%(name)s picks %(card)s, the last card: all picked cards are turned up.")
                    % params
                )
            return _("%(name)s picks a card face down.") % params
        if kind == "plus3":
            return _("%(name)s raises the mission number by 3.") % params
        if kind == "minus3":
            return _("%(name)s lowers the mission number by 3.") % params
        if kind == "give" and "target" in params:
            if "card" in params:
                return (
                    _(
                        "%(name)s gives the drawn card, %(card)s, to %(target)s; the card "
                        "%(target)s had played goes under the draw pile."
                    )
                    % params
                )
            return (
                _(
                    "%(name)s gives the drawn card to %(target)s; the card %(target)s had "
                    "played goes under the draw pile."
                )
                % params
            )
        if kind == "take" and "target" in params:
            return _("%(name)s swaps played cards with %(target)s.") % params
        if kind == "keep":
            return _("%(name)s keeps the played card.") % params
        if kind == "swap_pile":
            return _("%(name)s swaps a hand card for the top card of the draw pile.") % params
        if kind == "swap_give" and "target" in params:
            return _("%(name)s gives a hand card to %(target)s for a blind card.") % params
        if kind == "noswap":
            return _("%(name)s swaps no hand card.") % params
        return None

    def status(self, ctx: Ctx) -> str:
        v = ctx.view
        phase = v.get("phase")
        if phase == "pick":
            waiting = v.get("to_act") or []
            if ctx.seat in waiting:
                return _("Everyone picks a card face down: pick yours.")
            return _("Everyone picks a card face down; waiting for %(names)s.") % {
                "names": ", ".join(ctx.name(s) for s in waiting)
            }
        if phase == "symbol":
            pending = v.get("pending") or {}
            return ctx.turn(
                pending.get("seat"),
                _("Carry out the symbol %(symbol)s."),
                _("%(name)s carries out the symbol %(symbol)s."),
                symbol=str(SYMBOLS.get(pending.get("symbol"), pending.get("symbol"))),
            )
        if phase == "take":
            return ctx.turn(
                v.get("winner"),
                _("You won the turn: swap played cards with another player or keep yours."),
                _("%(name)s won the turn and may swap played cards."),
            )
        if phase == "swap":
            return ctx.turn(
                v.get("winner"),
                _("You won the turn: swap a hand card or not."),
                _("%(name)s won the turn and may swap a hand card."),
            )
        return ""

    def facts(self, ctx: Ctx) -> list[tuple[str, str]]:
        v = ctx.view
        out = [(_("Turn"), str((v.get("turn") or 0) + (0 if v.get("phase") == "over" else 1)))]
        if v.get("mission_card"):
            out.append((_("Mission card"), self.card_title(ctx, v["mission_card"])))
        if v.get("mission_number") is not None:
            out.append((_("Mission number"), str(v["mission_number"])))
        out.append((_("Draw pile"), str(v.get("pile_size"))))
        owned = [
            f"{self.card_title(ctx, cid)} ({ctx.name(owner) if owner is not None else '–'})"
            for cid, owner in v.get("missions") or []
        ]
        if owned:
            out.append((_("Mission cards on the table"), ", ".join(owned)))
        if v.get("drawn"):
            out.append((_("Drawn card"), self.card_title(ctx, v["drawn"])))
        return out

    def player_note(self, ctx: Ctx, seat: int) -> str:
        v = ctx.view
        notes = []
        picked = v.get("picked") or []
        if v.get("phase") == "pick" and seat < len(picked) and picked[seat]:
            notes.append(_("picked"))
        out = v.get("out") or []
        if seat < len(out) and out[seat]:
            notes.append(_("out this turn"))
        collections = v.get("collections") or []
        if seat < len(collections):
            notes.append(_("%(n)s collected") % {"n": len(collections[seat])})
        return ", ".join(notes)

    def trick(self, ctx: Ctx) -> dict | None:
        played = ctx.view.get("played") or []
        if not any(played):
            return None
        plays = []
        for seat, cid in enumerate(played):
            if cid is None:
                continue
            plays.append({"name": ctx.name(seat), "card": self.card(ctx, cid)})
        return {"title": _("Played this turn"), "plays": plays}

    def last_trick(self, ctx: Ctx) -> dict | None:
        lt = ctx.view.get("last_turn")
        if not lt or not lt.get("plays"):
            return None
        plays = [
            {"name": ctx.name(seat), "card": self.card(ctx, cid)}
            for seat, cid in enumerate(lt["plays"])
            if cid
        ]
        return {
            "title": _("Last turn (mission number %(n)s)") % {"n": lt.get("target")},
            "plays": plays,
            "outcome": _("%(name)s won it.") % {"name": ctx.name(lt.get("winner"))}
            if lt.get("winner") is not None
            else "",
        }

    def extra_cards(self, ctx: Ctx) -> list[dict]:
        collections = ctx.view.get("collections") or []
        if ctx.seat is not None and ctx.seat < len(collections) and collections[ctx.seat]:
            return [
                {
                    "title": _("Your collection"),
                    "cards": [self.card(ctx, c) for c in collections[ctx.seat]],
                }
            ]
        return []
