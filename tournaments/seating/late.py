"""Adding a late arrival to a draft: a free seat where sizes allow, else
re-seat only the tables needed.

With the request's ``bots`` a table with bot seats takes the newcomer first,
who takes a bot's seat: the table with the most bot seats, then the fewest
repeats with the newcomer, then the nearest in score. Only when no table has
bot seats the rest applies, with no byes; where it finds no place the
newcomer opens a new table and bots play its other seats.

In this order: in a 2-player game a player with a bye (the nearest in score)
and the newcomer make a new table; a table that may grow by one (small tables
first, then the others the allowed sizes let grow) takes the newcomer — the
table with the fewest repeats with the newcomer, then the nearest in score;
in a 2-player game with every table full the newcomer gets a bye; otherwise
the tables nearest the newcomer's score are re-seated by the algorithm with
the newcomer, using one more table if needed.
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


def _mean(score, ids):
    return sum(score.get(p, 0.0) for p in ids) / len(ids)


def add_late_arrival(request: dict, tables, byes, newcomer, earlier=None) -> dict:
    """The draft with ``newcomer`` added. ``request``: the seating request of
    the round including the newcomer; ``tables`` and ``byes`` as in
    :func:`~tournaments.seating.reseat.reseat_after_drop`."""
    draft = Draft.of(tables, byes)
    before = {n: list(t) for n, t in draft.tables.items()}
    if not any(p["id"] == newcomer for p in request["players"]):
        raise SeatingError(
            "not_in_request", f"{newcomer!r} is not among the players", player=newcomer
        )
    if newcomer in draft.byes or draft.table_of(newcomer) is not None:
        raise SeatingError("already_seated", f"{newcomer!r} is seated already", player=newcomer)
    allowed = request.get("allowed_sizes") or [request["table_size"]]
    preferred = request["table_size"]
    score = score_of(request)
    met = times_met(request)
    mine = score.get(newcomer, 0.0)
    change = Change(draft, detail={"player": newcomer})
    numbers = draft.numbers()

    def repeats(n):
        return sum(bool(met.get(frozenset((newcomer, q)))) for q in draft.tables[n])

    bots = bool(request.get("bots"))
    with_bots = [n for n in numbers if bot_table_seats(request, len(draft.tables[n]))]
    if with_bots:
        best = min(
            with_bots,
            key=lambda n: (
                -bot_table_seats(request, len(draft.tables[n])),
                repeats(n),
                abs(_mean(score, draft.tables[n]) - mine),
                n,
            ),
        )
        draft.tables[best].append(newcomer)
        change.changed.add(best)
        change.detail.update(table=best, bots=bot_table_seats(request, len(draft.tables[best])))
        return finish(request, change, before, earlier)
    if 2 in allowed and draft.byes and preferred == 2:
        b = min(draft.byes, key=lambda x: (abs(score.get(x, 0) - mine), str(x)))
        draft.byes.remove(b)
        num = max(numbers, default=0) + 1
        draft.tables[num] = [b, newcomer]
        change.changed.add(num)
        change.detail.update(from_bye=b, table=num)
        return finish(request, change, before, earlier)
    fits = [n for n in numbers if len(draft.tables[n]) + 1 in allowed]
    if fits:
        best = min(
            fits,
            key=lambda n: (
                len(draft.tables[n]) >= preferred,  # small tables first
                repeats(n),
                abs(_mean(score, draft.tables[n]) - mine),
                n,
            ),
        )
        draft.tables[best].append(newcomer)
        change.changed.add(best)
        change.detail["table"] = best
        return finish(request, change, before, earlier)
    if 2 in allowed and request.get("byes") and not bots:
        draft.byes.append(newcomer)
        change.detail["bye"] = True
        return finish(request, change, before, earlier)
    if numbers:
        centre = min(numbers, key=lambda n: (abs(_mean(score, draft.tables[n]) - mine), n))
        result = reseat_window(request, draft, centre, extra=[newcomer], new_table=True)
        if result:
            used, removed = result
            change.changed |= used
            change.removed |= removed
            change.detail["window"] = sorted(used)
            change.detail["table"] = draft.table_of(newcomer)
            return finish(request, change, before, earlier)
    if bots:
        # nowhere to sit at the allowed sizes: a table of their own with bots
        num = max(numbers, default=0) + 1
        draft.tables[num] = [newcomer]
        change.changed.add(num)
        change.detail.update(table=num, bots=bot_table_seats(request, 1))
        return finish(request, change, before, earlier)
    raise SeatingError(
        "no_place",
        f"no table can take {newcomer!r} at the allowed sizes",
        player=newcomer,
        sizes=sorted(allowed),
    )
