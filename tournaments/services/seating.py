"""Seating a round, the Django side: load, call the pure package, save.

The algorithm and every decision it makes, with its reasons, are in the pure
package :mod:`tournaments.seating`; this module loads the players and their
history into a request, calls it, and saves the round's tables, seats, byes
and each table's reasons (``Table.why``: ``[{"code", "params"}]``, translated
by the seating page). Before a round starts the organizer may swap two players
or move one, add a late arrival, discard the draft or unpublish it; a player
who drops leaves the draft and only the tables concerned are re-seated.
Every change is logged as a :class:`SeatingChange` row, and after every
change the round's counts and the tables' reasons are stored anew.

Decisions (see the reports of issues 4 and 13):

- mode: round 1 as the tournament's ``round1_seating`` says (``random`` by
  default, or by rating: ``rating_spread`` / ``rating_swiss``, each player's
  rating from :func:`round1_ratings`); later rounds ``swiss``, or ``mixing``
  when the previous round was seated in mixing mode (a mixing tournament
  stays one).
- mixing mode plans all rounds ahead: the plan depends on the player ids and
  the *plan seed*, fixed by the first mixing round and reused by later ones.
- byes are allowed exactly when 2 is an allowed table size (2-player games).
- seeds: the default seed is derived from the tournament id and the round
  number. The seed decides the seating only: a digital table's cards draw
  on the table's own secret (``tournaments.services.tables``).
- team mode seats registered pairs together; "clubs apart" keeps club-mates
  (and team-mates) at different tables; both at once are refused. Where the
  game has team seats (Terra Trumpf at 4 and 6) partners get them.
- a table left empty by a change is deleted; the others keep their numbers.
"""

from __future__ import annotations

