"""Rounds and their seating: the rounds list with "Seat round N", a round's
seating with the why of each table, swap / move / publish while a draft."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from tournaments import selectors
from tournaments.collation import sort_by_name
from tournaments.models import Round
from tournaments.permissions import OWNER, STAFF, tournament_view
from tournaments.services import ServiceError
from tournaments.services import seating as seating_services

MODE_CHOICES = [
    ("swiss", gettext_lazy("By standings (Swiss)")),
    ("mixing", gettext_lazy("Mixing: meet as many different players as possible")),
    ("random", gettext_lazy("Random")),
]

#: Table.why codes → message (params fill the placeholders)
WHY_MESSAGES = {
    "repeat": gettext_lazy(
        "%(a)s and %(b)s meet again (at one table in round %(rounds)s): "
        "no seating without this repeat was found."
    ),
    "repeat_manual": gettext_lazy(
        "%(a)s and %(b)s meet again (at one table in round %(rounds)s): changed by hand."
    ),
    "moved_up": gettext_lazy(
        "%(name)s (score %(score)s) plays above their score group (scores %(low)s–%(high)s)."
    ),
    "moved_down": gettext_lazy(
        "%(name)s (score %(score)s) plays below their score group (scores %(low)s–%(high)s)."
    ),
    "small_table": gettext_lazy(
        "Small table (%(size)s instead of %(preferred)s players): the lowest in the standings "
        "among those with the fewest small tables so far (small tables before: %(had)s)."
    ),
    "small_table_drawn": gettext_lazy(
        "Small table (%(size)s instead of %(preferred)s players), drawn with the seating "
        "(small tables before: %(had)s)."
    ),
    "large_table": gettext_lazy(
        "Large table (%(size)s instead of %(preferred)s players): the player count does not "
        "divide into tables of %(preferred)s."
    ),
    "short_table": gettext_lazy(
        "A table of %(size)s is left (allowed: %(sizes)s): no re-seating after the drop "
        "fits the allowed sizes. Move players by hand."
    ),
    "team_split": gettext_lazy("Team %(team)s could not sit together."),
    "club_together": gettext_lazy(
        "%(a)s and %(b)s (%(club)s) sit at one table although club-mates are kept apart."
    ),
    "bye": gettext_lazy(
        "%(name)s has a bye: the lowest in the standings among those with the fewest byes "
        "(byes before: %(count)s)."
    ),
}


def why_text(items) -> list[str]:
    out = []
    for item in items or []:
        msg = WHY_MESSAGES.get(item.get("code"))
        if msg is None:
            continue
        try:
            out.append(str(msg) % item.get("params", {}))
        except (KeyError, TypeError, ValueError):
            out.append(str(msg))
    return out


class SeatRoundForm(forms.Form):
    mode = forms.ChoiceField(label=gettext_lazy("Seating"), choices=MODE_CHOICES)
    seed = forms.IntegerField(
        label=gettext_lazy("Seed"),
        required=False,
        min_value=0,
        help_text=gettext_lazy("Optional: the same seed gives the same seating."),
    )
    clubs_apart = forms.BooleanField(label=gettext_lazy("Keep club-mates apart"), required=False)

    def __init__(self, *args, tournament=None, **kwargs):
        super().__init__(*args, **kwargs)
        if tournament is not None and tournament.team_mode:
            del self.fields["clubs_apart"]


def _round_players(rnd, data=None) -> list[tuple[int, str]]:
    data = data or selectors.round_seating(rnd)
    choices = []
    for t in data["tables"]:
        for s in t["seats"]:
            choices.append(
                (s["player"].pk, f"{s['player'].name} · {_('table')} {t['table'].number}")
            )
    for b in data["byes"]:
        choices.append((b["player"].pk, f"{b['player'].name} · {_('bye')}"))
    return sort_by_name(choices, lambda c: c[1])


class SwapForm(forms.Form):
    player_a = forms.TypedChoiceField(label=gettext_lazy("Player"), coerce=int)
    player_b = forms.TypedChoiceField(label=gettext_lazy("swap with"), coerce=int)

    def __init__(self, *args, choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player_a"].choices = choices
        self.fields["player_b"].choices = choices


class MoveForm(forms.Form):
    player = forms.TypedChoiceField(label=gettext_lazy("Player"), coerce=int)
    table = forms.TypedChoiceField(label=gettext_lazy("to table"), coerce=int)

    def __init__(self, *args, choices=(), tables=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = choices
        self.fields["table"].choices = [(n, str(n)) for n in tables]


@tournament_view(STAFF)
def round_list(request, tournament):
    nxt = selectors.next_round(tournament)
    form = SeatRoundForm(initial={"mode": nxt["mode"]}, tournament=tournament)
    return render(
        request,
        "tournaments/rounds.html",
        {
            "tournament": tournament,
            "role": request.tournament_role,
            "rounds": selectors.rounds_of(tournament),
            "next": nxt,
            "form": form,
        },
    )


@tournament_view(OWNER)
@require_POST
def round_seat(request, tournament):
    form = SeatRoundForm(request.POST, tournament=tournament)
    if not form.is_valid():
        for errors in form.errors.values():
            for e in errors:
                messages.error(request, e)
        return redirect("round_list", tournament.pk)
    try:
        rnd = seating_services.round_seat(
            tournament=tournament,
            by=request.user,
            mode=form.cleaned_data["mode"],
            seed=form.cleaned_data.get("seed"),
            clubs_apart=form.cleaned_data.get("clubs_apart", False),
        )
    except ServiceError as exc:
        messages.error(request, str(exc))
        return redirect("round_list", tournament.pk)
    messages.success(request, _("Round %(n)s seated.") % {"n": rnd.number})
    return redirect("round_seating", tournament.pk, rnd.number)


def _seating_context(request, tournament, rnd):
    data = selectors.round_seating(rnd)
    for t in data["tables"]:
        t["why"] = why_text(t["table"].why)
    data["bye_why"] = why_text(data["stats"].get("bye_why"))
    draft = not rnd.published and rnd.status == Round.SEATED
    context = {
        "tournament": tournament,
        "role": request.tournament_role,
        "round": rnd,
        "draft": draft,
        "data": data,
        "mode_label": dict(MODE_CHOICES).get(data["stats"].get("mode"), ""),
        "changes": [{"change": c, "text": _change_text(c)} for c in data["changes"]],
    }
    if draft and request.tournament_role == "owner":
        choices = _round_players(rnd, data)
        context["swap_form"] = SwapForm(choices=choices)
        context["move_form"] = MoveForm(
            choices=choices, tables=[t["table"].number for t in data["tables"]]
        )
    return context


def _change_text(change) -> str:
    d = change.detail or {}
    if change.kind == "swap" and d.get("names"):
        return _("%(a)s and %(b)s swapped.") % {"a": d["names"][0], "b": d["names"][1]}
    if change.kind == "move" and d.get("name"):
        return _("%(name)s moved to table %(table)s.") % {"name": d["name"], "table": d.get("to")}
    if change.kind == "reseat" and d.get("name"):
        tables = ", ".join(str(n) for n in d.get("tables", [])) or "–"
        return _("%(name)s dropped; tables re-seated: %(tables)s.") % {
            "name": d["name"],
            "tables": tables,
        }
    if change.kind == "seat":
        return _("Seated: %(mode)s, seed %(seed)s.") % {
            "mode": dict(MODE_CHOICES).get(d.get("mode"), d.get("mode", "")),
            "seed": d.get("seed", ""),
        }
    return change.get_kind_display()


@tournament_view(STAFF)
def round_seating(request, tournament, number):
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    return render(
        request, "tournaments/round_seating.html", _seating_context(request, tournament, rnd)
    )


def _repeat_warning(request, detail):
    for r in detail.get("repeats", []):
        messages.warning(
            request,
            _("%(a)s and %(b)s meet again (round %(rounds)s).")
            % {"a": r["a"], "b": r["b"], "rounds": r["rounds"]},
        )


def _form_errors(request, form):
    for errors in form.errors.values():
        for e in errors:
            messages.error(request, e)


@tournament_view(OWNER)
@require_POST
def seating_swap(request, tournament, number):
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    form = SwapForm(request.POST, choices=_round_players(rnd))
    if form.is_valid():
        players = tournament.players.in_bulk(
            [form.cleaned_data["player_a"], form.cleaned_data["player_b"]]
        )
        try:
            detail = seating_services.seating_swap(
                round=rnd,
                player_a=players[form.cleaned_data["player_a"]],
                player_b=players[form.cleaned_data["player_b"]],
                by=request.user,
            )
        except ServiceError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("Players swapped."))
            _repeat_warning(request, detail)
    else:
        _form_errors(request, form)
    return redirect("round_seating", tournament.pk, rnd.number)


@tournament_view(OWNER)
@require_POST
def seating_move(request, tournament, number):
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    tables = list(rnd.tables.values_list("number", flat=True))
    form = MoveForm(request.POST, choices=_round_players(rnd), tables=tables)
    if form.is_valid():
        player = get_object_or_404(tournament.players, pk=form.cleaned_data["player"])
        try:
            detail = seating_services.seating_move(
                round=rnd, player=player, table_number=form.cleaned_data["table"], by=request.user
            )
        except ServiceError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _("Player moved."))
            _repeat_warning(request, detail)
    else:
        _form_errors(request, form)
    return redirect("round_seating", tournament.pk, rnd.number)


@tournament_view(OWNER)
@require_POST
def seating_publish(request, tournament, number):
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    try:
        seating_services.seating_publish(round=rnd, by=request.user)
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Seating of round %(n)s published.") % {"n": rnd.number})
    return redirect("round_seating", tournament.pk, rnd.number)
