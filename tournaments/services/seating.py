"""Seating a round, the Django side of issue 4.

The pure algorithm is :mod:`tournaments.seating` (``seat(request)``); this
module loads the players and their history, calls it, saves the round's
tables, seats and byes, and explains every table that breaks a preference
("why", stored in ``Table.why`` as ``[{"code", "params"}]`` and translated by
the seating page). Before a round is published the organizer may swap two
players or move one; a player who drops after the round was seated but before
it starts loses his seat and only the tables concerned are re-seated.

Every change is logged as a :class:`SeatingChange` row.

Decisions (see the report of issue 4):

- mode: round 1 ``random``; later rounds ``swiss``, or ``mixing`` when the
  previous round was seated in mixing mode (a mixing tournament stays one).
- mixing mode plans all rounds ahead: the plan depends on the player ids and
  the *plan seed*, which is fixed by the first mixing round (its seed) and
  reused by every later one, so round k of the plan is used in round k.
- byes are allowed exactly when 2 is an allowed table size (2-player games);
  the algorithm still prefers tables of 3 over byes where 3 is allowed.
- seeds: the default seed is derived from the tournament id and the round
  number; each table's seed is derived from the round's seed and its number.
- team mode seats registered pairs together ("together"); "clubs apart"
  keeps club-mates (and team-mates) at different tables. Both at once are
  refused. Where the game has team seats (Terra Trumpf at 4 and 6) partners
  get the engine's team seats (opposite each other).
- a table left empty by a re-seat is deleted; the other tables keep their
  numbers (a gap in the numbering rather than renumbered tables).
"""

from __future__ import annotations

import hashlib
import itertools
from collections import Counter, defaultdict

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring import selectors as scoring_selectors
from tournaments import seating as algo
from tournaments.models import Bye, Player, Round, Seat, SeatingChange, Table, Tournament
from tournaments.selectors import (
    allowed_sizes,
    allows_byes,
    default_seating_mode,
    seat_blocker,
    seatable_players,
)
from tournaments.services import ServiceError

MODES = ("swiss", "mixing", "random")


# --------------------------------------------------------------------------
# small helpers


def derive_seed(*parts) -> int:
    """A stable 60-bit seed from any parts (fits a BigIntegerField)."""
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode()).hexdigest()
    return int(digest[:15], 16)


def _by(user):
    return user if user is not None and getattr(user, "pk", None) else None


def _log(rnd: Round, kind: str, by, detail: dict) -> SeatingChange:
    return SeatingChange.objects.create(round=rnd, kind=kind, by=_by(by), detail=detail)


def _sizes_text(sizes) -> str:
    return ", ".join(str(s) for s in sorted(sizes))


def _fmt_score(x) -> str:
    x = float(x)
    return str(int(x)) if x == int(x) else f"{x:g}"


# --------------------------------------------------------------------------
# history and scores


class History:
    """Who met whom (and in which rounds), seats held, byes and small tables,
    from the rounds before ``number``."""

    def __init__(self, tournament: Tournament, number: int):
        self.met: dict[frozenset, list[int]] = defaultdict(list)
        self.seats: dict[int, list[int]] = defaultdict(list)
        self.small: Counter = Counter()
        self.byes: Counter = Counter()
        self.bye_rounds: dict[int, list[int]] = defaultdict(list)
        tables: dict[int, list] = defaultdict(list)
        round_of: dict[int, int] = {}
        rows = (
            Seat.objects.filter(
                table__round__tournament=tournament, table__round__number__lt=number
            )
            .order_by("table__round__number", "table_id", "position")
            .values_list("table_id", "table__round__number", "player_id", "position")
        )
        for table_id, rnd, pid, pos in rows:
            tables[table_id].append(pid)
            round_of[table_id] = rnd
            self.seats[pid].append(pos)
        preferred = tournament.table_size
        for table_id, pids in tables.items():
            if len(pids) < preferred:
                for p in pids:
                    self.small[p] += 1
            for a, b in itertools.combinations(pids, 2):
                self.met[frozenset((a, b))].append(round_of[table_id])
        for rnd, pid in Bye.objects.filter(
            round__tournament=tournament, round__number__lt=number
        ).values_list("round__number", "player_id"):
            self.byes[pid] += 1
            self.bye_rounds[pid].append(rnd)

    def met_pairs(self, ids) -> list[list[int]]:
        ids = set(ids)
        out = []
        for pair, rounds in self.met.items():
            a, b = sorted(pair)
            if a in ids and b in ids:
                out += [[a, b]] * len(rounds)
        return out


