"""A seated draft (tables with numbers, byes) and what changing it needs.

Shared by every change to a draft — :mod:`~tournaments.seating.reseat` (a
drop), :mod:`~tournaments.seating.late` (a late arrival) and
:mod:`~tournaments.seating.manual` (a swap or a move by hand): the state as
plain data, re-seating a window of neighbouring tables with the algorithm, and
the reasons of every table after a change (so that they stay true). Every
change answers the same way (:meth:`Change.as_dict`, through :func:`finish`),
and the web side applies every answer the same way.

A draft's tables list players only. With the request's ``bots`` a table whose
player count is not allowed but fits a larger allowed size is a bot table:
the game's bot plays its ``bot_seats`` empty seats (it is not short).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tournaments.seating import reasons
from tournaments.seating.errors import SeatingError
from tournaments.seating.request import parse
from tournaments.seating.seat_round import seat, table_reasons
from tournaments.seating.sizes import bot_seats, plan_sizes, rule_pick


@dataclass
class Draft:
    """Tables by number (ids in seat order) and the ids on a bye."""

    tables: dict = field(default_factory=dict)
    byes: list = field(default_factory=list)

    @classmethod
    def of(cls, tables, byes=()) -> Draft:
        items = tables.items() if isinstance(tables, dict) else tables
        return cls({int(n): list(ids) for n, ids in items}, list(byes))

    def numbers(self) -> list[int]:
        return sorted(self.tables)

    def table_of(self, pid):
        return next((n for n, ids in self.tables.items() if pid in ids), None)


@dataclass
class Change:
    """What a change did: the new draft, the tables whose seats changed (or
    were created), the tables removed, and each table's reasons."""

    draft: Draft
    changed: set = field(default_factory=set)
    removed: set = field(default_factory=set)
    reasons: dict = field(default_factory=dict)
    detail: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {
            "tables": [[n, list(self.draft.tables[n])] for n in self.draft.numbers()],
            "byes": list(self.draft.byes),
            "changed": sorted(self.changed),
            "removed": sorted(self.removed),
            "reasons": {n: self.reasons.get(n, []) for n in self.draft.numbers()},
            "bye_reasons": self.reasons.get("byes", []),
            "detail": self.detail,
        }


def score_of(request) -> dict:
    return {p["id"]: float(p.get("score", 0) or 0) for p in request["players"]}


def times_met(request) -> dict:
    out = {}
    for item in request.get("met") or []:
        key = frozenset(item[:2])
        out[key] = out.get(key, 0) + 1
    return out


def bot_table_seats(request, count) -> int:
    """The seats the bot plays at a draft's table of ``count`` players: 0
    without the request's ``bots``, at an allowed size, at an empty table, or
    at a table too large for any allowed size."""
    if not request.get("bots") or count <= 0:
        return 0
    allowed = request.get("allowed_sizes") or [request["table_size"]]
    return bot_seats(count, allowed) or 0


def sub_request(request, ids, seed) -> dict:
    """The request for some of its players (standings order kept), no byes,
    no bot table."""
    keep = set(ids)
    return {
        **request,
        "players": [p for p in request["players"] if p["id"] in keep],
        "met": [m for m in request.get("met") or [] if m[0] in keep and m[1] in keep],
        "byes": False,
        "bots": False,
        "mode": "swiss" if request.get("mode", "swiss") == "swiss" else "random",
        "rounds": None,
        "seed": seed,
    }


def reseat_window(request, draft: Draft, centre: int, extra=(), max_neighbours=3, new_table=False):
    """Re-seat table ``centre`` (its players plus ``extra``) with its nearest
    neighbours in table order by the algorithm, using as few tables as
    possible: the window's number of tables, one fewer, or (``new_table``) one
    more. Returns (changed numbers, removed numbers, new tables) or None."""
    numbers = draft.numbers()
    near = sorted(
        (n for n in numbers if n != centre),
        key=lambda n: (abs(numbers.index(n) - numbers.index(centre)), n),
    )
    allowed = request.get("allowed_sizes") or [request["table_size"]]
    for m in range(0, max_neighbours + 1):
        window = sorted([centre, *near[:m]])
        if len(window) <= m:
            break
        ids = [p for n in window for p in draft.tables[n]] + list(extra)
        try:
            sizes, _byes = plan_sizes(len(ids), allowed, request["table_size"], False)
        except SeatingError:
            continue
        if len(sizes) > len(window) + (1 if new_table else 0):
            continue
        try:
            answer = seat(sub_request(request, ids, f"reseat:{request.get('seed')}:{window}"))
        except SeatingError:
            continue
        new = answer["tables"]  # table 1 first: by standings
        slots = list(window)
        while len(slots) < len(new):
            slots.append(max(numbers) + 1 + len(slots) - len(window))
        for num, t in zip(slots, new, strict=False):
            draft.tables[num] = list(t)
        removed = set(slots[len(new) :])
        for num in removed:
            del draft.tables[num]
        return set(slots[: len(new)]), removed
    return None


