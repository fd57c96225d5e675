"""The final stage's writes: its settings (until the stage is seated) and
seating a stage — the semi-finals or the final table — as a round of the
tournament marked with its stage, so the clock, the projector, the sheets,
the seat links, the spectator view and the review work as for any round.

Seating: the qualifiers by the qualifying standings (ties at the cut by the
tournament's tiebreaks: ``qualification``), table 1 seat 1 for the best,
semi-final tables in a snake of seeds, the finalists of semi-finals by their
qualifying seed (``advancement``); partners on their team seats where the
game has them; paper or digital as the tournament plays. The stage's round
is published at once (its seating is decided by the standings, nothing to
draft); to seat it anew the organizer unpublishes and discards it on its
seating page like any round.
"""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.standings.selectors import standings
from tournaments.authors import author
from tournaments.finals import formats
from tournaments.finals import messages as texts
from tournaments.finals.advancement import advance, seat_tables
from tournaments.finals.models import FinalStage
from tournaments.finals.selectors import (
    config_of,
    field_size,
    next_stage,
    qualification,
    seated_players,
    semi_results,
    settings_problems,
    stage_rounds,
    stage_settings,
)
from tournaments.models import Player, Round, Seat, SeatingChange, Table, Tournament
from tournaments.seating.order import team_seat_order
from tournaments.services.errors import ServiceError

SETTINGS = ("format", "final_size", "semi_tables", "semi_size", "advance", "minutes", "mode")


def _whole(value, lo: int, hi: int, label: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ServiceError(
            _("%(field)s must be a whole number from %(lo)s to %(hi)s.")
            % {"field": label, "lo": lo, "hi": hi}
        )
    return value


@transaction.atomic
def final_stage_save(*, tournament: Tournament, by, **values) -> FinalStage:
    """Save the final stage's settings (``SETTINGS``); refused once the stage
    is seated or the tournament finished, and for settings the game's table
    sizes (those its deck deals, ``selectors.stage_sizes``) or the field
    can't play."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.finished:
        raise ServiceError(_("The tournament is finished: its final stage can't change."))
    if stage_rounds(tournament):
        raise ServiceError(_("The final stage is seated: its settings can no longer change."))
    unknown = set(values) - set(SETTINGS)
    if unknown:
        raise ServiceError(_("Unknown setting: %(names)s") % {"names": ", ".join(sorted(unknown))})
    stage = stage_settings(tournament)
    for name, value in values.items():
        setattr(stage, name, value)
    if stage.format not in formats.FORMATS:
        raise ServiceError(_("Choose one of the final stage's formats."))
    if stage.mode not in formats.MODES:
        raise ServiceError(_("Choose whether the final replaces or adds to the places."))
    _whole(stage.minutes, 1, 600, _("The final stage's round length"))
    # the sizes' numbers only; which sizes the game plays: formats.problems
    for name, lo, hi in (
        ("final_size", 1, 99),
        ("semi_tables", 2, 8),
        ("semi_size", 1, 99),
        ("advance", 1, 99),
    ):
        _whole(getattr(stage, name), lo, hi, str(FinalStage._meta.get_field(name).verbose_name))
    problems = settings_problems(tournament, config_of(stage))
    if problems:
        raise ServiceError(" ".join(problems))
    stage.save()
    return stage


@transaction.atomic
def final_seat(*, tournament: Tournament, by) -> Round:
    """Seat the next stage of the final (see the module docstring); refused
    with the reason while it can't be seated (qualifying rounds or the
    semi-finals not complete, a finished tournament, a final larger than
    the field)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    config = config_of(stage_settings(tournament))
    stage, blocker = next_stage(tournament, config)
    if blocker or stage is None:
        raise ServiceError(blocker or _("The final stage is seated."))
    seeds = {
        d.player_id: d.seed for d in qualification(tournament, config.qualifiers) if d.qualified
    }
    seeded = sorted(seeds, key=seeds.get)
    if len(seeded) < config.qualifiers:
        raise ServiceError(
            texts.problem("larger_than_field", {"n": config.qualifiers, "field": len(seeded)})
        )
    if stage == formats.SEMI:
        tables = seat_tables(seeded, config.semi_tables)
    elif config.format == formats.SEMIS:
        semi = stage_rounds(tournament)[formats.SEMI]
        _decisions, finalists = advance(semi_results(tournament, semi), config.advance, seeds)
        if len(finalists) != config.final_size:
            raise ServiceError(
                texts.problem("semi_count", {"n": len(finalists), "size": config.final_size})
            )
        tables = [finalists]
    else:
        tables = [seeded]
    return _create_round(tournament, stage, tables, by)