def standings_scores(tournament: Tournament, up_to_round: int | None = None):
    """(player id → points as float, player id → standings position)."""
    rows = scoring_selectors.standings(tournament, up_to_round=up_to_round)
    scores = {r.player_id: float(r.points or 0) for r in rows}
    position = {r.player_id: k for k, r in enumerate(rows)}
    return scores, position


# --------------------------------------------------------------------------
# seat order for team games (partners on the engine's team seats)


def team_seat_order(order: list[int], team_of: dict, tournament: Tournament) -> list[int]:
    """The algorithm's seat order, changed only so that team partners sit on
    the seats the engine gives one team (Terra Trumpf: opposite)."""
    if not tournament.team_mode:
        return order
    groups = tournament.engine.teams(len(order), tournament.game_options)
    if not groups:
        return order
    by_team = defaultdict(list)
    for p in order:
        if team_of.get(p) is not None:
            by_team[team_of[p]].append(p)
    seats: list = [None] * len(order)
    free_groups = [list(g) for g in groups]
    placed = set()
    for p in order:
        mates = by_team.get(team_of.get(p), [])
        if p in placed or len(mates) < 2:
            continue
        group = next((g for g in free_groups if len(g) >= len(mates)), None)
        if group is None:
            break
        free_groups.remove(group)
        for seat, q in zip(group, mates, strict=False):
            seats[seat] = q
            placed.add(q)
    rest = iter(p for p in order if p not in placed)
    return [s if s is not None else next(rest) for s in seats]


# --------------------------------------------------------------------------
# why: one explanation per broken preference, stored as codes


class WhyContext:
    """What explaining a round's tables needs, loaded once."""

    def __init__(self, rnd: Round, history: History | None = None):
        tournament = rnd.tournament
        self.rnd = rnd
        self.tournament = tournament
        stats = rnd.seating_stats or {}
        self.mode = stats.get("mode", "swiss")
        self.teams = stats.get("teams")
        self.preferred = tournament.table_size
        self.history = history or History(tournament, rnd.number)
        if stats.get("scores") is not None:
            self.scores = {int(k): v for k, v in stats["scores"].items()}
        else:
            self.scores, _pos = standings_scores(tournament, rnd.number - 1)
        self.tables: dict[int, list[int]] = defaultdict(list)
        for number, pid in (
            Seat.objects.filter(table__round=rnd)
            .order_by("table__number", "position")
            .values_list("table__number", "player_id")
        ):
            self.tables[number].append(pid)
        self.table_of = {p: n for n, ps in self.tables.items() for p in ps}
        ids = set(self.table_of)
        self.players = {p.pk: p for p in Player.objects.filter(pk__in=ids).select_related("team")}
        self.groups = self._groups()

    def name(self, pid) -> str:
        p = self.players.get(pid)
        return p.name if p else str(pid)

    def score(self, pid) -> float:
        return self.scores.get(pid, 0.0)

    def _groups(self) -> dict[int, tuple[float, float]]:
        """Score group per table: chunking the standings by the tables' sizes
        in table order (the seating by standings alone, ignoring repeats)."""
        numbers = sorted(self.tables)
        desc = sorted((self.score(p) for p in self.table_of), reverse=True)
        out, pos = {}, 0
        for n in numbers:
            k = len(self.tables[n])
            chunk = desc[pos : pos + k]
            pos += k
            if chunk:
                out[n] = (chunk[0], chunk[-1])
        return out

    def why(self, number: int, manual=frozenset()) -> list[dict]:
        """The why of one table; repeats of a pair in ``manual`` (or with a
        player in it) come from the organizer's change, not the algorithm."""
        pids = self.tables.get(number, [])
        out: list[dict] = []
        # repeats
        for a, b in itertools.combinations(pids, 2):
            pair = frozenset((a, b))
            rounds = self.history.met.get(pair)
            if rounds:
                by_hand = pair in manual or a in manual or b in manual
                out.append(
                    {
                        "code": "repeat_manual" if by_hand else "repeat",
                        "params": {
                            "a": self.name(a),
                            "b": self.name(b),
                            "rounds": ", ".join(str(r) for r in sorted(set(rounds))),
                            "ids": [a, b],
                        },
                    }
                )
        # moved out of the score group (seating by standings only)
        if self.mode == "swiss" and number in self.groups:
            hi, lo = self.groups[number]
            for p in pids:
                s = self.score(p)
                params = {
                    "name": self.name(p),
                    "score": _fmt_score(s),
                    "low": _fmt_score(lo),
                    "high": _fmt_score(hi),
                }
                if s < lo:
                    out.append({"code": "moved_up", "params": params})
                elif s > hi:
                    out.append({"code": "moved_down", "params": params})
        # table size
        size = len(pids)
        allowed = allowed_sizes(self.tournament)
        if size and size not in allowed:
            out.append(
                {"code": "short_table", "params": {"size": size, "sizes": _sizes_text(allowed)}}
            )
        elif size and size < self.preferred:
            had = ", ".join(f"{self.name(p)} {self.history.small[p]}" for p in pids)
            code = "small_table" if self.mode == "swiss" else "small_table_drawn"
            out.append(
                {"code": code, "params": {"size": size, "preferred": self.preferred, "had": had}}
            )
        elif size > self.preferred:
            out.append(
                {"code": "large_table", "params": {"size": size, "preferred": self.preferred}}
            )
        # teams together / clubs apart
        if self.teams == "together":
            seen = set()
            for p in pids:
                team = self.players[p].team if p in self.players else None
                if team is None or team.pk in seen:
                    continue
                seen.add(team.pk)
                mates = [q for q in self.table_of if q != p and self.players[q].team_id == team.pk]
                if any(self.table_of[q] != number for q in mates):
                    out.append({"code": "team_split", "params": {"team": team.name}})
        elif self.teams == "apart":
            for a, b in itertools.combinations(pids, 2):
                pa, pb = self.players.get(a), self.players.get(b)
                if pa is None or pb is None:
                    continue
                if pa.club and pa.club == pb.club:
                    out.append(
                        {
                            "code": "club_together",
                            "params": {"a": pa.name, "b": pb.name, "club": pa.club},
                        }
                    )
                elif pa.team_id and pa.team_id == pb.team_id:
                    out.append(
                        {
                            "code": "club_together",
                            "params": {"a": pa.name, "b": pb.name, "club": pa.team.name},
                        }
                    )
        return out


