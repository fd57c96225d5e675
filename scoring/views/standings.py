"""Standings (organizer and public), a player's history, a round's results."""

from django.shortcuts import get_object_or_404, render
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _

from scoring import reports
from tournaments.params import parse_int
from tournaments.permissions import STAFF, public_tournament, tournament_view
from tournaments.problems import problem


class BadRound(Exception):
    pass


def _after_round(request, tournament) -> int | None:
    """``?round=N``: the standings after round N (not a round: ``BadRound``)."""
    value = request.GET.get("round")
    if not value:
        return None
    number = parse_int(value, minimum=1)
    if number is None or not tournament.round_set.filter(number=number).exists():
        raise BadRound(value)
    return number


def round_problem(request, value):
    return problem(
        request,
        _("“%(value)s” is not a round of this tournament.") % {"value": value},
        status=404,
    )


def _context(tournament, after):
    return {
        "tournament": tournament,
        "rows": reports.standings_rows(tournament, up_to_round=after),
        "no_game": reports.players_without_game(tournament, up_to_round=after),
        "after": after,
        "round_numbers": reports.round_numbers(tournament),
        "order": tournament.tiebreaks or [],
        "figure_label": reports.figure_label(tournament),
    }


@tournament_view(STAFF)
def standings_page(request, tournament):
    try:
        context = _context(tournament, _after_round(request, tournament))
    except BadRound as exc:
        return round_problem(request, exc.args[0])
    context["role"] = request.tournament_role
    return render(request, "scoring/standings.html", context)


def standings_public(request, tournament_id):
    tournament = public_tournament(tournament_id)
    try:
        after = _after_round(request, tournament)
    except BadRound as exc:
        return round_problem(request, exc.args[0])
    return render(request, "scoring/standings_public.html", _context(tournament, after))


@tournament_view(STAFF)
def player_history(request, tournament, player_id):
    player = get_object_or_404(tournament.players, pk=player_id)
    return render(
        request,
        "scoring/player_history.html",
        {
            "tournament": tournament,
            "role": request.tournament_role,
            "player": player,
            "rows": reports.player_history(tournament, player),
            "total": reports.player_total(tournament, player),
            "figure_label": reports.figure_label(tournament),
        },
    )


def _entry_url(tournament_id, number, table) -> str | None:
    try:
        return reverse("result_entry", args=[tournament_id, number, table])
    except NoReverseMatch:  # result entry not installed
        return None


@tournament_view(STAFF)
def round_results(request, tournament, number):
    rnd = get_object_or_404(tournament.round_set, number=number)
    results = reports.round_results(tournament, number)
    for t in results["tables"]:
        t["entry_url"] = _entry_url(tournament.pk, number, t["number"])
    return render(
        request,
        "scoring/round_results.html",
        {
            "tournament": tournament,
            "role": request.tournament_role,
            "round": rnd,
            "round_numbers": reports.round_numbers(tournament),
            "figure_label": reports.figure_label(tournament),
            **results,
        },
    )