def _create_round(tournament: Tournament, stage: str, tables: list[list], by):
    minutes = stage_settings(tournament).minutes
    points = {
        r.player_id: r.points
        for r in standings(tournament, up_to_round=tournament.rounds, played_only=True)
    }
    last = tournament.round_set.order_by("-number").values_list("number", flat=True).first() or 0
    rnd = Round.objects.create(
        tournament=tournament,
        number=last + 1,
        stage=stage,
        status=Round.SEATED,
        published=True,
        minutes=minutes,
        # the qualifying points the stage was seated by, as a round keeps them
        seating_scores={str(p): float(points.get(p, 0)) for t in tables for p in t},
        seating_stats={"players": sum(len(t) for t in tables), "tables": len(tables), "byes": 0},
    )
    rnd.tournament = tournament
    team_of = dict(
        Player.objects.filter(pk__in=[p for t in tables for p in t]).values_list("pk", "team_id")
    )
    seats = []
    for number, players in enumerate(tables, start=1):
        table = Table.objects.create(round=rnd, number=number, digital=tournament.digital_tables)
        groups = (
            tournament.engine.teams(len(players), tournament.game_options)
            if tournament.team_mode
            else None
        )
        order = team_seat_order(players, team_of, groups)  # partners on their team's seats
        seats += [Seat(table=table, player_id=p, position=k) for k, p in enumerate(order)]
    Seat.objects.bulk_create(seats)
    SeatingChange.objects.create(
        round=rnd,
        tournament=tournament,
        kind=SeatingChange.SEAT,
        by=author(by),
        detail={"stage": stage, "players": len(seats), "tables": len(tables)},
    )
    SeatingChange.objects.create(
        round=rnd, tournament=tournament, kind=SeatingChange.PUBLISH, by=author(by), detail={}
    )
    return rnd


@transaction.atomic
def final_replace_dropped(*, round: Round, player: Player, by) -> dict:  # noqa: A002
    """A player who drops out of a stage's round before it starts (called by
    the drop, ``services.seating.reseat_dropped_player``): the next in line
    takes the seat — in the first stage the best qualifier not seated (by
    the qualifying standings), in a final after semi-finals the best
    semi-finalist who did not go on. Nothing else moves."""
    rnd = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    if rnd.status != Round.SEATED:
        raise ServiceError(
            _("Round %(n)s has started: its seating can no longer be changed.") % {"n": rnd.number}
        )
    tournament = rnd.tournament
    config = config_of(stage_settings(tournament))
    seat = Seat.objects.filter(table__round=rnd, player=player).first()
    if seat is None:
        raise ServiceError(
            _("%(name)s is not seated in round %(n)s.") % {"name": player.name, "n": rnd.number}
        )
    seated = seated_players(rnd)
    if rnd.stage == formats.FINAL and config.format == formats.SEMIS:
        semi = stage_rounds(tournament)[formats.SEMI]
        seeds = {
            d.player_id: d.seed
            for d in qualification(tournament, field_size(tournament))
            if d.qualified
        }
        decisions, _finalists = advance(semi_results(tournament, semi), config.advance, seeds)
        line = [
            d.player_id
            for d in sorted(decisions, key=lambda d: (d.rank, seeds.get(d.player_id) or 0))
            if not d.advances
        ]
    else:
        decisions = qualification(tournament, field_size(tournament))
        line = [d.player_id for d in decisions if d.qualified]
    dropped = set(
        Player.objects.filter(tournament=tournament, dropped=True).values_list("pk", flat=True)
    )
    nxt = next((p for p in line if p not in seated and p not in dropped), None)
    if nxt is None:
        raise ServiceError(
            _("Nobody is left to take the seat of %(name)s in round %(n)s.")
            % {"name": player.name, "n": rnd.number}
        )
    seat.player_id = nxt
    seat.save(update_fields=["player"])
    newcomer = Player.objects.get(pk=nxt)
    detail = {
        "player": player.pk,
        "name": player.name,
        "replaced_by": nxt,
        "replaced_by_name": newcomer.name,
        "tables": [seat.table.number],
        "stage": rnd.stage,
    }
    SeatingChange.objects.create(
        round=rnd, tournament=tournament, kind=SeatingChange.RESEAT, by=author(by), detail=detail
    )
    return detail
