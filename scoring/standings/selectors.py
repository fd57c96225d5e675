"""Reads for the standings: the one place every consumer takes them from
(pages, prints, certificates, exports, the season, seating by standings),
computed by :mod:`scoring.standings.compute` from the results app's data
(:func:`scoring.selectors.players_data`, :func:`scoring.selectors.results_data`)."""

from __future__ import annotations

from django.db.models import Count

from scoring.selectors import (
    players_data,
    players_data_of,
    results_data,
    results_data_of,
    with_a_game,
)
from scoring.standings.compute import Row, compute_standings
from tournaments import providers
from tournaments.models import Round, Tournament


def standings(
    tournament: Tournament, *, up_to_round: int | None = None, played_only: bool = False
) -> list[Row]:
    """The standings from the confirmed results (best first): the one place
    every consumer takes them from (pages, prints, certificates, exports, the
    season). ``played_only``: only players with a counted game or bye.

    With a final stage, the rounds of the stage count as the final stage,
    not as more rounds: the finalists come first, ordered by each stage whose
    every table has its result (``tournaments.finals.ordering``, handed in
    as ``tournaments.providers.final_standings``), then
    everyone else by the standings of the qualifying rounds."""
    players = players_data(tournament)
    results = results_data(tournament, up_to_round=up_to_round)
    if played_only:
        players, _none = with_a_game(players, results)
    return standings_of(tournament, players, results, up_to_round=up_to_round)


def standings_of(
    tournament: Tournament,
    players: list[dict],
    results: list[dict],
    *,
    up_to_round=None,
    stages: list | None = None,
) -> list[Row]:
    """The standings of these players and results (a correction's preview
    passes the results it would give), a final stage's order applied as in
    :func:`standings`. ``stages``: the final stage's rounds as
    ``(number, stage, tables)``, read here when not given."""
    options = {"scheme": tournament.points_scheme, "order": tournament.tiebreaks or None}
    if stages is None:
        stages = _stage_rounds([tournament.pk], up_to_round)[tournament.pk]
    if not stages:
        return compute_standings(players, results, **options)
    return providers.final_standings(tournament, players, results, stages, options)


def _stage_rounds(tournament_ids, up_to_round=None) -> dict[int, list]:
    """The rounds of each tournament's final stage as ``(number, stage,
    tables)``, in one query, by tournament id."""
    out: dict[int, list] = {pk: [] for pk in tournament_ids}
    rounds = Round.objects.filter(tournament_id__in=list(out)).exclude(stage="")
    if up_to_round is not None:
        rounds = rounds.filter(number__lte=up_to_round)
    for tid, number, stage, n_tables in rounds.annotate(n_tables=Count("tables")).values_list(
        "tournament_id", "number", "stage", "n_tables"
    ):
        out[tid].append((number, stage, n_tables))
    return out


def standings_of_many(tournaments: list[Tournament]) -> dict[int, list[Row]]:
    """:func:`standings` of several tournaments, by id: the same rows, read
    in a fixed number of queries (and one more per tournament that has a
    final stage, for the stage's mode)."""
    ids = [t.pk for t in tournaments]
    players, results, stages = players_data_of(ids), results_data_of(ids), _stage_rounds(ids)
    return {
        t.pk: standings_of(t, players[t.pk], results[t.pk], stages=stages[t.pk])
        for t in tournaments
    }
