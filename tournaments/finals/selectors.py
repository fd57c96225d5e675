"""Reads of the final stage: its settings, who qualifies (and why) from the
qualifying standings, who goes on from the semi-finals, what blocks seating
the next stage, and the final page's data."""

from __future__ import annotations

from dataclasses import dataclass, replace

from django.utils.translation import gettext as _

from scoring.selectors import results_data, with_a_game
from scoring.standings.compute import Row, compute_standings
from scoring.standings.selectors import standings, standings_of
from tournaments.finals import formats
from tournaments.finals import messages as texts
from tournaments.finals.advancement import StageTable, advance
from tournaments.finals.models import FinalStage
from tournaments.finals.ordering import Qualifying, final_order
from tournaments.finals.qualification import Decision, Standing, qualify
from tournaments.models import Round, Seat, Tournament, deck_problem
from tournaments.tiebreaks import DEFAULT_ORDER


def stage_settings(tournament: Tournament) -> FinalStage:
    """The tournament's final stage settings (unsaved defaults: no final)."""
    found = FinalStage.objects.filter(tournament=tournament).first()
    if found is not None:
        return found
    return FinalStage(
        tournament=tournament,
        final_size=tournament.table_size,
        semi_size=tournament.table_size,
        minutes=tournament.round_minutes,
    )


def config_of(stage: FinalStage) -> formats.Config:
    return formats.Config(
        format=stage.format,
        final_size=stage.final_size,
        semi_tables=stage.semi_tables,
        semi_size=stage.semi_size,
        advance=stage.advance,
        mode=stage.mode,
    )


def stage_rounds(tournament: Tournament) -> dict[str, Round]:
    """The stage's rounds seated so far, by stage."""
    return {r.stage: r for r in Round.objects.filter(tournament=tournament).exclude(stage="")}


def field_size(tournament: Tournament) -> int:
    """The players taking part (registered, not dropped)."""
    return tournament.players.filter(dropped=False).count()


def stage_sizes(tournament: Tournament) -> list[int]:
    """The table sizes a stage's table may have: the game's sizes at which
    the tournament's deck deals (the engine decides), whatever sizes the
    qualifying rounds allow."""
    engine = tournament.engine
    return [
        n
        for n in range(engine.min_players, engine.max_players + 1)
        if not deck_problem(engine, tournament.game_options, [n])
    ]


def settings_problems(tournament: Tournament, config: formats.Config) -> list[str]:
    """The settings' problems for this tournament, translated."""
    found = formats.problems(config, sizes=stage_sizes(tournament), field=field_size(tournament))
    return [texts.problem(code, params) for code, params in found]


def qualification(tournament: Tournament, count: int, rows=None) -> list[Decision]:
    """Who qualifies from the standings after the qualifying rounds (or from
    ``rows``, such standings), and why (ties at the cut by the tournament's
    tiebreaks)."""
    order = list(tournament.tiebreaks or DEFAULT_ORDER)
    if rows is None:
        rows = standings(tournament, up_to_round=tournament.rounds, played_only=True)
    table = [
        Standing(
            r.player_id,
            r.place,
            r.dropped,
            {name: getattr(r, name, None) for name in order},
        )
        for r in rows
    ]
    return qualify(table, count, order, seed=tournament.pk or 0)


def semi_results(tournament: Tournament, semi: Round) -> list[StageTable]:
    """The semi-final's tables with their confirmed results."""
    return [
        StageTable(e["table"], tuple(e["seats"]), tuple(e["ranks"]), tuple(e["figures"] or ()))
        for e in results_data(tournament, up_to_round=semi.number)
        if e["round"] == semi.number and "seats" in e
    ]


def seeds(tournament: Tournament, count: int) -> dict:
    """Player id -> qualifying seed (1 = the best) of the qualifiers."""
    return {d.player_id: d.seed for d in qualification(tournament, count) if d.qualified}


