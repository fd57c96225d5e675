"""Seating: tables of 2–6 by standings without repeat encounters.

A pure package (no Django import anywhere in it): plain JSON-safe data in,
plain data out. Where each decision lives:

- ``request.py``  the request (``SeatingRequest``) and its checks
- ``sizes.py``    table sizes; who gets the small tables, the byes and the
                  bot table (``bot_seats``, ``plan_bot_table``)
- ``pairs.py``    2-player tables (min-cost perfect matching)
- ``groups.py``   tables of 3–6 and mixed sizes (construction, exact windows)
- ``lns.py``      the large-neighbourhood search that groups.py uses
- ``mixing.py``   mixing mode: resolvable designs planned ahead (``designs.py``: data)
- ``rating.py``   round 1 by rating: strong players spread, or Swiss by rating
- ``order.py``    seat order at a table (who leads; team partners)
- ``draft.py``    a seated draft as data, re-seating a window of its tables,
                  and its reasons after a change
- ``reseat.py``   re-seating a draft after a drop
- ``late.py``     adding a late arrival to a draft
- ``manual.py``   changes by hand to a draft: a swap, a move
- ``reasons.py``  why a table is as it is (codes with parameters)
- ``errors.py``   ``SeatingError`` (a code, parameters, an English text)
- ``seat_round.py`` ``seat(request)``: seats one round, the entry point that
                  calls the others
- ``bounds.py``, ``context.py``: lower bounds and costs

Bot tables (request ``bots``, for digital tables where the game's bot can
play a seat): players who don't fit the allowed sizes sit together at one
bot table instead of getting byes; the answer's ``bot_table`` names them and
its seats, and :func:`bot_seats` tells the web side how many seats of a table
the bot plays.

``python -m tournaments.seating`` reads a request as JSON on stdin and writes
the answer as JSON on stdout (exit status 2 and the error on stderr for a bad
request).
"""

from tournaments.seating.errors import SeatingError
from tournaments.seating.late import add_late_arrival
from tournaments.seating.manual import move_player, swap_players
from tournaments.seating.mixing import mixing_plan, mixing_round
from tournaments.seating.reasons import Reason
from tournaments.seating.request import SeatingRequest, parse
from tournaments.seating.reseat import reseat_after_drop
from tournaments.seating.seat_round import seat
from tournaments.seating.sizes import bot_seats, plan_bot_table, plan_sizes

__all__ = [
    "Reason",
    "SeatingError",
    "SeatingRequest",
    "add_late_arrival",
    "bot_seats",
    "mixing_plan",
    "mixing_round",
    "move_player",
    "parse",
    "plan_bot_table",
    "plan_sizes",
    "reseat_after_drop",
    "seat",
    "swap_players",
]
