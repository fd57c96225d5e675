"""Reads for seating, the Django side: what the pure package
:mod:`tournaments.seating` is asked, loaded from the database.

- :class:`History`: who met whom (and in which rounds), seats held, byes,
  small tables and bot tables, from the rounds before.
- :func:`standings_scores` and :func:`round1_ratings`: the order a round is
  seated by (the standings, or round 1's ratings).
- :func:`build_request`: the request for seating a round.
- :func:`stored_draft` and :func:`draft_request`: a seated round as the pure
  package's :class:`~tournaments.seating.draft.Draft` with its tables' reasons,
  and the request every change to it (a swap, a move, a late arrival, a drop)
  works on.

The writes are in :mod:`tournaments.services.seating`, the messages in
:mod:`tournaments.seating_messages`.
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from dataclasses import dataclass

from tournaments import providers
from tournaments.models import Bye, Player, Round, Seat, Tournament
from tournaments.seating.draft import Draft
from tournaments.selectors import allowed_sizes, allows_byes, fills_with_bots


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
    rows = providers.standings(tournament, up_to_round=up_to_round)
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
    entered with the player (``Player.rating``) is used when it is the
    organizer's word (``rating_confirmed``): a number the player typed on the
    registration form seeds nothing until the organizer has confirmed it."""
    players = [
        (pk, rating if confirmed else None, person)
        for pk, rating, confirmed, person in tournament.players.values_list(
            "pk", "rating", "rating_confirmed", "person_id"
        )
    ]
    linked = {pid: person for pid, _rating, person in players if person}
    if linked:
        club = providers.club_ratings(tournament.owner, tournament.game)
        if any(person in club for person in linked.values()):
            return {
                pid: club[linked[pid]].conservative if linked.get(pid) in club else None
                for pid, _rating, _person in players
            }
    return {pid: None if rating is None else float(rating) for pid, rating, _person in players}


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


def round_scores(rnd: Round) -> dict[int, float]:
    """Player id → the points the round was seated by (the standings before
    it, as stored when it was seated; computed for rounds that stored none)."""
    if rnd.seating_scores is not None:
        return {int(k): v for k, v in rnd.seating_scores.items()}
    scores, _pos = standings_scores(rnd.tournament, rnd.number - 1)
    return scores


@dataclass
class StoredDraft:
    """A seated round as the pure package takes it: the draft (tables by
    number, ids in seat order; ids on a bye) and each table's reasons."""

    draft: Draft
    reasons: dict

    @property
    def ids(self) -> list[int]:
        return [p for t in self.draft.tables.values() for p in t] + list(self.draft.byes)


def stored_draft(rnd: Round) -> StoredDraft:
    tables: dict[int, list[int]] = {}
    reasons: dict[int, list] = {}
    for number, why in rnd.tables.values_list("number", "why"):
        tables[number], reasons[number] = [], why
    for num, pid in (
        Seat.objects.filter(table__round=rnd, player__isnull=False)
        .order_by("table__number", "position")
        .values_list("table__number", "player_id")
    ):
        tables[num].append(pid)
    byes = list(Bye.objects.filter(round=rnd).order_by("pk").values_list("player_id", flat=True))
    return StoredDraft(Draft(tables, byes), reasons)


def draft_request(rnd: Round, ids) -> dict:
    """The request a change to ``rnd``'s draft works on (the players ``ids``)."""
    tournament = rnd.tournament
    scores = round_scores(rnd)
    position = {p: k for k, p in enumerate(sorted(scores, key=lambda p: -scores[p]))}
    return build_request(
        tournament,
        list(Player.objects.filter(pk__in=ids)),
        rnd.number,
        mode=rnd.seating_mode or "swiss",
        seed=rnd.seating_seed,
        teams=rnd.seating_teams or None,
        history=History(tournament, rnd.number),
        scores=scores,
        position=position,
    )


def repeats_of(rnd: Round, pids: list[int]) -> list[dict]:
    """The repeat encounters of these players at their tables in this round,
    by name (``a``, ``b``, ``rounds``)."""
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
