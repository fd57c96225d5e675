"""A seat's link token for tests and benchmarks: the link of the player
seated at ``position`` of ``table`` (links belong to a player in a round)."""

from tournaments.models import Seat
from tournaments.play.links import seat_token


def token_for(table, position: int) -> str:
    return seat_token(Seat.objects.get(table=table, position=position))