def manual_pairs(earlier) -> set:
    """Pairs whose repeat an earlier change by hand made (from earlier reasons)."""
    return {
        frozenset((r["params"]["a"], r["params"]["b"]))
        for reasons in (earlier or {}).values()
        for r in reasons or []
        if r.get("code") == "repeat_manual"
    }


def describe(request, draft: Draft, manual=frozenset(), keep=None, pairs=frozenset()) -> dict:
    """The reasons of every table of ``draft`` and of its byes, true of the
    data as it is now. ``manual``: ids of players the organizer moved (their
    repeats are the organizer's), ``pairs``: pairs an earlier change by hand
    put together; ``keep``: earlier reasons by table number of
    tables whose players did not change (only these: their
    ``small_table_forced`` and ``bot_table`` stay). With ``bots`` a bot table
    gets ``bot_table_changed`` (unless kept) instead of ``short_table``."""
    req = parse({**request, "byes": bool(draft.byes) or request.get("byes", False)})
    numbers = draft.numbers()
    tables = [[req.index[p] for p in draft.tables[n] if p in req.index] for n in numbers]
    bots = {x: bot_table_seats(request, len(t)) for x, t in enumerate(tables)}
    bots = {x: k for x, k in bots.items() if k}
    normal = {p for x, t in enumerate(tables) if x not in bots for p in t}
    standings = [p for p in range(req.n) if p in normal]
    small = sum(len(t) for x, t in enumerate(tables) if len(t) < req.size and x not in bots)
    picked = set(rule_pick(req, standings, small, req.small_had))
    why = table_reasons(req, tables, picked, forced=("changed",), bots=set(bots))
    moved = {req.index[p] for p in manual if p in req.index}
    out = {}
    for x, (n, t, rs) in enumerate(zip(numbers, tables, why, strict=True)):
        fixed = [_by_hand(req, r, moved, pairs) for r in rs]
        earlier = (keep or {}).get(n) or []
        fixed = _still_forced(fixed, earlier)
        out[n] = _size_reasons(req, fixed, len(t), bots.get(x, 0), earlier)
    out["byes"] = _bye_reasons(req, draft, {p for t in tables for p in t})
    return out


def _by_hand(req, reason: dict, moved: set, pairs) -> dict:
    """A repeat of a player the organizer moved, or of a pair an earlier
    change by hand put together, is the organizer's (``repeat_manual``)."""
    a, b = reason["params"].get("a"), reason["params"].get("b")
    if reason["code"] == "repeat" and (
        req.index[a] in moved or req.index[b] in moved or frozenset((a, b)) in pairs
    ):
        return {**reason, "code": "repeat_manual"}
    return reason


def _still_forced(fixed: list, earlier: list) -> list:
    """An unchanged table the algorithm gave a small table against the rule
    for a named constraint: that reason (``small_table_forced``) still holds."""
    forced = [r for r in earlier if r.get("code") == "small_table_forced"]
    if forced and any(r["code"] == "small_table_changed" for r in fixed):
        return [r for r in fixed if r["code"] != "small_table_changed"] + forced
    return fixed


def _size_reasons(req, fixed: list, size: int, bots: int, earlier: list) -> list:
    """A bot table keeps the reason it was seated with (or says the bot plays
    its ``bots`` seats after a change); a table at a size not allowed says so
    instead of its small or large table reason."""
    if bots:
        kept = [r for r in earlier if r.get("code") == "bot_table"]
        return fixed + (kept or [{"code": "bot_table_changed", "params": {"bots": bots}}])
    if size not in req.allowed:
        fixed = [r for r in fixed if not r["code"].startswith(("small_table", "large_table"))]
        fixed.append({"code": "short_table", "params": {"size": size, "sizes": req.allowed}})
    return fixed


def _bye_reasons(req, draft: Draft, seated: set) -> list:
    """Each bye's reason: the rule's pick (``bye``), or ``bye_changed`` when a
    change gave it against the rule."""
    everyone = [p for p in range(req.n) if p in seated or req.ids[p] in draft.byes]
    on_bye = [req.index[p] for p in draft.byes if p in req.index]
    by_rule = set(rule_pick(req, everyone, len(on_bye), req.byes_had, salt="byes"))
    out = []
    for p in on_bye:
        r = reasons.bye(req, p).as_dict()
        if p not in by_rule:
            r["code"] = "bye_changed"
        out.append(r)
    return out


def finish(request, change: Change, before: dict, earlier=None, manual=frozenset()) -> dict:
    """The answer of a change: every table's reasons as the new draft stands.
    ``before``: the tables before the change (a table whose players did not
    change keeps what still holds of its ``earlier`` reasons); ``manual``: the
    players the organizer moved by hand (their repeats are the organizer's)."""
    earlier = earlier or {}
    keep = {n: earlier.get(n) for n, t in change.draft.tables.items() if before.get(n) == t}
    change.reasons = describe(
        request, change.draft, manual=manual, keep=keep, pairs=manual_pairs(earlier)
    )
    change.changed = {n for n in change.changed if n in change.draft.tables}
    return change.as_dict()
