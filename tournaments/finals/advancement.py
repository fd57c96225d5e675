"""Seating the final stage and who goes on from a semi-final (pure).

- :func:`seat_tables`: the qualifiers (best first) spread over the stage's
  tables the way seeds are: table 1 seat 1 for the best, the next tables'
  first seats for the next best, then back again (a snake: with two tables of
  4, table 1 holds seeds 1, 4, 5, 8 and table 2 seeds 2, 3, 6, 7). Within a
  table the seats follow the seeds.
- :func:`advance`: from each semi-final table the best ``per_table`` by the
  table's ranks go on; a shared rank across the cut is decided by the
  qualifying standings (the tournament's tiebreaks), and the reason says so.
  The finalists are seated by their qualifying seed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class StageTable:
    """A played table of a stage: players in seat order (None: a seat the
    bot played for nobody), the game's ranks per seat (1 = best, ties share)
    and the game's figures per seat (may be empty)."""

    number: int
    players: tuple
    ranks: tuple
    figures: tuple = ()


@dataclass(frozen=True, slots=True)
class Advance:
    player_id: Any
    advances: bool
    table: int
    rank: int
    code: str  # "rank", "tiebreak_in", "tiebreak_out", "below"


def seat_tables(seeded: Sequence, tables: int) -> list[list]:
    """``seeded`` (best first) over ``tables`` tables in a snake."""
    if tables < 1:
        raise ValueError("a stage needs at least one table")
    out: list[list] = [[] for _ in range(tables)]
    for k, player in enumerate(seeded):
        lap, pos = divmod(k, tables)
        out[pos if lap % 2 == 0 else tables - 1 - pos].append(player)
    return out


def advance(
    tables: Sequence[StageTable], per_table: int, seed_of: Mapping
) -> tuple[list[Advance], list]:
    """(each player's decision, the finalists best seed first)."""
    decisions: list[Advance] = []
    finalists = []
    last = len(seed_of) + 1  # a player without a seed comes after every seed

    def seed(p):
        return seed_of.get(p) or last

    for t in tables:
        seats = [
            (rank, seed(p), p) for p, rank in zip(t.players, t.ranks, strict=True) if p is not None
        ]
        seats.sort(key=lambda s: (s[0], s[1]))
        cut_rank = seats[per_table - 1][0] if len(seats) >= per_table else None
        split = len(seats) > per_table and seats[per_table][0] == cut_rank
        for k, (rank, _seed, p) in enumerate(seats):
            goes = k < per_table
            if split and rank == cut_rank:
                code = "tiebreak_in" if goes else "tiebreak_out"
            else:
                code = "rank" if goes else "below"
            decisions.append(Advance(p, goes, t.number, rank, code))
            if goes:
                finalists.append(p)
    finalists.sort(key=seed)
    return decisions, finalists