def refresh_why(rnd: Round, numbers=None, history=None, moved=()) -> dict[int, list[dict]]:
    """Recompute and store the why of the given tables (all when None);
    ``moved``: players the organizer just moved (their repeats are his)."""
    ctx = WhyContext(rnd, history)
    tables = list(Table.objects.filter(round=rnd))
    changed = []
    out = {}
    for t in tables:
        if numbers is not None and t.number not in numbers:
            continue
        manual = set(moved)
        for w in t.why or []:
            if w.get("code") == "repeat_manual" and w.get("params", {}).get("ids"):
                manual.add(frozenset(w["params"]["ids"]))
        why = ctx.why(t.number, frozenset(manual))
        out[t.number] = why
        if why != t.why:
            t.why = why
            changed.append(t)
    Table.objects.bulk_update(changed, ["why"])
    return out


def _bye_why(tournament, bye_ids, history, mode) -> list[dict]:
    names = dict(Player.objects.filter(pk__in=bye_ids).values_list("pk", "name"))
    return [
        {
            "code": "bye",
            "params": {"name": names.get(p, str(p)), "count": history.byes[p]},
        }
        for p in bye_ids
    ]


# --------------------------------------------------------------------------
# seating a round


def _translate_seating_error(exc, n, tournament, byes) -> ServiceError:
    text = str(exc)
    sizes = _sizes_text(allowed_sizes(tournament))
    if text.startswith("too few players"):
        return ServiceError(
            _("Too few players: %(n)s checked in, a table needs %(min)s.")
            % {"n": n, "min": min(allowed_sizes(tournament))}
        )
    if text.startswith("impossible table sizes"):
        if byes:
            return ServiceError(
                ngettext(
                    "%(n)s player cannot be seated at tables of %(sizes)s, not even with byes.",
                    "%(n)s players cannot be seated at tables of %(sizes)s, not even with byes.",
                    n,
                )
                % {"n": n, "sizes": sizes}
            )
        return ServiceError(
            ngettext(
                "%(n)s player cannot be seated at tables of %(sizes)s. "
                "Allow another table size in the settings, or check players in or out.",
                "%(n)s players cannot be seated at tables of %(sizes)s. "
                "Allow another table size in the settings, or check players in or out.",
                n,
            )
            % {"n": n, "sizes": sizes}
        )
    if text.startswith("team "):
        return ServiceError(
            _("A team has more players than the largest table (%(size)s).")
            % {"size": max(allowed_sizes(tournament))}
        )
    return ServiceError(_("The seating could not be computed: %(error)s") % {"error": text})


