"""Seating a round, the writes: call the pure package, save its answer.

The algorithm and every decision it makes, with its reasons, are in the pure
package :mod:`tournaments.seating`; the request is loaded by
:mod:`tournaments.seating_selectors` and a refusal worded by
:mod:`tournaments.seating_messages`. This module saves the round's tables,
seats, byes and each table's reasons (``Table.why``: ``[{"code", "params"}]``,
translated by the seating page). Before a round starts the organizer may swap
two players or move one, add a late arrival, discard the draft or unpublish
it; a player who drops leaves the draft and only the tables concerned are
re-seated.

Every change to a draft takes one path (:func:`_change_draft`): the stored
draft as plain data, the pure package's change (``manual.swap_players`` /
``move_player``, ``late.add_late_arrival``, ``reseat.reseat_after_drop``),
its answer applied (:func:`_apply`). Every change is logged as a
:class:`SeatingChange` row, and after every change the round's counts and the
tables' reasons are stored anew.

Decisions:

- mode: round 1 as the tournament's ``round1_seating`` says (``random`` by
  default, or by rating: ``rating_spread`` / ``rating_swiss``, each player's
  rating from :func:`~tournaments.seating_selectors.round1_ratings`); later rounds ``swiss``, or ``mixing``
  when the previous round was seated in mixing mode (a mixing tournament
  stays one).
- mixing mode plans all rounds ahead: the plan depends on the player ids and
  the *plan seed*, fixed by the first mixing round and reused by later ones.
- byes are allowed exactly when 2 is an allowed table size (2-player games).
- seeds: the default seed is derived from the tournament id and the round
  number. The seed decides the seating only: a digital table's cards draw
  on the table's own secret (``tournaments.play.tables``).
- team mode seats registered pairs together; "clubs apart" keeps club-mates
  (and team-mates) at different tables; both at once are refused. Where the
  game has team seats (Terra Trumpf at 4 and 6) partners get them.
- a table left empty by a change is deleted; the others keep their numbers.
"""

from __future__ import annotations

import hashlib

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments import providers, seating_messages
from tournaments import seating as algo
from tournaments.authors import author
from tournaments.models import Bye, Player, Round, Seat, SeatingChange, Table, Tournament
from tournaments.seating.order import team_seat_order as _team_seat_order
from tournaments.seating.request import MODES, RATING_MODES
from tournaments.seating_selectors import (
    History,
    build_request,
    draft_request,
    repeats_of,
    round1_ratings,
    round_scores,
    standings_scores,
    stored_draft,
)
from tournaments.selectors import (
    allowed_sizes,
    default_seating_mode,
    fills_with_bots,
    late_candidates,
    seat_blocker,
    seatable_players,
)
from tournaments.services.errors import ServiceError


def derive_seed(*parts) -> int:
    """A stable 60-bit seed from any parts (fits a BigIntegerField)."""
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode()).hexdigest()
    return int(digest[:15], 16)


def _log(rnd: Round, kind: str, by, detail: dict) -> SeatingChange:
    return SeatingChange.objects.create(
        round=rnd, tournament_id=rnd.tournament_id, kind=kind, by=author(by), detail=detail
    )


# --------------------------------------------------------------------------
# saving


def _plan_seed(tournament: Tournament, seed) -> int:
    first = (
        tournament.round_set.filter(seating_mode="mixing").order_by("number").first()
        if tournament.pk
        else None
    )
    if first is not None and first.plan_seed is not None:
        return first.plan_seed
    return seed if seed is not None else derive_seed("plan", tournament.pk)


def team_seat_order(order: list[int], team_of: dict, tournament: Tournament) -> list[int]:
    """Partners on the seats the engine gives one team (Terra Trumpf: opposite)."""
    if not tournament.team_mode:
        return list(order)
    groups = tournament.engine.teams(len(order), tournament.game_options)
    return _team_seat_order(order, team_of, groups)


def _team_of(rnd_or_players) -> dict:
    return dict(Player.objects.filter(pk__in=rnd_or_players).values_list("pk", "team_id"))


def _write_tables(rnd: Round, tables: dict, numbers) -> None:
    """Replace the seats of the tables ``numbers`` (creating missing ones)."""
    tournament = rnd.tournament
    numbers = set(numbers)
    existing = {t.number: t for t in Table.objects.filter(round=rnd, number__in=numbers)}
    new = [
        Table(round=rnd, number=n, digital=tournament.digital_tables)
        for n in sorted(numbers - set(existing))
    ]
    for t in Table.objects.bulk_create(new):
        existing[t.number] = t
    Seat.objects.filter(table__in=list(existing.values())).delete()
    team_of = _team_of([p for n in numbers for p in tables[n]])
    seats = []
    for n in sorted(numbers):
        order = team_seat_order(tables[n], team_of, tournament)
        seats += _seat_rows(existing[n], order, tournament)
    Seat.objects.bulk_create(seats)


