"""Seat order at a table: who leads (seat 0), and team partners on team seats."""

from __future__ import annotations


def seat_order(seats, table, rng):
    """Seat 0 (leads) to who led least, and so on; ties by the seed."""
    left = list(table)
    rng.shuffle(left)
    out = []
    for s in range(len(table)):
        pick = min(
            left,
            key=lambda p: (
                seats[p].count(s),
                -sum(1 for x in seats[p] if x > s) if s == 0 else 0,
            ),
        )
        left.remove(pick)
        out.append(pick)
    return out


# --------------------------------------------------------------------------
# the entry point


def team_seat_order(order, team_of, groups):
    """``order`` changed only so that team partners sit on the seats the game
    gives one team (``groups``: the engine's seat groups, e.g. Terra Trumpf at
    4: ``[[0, 2], [1, 3]]``, opposite); ``team_of``: player -> team or None."""
    if not groups:
        return list(order)
    by_team = {}
    for p in order:
        if team_of.get(p) is not None:
            by_team.setdefault(team_of[p], []).append(p)
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
