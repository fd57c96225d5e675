"""Changes by hand to a draft: swap two players, move one to another table.

Like :mod:`~tournaments.seating.reseat` (a drop) and
:mod:`~tournaments.seating.late` (a late arrival): the draft as plain data in,
the new draft and every table's reasons out (:func:`~tournaments.seating.draft.finish`),
so a draft changes in one way whatever the cause. A repeat encounter a change
by hand creates is the organizer's (``repeat_manual``), and stays so after
later changes.

- :func:`swap_players`: two players change places — seats at one table or at
  two, or a seat and a bye (2-player games).
- :func:`move_player`: a player (seated, or on a bye) goes to the last seat of
  another table; a table left empty is removed. Both tables must end at a
  size a change by hand may leave (:func:`~tournaments.seating.sizes.size_ok`),
  or, with the request's ``bots``, at a size the bot can fill up.

Error codes (parameters): ``same_player`` (``player``), ``not_seated``
(``player``), ``both_on_bye`` (``players``), ``no_table`` (``table``),
``same_table`` (``player``, ``table``), ``size_not_allowed`` (``table``,
``size``, ``sizes``).
"""

from __future__ import annotations

from tournaments.seating.draft import Change, Draft, finish
from tournaments.seating.errors import SeatingError
from tournaments.seating.sizes import bot_seats, size_ok


def _where(draft: Draft, pid):
    """(table number or None, on a bye) of a player; SeatingError if neither."""
    number = draft.table_of(pid)
    if number is None and pid not in draft.byes:
        raise SeatingError("not_seated", f"player {pid!r} is not seated", player=pid)
    return number


def _allowed(request) -> list:
    return request.get("allowed_sizes") or [request["table_size"]]


def may_end_at(request, old: int, new: int) -> bool:
    """A table changed by hand may go from ``old`` to ``new`` players:
    :func:`~tournaments.seating.sizes.size_ok`, or (request ``bots``) any size
    the bot can fill up to an allowed one."""
    allowed = _allowed(request)
    if size_ok(old, new, allowed):
        return True
    return bool(request.get("bots")) and new > 0 and bot_seats(new, allowed) is not None


def swap_players(request: dict, tables, byes, a, b, earlier=None) -> dict:
    """The draft with players ``a`` and ``b`` in each other's place.
    ``request``, ``tables``, ``byes`` and ``earlier`` as in
    :func:`~tournaments.seating.reseat.reseat_after_drop`."""
    if a == b:
        raise SeatingError("same_player", f"{a!r} cannot be swapped with itself", player=a)
    draft = Draft.of(tables, byes)
    before = {n: list(t) for n, t in draft.tables.items()}
    ta, tb = _where(draft, a), _where(draft, b)
    if ta is None and tb is None:
        raise SeatingError("both_on_bye", "both players have a bye", players=[a, b])
    change = Change(draft, detail={"players": [a, b]})
    if ta is not None and ta == tb:  # one table: the two exchange seats
        seats = draft.tables[ta]
        i, j = seats.index(a), seats.index(b)
        seats[i], seats[j] = seats[j], seats[i]
        change.changed.add(ta)
    else:
        for number, out, into in ((ta, a, b), (tb, b, a)):
            place = draft.byes if number is None else draft.tables[number]
            place[place.index(out)] = into
            if number is not None:
                change.changed.add(number)
    change.detail["tables"] = sorted(change.changed)
    return finish(request, change, before, earlier, manual={a, b})


def move_player(request: dict, tables, byes, pid, to: int, earlier=None) -> dict:
    """The draft with ``pid`` at the last seat of table ``to``."""
    draft = Draft.of(tables, byes)
    before = {n: list(t) for n, t in draft.tables.items()}
    source = _where(draft, pid)
    if to not in draft.tables:
        raise SeatingError("no_table", f"no table {to!r}", table=to)
    if source == to:
        raise SeatingError("same_table", f"{pid!r} sits at table {to!r}", player=pid, table=to)
    sizes = sorted(_allowed(request))
    for number, delta in ((to, 1), (source, -1)):
        if number is None:
            continue
        old = len(draft.tables[number])
        if not may_end_at(request, old, old + delta):
            raise SeatingError(
                "size_not_allowed",
                f"table {number} would have {old + delta} players",
                table=number,
                size=old + delta,
                sizes=sizes,
            )
    change = Change(draft, detail={"player": pid, "from": source, "to": to})
    if source is None:
        draft.byes.remove(pid)
    else:
        draft.tables[source].remove(pid)
        change.changed.add(source)
        if not draft.tables[source]:
            del draft.tables[source]
            change.removed.add(source)
    draft.tables[to].append(pid)
    change.changed.add(to)
    return finish(request, change, before, earlier, manual={pid})
