"""What the core and the results app ask of the apps above them, handed in once by their app
configs (``AppConfig.ready``), so the core never imports them; what they must
hear about goes the other way, by the signals of :mod:`tournaments.signals`.

- :func:`has_result`: "the table has its result" — the results app's one
  definition (``scoring.models.has_result``), an expression over tables.
- :func:`standings`: the standings rows, best first (``scoring.standings.
  selectors.standings``), which the seating orders a round by;
  :func:`standings_of`: the standings of given players and results, which a
  correction's preview in the results app compares.
- :func:`club_ratings`: the club season's ratings of the roster people in a
  game (``scoring.season.selectors.ratings``), which round 1 by rating uses.
- :func:`seat_keys`: the players' seat links in a round, issued when missing
  (``tournaments.play.links.seat_keys``), which the printed table cards carry.
- the scanned sheets' (``scoring.scans``), for the results app's entry
  form and a table's versions: :func:`entry_scan` (the scanned page the
  form was opened from, ``scoring.scans.review.entry_scan``),
  :func:`entry_scan_saved` (that page's table has its result saved from the
  form) and :func:`scan_pages` (the pages each version was read from).
- the final stage's (``tournaments.finals``): :func:`final_standings` (the
  standings ordered by the stage), :func:`final_stage_to_seat` (the next
  stage's round to seat), :func:`final_decides` (its results decide the
  finalists' places), :func:`correction_impact` (what a correction would
  change in it), :func:`final_replace_dropped` (the next in line takes a
  dropped finalist's seat).
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


def standings_of(tournament, players: list, results: list) -> list:
    return _reader("standings_of")(tournament, players, results)


def club_ratings(owner, game: str) -> dict:
    """Roster person id → rating (with ``conservative``)."""
    return _reader("club_ratings")(owner, game)


def seat_keys(round_id: int, player_ids) -> dict[int, str]:
    """Player id → the active seat key in the round."""
    return _reader("seat_keys")(round_id, player_ids)


def final_standings(tournament, players, results, stages, options) -> list:
    return _reader("final_standings")(tournament, players, results, stages, options)


def final_stage_to_seat(tournament) -> str:
    """ "semi", "final", or "" (no final stage, or every stage seated)."""
    return _reader("final_stage_to_seat")(tournament)


def final_stage_possible(tournament) -> bool:
    """No final stage chosen yet, and a final table would fit."""
    return _reader("final_stage_possible")(tournament)


def final_decides(tournament) -> bool:
    """The final stage's results decide the finalists' places (its mode
    "replace"); False without a final stage."""
    return _reader("final_decides")(tournament)


def correction_impact(tournament, players, changed):
    return _reader("correction_impact")(tournament, players, changed)


def final_replace_dropped(*, round, player, by) -> dict:  # noqa: A002
    return _reader("final_replace_dropped")(round=round, player=player, by=by)


def entry_scan(tournament, table, page_id: str | None) -> dict | None:
    """The scanned page a table's entry form was opened from (``?scan=``)
    with what the form shows of it, None without one."""
    return _reader("entry_scan")(tournament, table, page_id)


def entry_scan_saved(*, page, submission) -> None:
    """The table's result was saved from the form opened from ``page``."""
    _reader("entry_scan_saved")(page=page, submission=submission)


def scan_pages(submission_ids) -> dict[int, list]:
    """Submission id → the scanned pages it was read from."""
    return _reader("scan_pages")(submission_ids)
