"""Who qualifies for the final stage, and why (pure: no Django).

The input is the qualifying standings as plain rows, best first, as the
tournament's tiebreak order ranked them: ``Standing(player_id, place,
dropped, values)`` with ``values`` the row's key per name of the order
(``points``, then each tiebreak). The best ``count`` players who have not
dropped qualify. A player's reason says why, as a code with parameters the
web side words:

- ``place``: in on points (more points than the first player left out);
- ``tiebreak_in`` / ``tiebreak_out``: level on points with a player on the
  other side of the cut, the tiebreak ``params["tiebreak"]`` decided;
- ``lot_in`` / ``lot_out``: level on every tiebreak across the cut, decided
  by a draw (seeded by the caller, so the same standings draw the same);
- ``below``: out on points (fewer points than the last player in);
- ``dropped``: left the tournament.

``seed`` is the qualifier's position (1 = the best), the order the final
stage is seated in.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Standing:
    player_id: Any
    place: int
    dropped: bool = False
    #: tiebreak name -> the row's value, for the names of the order
    values: dict = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Decision:
    player_id: Any
    qualified: bool
    seed: int | None
    code: str
    params: dict


def deciding(a: Standing, b: Standing, order: Sequence[str]) -> str | None:
    """The first name of ``order`` on which ``a`` and ``b`` differ (None:
    level on all of them)."""
    for name in order:
        x, y = a.values.get(name), b.values.get(name)
        if x != y and x is not None and y is not None:
            return name
    return None


def qualify(
    rows: Sequence[Standing], count: int, order: Sequence[str], *, seed: int = 0
) -> list[Decision]:
    """Every row's decision, in the order of the qualifiers' seeds and then
    the standings (see the module docstring)."""
    order = list(order) or ["points"]
    active = [r for r in rows if not r.dropped]
    ranked = _draw_full_ties(active, count, order, seed)
    inside, outside = ranked[:count], ranked[count:]
    last_in = inside[-1] if inside else None
    first_out = outside[0] if outside else None
    out: list[Decision] = []
    for k, row in enumerate(inside, start=1):
        code, params = "place", {"place": row.place}
        if first_out is not None and _level(row, first_out):
            name = deciding(row, first_out, order)
            code, params = ("tiebreak_in", {"tiebreak": name}) if name else ("lot_in", {})
        out.append(Decision(row.player_id, True, k, code, params))
    for row in outside:
        code, params = "below", {"place": row.place}
        if last_in is not None and _level(row, last_in):
            name = deciding(last_in, row, order)
            code, params = ("tiebreak_out", {"tiebreak": name}) if name else ("lot_out", {})
        out.append(Decision(row.player_id, False, None, code, params))
    out += [Decision(r.player_id, False, None, "dropped", {}) for r in rows if r.dropped]
    return out


def _level(a: Standing, b: Standing) -> bool:
    return a.values.get("points") == b.values.get("points")


def _draw_full_ties(active: list[Standing], count: int, order, seed: int) -> list[Standing]:
    """The rows with the group that is level on every tiebreak across the
    cut (if any) put in an order drawn by lot."""
    if not 0 < count < len(active):
        return list(active)
    last_in, first_out = active[count - 1], active[count]
    if deciding(last_in, first_out, order) is not None:
        return list(active)
    group = [k for k, r in enumerate(active) if deciding(r, last_in, order) is None]
    members = sorted((active[k] for k in group), key=lambda r: str(r.player_id))
    random.Random(seed).shuffle(members)
    ranked = list(active)
    for k, row in zip(group, members, strict=True):
        ranked[k] = row
    return ranked