def _plan_seed(tournament: Tournament, seed) -> int:
    first = (
        tournament.round_set.filter(seating_stats__mode="mixing").order_by("number").first()
        if tournament.pk
        else None
    )
    if first is not None and "plan_seed" in first.seating_stats:
        return first.seating_stats["plan_seed"]
    return seed if seed is not None else derive_seed("plan", tournament.pk)


def build_request(tournament, players, number, *, mode, seed, teams, history, scores, position):
    """The algorithm's request for these players (in standings order)."""
    players = sorted(players, key=lambda p: (position.get(p.pk, 10**9), p.name, p.pk))
    entries = []
    for p in players:
        entry = {
            "id": p.pk,
            "score": scores.get(p.pk, 0.0),
            "seat_history": history.seats.get(p.pk, []),
            "byes": history.byes[p.pk],
            "small_tables": history.small[p.pk],
        }
        if teams == "together" and p.team_id:
            entry["team"] = p.team_id
        if teams == "apart":
            if p.team_id:
                entry["team"] = p.team_id
            if p.club:
                entry["club"] = p.club.strip().casefold()
        entries.append(entry)
    return {
        "players": entries,
        "met": history.met_pairs([p.pk for p in players]),
        "table_size": tournament.table_size,
        "allowed_sizes": allowed_sizes(tournament),
        "byes": allows_byes(tournament),
        "mode": mode,
        "teams": teams,
        "seed": seed,
        "rounds": tournament.rounds,
        "round": number,
    }


def _save_tables(rnd, tournament, tables_ids, numbers, team_of, round_seed):
    """Create tables with the given numbers and their seats (seat order kept,
    partners on team seats)."""
    tables = Table.objects.bulk_create(
        [
            Table(
                round=rnd,
                number=num,
                digital=tournament.digital_tables,
                seed=derive_seed(round_seed, num),
            )
            for num in numbers
        ]
    )
    seats = []
    for table, ids in zip(tables, tables_ids, strict=True):
        for pos, pid in enumerate(team_seat_order(list(ids), team_of, tournament)):
            seats.append(Seat(table=table, player_id=pid, position=pos))
    Seat.objects.bulk_create(seats)
    return tables


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
    if clubs_apart and tournament.team_mode:
        raise ServiceError(
            _("In team mode partners sit together; club-mates cannot be kept apart as well.")
        )
    teams = "together" if tournament.team_mode else ("apart" if clubs_apart else None)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise ServiceError(_("The seed must be a whole number of at least 0."))
    round_seed = seed if seed is not None else derive_seed("round", tournament.pk, number)

    players = list(seatable_players(tournament, number))
    scores, position = standings_scores(tournament)
    history = History(tournament, number)
    algo_seed = round_seed
    stats_extra = {}
    if mode == "mixing":
        algo_seed = _plan_seed(tournament, seed)
        stats_extra["plan_seed"] = algo_seed
    request = build_request(
        tournament,
        players,
        number,
        mode=mode,
        seed=algo_seed,
        teams=teams,
        history=history,
        scores=scores,
        position=position,
    )
    try:
        # the table-size plan first: its refusal gets the translated message
        # whatever the algorithm's English text says
        algo.plan_sizes(
            len(players), request["allowed_sizes"], request["table_size"], request["byes"]
        )
    except algo.SeatingError:
        raise _translate_seating_error(
            algo.SeatingError("impossible table sizes"),
            len(players),
            tournament,
            allows_byes(tournament),
        ) from None
    try:
        answer = algo.seat(request)
    except algo.SeatingError as exc:
        raise _translate_seating_error(
            exc, len(players), tournament, allows_byes(tournament)
        ) from None

    tables_ids = answer["tables"]
    if mode == "swiss":
        rank = {e["id"]: k for k, e in enumerate(request["players"])}
        tables_ids = sorted(tables_ids, key=lambda t: min(rank[p] for p in t))
    seated = {p for t in tables_ids for p in t}
    stats = dict(answer["stats"])
    stats.update(stats_extra)
    stats.update(
        {
            "mode": mode,
            "seed": round_seed,
            "teams": teams,
            "players": len(players),
            "scores": {str(p): scores.get(p, 0.0) for p in seated | set(answer["byes"])},
        }
    )
    stats["bye_why"] = _bye_why(tournament, answer["byes"], history, mode)
    rnd = Round.objects.create(
        tournament=tournament,
        number=number,
        status=Round.SEATED,
        published=False,
        minutes=tournament.round_minutes,
        seating_stats=stats,
    )
    team_of = {p.pk: p.team_id for p in players}
    _save_tables(rnd, tournament, tables_ids, range(1, len(tables_ids) + 1), team_of, round_seed)
    Bye.objects.bulk_create([Bye(round=rnd, player_id=p) for p in answer["byes"]])
    rnd.tournament = tournament
    refresh_why(rnd, history=history)
    summary = {k: v for k, v in stats.items() if k not in ("scores", "bye_why")}
    _log(rnd, "seat", by, summary)
    return rnd


