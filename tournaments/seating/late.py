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
    place = _Placing(request, Change(draft, detail={"player": newcomer}), newcomer)
    # in the module docstring's order: the first that finds a place decides
    for step in (
        place.at_a_bot_seat,
        place.with_a_bye,
        place.at_a_free_seat,
        place.on_a_bye,
        place.by_reseating_neighbours,
        place.at_a_new_bot_table,
    ):
        if step():
            return finish(request, place.change, before, earlier)
    raise SeatingError(
        "no_place",
        f"no table can take {newcomer!r} at the allowed sizes",
        player=newcomer,
        sizes=sorted(place.allowed),
    )


class _Placing:
    """The ways a newcomer may join a draft; each takes a place and returns
    True, or changes nothing and returns False."""

    def __init__(self, request: dict, change: Change, newcomer):
        self.request, self.change, self.newcomer = request, change, newcomer
        self.draft = change.draft
        self.allowed = request.get("allowed_sizes") or [request["table_size"]]
        self.preferred = request["table_size"]
        self.bots = bool(request.get("bots"))
        self.score = score_of(request)
        self.met = times_met(request)
        self.mine = self.score.get(newcomer, 0.0)
        self.numbers = self.draft.numbers()

    def _repeats(self, n) -> int:
        return sum(bool(self.met.get(frozenset((self.newcomer, q)))) for q in self.draft.tables[n])

    def _distance(self, n) -> float:
        return abs(_mean(self.score, self.draft.tables[n]) - self.mine)

    def _sit(self, n, **detail) -> bool:
        self.draft.tables[n].append(self.newcomer)
        self.change.changed.add(n)
        self.change.detail.update(table=n, **detail)
        return True

    def at_a_bot_seat(self) -> bool:
        """A table with bot seats: the most of them, the fewest repeats, the
        nearest in score; the newcomer takes a bot's seat."""
        seats = {n: bot_table_seats(self.request, len(self.draft.tables[n])) for n in self.numbers}
        with_bots = [n for n in self.numbers if seats[n]]
        if not with_bots:
            return False
        best = min(with_bots, key=lambda n: (-seats[n], self._repeats(n), self._distance(n), n))
        self.draft.tables[best].append(self.newcomer)
        self.change.changed.add(best)
        self.change.detail.update(
            table=best, bots=bot_table_seats(self.request, len(self.draft.tables[best]))
        )
        return True

    def with_a_bye(self) -> bool:
        """A 2-player game: the player with a bye nearest in score and the
        newcomer make a new table."""
        if not (2 in self.allowed and self.draft.byes and self.preferred == 2):
            return False
        b = min(self.draft.byes, key=lambda x: (abs(self.score.get(x, 0) - self.mine), str(x)))
        self.draft.byes.remove(b)
        num = max(self.numbers, default=0) + 1
        self.draft.tables[num] = [b, self.newcomer]
        self.change.changed.add(num)
        self.change.detail.update(from_bye=b, table=num)
        return True

    def at_a_free_seat(self) -> bool:
        """A table that may grow by one: small tables first, then the fewest
        repeats with the newcomer, then the nearest in score."""
        fits = [n for n in self.numbers if len(self.draft.tables[n]) + 1 in self.allowed]
        if not fits:
            return False
        best = min(
            fits,
            key=lambda n: (
                len(self.draft.tables[n]) >= self.preferred,  # small tables first
                self._repeats(n),
                self._distance(n),
                n,
            ),
        )
        return self._sit(best)

    def on_a_bye(self) -> bool:
        """A 2-player game with every table full: the newcomer gets a bye."""
        if not (2 in self.allowed and self.request.get("byes") and not self.bots):
            return False
        self.draft.byes.append(self.newcomer)
        self.change.detail["bye"] = True
        return True

    def by_reseating_neighbours(self) -> bool:
        """The tables nearest the newcomer's score are seated again with him,
        using one more table if needed."""
        if not self.numbers:
            return False
        centre = min(self.numbers, key=lambda n: (self._distance(n), n))
        result = reseat_window(
            self.request, self.draft, centre, extra=[self.newcomer], new_table=True
        )
        if not result:
            return False
        used, removed = result
        self.change.changed |= used
        self.change.removed |= removed
        self.change.detail["window"] = sorted(used)
        self.change.detail["table"] = self.draft.table_of(self.newcomer)
        return True

    def at_a_new_bot_table(self) -> bool:
        """With bots, nowhere to sit at the allowed sizes: a table of his own
        where the bot plays the other seats."""
        if not self.bots:
            return False
        num = max(self.numbers, default=0) + 1
        self.draft.tables[num] = [self.newcomer]
        self.change.changed.add(num)
        self.change.detail.update(table=num, bots=bot_table_seats(self.request, 1))
        return True
