"""Tiebreakers: small pure functions and a configurable order (no Django import).

The input is *prepared* data, one :class:`PlayerData` per player: his games
(table-mates, points, figure, rank, or a bye) and running totals. Each
tiebreak is a function ``(players, ids) -> {player id: sort key}`` where a
bigger key is better; ``players`` maps every player id to his data and ``ids``
are the players to key (all players, or for ``head_to_head`` one tie group).

``points``
    Tournament points, byes included.
``figures``
    Sum of the game's figures over the tables played (a bye adds none).
``opponents``
    Opponents' average points, Buchholz-style: over every table played, every
    table-mate counts once with his *current total* points; the sum is divided
    by the number of such table-mates (a mate met twice counts twice). Byes
    have no table-mates and count neither in the sum nor in the divisor, so a
    bye neither helps nor hurts; a player with only byes has 0. A dropped
    player keeps counting for everyone who met him, with the points he has.
``wins``
    Tables won: rank 1 held alone (a shared first is a draw, as in the
    win/draw/loss scheme); byes are not wins.
``head_to_head``
    Only among the players still tied when it is applied (the *tie group*):
    for every table a player shared with other members of the group, +1 for
    each member he finished ahead of and −1 for each he finished behind
    (equal ranks 0). The key is the net sum, so members who never met another
    member score 0 and only direct encounters between tied players decide.
    Players not in a tie group get no key (``None``).
``rating``
    Rating / seed, higher first; a player without a rating comes last.

Bot seats: a table's ``players`` hold ``None`` for a seat the game's bot
filled because nobody was seated there. The bot is not a player: it is no
one's table-mate, so it counts neither in ``opponents`` (sum or divisor) nor
in ``head_to_head`` (a player whose only company was the bot has no
table-mates there, as at a bye). Its rank stays in the table's ranks, so a
player behind it has rank 2 and a player who shares rank 1 with it has drawn,
not won.

:func:`rank` applies an order of these names: players equal on a name are
split by the next one; players equal on all of them share a place
(competition style: 1, 2, 2, 4).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from games.i18n import _

PlayerId = Hashable
Key = Any
Tiebreak = Callable[[Mapping[PlayerId, "PlayerData"], Sequence[PlayerId]], dict]

DEFAULT_ORDER = ("points", "figures", "opponents", "wins", "head_to_head", "rating")


@dataclass(slots=True, eq=False)
class Table:
    """One played table: players in seat order (``None`` for a bot seat),
    competition ranks, figures and the tournament points each seat earned
    (over all seats; a bot seat's points go to no one)."""

    round: int
    number: int | None
    players: tuple
    ranks: tuple
    figures: tuple
    points: tuple


@dataclass(slots=True, eq=False)
class PlayerRound:
    """One round of one player: a seat at ``table``, or a bye (``table`` None)."""

    round: int
    table: Table | None
    seat: int
    points: Any

    @property
    def bye(self) -> bool:
        return self.table is None

    @property
    def rank(self) -> int | None:
        return None if self.table is None else self.table.ranks[self.seat]

    @property
    def figure(self):
        return 0 if self.table is None else self.table.figures[self.seat]

    @property
    def mates(self) -> tuple:
        if self.table is None:
            return ()
        return tuple(
            p for i, p in enumerate(self.table.players) if i != self.seat and p is not None
        )

    @property
    def won(self) -> bool:
        t = self.table
        return t is not None and t.ranks[self.seat] == 1 and t.ranks.count(1) == 1


@dataclass(slots=True, eq=False)
class PlayerData:
    """A player's games and totals. ``points`` is the total in the caller's unit
    (any exact number type; :mod:`scoring.standings.compute` uses scaled integers)."""

    id: PlayerId
    rating: Any = None
    dropped: bool = False
    games: list = field(default_factory=list)
    points: Any = 0
    figures: Any = 0
    wins: int = 0
    played: int = 0
    byes: int = 0

    def add(self, game: PlayerRound, points=None) -> PlayerRound:
        """Record a game (the one way totals grow: :mod:`scoring.standings.compute`
        builds every player's data with it); ``points`` (default
        ``game.points``) adds to the total, in the caller's unit."""
        self.games.append(game)
        self.points += game.points if points is None else points
        table = game.table
        if table is None:
            self.byes += 1
        else:
            self.played += 1
            self.figures += table.figures[game.seat]
            if game.won:
                self.wins += 1
        return game


def points(players: Mapping, ids: Sequence) -> dict:
    return {p: players[p].points for p in ids}


def figures(players: Mapping, ids: Sequence) -> dict:
    return {p: players[p].figures for p in ids}


def wins(players: Mapping, ids: Sequence) -> dict:
    return {p: players[p].wins for p in ids}


def rating(players: Mapping, ids: Sequence) -> dict:
    out = {}
    for p in ids:
        r = players[p].rating
        out[p] = (False, 0) if r is None else (True, r)
    return out


def opponents(players: Mapping, ids: Sequence) -> dict:
    total = {p: d.points for p, d in players.items()}
    table_sum: dict[Table, tuple] = {}
    out = {}
    for p in ids:
        own = total[p]
        s = n = 0
        for g in players[p].games:
            t = g.table
            if t is None:
                continue
            ts = table_sum.get(t)
            if ts is None:  # (sum of the players' totals, number of players)
                humans = t.players
                if None in humans:  # bot seats are nobody's opponents
                    humans = [m for m in humans if m is not None]
                ts = table_sum[t] = (sum(map(total.__getitem__, humans)), len(humans))
            s += ts[0] - own
            n += ts[1] - 1
        if n == 0:
            out[p] = 0
        else:
            f = Fraction(s, n) if isinstance(s, int) else Fraction(s) / n
            out[p] = f.numerator if f.denominator == 1 else f
    return out


def head_to_head(players: Mapping, ids: Sequence) -> dict:
    group = set(ids)
    out = {}
    for p in ids:
        net = 0
        for g in players[p].games:
            t = g.table
            if t is None:
                continue
            mine = t.ranks[g.seat]
            for i, m in enumerate(t.players):
                if i != g.seat and m is not None and m in group:
                    r = t.ranks[i]
                    if mine < r:
                        net += 1
                    elif mine > r:
                        net -= 1
        out[p] = net
    return out


head_to_head.per_group = True

TIEBREAKS: dict[str, Tiebreak] = {
    "points": points,
    "figures": figures,
    "opponents": opponents,
    "wins": wins,
    "head_to_head": head_to_head,
    "rating": rating,
}


#: each tiebreak's label (English; translated where it is shown)
LABELS = {
    "points": _("Tournament points"),
    "figures": _("Sum of game figures"),
    "opponents": _("Opponents' average points"),
    "wins": _("Wins"),
    "head_to_head": _("Head-to-head"),
    "rating": _("Rating / seed"),
}


def check_order(order: Sequence[str] | None) -> tuple[str, ...]:
    """The order as a tuple; the default when empty; ValueError on unknown or
    repeated names."""
    order = tuple(order or DEFAULT_ORDER)
    unknown = [name for name in order if name not in TIEBREAKS]
    if unknown:
        raise ValueError(f"unknown tiebreak {', '.join(unknown)}; known: {', '.join(TIEBREAKS)}")
    if len(set(order)) != len(order):
        raise ValueError(f"each tiebreak may appear only once: {', '.join(order)}")
    return order


def _fast(keys: dict) -> dict:
    """Keys that sort the same but faster: Fractions become ``(float, exact)``
    (float division rounds correctly, so it never reverses an order)."""
    if not any(type(v) is Fraction for v in keys.values()):
        return keys
    return {p: (v.numerator / v.denominator, v) for p, v in keys.items()}


def rank(players: Mapping, order: Sequence[str] | None = None) -> list[tuple]:
    """Rank players by ``order`` (names of :data:`TIEBREAKS`).

    Returns ``(player id, place, keys)`` best first, ``keys`` mapping each name
    of the order to the player's key (``head_to_head`` only for players in a
    tie group when it applied, else None). Players equal on every key share a
    place and keep the iteration order of ``players`` among themselves.
    """
    order = check_order(order)
    ids = list(players)
    keys: dict[str, dict] = {}
    for name in order:
        fn = TIEBREAKS[name]
        keys[name] = {} if getattr(fn, "per_group", False) else fn(players, ids)
    groups = [ids] if ids else []
    fast: dict[str, dict] = {}
    for name in order:
        fn = TIEBREAKS[name]
        per_group = getattr(fn, "per_group", False)
        refined = []
        for group in groups:
            if len(group) == 1:
                refined.append(group)
                continue
            if per_group:
                k = fn(players, group)
                keys[name].update(k)
                k = _fast(k)
            else:
                k = fast.get(name)
                if k is None:
                    k = fast[name] = _fast(keys[name])
            group = sorted(group, key=k.__getitem__, reverse=True)
            start = 0
            for i in range(1, len(group) + 1):
                if i == len(group) or k[group[i]] != k[group[start]]:
                    refined.append(group[start:i])
                    start = i
        groups = refined
    out = []
    place = 1
    for group in groups:
        for p in group:
            out.append((p, place, {name: keys[name].get(p) for name in order}))
        place += len(group)
    return out
