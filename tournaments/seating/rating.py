"""Seating by rating (meant for round 1, where there are no standings yet).

Two styles, chosen by the request's ``mode``:

- ``rating_spread``: strong players spread. The rating order is dealt to the
  tables like a snake draft (1, 2, …, T, T, …, 2, 1, 1, 2, …): each table gets
  a mix from strong to weak, and every table's strongest player is among the
  top T of the rating order (T tables). A small table takes no pick in the
  last pass (the weakest players' pass); its reason says so.
- ``rating_swiss``: neighbours in the rating order sit together, table 1 the
  strongest. The small tables and the byes go by the fairness rule of
  :mod:`~tournaments.seating.sizes` (fewest had, then the lowest in the rating
  order), at the bottom.

Players without a rating come last, in an order drawn from the seed; ties in
rating keep the request's order. Club- and team-mates kept apart (``teams:
apart``) are separated by swapping with the nearest player in the rating order
that breaks no other rule; where none fits the table says so
(``mates_together``). Partners seated together (``teams: together``) are not
supported here: error ``rating_with_teams``.

Reason codes (parameters; players by id, places 1-based in the rating order):

- ``rating_spread`` (``strongest``, ``place``, ``tables``): the strongest at
  this table is No. ``place`` of the rating order, among the top ``tables``.
- ``rating_group`` (``first``, ``last``): the table holds players from places
  ``first`` to ``last`` of the rating order.
- ``unrated`` (``players``): these have no rating and were placed by the draw
  after the rated players.
- ``small_table`` with ``rule`` ``rating`` (rating_swiss: the rule's pick, the
  lowest in the rating order) or ``spread`` (rating_spread: the table skipped
  the last pass).
"""

from __future__ import annotations

import random

from tournaments.seating import reasons
from tournaments.seating.errors import SeatingError
from tournaments.seating.reasons import Reason
from tournaments.seating.sizes import rule_pick


def rating_order(req) -> list[int]:
    """Player numbers, strongest first; those without a rating last, drawn."""
    rated = [p for p in range(req.n) if req.rating[p] is not None]
    rated.sort(key=lambda p: (-req.rating[p], p))
    unrated = [p for p in range(req.n) if req.rating[p] is None]
    random.Random(f"unrated:{req.seed}").shuffle(unrated)
    return rated + unrated


def spread_tables(order: list[int], sizes: list[int]) -> list[list[int]]:
    """Snake draft of ``order`` over tables of ``sizes`` (largest first): each
    pass goes down the tables, the next one back up; a full table is skipped."""
    sizes = sorted(sizes, reverse=True)
    tables: list[list[int]] = [[] for _ in sizes]
    forward = list(range(len(sizes)))
    it = iter(order)
    for step in range(max(sizes, default=0)):
        for x in forward if step % 2 == 0 else forward[::-1]:
            if len(tables[x]) < sizes[x]:
                tables[x].append(next(it))
    return tables


def swiss_tables(req, order: list[int], sizes: list[int], small: list[int]):
    """Neighbours in ``order`` together, the full tables first; the small
    tables (``small``: their sizes) go to the fairness rule's pick."""
    pick = rule_pick(req, order, sum(small), req.small_had)
    chosen = set(pick)
    rest = [p for p in order if p not in chosen]
    big = sorted((s for s in sizes), reverse=True)
    for s in small:
        big.remove(s)
    tables, k = [], 0
    for s in big:
        tables.append(rest[k : k + s])
        k += s
    k = 0
    for s in sorted(small, reverse=True):
        tables.append(pick[k : k + s])
        k += s
    return tables, chosen


def _clash(req, table, p, skip=None) -> bool:
    return any(req.mates(p, q) for q in table if q != p and q != skip)


def keep_mates_apart(req, tables: list[list[int]], place: dict) -> None:
    """Swap a mate away to the nearest player in the rating order whose swap
    leaves both tables without mates (in place)."""
    if req.teams != "apart":
        return
    table_of = {p: x for x, t in enumerate(tables) for p in t}
    for x, table in enumerate(tables):
        for p in sorted(table, key=lambda p: -place[p]):  # the weakest moves first
            if not _clash(req, table, p):
                continue
            for q in sorted(place, key=lambda q: (abs(place[q] - place[p]), place[q])):
                y = table_of[q]
                if y == x:
                    continue
                other = tables[y]
                if _clash(req, other, p, skip=q) or _clash(req, table, q, skip=p):
                    continue
                i, j = table.index(p), other.index(q)
                table[i], other[j] = q, p
                table_of[p], table_of[q] = y, x
                break


def table_reasons(req, tables, place, style, picked=frozenset(), skipped=()) -> list[list[dict]]:
    """The reasons of each table (player numbers, table order)."""
    out = []
    for x, table in enumerate(tables):
        rs = reasons.mates(req, table)
        rated = [p for p in table if req.rating[p] is not None]
        if style == "rating_spread":
            top = min(table, key=place.__getitem__)
            rs.append(
                Reason(
                    "rating_spread",
                    {"strongest": req.ids[top], "place": place[top] + 1, "tables": len(tables)},
                )
            )
        else:
            places = [place[p] + 1 for p in table]
            rs.append(Reason("rating_group", {"first": min(places), "last": max(places)}))
        if len(rated) < len(table):
            unrated = [req.ids[p] for p in table if req.rating[p] is None]
            rs.append(Reason("unrated", {"players": unrated}))
        if len(table) < req.size:
            params = {
                "size": len(table),
                "preferred": req.size,
                "had": [[req.ids[p], req.small_had[p]] for p in table],
            }
            if style == "rating_swiss" and set(table) <= picked:
                rs.append(Reason("small_table", {**params, "rule": "rating"}))
            elif style == "rating_spread" and x in skipped:
                rs.append(Reason("small_table", {**params, "rule": "spread"}))
            else:  # moved by keep_mates_apart
                rs.append(
                    Reason(
                        "small_table_forced",
                        {
                            **params,
                            "players": [req.ids[p] for p in table if p not in picked],
                            "constraints": ["apart"],
                        },
                    )
                )
        elif len(table) > req.size:
            rs.append(Reason("large_table", {"size": len(table), "preferred": req.size}))
        out.append([r.as_dict() for r in rs])
    return out


def seat_by_rating(req, order: list[int], sizes: list[int], small: list[int]):
    """(tables of player numbers, table 1 first; their reasons) for the
    players of ``order`` (rating order, byes already out)."""
    if req.teams == "together":
        raise SeatingError(
            "rating_with_teams",
            "seating by rating cannot keep team partners together; draw round 1 at random",
        )
    place = {p: k for k, p in enumerate(order)}
    picked: set = set()
    skipped: tuple = ()
    if req.mode == "rating_spread":
        tables = spread_tables(order, sizes)
        # a table smaller than the largest took no pick in the last pass
        largest = max(sizes, default=0)
        skipped = tuple(x for x, t in enumerate(tables) if len(t) < largest)
        picked = {p for x in skipped for p in tables[x]}
    else:
        tables, picked = swiss_tables(req, order, sizes, small)
    keep_mates_apart(req, tables, place)
    tables.sort(key=lambda t: min(place[p] for p in t))
    if req.mode == "rating_spread":  # the sort may have moved the small tables
        largest = max(sizes, default=0)
        skipped = tuple(x for x, t in enumerate(tables) if len(t) < largest)
    return tables, table_reasons(req, tables, place, req.mode, frozenset(picked), skipped)