def next_stage(tournament: Tournament, config: formats.Config) -> tuple[str | None, str | None]:
    """(the stage to seat next or None, why it can't be seated now or None)."""
    if tournament.finished:
        return None, _("The tournament is finished: no final stage can be seated.")
    if not config.active:
        return None, _("This tournament has no final stage: choose one in the settings below.")
    seated = stage_rounds(tournament)
    todo = [s for s in config.stages if s not in seated]
    if not todo:
        return None, _("The final stage is seated.")
    stage = todo[0]
    if stage == formats.FINAL and formats.SEMI in seated:
        if seated[formats.SEMI].status != Round.COMPLETE:
            return stage, _(
                "The semi-finals are not complete yet: the final is seated once every "
                "semi-final table has its result and the round has ended."
            )
        return stage, None
    rounds = list(Round.objects.filter(tournament=tournament, stage="").order_by("number"))
    done = sum(1 for r in rounds if r.status == Round.COMPLETE)
    if len(rounds) < tournament.rounds or done < len(rounds):
        return stage, _(
            "The final stage is seated after the last qualifying round: %(done)s of "
            "%(total)s rounds are complete."
        ) % {"done": done, "total": tournament.rounds}
    problems = settings_problems(tournament, config)
    if problems:
        return stage, problems[0]
    return stage, None


@dataclass
class Line:
    """A player's line on the final page: name, club and the reason."""

    player_id: int
    name: str
    club: str
    qualified: bool
    seed: int | None
    text: str


def _names(tournament: Tournament) -> dict[int, tuple[str, str]]:
    return {
        pk: (name, club) for pk, name, club in tournament.players.values_list("pk", "name", "club")
    }


def qualification_lines(tournament: Tournament, count: int) -> list[Line]:
    names = _names(tournament)
    return [
        Line(
            d.player_id,
            *names.get(d.player_id, ("?", "")),
            d.qualified,
            d.seed,
            texts.qualification(d.code, d.params),
        )
        for d in qualification(tournament, count)
    ]


def seated_players(rnd: Round) -> set[int]:
    return set(
        Seat.objects.filter(table__round=rnd, player__isnull=False).values_list(
            "player_id", flat=True
        )
    )


def impact(tournament: Tournament, config: formats.Config, rows=None) -> dict | None:
    """After the first stage is seated: who qualifies now (or with the
    qualifying standings ``rows``, e.g. a correction's) but is not seated
    (``in``) and who is seated but would not qualify (``out``), by name; None
    when the seated stage matches, or none is seated."""
    seated = stage_rounds(tournament)
    first = seated.get(config.stages[0]) if config.stages else None
    if first is None:
        return None
    decisions = qualification(tournament, config.qualifiers, rows)
    now = {d.player_id for d in decisions if d.qualified}
    at_table = seated_players(first)
    if now == at_table:
        return None
    names = _names(tournament)
    return {
        "round": first,
        "in": sorted(names[p][0] for p in now - at_table),
        "out": sorted(names[p][0] for p in at_table - now),
    }


def correction_impact(tournament: Tournament, players: list[dict], results: list[dict]):
    """What a correction's results (``results``, every round) would change
    in who qualified for the seated final stage (:func:`impact`), or None."""
    stage = FinalStage.objects.filter(tournament=tournament).first()
    if stage is None or not Round.objects.filter(tournament=tournament).exclude(stage="").exists():
        return None
    qualifying = [e for e in results if e["round"] <= tournament.rounds]
    players, _none = with_a_game(players, qualifying)
    rows = standings_of(tournament, players, qualifying, up_to_round=tournament.rounds)
    return impact(tournament, config_of(stage), rows)


def advancement_lines(tournament: Tournament, config: formats.Config) -> list[Line]:
    """Who goes on from the semi-finals (once they are complete), and why."""
    semi = stage_rounds(tournament).get(formats.SEMI)
    if semi is None or semi.status != Round.COMPLETE:
        return []
    decisions, _finalists = advance(
        semi_results(tournament, semi), config.advance, seeds(tournament, config.qualifiers)
    )
    names = _names(tournament)
    return [
        Line(
            d.player_id,
            *names.get(d.player_id, ("?", "")),
            d.advances,
            None,
            texts.advancement(d.code, d.rank, d.table),
        )
        for d in decisions
    ]


def final_result_lines(tournament: Tournament) -> list[dict]:
    """The finalists' final places and what settled each (once the final
    has its result)."""
    rows = standings(tournament, played_only=True)
    game = tournament.engine.name
    return [
        {
            "place": r.place,
            "name": r.name,
            "stage": r.stage,
            "stage_rank": r.stage_rank,
            "settled": texts.settled(r.settled, game),
        }
        for r in rows
        if r.stage
    ]


