"""Standings (organizer and public), a player's history, a round's results."""

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import NoReverseMatch, reverse

from scoring import reports
from tournaments.permissions import STAFF, public_tournament, tournament_view


def _after_round(request, tournament) -> int | None:
    """``?round=N``: the standings after round N (an unknown round: 404)."""
    value = request.GET.get("round")
    if not value:
        return None
    if not value.isdigit() or not tournament.round_set.filter(number=int(value)).exists():
        raise Http404
    return int(value)


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
    context = _context(tournament, _after_round(request, tournament))
    context["role"] = request.tournament_role
    return render(request, "scoring/standings.html", context)


def standings_public(request, tournament_id):
    tournament = public_tournament(tournament_id)
    return render(
        request,
        "scoring/standings_public.html",
        _context(tournament, _after_round(request, tournament)),
    )


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
