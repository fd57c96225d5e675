"""A seat's link token for tests and benchmarks, whichever way
``scoring.links.seat_token`` identifies the seat: by the seat row (links
bound to the player) or by table id and position."""

import inspect

from scoring.links import seat_token
from tournaments.models import Seat


def token_for(table, position: int) -> str:
    if len(inspect.signature(seat_token).parameters) == 1:
        return seat_token(Seat.objects.get(table=table, position=position))
    return seat_token(table.pk, position)