def _seat_rows(table: Table, pids: list[int], tournament: Tournament) -> list[Seat]:
    """The seats of a table: its players in this order, then the empty seats
    the bot plays when the tournament lets bots fill a table the allowed sizes
    don't (``seating.bot_seats``)."""
    seats = [Seat(table=table, player_id=p, position=k) for k, p in enumerate(pids)]
    if pids and fills_with_bots(tournament):
        empty = algo.bot_seats(len(pids), allowed_sizes(tournament)) or 0
        seats += [
            Seat(table=table, player=None, position=len(pids) + k, bot=True) for k in range(empty)
        ]
    return seats


def _apply(rnd: Round, change: dict) -> None:
    """Apply the answer of a change to the draft (``tournaments.seating.draft.Change``):
    its changed and removed tables, its byes, and every table's reasons."""
    tables = dict(change["tables"])
    if change.get("removed"):
        Table.objects.filter(round=rnd, number__in=change["removed"]).delete()
    if change.get("changed"):
        _write_tables(rnd, tables, change["changed"])
    if "byes" in change:
        Bye.objects.filter(round=rnd).exclude(player_id__in=change["byes"]).delete()
        have = set(Bye.objects.filter(round=rnd).values_list("player_id", flat=True))
        Bye.objects.bulk_create(
            [Bye(round=rnd, player_id=p) for p in change["byes"] if p not in have]
        )
    _save_reasons(rnd, change["reasons"], change.get("bye_reasons"))


def _save_reasons(rnd: Round, reasons: dict, bye_reasons=None) -> None:
    """Store every table's reasons and the round's counts as the draft now stands."""
    changed = []
    for t in Table.objects.filter(round=rnd):
        why = reasons.get(t.number, reasons.get(str(t.number), []))
        if why != t.why:
            t.why = why
            changed.append(t)
    Table.objects.bulk_update(changed, ["why"])
    stats = dict(rnd.seating_stats or {})
    draft = stored_draft(rnd).draft
    stats.update(
        {
            "players": sum(len(ids) for ids in draft.tables.values()) + len(draft.byes),
            "tables": len(draft.tables),
            "byes": len(draft.byes),
            "repeat_pairs": sum(
                1
                for why in reasons.values()
                if isinstance(why, list)
                for w in why
                if w.get("code") in ("repeat", "repeat_manual")
            ),
        }
    )
    if bye_reasons is not None:
        stats["bye_why"] = bye_reasons
    rnd.seating_stats = stats
    rnd.save(update_fields=["seating_stats"])


# --------------------------------------------------------------------------
# seating a round


def _check_seating(tournament: Tournament, number: int, mode, seed, clubs_apart) -> None:
    """Refuse what the organizer's choices can't give (a translated message)."""
    if mode not in MODES:
        raise ServiceError(_("Unknown seating mode: %(mode)s") % {"mode": mode})
    if mode in RATING_MODES and number > 1:
        # by rating ignores the standings and who met whom: round 1 only
        raise ServiceError(
            _("Only round 1 can be seated by rating; round %(n)s goes by the standings.")
            % {"n": number}
        )
    if clubs_apart and tournament.team_mode:
        raise ServiceError(
            _("In team mode partners sit together; club-mates cannot be kept apart as well.")
        )
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise ServiceError(_("The seed must be a whole number of at least 0."))


