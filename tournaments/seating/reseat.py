"""Re-seating a draft after a drop: change only the tables that must change.

A player who drops after the round was seated (before it starts) leaves the
draft. The table keeps its other players if its new size is allowed.
Otherwise, in this order: in a 2-player game a player with a bye takes the
free seat (the nearest in score); a neighbouring table (in table order, up to
three away) that can spare a player gives one (the fewest repeats with the
table, then the nearest to its mean score); in a 2-player game the lone
player gets a bye; the table and its nearest neighbours are re-seated by the
algorithm. If nothing fits, the table stays short and says so.

With the request's ``bots`` a table left with players at a size not allowed
keeps them when a larger allowed size exists: the game's bot plays the freed
seat (``detail["bots"]``: the table's bot seats) and no other table changes.
"""

from __future__ import annotations

from tournaments.seating.draft import (
    Change,
    Draft,
    bot_table_seats,
    finish,
    reseat_window,
    score_of,
    times_met,
)
from tournaments.seating.errors import SeatingError


def _fill_from_neighbour(request, draft, number, left, allowed, max_distance=3):
    numbers = draft.numbers()
    k = numbers.index(number)
    score = score_of(request)
    met = times_met(request)
    mean = sum(score.get(p, 0.0) for p in left) / len(left)
    for d in range(1, max_distance + 1):
        options = []
        for j in (k - d, k + d):
            if not 0 <= j < len(numbers):
                continue
            num = numbers[j]
            ps = draft.tables[num]
            if len(ps) - 1 not in allowed:
                continue
            for q in ps:
                repeats = sum(bool(met.get(frozenset((q, p)))) for p in left)
                options.append((repeats, abs(score.get(q, 0.0) - mean), num, str(q), q))
        if options:
            *_key, num, _s, q = min(options)
            return num, q
    return None


def reseat_after_drop(request: dict, tables, byes, dropped, earlier=None) -> dict:
    """The draft without ``dropped``. ``request``: the seating request of the
    round (the players still in it, their scores and history); ``tables``:
    ``{number: [ids in seat order]}`` or ``[[number, ids], ...]``; ``byes``:
    ids; ``earlier``: the tables' reasons so far, by number. Returns the new state (see :class:`~tournaments.seating.draft.Change`)."""
    request = {
        **request,
        "players": [p for p in request["players"] if p["id"] != dropped],
        "met": [m for m in request.get("met") or [] if dropped not in m[:2]],
    }
    draft = Draft.of(tables, byes)
    before = {n: list(t) for n, t in draft.tables.items()}
    change = Change(draft, detail={"player": dropped, "resolved": True})
    allowed = request.get("allowed_sizes") or [request["table_size"]]
    if dropped in draft.byes:
        draft.byes.remove(dropped)
        change.detail["bye"] = True
        return finish(request, change, before, earlier)
    number = draft.table_of(dropped)
    if number is None:
        raise SeatingError("not_seated", f"player {dropped!r} is not seated", player=dropped)
    change.detail["table"] = number
    left = [p for p in draft.tables[number] if p != dropped]
    draft.tables[number] = left
    change.changed.add(number)
    if not left:
        del draft.tables[number]
        change.changed.discard(number)
        change.removed.add(number)
    elif len(left) not in allowed and bot_table_seats(request, len(left)):
        change.detail["bots"] = bot_table_seats(request, len(left))
    elif len(left) not in allowed:
        change.detail["resolved"] = _resolve(request, change, number, left, allowed)
    return finish(request, change, before, earlier)


def _resolve(request, change, number, left, allowed) -> bool:
    draft = change.draft
    score = score_of(request)
    if len(left) == 1 and 2 in allowed and draft.byes:
        # a 2-player game: the player with a bye nearest in score takes the free seat
        b = min(draft.byes, key=lambda x: (abs(score.get(x, 0) - score.get(left[0], 0)), str(x)))
        draft.byes.remove(b)
        draft.tables[number] = [*left, b]
        change.detail["from_bye"] = b
        return True
    found = _fill_from_neighbour(request, draft, number, left, allowed)
    if found:
        num, q = found
        draft.tables[num] = [p for p in draft.tables[num] if p != q]
        draft.tables[number] = [*left, q]
        change.changed.add(num)
        change.detail["moved"] = {"player": q, "from": num}
        return True
    if len(left) == 1 and 2 in allowed:
        # nobody to pair with: the remaining player gets a bye
        draft.byes.append(left[0])
        del draft.tables[number]
        change.changed.discard(number)
        change.removed.add(number)
        change.detail["to_bye"] = left[0]
        return True
    result = reseat_window(request, draft, number)
    if result:
        used, removed = result
        change.changed |= used
        change.changed -= removed
        change.removed |= removed
        change.detail["window"] = sorted(used)
        return True
    return False
