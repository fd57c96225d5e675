"""Season standings as a pure function of the tournaments' final standings
(no Django import).

A series groups tournaments of one game. Each tournament gives each person who
played in it season points by a scheme:

- ``placement``: points by field size — the last place earns 1, every place
  above one more (a 40-player field gives the winner 40); shared places earn
  the same.
- ``points``: the tournament points the person scored in that tournament.
- ``table``: a fixed table by place (e.g. 25-20-16-13-11-10-9-8-7-6-5-4-3-2-1);
  places beyond it earn nothing.

The season total counts all tournaments, or only a person's best ``best``
results. Only people with at least ``minimum`` tournaments are ranked; the
others are listed after them without a place. Ties are broken by the order
:data:`TIEBREAKS` gives: more tournaments played, the best single result,
head-to-head in the tournaments both played (who placed better more often);
still tied people share the place.

Input: ``events``: one :class:`Event` per tournament in season order, each with
its ``rows``: :class:`Placing` (person, place, tournament points). Output:
:class:`SeasonRow` per person, best first.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from games.i18n import _
from tournaments.collation import name_key

SCHEMES = ("placement", "points", "table")
DEFAULT_TABLE = (25, 20, 16, 13, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)


#: each season points scheme's label (English; translated where it is shown)
SCHEME_LABELS = {
    "placement": _("Placement points by field size"),
    "points": _("Tournament points summed"),
    "table": _("Fixed table by place"),
}
TIEBREAKS = ("played", "best_single", "head_to_head")


class SeasonError(ValueError):
    """A setting that can't make a season; ``code`` names it for translation."""

    def __init__(self, code: str, **params):
        super().__init__(code)
        self.code = code
        self.params = params


@dataclass(frozen=True, slots=True)
class Placing:
    person: Any
    place: int
    points: Any = 0  # the tournament points (int or Decimal)


@dataclass(frozen=True, slots=True)
class Event:
    key: Any
    rows: Sequence[Placing]
    label: str = ""


@dataclass(slots=True)
class Result:
    """One tournament of a person's season."""

    event: Any
    place: int
    field: int
    points: Any
    counted: bool = False


@dataclass(slots=True)
class SeasonRow:
    place: int | None  # None: not ranked (fewer than the minimum)
    shared: bool
    person: Any
    total: Any
    played: int
    best_single: Any
    results: list[Result] = field(default_factory=list)
    head_to_head: int | None = None

    @property
    def ranked(self) -> bool:
        return self.place is not None


def check_settings(scheme: str, table: Sequence | None, best: int | None, minimum: int) -> tuple:
    """The settings as used, or :class:`SeasonError`."""
    if scheme not in SCHEMES:
        raise SeasonError("unknown_scheme", scheme=scheme)
    if scheme == "table":
        table = tuple(table if table else DEFAULT_TABLE)
        if any(not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in table):
            raise SeasonError("bad_table")
        if list(table) != sorted(table, reverse=True):
            raise SeasonError("table_not_descending")
    else:
        table = ()
    if best is not None and (not isinstance(best, int) or best < 1):
        raise SeasonError("bad_best")
    if not isinstance(minimum, int) or minimum < 0:
        raise SeasonError("bad_minimum")
    return scheme, table, best, minimum


def event_points(scheme: str, place: int, field_size: int, points: Any, table: Sequence) -> Any:
    """One person's season points for one tournament."""
    if scheme == "placement":
        return max(field_size - place + 1, 0)
    if scheme == "points":
        return points if isinstance(points, int | Decimal) else Decimal(str(points))
    return table[place - 1] if 1 <= place <= len(table) else 0


def season_standings(
    events: Iterable[Event],
    *,
    scheme: str = "placement",
    table: Sequence[int] | None = None,
    best: int | None = None,
    minimum: int = 0,
) -> list[SeasonRow]:
    """The season standings: ranked people first (best first), then the ones
    with fewer tournaments than ``minimum`` (by total, without a place)."""
    scheme, table, best, minimum = check_settings(scheme, table, best, minimum)
    events = list(events)
    results: dict[Any, list[Result]] = {}
    places: dict[Any, dict[Any, int]] = {}  # event -> person -> place
    for order, event in enumerate(events):
        size = len(event.rows)
        places[order] = {}
        for row in event.rows:
            pts = event_points(scheme, row.place, size, row.points, table)
            results.setdefault(row.person, []).append(Result(event.key, row.place, size, pts))
            places[order][row.person] = row.place
    rows = []
    for person, res in results.items():
        by_value = sorted(range(len(res)), key=lambda i: (-res[i].points, i))
        keep = by_value if best is None else by_value[:best]
        for i in keep:
            res[i].counted = True
        total = sum((res[i].points for i in keep), start=0)
        rows.append(
            SeasonRow(
                place=None,
                shared=False,
                person=person,
                total=total,
                played=len(res),
                best_single=max(r.points for r in res),
                results=res,
            )
        )
    ranked = [r for r in rows if r.played >= minimum]
    unranked = [r for r in rows if r.played < minimum]
    ranked = _order(ranked, places)
    unranked.sort(key=lambda r: (-r.total, -r.played, -r.best_single, name_key(str(r.person))))
    return ranked + unranked


def _key(row: SeasonRow) -> tuple:
    return (-row.total, -row.played, -row.best_single)


def _order(rows: list[SeasonRow], places: dict) -> list[SeasonRow]:
    rows.sort(key=lambda r: (_key(r), name_key(str(r.person))))
    out: list[SeasonRow] = []
    i = 0
    while i < len(rows):
        j = i
        while j < len(rows) and _key(rows[j]) == _key(rows[i]):
            j += 1
        group = rows[i:j]
        if len(group) > 1:
            group = _head_to_head(group, places)
        else:
            group[0].head_to_head = None
        place = len(out) + 1
        k = 0
        while k < len(group):
            m = k
            while m < len(group) and group[m].head_to_head == group[k].head_to_head:
                m += 1
            for row in group[k:m]:
                row.place = place + k
                row.shared = m - k > 1
            k = m
        out.extend(group)
        i = j
    return out


def _head_to_head(group: list[SeasonRow], places: dict) -> list[SeasonRow]:
    """Within a tie group: per person, how often he placed above another member
    of the group minus how often below, over the tournaments both played."""
    people = [r.person for r in group]
    score = dict.fromkeys(people, 0)
    for by_person in places.values():
        present = [p for p in people if p in by_person]
        for a in present:
            for b in present:
                if a != b and by_person[a] < by_person[b]:
                    score[a] += 1
                    score[b] -= 1
    for row in group:
        row.head_to_head = score[row.person]
    group.sort(key=lambda r: (-score[r.person], name_key(str(r.person))))
    return group