@transaction.atomic
def round_seat(*, tournament: Tournament, by, mode=None, seed=None, clubs_apart=False) -> Round:
    """Seat the next round of ``tournament``; see the module docstring."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    number, blocker = seat_blocker(tournament)
    if blocker:
        raise ServiceError(blocker)
    mode = mode or default_seating_mode(tournament, number)
    _check_seating(tournament, number, mode, seed, clubs_apart)
    round_seed = seed if seed is not None else derive_seed("round", tournament.pk, number)
    teams = "together" if tournament.team_mode else ("apart" if clubs_apart else None)
    players = list(seatable_players(tournament, number))
    scores, position = standings_scores(tournament)
    plan_seed = _plan_seed(tournament, seed) if mode == "mixing" else None
    request = build_request(
        tournament,
        players,
        number,
        mode=mode,
        seed=round_seed if plan_seed is None else plan_seed,
        teams=teams,
        history=History(tournament, number),
        scores=scores,
        position=position,
        ratings=round1_ratings(tournament) if mode in RATING_MODES else None,
    )
    try:
        answer = algo.seat(request)
    except algo.SeatingError as exc:
        raise seating_messages.seating_error(exc) from None
    rnd = Round.objects.create(
        tournament=tournament,
        number=number,
        status=Round.SEATED,
        published=False,
        minutes=tournament.round_minutes,
        seating_mode=mode,
        seating_seed=round_seed,
        seating_teams=teams or "",
        seating_scores={str(p.pk): scores.get(p.pk, 0.0) for p in players},
        plan_seed=plan_seed,
        seating_stats={
            **answer["stats"],
            "players": len(players),
            "bye_why": answer["bye_reasons"],
        },
    )
    rnd.tournament = tournament
    seated, why = list(answer["tables"]), list(answer["reasons"])
    bot_table = answer.get("bot_table")
    if bot_table:  # the players left over, last: the bot fills their table
        seated.append(bot_table["players"])
        why.append(bot_table["reasons"])
    numbers = range(1, len(seated) + 1)
    _write_tables(rnd, dict(zip(numbers, seated, strict=True)), numbers)
    Table.objects.bulk_update(
        [Table(pk=t.pk, why=why[t.number - 1]) for t in Table.objects.filter(round=rnd)],
        ["why"],
    )
    Bye.objects.bulk_create([Bye(round=rnd, player_id=p) for p in answer["byes"]])
    summary = {**answer["stats"], "mode": mode, "seed": round_seed, "teams": teams}
    if plan_seed is not None:
        summary["plan_seed"] = plan_seed
    _log(rnd, SeatingChange.SEAT, by, {**summary, "players": len(players)})
    return rnd


# --------------------------------------------------------------------------
# changes before the round starts


def _lock_unstarted(rnd: Round) -> Round:
    rnd = Round.objects.select_for_update().select_related("tournament").get(pk=rnd.pk)
    if rnd.status != Round.SEATED:
        raise ServiceError(
            _("Round %(n)s has started: its seating can no longer be changed.") % {"n": rnd.number}
        )
    return rnd


def _lock_draft(rnd: Round) -> Round:
    rnd = _lock_unstarted(rnd)
    if rnd.published:
        raise ServiceError(
            _("The seating of round %(n)s is published: unpublish it first to change it.")
            % {"n": rnd.number}
        )
    return rnd


def _check_seated(rnd: Round, *players: Player) -> None:
    """Refuse a change that names a player who has no seat or bye in the round."""
    for player in players:
        if not (
            Seat.objects.filter(table__round=rnd, player=player).exists()
            or Bye.objects.filter(round=rnd, player=player).exists()
        ):
            raise ServiceError(
                _("%(name)s is not seated in round %(n)s.") % {"name": player.name, "n": rnd.number}
            )


def _change_draft(rnd: Round, change, *args, names=None, with_ids=()) -> dict:
    """The one path of every change to a draft: the stored draft and its
    request (its players, plus ``with_ids``), the pure package's ``change``
    (called with the request, tables, byes, ``args`` and the tables' earlier
    reasons), its answer applied. Returns the answer."""
    stored = stored_draft(rnd)
    request = draft_request(rnd, [*stored.ids, *with_ids])
    try:
        answer = change(request, stored.draft.tables, stored.draft.byes, *args, stored.reasons)
    except algo.SeatingError as exc:
        raise seating_messages.seating_error(exc, names, rnd.number) from None
    _apply(rnd, answer)
    return answer


@transaction.atomic
def seating_swap(*, round: Round, player_a: Player, player_b: Player, by) -> dict:  # noqa: A002
    """Swap two players of a draft seating (seats, or a seat and a bye).
    Returns the change's detail (with any repeat the swap creates)."""
    rnd = _lock_draft(round)
    if player_a.pk != player_b.pk:
        _check_seated(rnd, player_a, player_b)
    answer = _change_draft(rnd, algo.swap_players, player_a.pk, player_b.pk)
    detail = {
        "players": [player_a.pk, player_b.pk],
        "names": [player_a.name, player_b.name],
        "tables": answer["detail"]["tables"],
        "repeats": repeats_of(rnd, [player_a.pk, player_b.pk]),
    }
    _log(rnd, SeatingChange.SWAP, by, detail)
    return detail


@transaction.atomic
def seating_move(*, round: Round, player: Player, table_number: int, by) -> dict:  # noqa: A002
    """Move a player of a draft seating to another table (at its last seat)."""
    rnd = _lock_draft(round)
    _check_seated(rnd, player)
    answer = _change_draft(
        rnd, algo.move_player, player.pk, table_number, names={player.pk: player.name}
    )
    detail = {
        "player": player.pk,
        "name": player.name,
        "from": answer["detail"]["from"],
        "to": answer["detail"]["to"],
        "repeats": repeats_of(rnd, [player.pk]),
    }
    _log(rnd, SeatingChange.MOVE, by, detail)
    return detail


