"""The final standings of a tournament with a final stage (pure: no Django).

Finalists first, ordered by the final stage, then everyone else by the
qualifying standings:

- the players of the final table (once it has its result), then those who
  played a semi-final but not the final, then the rest;
- ``replace``: within a stage by the rank at their table; a rank shared at
  the table (a tie the game's rules left open) is decided by the qualifying
  standings (the tournament's tiebreaks);
- ``add``: within a stage by their points with the stage's points added
  (``totals``), then by the rank at their table, then by the qualifying
  standings;
- everyone else keeps the order and shared places of the qualifying
  standings, after the finalists.

Each finalist's ``settled`` says what put them there: ``rank`` (their rank
alone at the table), ``game`` (level on the game's figure with a table-mate
and ranked apart by the game's own rules, e.g. Quartett's decision round),
``tiebreak`` (a rank shared at the table, decided by the qualifying
standings) or ``points`` (``add``: the points with the stage's added).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tournaments.finals.advancement import StageTable
from tournaments.finals.formats import ADD, FINAL, MODES, REPLACE


@dataclass(frozen=True, slots=True)
class Qualifying:
    """A row of the qualifying standings, best first."""

    player_id: Any
    place: int
    shared: bool = False


@dataclass(frozen=True, slots=True)
class Placed:
    player_id: Any
    place: int
    shared: bool
    #: the last stage the player played ("final", "semi"; "" for none)
    stage: str = ""
    stage_rank: int | None = None
    settled: str = ""


def _stage_seats(tables: Sequence[StageTable]) -> dict:
    """player id -> (rank, table, settled) at the stage's tables."""
    out = {}
    for t in tables:
        seats = [(p, r, f) for p, r, f in zip(t.players, t.ranks, _figs(t), strict=True)]
        for p, rank, fig in seats:
            if p is None:
                continue
            shared = sum(1 for _p, r, _f in seats if r == rank) > 1
            by_game = fig is not None and any(
                f == fig and r != rank for _p, r, f in seats if _p != p
            )
            settled = "tiebreak" if shared else ("game" if by_game else "rank")
            out[p] = (rank, t.number, settled)
    return out


def _figs(t: StageTable) -> tuple:
    return (
        tuple(t.figures)
        if t.figures and len(t.figures) == len(t.players)
        else (None,) * len(t.players)
    )


def final_order(
    qualifying: Sequence[Qualifying],
    stages: Sequence[tuple[str, Sequence[StageTable]]],
    mode: str = REPLACE,
    totals: Mapping | None = None,
) -> list[Placed]:
    """The final standings (see the module docstring). ``stages``: each
    played stage (its name and tables with a result), the final first."""
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}")
    if mode == ADD and totals is None:
        raise ValueError("adding the final's points needs every player's total")
    position = {q.player_id: k for k, q in enumerate(qualifying)}
    placed: list[Placed] = []
    taken: set = set()
    for stage, tables in stages:
        seats = _stage_seats(tables)
        members = [p for p in seats if p not in taken and p in position]

        def key(p, seats=seats):
            rank = seats[p][0]
            if mode == ADD:
                return (-totals.get(p, 0), rank, position[p])
            return (rank, position[p])

        for p in sorted(members, key=key):
            rank, _table, settled = seats[p]
            placed.append(
                Placed(
                    p,
                    len(placed) + 1,
                    False,
                    stage or FINAL,
                    rank,
                    "points" if mode == ADD else settled,
                )
            )
            taken.add(p)
    offset = len(placed)
    last_place, last_new = None, 0
    for k, q in enumerate(r for r in qualifying if r.player_id not in taken):
        place = last_new if q.place == last_place else offset + k + 1
        last_place, last_new = q.place, place
        placed.append(Placed(q.player_id, place, False))
    counts: dict[int, int] = {}
    for p in placed:
        counts[p.place] = counts.get(p.place, 0) + 1
    return [
        Placed(p.player_id, p.place, counts[p.place] > 1, p.stage, p.stage_rank, p.settled)
        for p in placed
    ]