# --------------------------------------------------------------------------
# changes before publishing


def _lock_draft(rnd: Round) -> Round:
    rnd = Round.objects.select_for_update().select_related("tournament").get(pk=rnd.pk)
    if rnd.published:
        raise ServiceError(
            _("The seating of round %(n)s is published: it can no longer be changed.")
            % {"n": rnd.number}
        )
    if rnd.status != Round.SEATED:
        raise ServiceError(
            _("Round %(n)s has started: its seating can no longer be changed.") % {"n": rnd.number}
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


def _table_players(table: Table) -> list[int]:
    return list(table.seats.order_by("position").values_list("player_id", flat=True))


def _set_table_players(table: Table, pids: list[int]) -> None:
    """Replace a table's seats by ``pids`` in this order."""
    Seat.objects.filter(table=table).delete()
    Seat.objects.bulk_create(
        [Seat(table=table, player_id=p, position=k) for k, p in enumerate(pids)]
    )


def _repeats_of(rnd: Round, pids: list[int]) -> list[dict]:
    """The repeat encounters of these players at their tables in this round."""
    history = History(rnd.tournament, rnd.number)
    mates = defaultdict(list)
    for table_id, pid in Seat.objects.filter(table__round=rnd).values_list("table_id", "player_id"):
        mates[table_id].append(pid)
    table_of = {p: t for t, ps in mates.items() for p in ps}
    names = dict(Player.objects.filter(seats__table__round=rnd).values_list("pk", "name"))
    out, seen = [], set()
    for p in pids:
        for q in mates.get(table_of.get(p), []):
            pair = frozenset((p, q))
            if q != p and pair not in seen and history.met.get(pair):
                seen.add(pair)
                out.append(
                    {
                        "a": names.get(p),
                        "b": names.get(q),
                        "rounds": ", ".join(str(r) for r in sorted(set(history.met[pair]))),
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
    touched = set()
    if seat_a and seat_b:
        ta, tb = seat_a.table, seat_b.table
        if ta.pk == tb.pk:
            pids = _table_players(ta)
            i, j = pids.index(player_a.pk), pids.index(player_b.pk)
            pids[i], pids[j] = pids[j], pids[i]
            _set_table_players(ta, pids)
        else:
            pa, pb = _table_players(ta), _table_players(tb)
            pa[pa.index(player_a.pk)] = player_b.pk
            pb[pb.index(player_b.pk)] = player_a.pk
            _set_table_players(ta, pa)
            _set_table_players(tb, pb)
        touched = {ta.number, tb.number}
    else:
        seat, sitting, out = (
            (seat_a, player_a, player_b) if seat_a else (seat_b, player_b, player_a)
        )
        pids = _table_players(seat.table)
        pids[pids.index(sitting.pk)] = out.pk
        _set_table_players(seat.table, pids)
        Bye.objects.filter(round=rnd, player=out).delete()
        Bye.objects.create(round=rnd, player=sitting)
        touched = {seat.table.number}
    refresh_why(rnd, touched, moved={player_a.pk, player_b.pk})
    repeats = _repeats_of(rnd, [player_a.pk, player_b.pk])
    detail = {
        "players": [player_a.pk, player_b.pk],
        "names": [player_a.name, player_b.name],
        "tables": sorted(touched),
        "repeats": repeats,
    }
    _log(rnd, "swap", by, detail)
    return detail


def _size_ok(old: int, new: int, allowed: list[int]) -> bool:
    """A table may end at an allowed size, or be empty, or (already too small
    or too large) come closer to an allowed size."""
    if new in allowed or new == 0:
        return True
    if old in allowed:
        return False
    dist = lambda k: min(abs(k - s) for s in allowed)  # noqa: E731
    return dist(new) < dist(old)


@transaction.atomic
def seating_move(*, round: Round, player: Player, table_number: int, by) -> dict:  # noqa: A002
    """Move a player of a draft seating to another table (at its last seat)."""
    rnd = _lock_draft(round)
    tournament = rnd.tournament
    allowed = allowed_sizes(tournament)
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
    if not _size_ok(len(dest), len(dest) + 1, allowed):
        raise ServiceError(
            _("Table %(table)s would become a table of %(size)s; allowed sizes are %(sizes)s.")
            % {"table": target.number, "size": len(dest) + 1, "sizes": _sizes_text(allowed)}
        )
    touched = {target.number}
    source = None
    if seat:
        source = seat.table
        src = _table_players(source)
        if not _size_ok(len(src), len(src) - 1, allowed):
            raise ServiceError(
                _("Table %(table)s would become a table of %(size)s; allowed sizes are %(sizes)s.")
                % {"table": source.number, "size": len(src) - 1, "sizes": _sizes_text(allowed)}
            )
        src.remove(player.pk)
        if src:
            _set_table_players(source, src)
            touched.add(source.number)
        else:
            source.delete()
    else:
        bye.delete()
    _set_table_players(target, [*dest, player.pk])
    refresh_why(rnd, touched, moved={player.pk})
    repeats = _repeats_of(rnd, [player.pk])
    detail = {
        "player": player.pk,
        "name": player.name,
        "from": source.number if source else None,
        "to": target.number,
        "repeats": repeats,
    }
    _log(rnd, "move", by, detail)
    return detail


@transaction.atomic
def seating_publish(*, round: Round, by) -> Round:  # noqa: A002
    rnd = _lock_draft(round)
    rnd.published = True
    rnd.save(update_fields=["published"])
    _log(rnd, "publish", by, {})
    return rnd


# --------------------------------------------------------------------------
# a drop after seating, before the round starts


def _scores_of(rnd: Round) -> dict[int, float]:
    stats = rnd.seating_stats or {}
    if stats.get("scores") is not None:
        return {int(k): v for k, v in stats["scores"].items()}
    scores, _pos = standings_scores(rnd.tournament, rnd.number - 1)
    return scores


def _fill_from_neighbour(rnd, table, left, tables, allowed, scores, history, max_distance=3):
    """Move one player from the nearest table (in table order) that can spare
    one into ``table``; returns (neighbour number, moved player id) or None."""
    numbers = sorted(tables)
    k = numbers.index(table.number)
    mean = sum(scores.get(p, 0.0) for p in left) / len(left)
    for d in range(1, max_distance + 1):
        options = []
        for j in (k - d, k + d):
            if not 0 <= j < len(numbers):
                continue
            num = numbers[j]
            ps = tables[num]
            if len(ps) - 1 not in allowed:
                continue
            for q in ps:
                repeats = sum(bool(history.met.get(frozenset((q, p)))) for p in left)
                options.append((repeats, abs(scores.get(q, 0.0) - mean), num, q))
        if options:
            _r, _d, num, q = min(options)
            return num, q
    return None


def _reseat_window(rnd, table, tables, allowed, scores, history, team_of, max_neighbours=3):
    """Re-seat ``table`` with its nearest neighbours by the algorithm, keeping
    their number of tables or one fewer; returns the table numbers used (and
    deleted) or None."""
    tournament = rnd.tournament
    numbers = sorted(tables)
    k = numbers.index(table.number)
    near = sorted(
        (n for n in numbers if n != table.number), key=lambda n: abs(numbers.index(n) - k)
    )
    mode = (rnd.seating_stats or {}).get("mode", "swiss")
    for m in range(1, max_neighbours + 1):
        window = sorted([table.number, *near[:m]])
        if len(window) <= m:
            break
        pids = [p for n in window for p in tables[n]]
        try:
            sizes, byes = algo.plan_sizes(len(pids), allowed, tournament.table_size, False)
        except algo.SeatingError:
            continue
        if len(sizes) > len(window):
            continue
        order = sorted(pids, key=lambda p: -scores.get(p, 0.0))
        request = {
            "players": [
                {
                    "id": p,
                    "score": scores.get(p, 0.0),
                    "seat_history": history.seats.get(p, []),
                    "small_tables": history.small[p],
                }
                | ({"team": team_of[p]} if team_of.get(p) and tournament.team_mode else {})
                for p in order
            ],
            "met": history.met_pairs(pids),
            "table_size": tournament.table_size,
            "allowed_sizes": allowed,
            "mode": "swiss" if mode == "swiss" else "random",
            "teams": "together" if tournament.team_mode else None,
            "seed": derive_seed("reseat", rnd.pk, *window),
        }
        try:
            answer = algo.seat(request)
        except algo.SeatingError:
            continue
        new = answer["tables"]
        rank = {p: x for x, p in enumerate(order)}
        new.sort(key=lambda t: min(rank[p] for p in t))
        table_objs = {t.number: t for t in Table.objects.filter(round=rnd, number__in=window)}
        for num, ids in zip(window, new, strict=False):
            ordered = team_seat_order(list(ids), team_of, tournament)
            _set_table_players(table_objs[num], ordered)
        removed = window[len(new) :]
        for num in removed:
            table_objs[num].delete()
        return window[: len(new)], removed
    return None


@transaction.atomic
def seating_reseat_after_drop(*, round: Round, player: Player, by) -> dict:  # noqa: A002
    """Take a dropped player out of a seated round that has not started;
    re-seat only the tables that must change (see the module docstring)."""
    rnd = Round.objects.select_for_update().select_related("tournament").get(pk=round.pk)
    if rnd.status != Round.SEATED:
        raise ServiceError(
            _("Round %(n)s has started: its seating can no longer be changed.") % {"n": rnd.number}
        )
    tournament = rnd.tournament
    allowed = allowed_sizes(tournament)
    seat, bye = _place(rnd, player)
    detail = {"player": player.pk, "name": player.name, "tables": [], "removed": []}
    if bye is not None:
        bye.delete()
        detail["bye"] = True
        _log(rnd, "reseat", by, detail)
        return detail
    table = seat.table
    detail["table"] = table.number
    left = [p for p in _table_players(table) if p != player.pk]
    touched = {table.number}
    if not left:
        table.delete()
        touched = set()
        detail["removed"] = [table.number]
    else:
        _set_table_players(table, left)
    history = History(tournament, rnd.number)
    if left and len(left) not in allowed:
        scores = _scores_of(rnd)
        team_of = dict(Player.objects.filter(seats__table__round=rnd).values_list("pk", "team_id"))
        tables: dict[int, list[int]] = defaultdict(list)
        for num, pid in (
            Seat.objects.filter(table__round=rnd)
            .order_by("table__number", "position")
            .values_list("table__number", "player_id")
        ):
            tables[num].append(pid)
        done = False
        bye_rows = list(Bye.objects.filter(round=rnd).order_by("pk"))
        if len(left) == 1 and 2 in allowed and bye_rows:
            # a 2-player game: the player with a bye takes the free seat
            b = min(
                bye_rows, key=lambda x: abs(scores.get(x.player_id, 0) - scores.get(left[0], 0))
            )
            b.delete()
            _set_table_players(table, [*left, b.player_id])
            detail["from_bye"] = b.player_id
            done = True
        if not done:
            found = _fill_from_neighbour(rnd, table, left, tables, allowed, scores, history)
            if found:
                num, q = found
                neighbour = Table.objects.get(round=rnd, number=num)
                _set_table_players(neighbour, [p for p in tables[num] if p != q])
                _set_table_players(table, team_seat_order([*left, q], team_of, tournament))
                touched.add(num)
                detail["moved"] = {"player": q, "from": num}
                done = True
        if not done and len(left) == 1 and 2 in allowed:
            # nobody to pair with: the remaining player gets a bye
            Bye.objects.create(round=rnd, player_id=left[0])
            table.delete()
            touched.discard(table.number)
            detail["removed"] = [table.number]
            detail["to_bye"] = left[0]
            done = True
        if not done:
            result = _reseat_window(rnd, table, tables, allowed, scores, history, team_of)
            if result:
                used, removed = result
                touched = set(used)
                detail["window"] = used
                detail["removed"] = removed
                done = True
        detail["resolved"] = done
    refresh_why(rnd, touched, history=history)
    detail["tables"] = sorted(touched)
    _log(rnd, "reseat", by, detail)
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