@transaction.atomic
def seating_publish(*, round: Round, by) -> Round:  # noqa: A002
    rnd = _lock_draft(round)
    rnd.published = True
    rnd.save(update_fields=["published"])
    _log(rnd, SeatingChange.PUBLISH, by, {})
    return rnd


@transaction.atomic
def seating_unpublish(*, round: Round, by) -> Round:  # noqa: A002
    """Take a published seating back to a draft (before the round starts)."""
    rnd = _lock_unstarted(round)
    if not rnd.published:
        raise ServiceError(_("The seating of round %(n)s is not published.") % {"n": rnd.number})
    rnd.published = False
    rnd.save(update_fields=["published"])
    _log(rnd, SeatingChange.UNPUBLISH, by, {})
    return rnd


@transaction.atomic
def seating_discard(*, round: Round, by) -> int:  # noqa: A002
    """Throw a draft away (the round can then be seated again); returns its number.

    The draft's tables and its own log go with it; the discard is logged on
    the tournament (no round; ``detail["round"]``), which the log of the round
    seated next under this number shows first (``selectors.round_seating``)."""
    rnd = _lock_draft(round)
    last = rnd.tournament.round_set.order_by("-number").first()
    if last.pk != rnd.pk:
        raise ServiceError(_("Only the last round's draft can be discarded."))
    number = rnd.number
    draft = stored_draft(rnd).draft
    SeatingChange.objects.create(
        round=None,
        tournament_id=rnd.tournament_id,
        kind=SeatingChange.DISCARD,
        by=author(by),
        detail={
            "round": number,
            "tables": len(draft.tables),
            "players": sum(len(t) for t in draft.tables.values()) + len(draft.byes),
            "changes": rnd.seating_changes.count(),
        },
    )
    rnd.delete()
    # who registered while the draft stood joins the round seated anew
    Player.objects.filter(tournament=rnd.tournament, first_round=number + 1).update(
        first_round=number
    )
    return number


@transaction.atomic
def seating_add_player(*, round: Round, player: Player, by) -> dict:  # noqa: A002
    """A late arrival joins the draft: a free seat where sizes allow, else
    only the tables needed are re-seated (``tournaments.seating.late``)."""
    rnd = _lock_draft(round)
    player = Player.objects.get(pk=player.pk)
    if player.tournament_id != rnd.tournament_id or player not in late_candidates(rnd):
        raise ServiceError(
            _("%(name)s cannot join round %(n)s: only checked-in players who are not seated yet.")
            % {"name": player.name, "n": rnd.number}
        )
    scores, _pos = standings_scores(rnd.tournament, rnd.number - 1)
    score = scores.get(player.pk, 0.0)
    # the newcomer's points join the ones the round was seated by
    seated_by = {str(p): v for p, v in round_scores(rnd).items()}
    rnd.seating_scores = {**seated_by, str(player.pk): score}
    answer = _change_draft(rnd, algo.add_late_arrival, player.pk, with_ids=[player.pk])
    rnd.save(update_fields=["seating_scores"])
    if player.first_round > rnd.number:
        player.first_round = rnd.number
        player.save(update_fields=["first_round"])
    detail = {"player": player.pk, "name": player.name, **answer["detail"]}
    detail["tables"] = answer["changed"]
    _log(rnd, SeatingChange.LATE, by, detail)
    return detail


@transaction.atomic
def seating_reseat_after_drop(*, round: Round, player: Player, by) -> dict:  # noqa: A002
    """Take a dropped player out of a seated round that has not started;
    re-seat only the tables that must change (``tournaments.seating.reseat``)."""
    rnd = _lock_unstarted(round)
    _check_seated(rnd, player)
    answer = _change_draft(rnd, algo.reseat_after_drop, player.pk)
    detail = {"player": player.pk, "name": player.name, **answer["detail"]}
    detail["tables"] = answer["changed"]
    detail["removed"] = answer["removed"]
    _log(rnd, SeatingChange.RESEAT, by, detail)
    return detail


def reseat_dropped_player(*, player: Player, by) -> list[dict]:
    """Called by ``services.player_drop``: a dropped player leaves every
    seated round that has not started (a final stage's round: the next in
    line takes the seat, ``tournaments.finals.services``)."""
    out = []
    if not player.dropped:
        return out
    rounds = Round.objects.filter(tournament_id=player.tournament_id, status=Round.SEATED)
    for rnd in rounds:
        if rnd.stage:  # a final stage's round: the next in line takes the seat
            if Seat.objects.filter(table__round=rnd, player=player).exists():
                out.append(providers.final_replace_dropped(round=rnd, player=player, by=by))
        elif (
            Seat.objects.filter(table__round=rnd, player=player).exists()
            or Bye.objects.filter(round=rnd, player=player).exists()
        ):
            out.append(seating_reseat_after_drop(round=rnd, player=player, by=by))
    return out
