"""Multiplayer ratings from table results (pure: no Django import).

A rating is derived data: it is recomputed from the confirmed table results in
the order the games were played, so a corrected result replays everything that
follows it, and the same results always give the same ratings.

The model is openskill's Plackett–Luce (a Bayesian model for placements at
tables of any size, with ties and teams): every person starts at
``mu = 25, sigma = 25/3``; each table moves the ratings of the people at it.
What we show is the conservative value ``mu - 3 sigma`` (the rating we are
fairly sure the person has at least) with ``sigma`` as its uncertainty; a
rating stays provisional until :data:`PROVISIONAL_GAMES` games.

Input: :class:`Match` per table in play order — ``sides``: per team (or per
player, when the game has no teams) the people on it; ``ranks``: per side,
1 = best, ties share. A person is any hashable key; players not linked to a
roster person are passed as keys of their own (rated within the run so that
their tables still count for the others, and ignored by the caller).

Bot seats (a seat the game's bot filled because nobody was seated there) are
``None`` among a table's seats for :func:`sides_of`: the bot is never a rated
person, so it is left out and the people keep their order by the table's
ranks; a table left with fewer than two sides of people is not rated.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

PROVISIONAL_GAMES = 10


@dataclass(frozen=True, slots=True)
class Match:
    """One table's game as the ratings see it: the people on each side and
    each side's rank."""

    key: Hashable  # e.g. (tournament id, round, table): identifies the game in a history
    sides: Sequence[Sequence[Hashable]]
    ranks: Sequence[int]


@dataclass(slots=True)
class Rating:
    mu: float = 25.0
    sigma: float = 25.0 / 3
    games: int = 0
    #: (game key, conservative value after it)
    history: list = field(default_factory=list)

    @property
    def conservative(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


def compute_ratings(games: Iterable[Match]) -> dict[Hashable, Rating]:
    """Every person's rating after the games, in the order given."""
    model = PlackettLuce()
    ratings: dict[Hashable, Rating] = {}
    for game in games:
        if len(game.sides) < 2 or len(game.ranks) != len(game.sides):
            continue
        teams = []
        for side in game.sides:
            team = []
            for person in side:
                r = ratings.setdefault(person, Rating())
                team.append(model.rating(mu=r.mu, sigma=r.sigma))
            teams.append(team)
        rated = model.rate(teams, ranks=list(game.ranks))
        for side, new_team in zip(game.sides, rated, strict=True):
            for person, new in zip(side, new_team, strict=True):
                r = ratings[person]
                r.mu, r.sigma = new.mu, new.sigma
                r.games += 1
                r.history.append((game.key, r.conservative))
    return ratings


def sides_of(seats: Sequence[Hashable | None], ranks: Sequence[int], teams: Sequence | None):
    """A table's seats and per-seat ranks as rating sides: one side per team
    (``teams``: lists of seat indices, as ``engine.teams`` gives) or one per
    seat. Returns ``(sides, side ranks)``.

    A seat that is ``None`` is a bot seat: the bot is left out of its side
    and a side of bots only is dropped; a team keeps its rank (the best of its
    seats, the bot's included). When a side was dropped, the ranks of the
    sides left are renumbered 1, 2, … in the same order (ties share), so a
    player behind the bot is rated as the best of the people. Fewer than two
    sides left (one person and bots): ``([], [])``, a table not to rate."""
    if not teams:
        if None not in seats:
            return [[s] for s in seats], list(ranks)
        teams = [[i] for i in range(len(seats))]
    sides, side_ranks = [], []
    for team in teams:
        side = [seats[i] for i in team if seats[i] is not None]
        if side:
            sides.append(side)
            side_ranks.append(min(ranks[i] for i in team))
    if len(sides) < 2:
        return [], []
    if len(sides) < len(teams):
        ordered = sorted(side_ranks)
        side_ranks = [1 + bisect_left(ordered, r) for r in side_ranks]  # competition style
    return sides, side_ranks
