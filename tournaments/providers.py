"""What the core reads from the apps above it, handed in once by their app
configs (``AppConfig.ready``), so the core never imports them; what they must
hear about goes the other way, by the signals of :mod:`tournaments.signals`.

- :func:`has_result`: "the table has its result" — the results app's one
  definition (``scoring.models.has_result``), an expression over tables.
- :func:`standings`: the standings rows, best first (``scoring.selectors.
  standings``), which the seating orders a round by.
- :func:`club_ratings`: the club season's ratings of the roster people in a
  game (``scoring.season.selectors.ratings``), which round 1 by rating uses.
"""

from __future__ import annotations

from collections.abc import Callable

_provided: dict[str, Callable] = {}


def provide(**readers: Callable) -> None:
    """An app hands in its readers by name (``has_result``, ``standings``,
    ``club_ratings``)."""
    _provided.update(readers)


def _reader(name: str) -> Callable:
    try:
        return _provided[name]
    except KeyError:
        raise RuntimeError(f"no installed app provides {name!r}") from None


def has_result():
    """An ``Exists`` expression over tables: a confirmed result exists."""
    return _reader("has_result")()


def standings(tournament, *, up_to_round: int | None = None) -> list:
    return _reader("standings")(tournament, up_to_round=up_to_round)


def club_ratings(owner, game: str) -> dict:
    """Roster person id → rating (with ``conservative``)."""
    return _reader("club_ratings")(owner, game)
