"""Rounds and their seating: the rounds list with "Seat round N", a round's
seating with the why of each table, swap / move / publish while a draft."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_POST

from tournaments import selectors
from tournaments.collation import sort_by_name
from tournaments.models import SEATING_MODES as MODE_CHOICES
from tournaments.models import Round, SeatingChange
from tournaments.permissions import STAFF, tournament_view
from tournaments.seating.request import RATING_MODES
from tournaments.seating_messages import why_text
from tournaments.selectors import round_or_404, unconfirmed_ratings
from tournaments.services import seating as seating_services
from tournaments.views._helpers import service_error_as_message
from tournaments.views._ratings import unconfirmed_text


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
            if s["player"] is None:  # an empty seat: the bot plays it
                continue
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


class AddPlayerForm(forms.Form):
    player = forms.TypedChoiceField(label=gettext_lazy("Late arrival"), coerce=int)

    def __init__(self, *args, choices=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = choices


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
    form = SeatRoundForm(
        initial={"mode": nxt["mode"], "clubs_apart": tournament.clubs_apart},
        tournament=tournament,
    )
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


@tournament_view("seat")
@require_POST
def round_seat(request, tournament):
    form = SeatRoundForm(request.POST, tournament=tournament)
    if not form.is_valid():
        for errors in form.errors.values():
            for e in errors:
                messages.error(request, e)
        return redirect("round_list", tournament.pk)
    with service_error_as_message(request):
        rnd = seating_services.round_seat(
            tournament=tournament,
            by=request.user,
            mode=form.cleaned_data["mode"],
            seed=form.cleaned_data.get("seed"),
            clubs_apart=form.cleaned_data.get("clubs_apart", False),
        )
        messages.success(request, _("Round %(n)s seated.") % {"n": rnd.number})
        if rnd.seating_mode in RATING_MODES:  # a player's own number seeds nothing
            unconfirmed = unconfirmed_ratings(tournament)
            if unconfirmed:
                messages.warning(request, unconfirmed_text(unconfirmed))
        return redirect("round_seating", tournament.pk, rnd.number)
    return redirect("round_list", tournament.pk)


def _seating_context(request, tournament, rnd):
    data = selectors.round_seating(rnd)
    names = {p.pk: p.name for p in tournament.players.all()}
    teams = dict(tournament.teams.values_list("pk", "name"))
    for t in data["tables"]:
        t["why"] = why_text(t["table"].why, names, teams)
    data["bye_why"] = why_text(data["stats"].get("bye_why"), names, teams)
    draft = not rnd.published and rnd.status == Round.SEATED
    context = {
        "tournament": tournament,
        "role": request.tournament_role,
        "round": rnd,
        "draft": draft,
        "data": data,
        "mode_label": rnd.get_seating_mode_display(),
        "changes": [{"change": c, "text": _change_text(c)} for c in data["changes"]],
    }
    context["can_unpublish"] = (
        rnd.published and rnd.status == Round.SEATED and request.tournament_role == "owner"
    )
    context["counts"] = {
        "players": sum(1 for t in data["tables"] for s in t["seats"] if s["player"])
        + len(data["byes"]),
        "tables": len(data["tables"]),
        "byes": len(data["byes"]),
        "bot_seats": sum(1 for t in data["tables"] for s in t["seats"] if not s["player"]),
    }
    if draft and request.tournament_role == "owner":
        late = selectors.late_candidates(rnd)
        if late:
            context["add_form"] = AddPlayerForm(choices=[(p.pk, p.name) for p in late])
        choices = _round_players(rnd, data)
        context["swap_form"] = SwapForm(choices=choices)
        context["move_form"] = MoveForm(
            choices=choices, tables=[t["table"].number for t in data["tables"]]
        )
    return context


def _change_text(change) -> str:
    d = change.detail or {}
    if change.kind == SeatingChange.SWAP and d.get("names"):
        return _("%(a)s and %(b)s swapped.") % {"a": d["names"][0], "b": d["names"][1]}
    if change.kind == SeatingChange.MOVE and d.get("name"):
        return _("%(name)s moved to table %(table)s.") % {"name": d["name"], "table": d.get("to")}
    if change.kind == "reseat" and d.get("replaced_by_name"):  # a final stage's round
        return _("%(name)s dropped; %(other)s takes the seat.") % {
            "name": d.get("name", ""),
            "other": d["replaced_by_name"],
        }
    if change.kind == "reseat" and d.get("name"):
        tables = ", ".join(str(n) for n in d.get("tables", [])) or "–"
        return _("%(name)s dropped; tables re-seated: %(tables)s.") % {
            "name": d["name"],
            "tables": tables,
        }
    if change.kind == "late" and d.get("name"):
        if d.get("bye"):
            return _("%(name)s joined the draft with a bye.") % {"name": d["name"]}
        tables = ", ".join(str(n) for n in d.get("tables", [])) or "–"
        return _("%(name)s joined the draft; tables changed: %(tables)s.") % {
            "name": d["name"],
            "tables": tables,
        }
    if change.kind == "seat" and d.get("stage"):
        return _("Seated by the qualifying standings (final stage).")
    if change.kind == "seat":
        return _("Seated: %(mode)s, seed %(seed)s.") % {
            "mode": dict(MODE_CHOICES).get(d.get("mode"), d.get("mode", "")),
            "seed": d.get("seed", ""),
        }
    if change.kind == "discard" and "tables" in d:
        return ngettext(
            "An earlier draft of round %(n)s (%(tables)s table) was discarded.",
            "An earlier draft of round %(n)s (%(tables)s tables) was discarded.",
            d["tables"],
        ) % {"n": d.get("round", ""), "tables": d["tables"]}
    return change.get_kind_display()


@tournament_view(STAFF)
def round_seating(request, tournament, number):
    rnd = round_or_404(tournament, number)
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


@tournament_view("seat")
@require_POST
def seating_swap(request, tournament, number):
    rnd = round_or_404(tournament, number)
    form = SwapForm(request.POST, choices=_round_players(rnd))
    if form.is_valid():
        players = tournament.players.in_bulk(
            [form.cleaned_data["player_a"], form.cleaned_data["player_b"]]
        )
        with service_error_as_message(request):
            detail = seating_services.seating_swap(
                round=rnd,
                player_a=players[form.cleaned_data["player_a"]],
                player_b=players[form.cleaned_data["player_b"]],
                by=request.user,
            )
            messages.success(request, _("Players swapped."))
            _repeat_warning(request, detail)
    else:
        _form_errors(request, form)
    return redirect("round_seating", tournament.pk, rnd.number)


@tournament_view("seat")
@require_POST
def seating_move(request, tournament, number):
    rnd = round_or_404(tournament, number)
    tables = list(rnd.tables.values_list("number", flat=True))
    form = MoveForm(request.POST, choices=_round_players(rnd), tables=tables)
    if form.is_valid():
        player = get_object_or_404(tournament.players, pk=form.cleaned_data["player"])
        with service_error_as_message(request):
            detail = seating_services.seating_move(
                round=rnd, player=player, table_number=form.cleaned_data["table"], by=request.user
            )
            messages.success(request, _("Player moved."))
            _repeat_warning(request, detail)
    else:
        _form_errors(request, form)
    return redirect("round_seating", tournament.pk, rnd.number)


@tournament_view("seat")
@require_POST
def seating_publish(request, tournament, number):
    rnd = round_or_404(tournament, number)
    with service_error_as_message(request):
        seating_services.seating_publish(round=rnd, by=request.user)
        messages.success(request, _("Seating of round %(n)s published.") % {"n": rnd.number})
    return redirect("round_seating", tournament.pk, rnd.number)


@tournament_view("seat")
@require_POST
def seating_unpublish(request, tournament, number):
    rnd = round_or_404(tournament, number)
    with service_error_as_message(request):
        seating_services.seating_unpublish(round=rnd, by=request.user)
        messages.success(
            request,
            _("Seating of round %(n)s is a draft again: players no longer see it.")
            % {"n": rnd.number},
        )
    return redirect("round_seating", tournament.pk, rnd.number)


@tournament_view("seat")
@require_POST
def seating_discard(request, tournament, number):
    rnd = round_or_404(tournament, number)
    with service_error_as_message(request):
        seating_services.seating_discard(round=rnd, by=request.user)
        messages.success(
            request,
            _("The draft of round %(n)s was discarded: seat the round again.") % {"n": number},
        )
        return redirect("round_list", tournament.pk)
    return redirect("round_seating", tournament.pk, rnd.number)


@tournament_view("seat")
@require_POST
def seating_add_player(request, tournament, number):
    rnd = round_or_404(tournament, number)
    late = selectors.late_candidates(rnd)
    form = AddPlayerForm(request.POST, choices=[(p.pk, p.name) for p in late])
    if form.is_valid():
        player = next(p for p in late if p.pk == form.cleaned_data["player"])
        with service_error_as_message(request):
            detail = seating_services.seating_add_player(round=rnd, player=player, by=request.user)
            if detail.get("bye"):
                messages.success(
                    request, _("%(name)s joined the draft with a bye.") % {"name": player.name}
                )
            else:
                messages.success(
                    request,
                    _("%(name)s joined the draft at table %(table)s.")
                    % {"name": player.name, "table": detail.get("table")},
                )
            _repeat_warning(request, detail)
    else:
        _form_errors(request, form)
    if request.POST.get("back") == "players":  # pressed on the check-in page
        return redirect("player_list", tournament.pk)
    return redirect("round_seating", tournament.pk, rnd.number)