import hashlib
import itertools
from collections import Counter, defaultdict

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring import selectors as scoring_selectors
from scoring.season import selectors as season_selectors
from tournaments import seating as algo
from tournaments.authors import author
from tournaments.models import Bye, Player, Round, Seat, SeatingChange, Table, Tournament
from tournaments.seating.draft import Draft, describe, manual_pairs
from tournaments.seating.order import team_seat_order as _team_seat_order
from tournaments.seating.request import MODES, RATING_MODES
from tournaments.seating.sizes import size_ok
from tournaments.selectors import (
    allowed_sizes,
    allows_byes,
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


def _sizes_text(sizes) -> str:
    return ", ".join(str(s) for s in sorted(sizes))


# --------------------------------------------------------------------------
# loading: history, scores, the request


class History:
    """Who met whom (and in which rounds), seats held, byes and small tables,
    from the rounds before ``number``."""

    def __init__(self, tournament: Tournament, number: int):
        self.met: dict[frozenset, list[int]] = defaultdict(list)
        self.seats: dict[int, list[int]] = defaultdict(list)
        self.small: Counter = Counter()
        self.byes: Counter = Counter()
        #: tables with empty seats the bot played (``Tournament.bot_fill``)
        self.bot_tables: Counter = Counter()
        tables: dict[int, list] = defaultdict(list)
        with_bots: set[int] = set()
        round_of: dict[int, int] = {}
        rows = (
            Seat.objects.filter(
                table__round__tournament=tournament, table__round__number__lt=number
            )
            .order_by("table__round__number", "table_id", "position")
            .values_list("table_id", "table__round__number", "player_id", "position")
        )
        for table_id, rnd, pid, pos in rows:
            round_of[table_id] = rnd
            if pid is None:  # an empty seat: the bot played it
                with_bots.add(table_id)
                continue
            tables[table_id].append(pid)
            self.seats[pid].append(pos)
        for table_id, pids in tables.items():
            if len(pids) < tournament.table_size:
                for p in pids:
                    self.small[p] += 1
            if table_id in with_bots:
                for p in pids:
                    self.bot_tables[p] += 1
            for a, b in itertools.combinations(pids, 2):
                self.met[frozenset((a, b))].append(round_of[table_id])
        for pid in Bye.objects.filter(
            round__tournament=tournament, round__number__lt=number
        ).values_list("player_id", flat=True):
            self.byes[pid] += 1

    def met_pairs(self, ids) -> list[list[int]]:
        """``[a, b, round]`` for every earlier encounter among ``ids``."""
        ids = set(ids)
        out = []
        for pair, rounds in self.met.items():
            a, b = sorted(pair)
            if a in ids and b in ids:
                out += [[a, b, r] for r in rounds]
        return out


def standings_scores(tournament: Tournament, up_to_round: int | None = None):
    """(player id → points as float, player id → standings position)."""
    rows = scoring_selectors.standings(tournament, up_to_round=up_to_round)
    scores = {r.player_id: float(r.points or 0) for r in rows}
    position = {r.player_id: k for k, r in enumerate(rows)}
    return scores, position


def round1_ratings(tournament: Tournament) -> dict[int, float | None]:
    """Each player's rating for seating round 1 by rating (player id →
    rating, None for none). The pure package seats players without a rating
    last, in an order drawn from the round's seed.

    The club's own rating comes first: when players of this tournament are
    linked to roster people with rated games in this game (openskill, the
    conservative value; README "A club season"), those ratings are used and
    the others count as unrated — the rating entered with a player is on
    another scale and is not mixed in. Without any club rating, the rating
    entered with the player (``Player.rating``) is used."""
    players = list(tournament.players.values_list("pk", "rating", "person_id"))
    linked = {pid: person for pid, _rating, person in players if person}
    if linked:
        club = season_selectors.ratings(tournament.owner, tournament.game)
        if any(person in club for person in linked.values()):
            return {
                pid: club[linked[pid]].conservative if linked.get(pid) in club else None
                for pid, _rating, _person in players
            }
    return {pid: None if rating is None else float(rating) for pid, rating, _person in players}


def _teams_mode(tournament, clubs_apart):
    return "together" if tournament.team_mode else ("apart" if clubs_apart else None)


def build_request(
    tournament, players, number, *, mode, seed, teams, history, scores, position, ratings=None
):
    """The algorithm's request for these players (in standings order);
    ``ratings`` (player id → rating or None) for the rating modes."""
    players = sorted(players, key=lambda p: (position.get(p.pk, 10**9), p.name, p.pk))
    entries = []
    for p in players:
        entry = {
            "id": p.pk,
            "score": scores.get(p.pk, 0.0),
            "seat_history": history.seats.get(p.pk, []),
            "byes": history.byes[p.pk],
            "small_tables": history.small[p.pk],
            "bot_tables": history.bot_tables[p.pk],
        }
        if ratings is not None:
            entry["rating"] = ratings.get(p.pk)
        if teams in ("together", "apart") and p.team_id:
            entry["team"] = p.team_id
        if teams == "apart" and p.club:
            entry["club"] = p.club.strip().casefold()
        entries.append(entry)
    return {
        "players": entries,
        "met": history.met_pairs([p.pk for p in players]),
        "table_size": tournament.table_size,
        "allowed_sizes": allowed_sizes(tournament),
        "byes": allows_byes(tournament),
        "bots": fills_with_bots(tournament),
        "mode": mode,
        "teams": teams,
        "seed": seed,
        "rounds": tournament.rounds,
        "round": number,
    }


def _round_scores(rnd: Round) -> dict[int, float]:
    stats = rnd.seating_stats or {}
    if stats.get("scores") is not None:
        return {int(k): v for k, v in stats["scores"].items()}
    scores, _pos = standings_scores(rnd.tournament, rnd.number - 1)
    return scores


def _draft_request(rnd: Round, players, extra_scores=None) -> dict:
    """The request a change to ``rnd``'s draft works on (these players)."""
    tournament = rnd.tournament
    stats = rnd.seating_stats or {}
    scores = _round_scores(rnd)
    scores.update(extra_scores or {})
    position = {p: k for k, p in enumerate(sorted(scores, key=lambda p: -scores[p]))}
    return build_request(
        tournament,
        players,
        rnd.number,
        mode=stats.get("mode", "swiss"),
        seed=stats.get("seed", 0),
        teams=stats.get("teams"),
        history=History(tournament, rnd.number),
        scores=scores,
        position=position,
    )


def _draft(rnd: Round):
    """(tables by number: ids in seat order, ids on a bye)."""
    tables: dict[int, list[int]] = {n: [] for n in rnd.tables.values_list("number", flat=True)}
    for num, pid in (
        Seat.objects.filter(table__round=rnd, player__isnull=False)
        .order_by("table__number", "position")
        .values_list("table__number", "player_id")
    ):
        tables[num].append(pid)
    byes = list(Bye.objects.filter(round=rnd).order_by("pk").values_list("player_id", flat=True))
    return tables, byes


# --------------------------------------------------------------------------
# errors of the algorithm, by code


def seating_error(exc: algo.SeatingError, tournament) -> ServiceError:
    """The translated message of an error code from the seating package."""
    p = exc.params
    if exc.code == "too_few_players":
        return ServiceError(
            _("Too few players: %(n)s checked in, a table needs %(min)s.")
            % {"n": p["players"], "min": p["minimum"]}
        )
    if exc.code == "impossible_sizes":
        params = {"n": p["players"], "sizes": _sizes_text(p["sizes"])}
        if p["byes"]:
            return ServiceError(
                ngettext(
                    "%(n)s player cannot be seated at tables of %(sizes)s, not even with byes.",
                    "%(n)s players cannot be seated at tables of %(sizes)s, not even with byes.",
                    params["n"],
                )
                % params
            )
        return ServiceError(
            ngettext(
                "%(n)s player cannot be seated at tables of %(sizes)s. "
                "Allow another table size in the settings, or check players in or out.",
                "%(n)s players cannot be seated at tables of %(sizes)s. "
                "Allow another table size in the settings, or check players in or out.",
                params["n"],
            )
            % params
        )
    if exc.code == "team_too_large":
        return ServiceError(
            _("A team has more players than the largest table (%(size)s).") % {"size": p["largest"]}
        )
    if exc.code == "no_place":
        return ServiceError(
            _(
                "No table can take another player at the allowed sizes (%(sizes)s). "
                "Discard the draft and seat the round again."
            )
            % {"sizes": _sizes_text(p["sizes"])}
        )
    if exc.code == "rating_with_teams":
        return ServiceError(
            _(
                "In team mode partners sit together: round 1 cannot be seated by rating. "
                "Choose the random draw."
            )
        )
    if exc.code in ("already_seated", "not_seated", "not_in_request"):
        return ServiceError(_("This player cannot be added to the seating."))
    # bad_request / no_pairing: a bug on this side, not the organizer's input
    return ServiceError(_("The seating could not be computed (%(code)s).") % {"code": exc.code})


# --------------------------------------------------------------------------
# saving


def _plan_seed(tournament: Tournament, seed) -> int:
    first = (
        tournament.round_set.filter(seating_stats__mode="mixing").order_by("number").first()
        if tournament.pk
        else None
    )
    if first is not None and "plan_seed" in first.seating_stats:
        return first.seating_stats["plan_seed"]
    return seed if seed is not None else derive_seed("plan", tournament.pk)


def team_seat_order(order: list[int], team_of: dict, tournament: Tournament) -> list[int]:
    """Partners on the seats the engine gives one team (Terra Trumpf: opposite)."""
    if not tournament.team_mode:
        return list(order)
    groups = tournament.engine.teams(len(order), tournament.game_options)
    return _team_seat_order(order, team_of, groups)


def _team_of(rnd_or_players) -> dict:
    return dict(Player.objects.filter(pk__in=rnd_or_players).values_list("pk", "team_id"))


def _write_tables(rnd: Round, tables: dict, numbers, reasons: dict) -> None:
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


def _save_state(rnd: Round, change: dict) -> None:
    """Apply an answer of ``reseat_after_drop`` / ``add_late_arrival`` (or
    just ``reasons``) and store the round's counts and reasons anew."""
    tables = dict(change["tables"])
    if change.get("removed"):
        Table.objects.filter(round=rnd, number__in=change["removed"]).delete()
    if change.get("changed"):
        _write_tables(rnd, tables, change["changed"], change["reasons"])
    if "byes" in change:
        Bye.objects.filter(round=rnd).exclude(player_id__in=change["byes"]).delete()
        have = set(Bye.objects.filter(round=rnd).values_list("player_id", flat=True))
        Bye.objects.bulk_create(
            [Bye(round=rnd, player_id=p) for p in change["byes"] if p not in have]
        )
    _save_reasons(rnd, change["reasons"], change.get("bye_reasons"))


def _save_reasons(rnd: Round, reasons: dict, bye_reasons=None) -> None:
    changed = []
    for t in Table.objects.filter(round=rnd):
        why = reasons.get(t.number, reasons.get(str(t.number), []))
        if why != t.why:
            t.why = why
            changed.append(t)
    Table.objects.bulk_update(changed, ["why"])
    stats = dict(rnd.seating_stats or {})
    tables, byes = _draft(rnd)
    stats.update(
        {
            "players": sum(len(ids) for ids in tables.values()) + len(byes),
            "tables": len(tables),
            "byes": len(byes),
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


def _earlier(rnd: Round) -> dict:
    return dict(rnd.tables.values_list("number", "why"))


def _describe(rnd: Round, earlier: dict, touched, manual=frozenset()) -> None:
    """Store the reasons of every table as the data now stands (``earlier``:
    the reasons before the change, kept where they still hold)."""
    tables, byes = _draft(rnd)
    ids = [p for t in tables.values() for p in t] + byes
    request = _draft_request(rnd, list(Player.objects.filter(pk__in=ids)))
    keep = {n: why for n, why in earlier.items() if n not in touched}
    reasons = describe(
        request, Draft.of(tables, byes), manual=manual, keep=keep, pairs=manual_pairs(earlier)
    )
    _save_reasons(rnd, reasons, reasons.pop("byes"))


# --------------------------------------------------------------------------
# seating a round


@transaction.atomic
def round_seat(*, tournament: Tournament, by, mode=None, seed=None, clubs_apart=False) -> Round:
    """Seat the next round of ``tournament``; see the module docstring."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    number, blocker = seat_blocker(tournament)
    if blocker:
        raise ServiceError(blocker)
    mode = mode or default_seating_mode(tournament, number)
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
    round_seed = seed if seed is not None else derive_seed("round", tournament.pk, number)
    teams = _teams_mode(tournament, clubs_apart)
    players = list(seatable_players(tournament, number))
    scores, position = standings_scores(tournament)
    stats_extra = {}
    algo_seed = round_seed
    if mode == "mixing":
        algo_seed = stats_extra["plan_seed"] = _plan_seed(tournament, seed)
    request = build_request(
        tournament,
        players,
        number,
        mode=mode,
        seed=algo_seed,
        teams=teams,
        history=History(tournament, number),
        scores=scores,
        position=position,
        ratings=round1_ratings(tournament) if mode in RATING_MODES else None,
    )
    try:
        answer = algo.seat(request)
    except algo.SeatingError as exc:
        raise seating_error(exc, tournament) from None
    stats = {
        **answer["stats"],
        **stats_extra,
        "mode": mode,
        "seed": round_seed,
        "teams": teams,
        "players": len(players),
        "scores": {str(p.pk): scores.get(p.pk, 0.0) for p in players},
        "bye_why": answer["bye_reasons"],
    }
    rnd = Round.objects.create(
        tournament=tournament,
        number=number,
        status=Round.SEATED,
        published=False,
        minutes=tournament.round_minutes,
        seating_stats=stats,
    )
    rnd.tournament = tournament
    seated, why = list(answer["tables"]), list(answer["reasons"])
    bot_table = answer.get("bot_table")
    if bot_table:  # the players left over, last: the bot fills their table
        seated.append(bot_table["players"])
        why.append(bot_table["reasons"])
    numbers = range(1, len(seated) + 1)
    _write_tables(rnd, dict(zip(numbers, seated, strict=True)), numbers, {})
    Table.objects.bulk_update(
        [Table(pk=t.pk, why=why[t.number - 1]) for t in Table.objects.filter(round=rnd)],
        ["why"],
    )
    Bye.objects.bulk_create([Bye(round=rnd, player_id=p) for p in answer["byes"]])
    summary = {k: v for k, v in stats.items() if k not in ("scores", "bye_why")}
    _log(rnd, SeatingChange.SEAT, by, summary)
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


def _place(rnd: Round, player: Player):
    """(seat or None, bye or None) of a player in this round."""
    seat = Seat.objects.filter(table__round=rnd, player=player).select_related("table").first()
    bye = None if seat else Bye.objects.filter(round=rnd, player=player).first()
    if seat is None and bye is None:
        raise ServiceError(
            _("%(name)s is not seated in round %(n)s.") % {"name": player.name, "n": rnd.number}
        )
    return seat, bye


def _size_ok(old: int, new: int, tournament: Tournament) -> bool:
    """A table changed by hand: ``seating.size_ok``, or any size the bot can
    fill up to an allowed one when bots fill empty seats."""
    allowed = allowed_sizes(tournament)
    if size_ok(old, new, allowed):
        return True
    return fills_with_bots(tournament) and new > 0 and algo.bot_seats(new, allowed) is not None


def _table_players(table: Table) -> list[int]:
    """The players of a table in seat order (not its empty bot seats)."""
    return list(
        table.seats.filter(player__isnull=False)
        .order_by("position")
        .values_list("player_id", flat=True)
    )


def _set_table_players(table: Table, pids: list[int], tournament: Tournament) -> None:
    Seat.objects.filter(table=table).delete()
    Seat.objects.bulk_create(_seat_rows(table, pids, tournament))


def _repeats_of(rnd: Round, pids: list[int]) -> list[dict]:
    """The repeat encounters of these players at their tables in this round."""
    names = dict(Player.objects.filter(tournament=rnd.tournament).values_list("pk", "name"))
    out = []
    for t in rnd.tables.all():
        for w in t.why or []:
            pr = w.get("params", {})
            if w.get("code") in ("repeat", "repeat_manual") and (
                pr.get("a") in pids or pr.get("b") in pids
            ):
                out.append(
                    {
                        "a": names.get(pr["a"]),
                        "b": names.get(pr["b"]),
                        "rounds": ", ".join(str(r) for r in pr.get("rounds", [])),
                    }
                )
    return out


@transaction.atomic
def seating_swap(*, round: Round, player_a: Player, player_b: Player, by) -> dict:  # noqa: A002
    """Swap two players of a draft seating (seats, or a seat and a bye).
    Returns the change's detail (with any repeat the swap creates)."""
    rnd = _lock_draft(round)
    if player_a.pk == player_b.pk:
        raise ServiceError(_("Choose two different players."))
    seat_a, bye_a = _place(rnd, player_a)
    seat_b, bye_b = _place(rnd, player_b)
    if bye_a and bye_b:
        raise ServiceError(_("Both players have a bye: there is nothing to swap."))
    earlier = _earlier(rnd)
    if seat_a and seat_b:
        ta, tb = seat_a.table, seat_b.table
        if ta.pk == tb.pk:
            pids = _table_players(ta)
            i, j = pids.index(player_a.pk), pids.index(player_b.pk)
            pids[i], pids[j] = pids[j], pids[i]
            _set_table_players(ta, pids, rnd.tournament)
        else:
            pa, pb = _table_players(ta), _table_players(tb)
            pa[pa.index(player_a.pk)] = player_b.pk
            pb[pb.index(player_b.pk)] = player_a.pk
            _set_table_players(ta, pa, rnd.tournament)
            _set_table_players(tb, pb, rnd.tournament)
        touched = {ta.number, tb.number}
    else:
        seat, sitting, out = (
            (seat_a, player_a, player_b) if seat_a else (seat_b, player_b, player_a)
        )
        pids = _table_players(seat.table)
        pids[pids.index(sitting.pk)] = out.pk
        _set_table_players(seat.table, pids, rnd.tournament)
        Bye.objects.filter(round=rnd, player=out).delete()
        Bye.objects.create(round=rnd, player=sitting)
        touched = {seat.table.number}
    _describe(rnd, earlier, touched, manual={player_a.pk, player_b.pk})
    detail = {
        "players": [player_a.pk, player_b.pk],
        "names": [player_a.name, player_b.name],
        "tables": sorted(touched),
        "repeats": _repeats_of(rnd, [player_a.pk, player_b.pk]),
    }
    _log(rnd, SeatingChange.SWAP, by, detail)
    return detail


@transaction.atomic
def seating_move(*, round: Round, player: Player, table_number: int, by) -> dict:  # noqa: A002
    """Move a player of a draft seating to another table (at its last seat)."""
    rnd = _lock_draft(round)
    allowed = allowed_sizes(rnd.tournament)
    seat, bye = _place(rnd, player)
    target = Table.objects.filter(round=rnd, number=table_number).first()
    if target is None:
        raise ServiceError(
            _("Round %(n)s has no table %(table)s.") % {"n": rnd.number, "table": table_number}
        )
    if seat and seat.table_id == target.pk:
        raise ServiceError(
            _("%(name)s already sits at table %(table)s.")
            % {"name": player.name, "table": table_number}
        )
    dest = _table_players(target)
    if not _size_ok(len(dest), len(dest) + 1, rnd.tournament):
        raise ServiceError(
            ngettext(
                "Table %(table)s would have %(size)s player; allowed sizes are %(sizes)s.",
                "Table %(table)s would have %(size)s players; allowed sizes are %(sizes)s.",
                len(dest) + 1,
            )
            % {"table": target.number, "size": len(dest) + 1, "sizes": _sizes_text(allowed)}
        )
    earlier = _earlier(rnd)
    source = seat.table if seat else None
    if source:
        src = _table_players(source)
        if not _size_ok(len(src), len(src) - 1, rnd.tournament):
            raise ServiceError(
                ngettext(
                    "Table %(table)s would have %(size)s player; allowed sizes are %(sizes)s.",
                    "Table %(table)s would have %(size)s players; allowed sizes are %(sizes)s.",
                    len(src) - 1,
                )
                % {"table": source.number, "size": len(src) - 1, "sizes": _sizes_text(allowed)}
            )
        src.remove(player.pk)
        if src:
            _set_table_players(source, src, rnd.tournament)
        else:
            source.delete()
    else:
        bye.delete()
    _set_table_players(target, [*dest, player.pk], rnd.tournament)
    touched = {target.number} | ({source.number} if source else set())
    _describe(rnd, earlier, touched, manual={player.pk})
    detail = {
        "player": player.pk,
        "name": player.name,
        "from": source.number if source else None,
        "to": target.number,
        "repeats": _repeats_of(rnd, [player.pk]),
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
    tables, byes = _draft(rnd)
    SeatingChange.objects.create(
        round=None,
        tournament_id=rnd.tournament_id,
        kind=SeatingChange.DISCARD,
        by=author(by),
        detail={
            "round": number,
            "tables": len(tables),
            "players": sum(len(t) for t in tables.values()) + len(byes),
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
    tables, byes = _draft(rnd)
    ids = [p for t in tables.values() for p in t] + byes + [player.pk]
    scores, _pos = standings_scores(rnd.tournament, rnd.number - 1)
    request = _draft_request(
        rnd, list(Player.objects.filter(pk__in=ids)), {player.pk: scores.get(player.pk, 0.0)}
    )
    try:
        change = algo.add_late_arrival(request, tables, byes, player.pk, _earlier(rnd))
    except algo.SeatingError as exc:
        raise seating_error(exc, rnd.tournament) from None
    if player.first_round > rnd.number:
        player.first_round = rnd.number
        player.save(update_fields=["first_round"])
    stats = dict(rnd.seating_stats or {})
    stats.setdefault("scores", {})[str(player.pk)] = scores.get(player.pk, 0.0)
    rnd.seating_stats = stats
    _save_state(rnd, change)
    detail = {"player": player.pk, "name": player.name, **change["detail"]}
    detail["tables"] = change["changed"]
    _log(rnd, SeatingChange.LATE, by, detail)
    return detail


@transaction.atomic
def seating_reseat_after_drop(*, round: Round, player: Player, by) -> dict:  # noqa: A002
    """Take a dropped player out of a seated round that has not started;
    re-seat only the tables that must change (``tournaments.seating.reseat``)."""
    rnd = _lock_unstarted(round)
    _place(rnd, player)
    tables, byes = _draft(rnd)
    ids = [p for t in tables.values() for p in t] + byes
    request = _draft_request(rnd, list(Player.objects.filter(pk__in=ids)))
    try:
        change = algo.reseat_after_drop(request, tables, byes, player.pk, _earlier(rnd))
    except algo.SeatingError as exc:
        raise seating_error(exc, rnd.tournament) from None
    _save_state(rnd, change)
    detail = {"player": player.pk, "name": player.name, **change["detail"]}
    detail["tables"] = change["changed"]
    detail["removed"] = change["removed"]
    _log(rnd, SeatingChange.RESEAT, by, detail)
    return detail


def reseat_dropped_player(*, player: Player, by) -> list[dict]:
    """Called by ``services.player_drop``: a dropped player leaves every
    seated round that has not started."""
    out = []
    if not player.dropped:
        return out
    rounds = Round.objects.filter(tournament_id=player.tournament_id, status=Round.SEATED)
    for rnd in rounds:
        if (
            Seat.objects.filter(table__round=rnd, player=player).exists()
            or Bye.objects.filter(round=rnd, player=player).exists()
        ):
            out.append(seating_reseat_after_drop(round=rnd, player=player, by=by))
    return out