def final_page(tournament: Tournament) -> dict:
    """Everything the final page shows."""
    stage = stage_settings(tournament)
    config = config_of(stage)
    upcoming, blocker = next_stage(tournament, config)
    seated = stage_rounds(tournament)
    lines = (
        qualification_lines(tournament, config.qualifiers)
        if config.active and tournament.round_set.filter(stage="").exists()
        else []
    )
    return {
        "stage": stage,
        "config": config,
        "upcoming": upcoming,
        "blocker": blocker,
        "all_seated": bool(config.stages) and all(s in seated for s in config.stages),
        "seated": [seated[s] for s in config.stages if s in seated]
        or sorted(seated.values(), key=lambda r: r.number),
        "editable": not seated and not tournament.finished,
        "qualification": lines,
        "advancement": advancement_lines(tournament, config)
        if config.format == formats.SEMIS
        else [],
        "impact": impact(tournament, config),
        "results": final_result_lines(tournament) if seated else [],
    }


def final_standings(tournament, players, results, stages, options) -> list[Row]:
    """The standings ordered by the final stage (see
    :func:`scoring.standings.selectors.standings`, which asks for them through
    :mod:`tournaments.providers`)."""
    numbers = {number for number, _stage, _n in stages}
    qualifying = compute_standings(
        players, [e for e in results if e["round"] not in numbers], **options
    )
    mode = (
        FinalStage.objects.filter(tournament=tournament).values_list("mode", flat=True).first()
        or FinalStage.REPLACE
    )
    played = []  # each stage with every table's result, the last one first
    for number, stage, n_tables in sorted(stages, reverse=True):
        tables = [
            StageTable(e["table"], tuple(e["seats"]), tuple(e["ranks"]), tuple(e["figures"] or ()))
            for e in results
            if e["round"] == number and "seats" in e
        ]
        if tables and len(tables) == n_tables:
            played.append((stage, tables))
    by_id = {row.player_id: row for row in qualifying}
    totals, with_stage = None, {}
    if mode == FinalStage.ADD:
        with_stage = {row.player_id: row for row in compute_standings(players, results, **options)}
        totals = {p: row.points for p, row in with_stage.items()}
    order = final_order(
        [Qualifying(r.player_id, r.place, r.shared) for r in qualifying], played, mode, totals
    )
    out = []
    for placed in order:
        row = by_id[placed.player_id]
        if placed.stage and mode == FinalStage.ADD:
            row = with_stage[placed.player_id]
        out.append(
            replace(
                row,
                place=placed.place,
                shared=placed.shared,
                stage=placed.stage,
                stage_rank=placed.stage_rank,
                settled=placed.settled,
            )
        )
    return out


def stage_to_seat(tournament: Tournament) -> str:
    """The final stage's next round to seat ("semi", "final"), "" when
    there is none (no final stage, or every stage seated)."""
    fmt = FinalStage.objects.filter(tournament=tournament).values_list("format", flat=True).first()
    stages = {FinalStage.TABLE: ["final"], FinalStage.SEMIS: ["semi", "final"]}.get(fmt, [])
    seated = set(
        Round.objects.filter(tournament=tournament)
        .exclude(stage="")
        .values_list("stage", flat=True)
    )
    return next((s for s in stages if s not in seated), "")


def stage_possible(tournament: Tournament) -> bool:
    """True when the organizer has not chosen a final stage (nor chosen none)
    yet, and a final table of the best would fit this tournament: its
    default settings as a final table have no problem."""
    if FinalStage.objects.filter(tournament=tournament).exists():
        return False
    config = replace(config_of(stage_settings(tournament)), format=formats.TABLE)
    return not formats.problems(
        config, sizes=stage_sizes(tournament), field=field_size(tournament)
    ) and config.final_size < field_size(tournament)


def final_decides(tournament: Tournament) -> bool:
    """True when the final stage's results decide the finalists' places (its
    mode "replace"), so a finalist's qualifying points say nothing about the
    place: the certificates name the stage and place there instead."""
    mode = FinalStage.objects.filter(tournament=tournament).values_list("mode", flat=True).first()
    return mode == FinalStage.REPLACE
