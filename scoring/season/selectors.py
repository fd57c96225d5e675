"""Reads for the season: a series' standings, a person's season, ratings.

Everything here is derived from the confirmed results on each request, so a
correction in any tournament of a series shows in the season at once.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from games import ENGINES
from scoring.models import Submission
from scoring.season.models import Series
from scoring.season.ratings import Match, Rating, compute_ratings, sides_of
from scoring.season.standings import Event, Placing, SeasonRow, season_standings
from scoring.standings import selectors as standings_selectors
from tournaments.models import Player, Seat, Tournament
from tournaments.roster_models import Person
from tournaments.selectors import kept_people


@dataclass(frozen=True, slots=True)
class Entrant:
    """Who a season row is: a roster person, or a tournament entry not linked
    to one yet (shown so the organizer sees whom to link)."""

    person_id: int | None
    player_id: int | None
    name: str
    club: str

    @property
    def linked(self) -> bool:
        return self.person_id is not None

    def __str__(self):
        return self.name


def series_tournaments(series: Series) -> list[Tournament]:
    """The series' tournaments in season order (oldest first)."""
    return list(series.tournaments.order_by("created_at", "pk"))


def _entrants(tournaments: list[Tournament]) -> dict[int, Entrant]:
    """Per player id of these tournaments: the entrant it counts for."""
    out = {}
    players = list(Player.objects.filter(tournament__in=tournaments))
    kept = kept_people({t.owner_id for t in tournaments})  # merged: the kept one
    people = Person.objects.in_bulk({kept.get(p.person_id, p.person_id) for p in players} - {None})
    for p in players:
        person = people.get(kept.get(p.person_id, p.person_id))
        if person is not None:
            out[p.pk] = Entrant(person.pk, None, person.name, person.club)
        else:
            out[p.pk] = Entrant(None, p.pk, p.name, p.club)
    return out


def series_standings(series: Series) -> tuple[list[SeasonRow], list[Tournament]]:
    """The season standings (rows keyed by :class:`Entrant`) and the tournaments."""
    tournaments = series_tournaments(series)
    entrants = _entrants(tournaments)
    events = []
    for tournament in tournaments:
        rows = [r for r in standings_selectors.standings(tournament) if r.games > 0]
        events.append(
            Event(
                tournament.pk,
                [Placing(entrants[r.player_id], r.place, r.points) for r in rows],
                label=tournament.name,
            )
        )
    rows = season_standings(
        events,
        scheme=series.scheme,
        table=series.table or None,
        best=series.best,
        minimum=series.minimum,
    )
    return rows, tournaments


def _table_game(engine, person_of: dict, key, player_ids: list, ranks, options) -> Match | None:
    """One table's result as a rating game, or None when it is not rated: its
    ranks don't fit its seats, or fewer than two sides of people are left once
    the bot seats (player id None: nobody was seated there) are taken out."""
    people = [None if p is None else person_of[p] for p in player_ids]
    if len(people) != len(ranks or []):
        return None
    teams = engine.teams(len(people), options or {})  # seat indices: bot seats count
    sides, side_ranks = sides_of(people, ranks, teams)
    if len(sides) < 2:
        return None
    return Match(key, sides, side_ranks)


def _games(owner, game: str) -> list[Match]:
    """Every confirmed table result of the organizer's tournaments of a game,
    in play order (tournament, round, table); people keyed by roster person,
    unlinked entries by a key of their own; bot seats are no one."""
    engine = ENGINES[game]
    person_of: dict[int, object] = {}
    kept = kept_people([owner.pk])  # merged: the kept one
    for pk, person_id in Player.objects.filter(
        tournament__owner=owner, tournament__game=game
    ).values_list("pk", "person_id"):
        person_of[pk] = kept.get(person_id, person_id) or ("player", pk)
    seats: dict[int, list[int | None]] = defaultdict(list)
    for table_id, player_id in (
        Seat.objects.filter(
            table__round__tournament__owner=owner, table__round__tournament__game=game
        )
        .order_by("table_id", "position")
        .values_list("table_id", "player_id")
    ):
        seats[table_id].append(player_id)
    subs = (
        Submission.objects.filter(
            status=Submission.CONFIRMED,
            table__round__tournament__owner=owner,
            table__round__tournament__game=game,
        )
        .order_by(
            "table__round__tournament__created_at",
            "table__round__tournament_id",
            "table__round__number",
            "table__number",
        )
        .values_list(
            "table_id",
            "table__round__tournament_id",
            "table__round__number",
            "table__number",
            "ranks",
            "table__round__tournament__game_options",
        )
    )
    games = []
    for table_id, tournament_id, rnd, number, ranks, options in subs:
        key = (tournament_id, rnd, number)
        rated = _table_game(engine, person_of, key, seats[table_id], ranks, options)
        if rated is not None:
            games.append(rated)
    return games


def ratings(owner, game: str) -> dict[int, Rating]:
    """The roster people's ratings in one game (person id → :class:`Rating`)."""
    rated = compute_ratings(_games(owner, game))
    return {k: v for k, v in rated.items() if isinstance(k, int)}


def person_ratings(person: Person) -> dict[str, Rating]:
    """A person's rating in every game the person played (game id → rating)."""
    games = (
        Player.objects.filter(person=person, tournament__owner=person.owner_id)
        .values_list("tournament__game", flat=True)
        .distinct()
    )
    out = {}
    for game in sorted(set(games)):
        rating = ratings(person.owner, game).get(person.pk)
        if rating is not None:
            out[game] = rating
    return out


@dataclass(frozen=True, slots=True)
class PersonPlacing:
    """A person's entry in one tournament, as the person page lists it: the
    tournament's standings line of that entry (``place`` None while the
    entry has no counted game), the field's size (players with a game)."""

    tournament: Tournament
    name: str
    club: str
    place: int | None
    shared: bool
    points: object
    games: int
    field: int


def person_tournaments(person: Person) -> list[PersonPlacing]:
    """Each tournament of ``person`` (oldest first) with the place and points
    its standings give the person's entry — the same standings as the
    tournament's pages (the final stage decides where there is one)."""
    out = []
    entries = list(
        person.entries.select_related("tournament").order_by(
            "tournament__created_at", "tournament__pk"
        )
    )
    standings = standings_selectors.standings_of_many(
        list({e.tournament_id: e.tournament for e in entries}.values())
    )
    for entry in entries:
        rows = [r for r in standings[entry.tournament_id] if r.games > 0]
        mine = next((r for r in rows if r.player_id == entry.pk), None)
        out.append(
            PersonPlacing(
                tournament=entry.tournament,
                name=entry.name,
                club=entry.club,
                place=mine.place if mine else None,
                shared=mine.shared if mine else False,
                points=mine.points if mine else None,
                games=mine.games if mine else 0,
                field=len(rows),
            )
        )
    return out
