"""The seating request: plain JSON-safe data in, a checked dataclass out.

Request keys:

- ``players``: list of ``{"id", "score", "team"?, "club"?, "seat_history"?,
  "byes"?, "small_tables"?, "bot_tables"?, "rating"?}`` in standings order
  (ties in score keep this order). ``rating`` (a number or null) is read by
  the rating modes. ``seat_history`` lists the seat numbers the player had
  (0 = leads), ``byes``, ``small_tables`` and ``bot_tables`` how many byes /
  small tables / tables with bot seats the player had so far.
- ``met``: list of ``[id, id]`` or ``[id, id, round]`` items for pairs that sat
  at one table before; a pair listed twice met twice.
- ``table_size`` (preferred, 2–6), ``allowed_sizes`` (default
  ``[table_size]``), ``byes`` (bool, default false).
- ``bots`` (bool, default false; digital tables): the game's bot may fill
  seats the field can't. When the players don't fit the allowed sizes, the
  ones left over sit together at one *bot table* whose empty seats the bot
  plays (as few bot seats as possible; who sits there goes by the rule of
  :mod:`~tournaments.seating.sizes`, fewest ``bot_tables`` first). With
  ``bots`` no byes are given (``byes`` is ignored) and a single player is
  enough (they play against bots).
- ``mode``: ``swiss`` (by standings, default), ``mixing`` (meet as many
  different players as possible), ``random`` (round 1), or by rating
  (round 1): ``rating_spread`` (strong players spread) or ``rating_swiss``
  (neighbours in the rating order together); see ``rating.py``.
- ``teams``: ``together`` (players with the same ``team`` sit at one table),
  ``apart`` (players with the same ``team`` or ``club`` are kept apart) or null.
- ``seed`` (deterministic per seed), ``rounds`` (total rounds, lets mixing mode
  plan all rounds ahead) and ``round`` (the current round, 1-based).

Players are numbered by their place in ``players`` (0 = top of the standings);
every other module works with these numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.i18n import _
from tournaments.seating.errors import SeatingError, bad_request

#: the seating modes (the one list of them)
RATING_MODES = ("rating_spread", "rating_swiss")
#: how round 1 may be seated (a tournament's setting)
ROUND1_MODES = ("random", *RATING_MODES)
MODES = ("swiss", "mixing", "random", *RATING_MODES)
TEAM_MODES = ("together", "apart", None)


#: each mode's label as the organizer picks one for a round (English;
#: translated where it is shown)
MODE_LABELS = {
    "swiss": _("By standings (Swiss)"),
    "mixing": _("Mixing: meet as many different players as possible"),
    "random": _("Random"),
    "rating_spread": _("By rating: strong players spread"),
    "rating_swiss": _("By rating: neighbours in the rating order (Swiss)"),
}
#: the round-1 modes as a tournament's setting words them
ROUND1_LABELS = {
    "random": _("random draw"),
    "rating_spread": _("by rating: strong players spread over the tables"),
    "rating_swiss": _("by rating: neighbours in the rating order together"),
}
#: how a round's seating treats teams and clubs
TEAM_LABELS = {
    "together": _("team partners together"),
    "apart": _("club-mates apart"),
}


@dataclass
class SeatingRequest:
    ids: list = field(default_factory=list)
    score: list[float] = field(default_factory=list)
    team: list = field(default_factory=list)
    club: list = field(default_factory=list)
    seats: list[list[int]] = field(default_factory=list)  # seat history
    byes_had: list[int] = field(default_factory=list)
    small_had: list[int] = field(default_factory=list)
    bot_had: list[int] = field(default_factory=list)
    rating: list[float | None] = field(default_factory=list)
    index: dict = field(default_factory=dict)  # id -> number
    met: list[dict] = field(default_factory=list)  # met[p][q] = times met
    met_rounds: dict = field(default_factory=dict)  # (p, q), p < q -> rounds
    size: int = 4
    allowed: list[int] = field(default_factory=list)
    byes: bool = False
    bots: bool = False
    mode: str = "swiss"
    teams: str | None = None
    seed: int | str = 0
    rounds: int | None = None
    round: int | None = None

    @property
    def n(self) -> int:
        return len(self.ids)

    def times_met(self, p: int, q: int) -> int:
        return self.met[p].get(q, 0)

    def mates(self, p: int, q: int) -> str | None:
        """``team`` or ``club`` when teams are kept apart and p, q share one."""
        if self.teams != "apart":
            return None
        if self.team[p] is not None and self.team[p] == self.team[q]:
            return "team"
        if self.club[p] is not None and self.club[p] == self.club[q]:
            return "club"
        return None


def _is_id(x):
    return (isinstance(x, int) and not isinstance(x, bool)) or isinstance(x, str)


def _count(v):
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _players(r: SeatingRequest, players) -> None:
    if not isinstance(players, list):
        raise bad_request("players must be a list")
    for k, p in enumerate(players):
        if not isinstance(p, dict) or "id" not in p:
            raise bad_request(f"player #{k} must be an object with an id")
        pid = p["id"]
        if not _is_id(pid):
            raise bad_request(f"player #{k}: id must be a string or an integer, not {pid!r}")
        if pid in r.index:
            raise bad_request(f"duplicate player id {pid!r}")
        r.index[pid] = k
        score = p.get("score", 0)
        if isinstance(score, bool) or not isinstance(score, (int, float)) or score != score:
            raise bad_request(f"player {pid!r}: score must be a number")
        hist = p.get("seat_history") or []
        if not isinstance(hist, list) or not all(_count(s) for s in hist):
            raise bad_request(f"player {pid!r}: seat_history must be a list of seat numbers")
        counts = {}
        for key in ("byes", "small_tables", "bot_tables"):
            v = p.get(key, 0) or 0
            if not _count(v):
                raise bad_request(f"player {pid!r}: {key} must be a non-negative integer")
            counts[key] = v
        rating = p.get("rating")
        if rating is not None and (
            isinstance(rating, bool)
            or not isinstance(rating, (int, float))
            or rating != rating
            or rating in (float("inf"), float("-inf"))
        ):
            raise bad_request(f"player {pid!r}: rating must be a number or null")
        r.rating.append(None if rating is None else float(rating))
        r.ids.append(pid)
        r.score.append(float(score))
        r.team.append(p.get("team"))
        r.club.append(p.get("club"))
        r.seats.append(hist)
        r.byes_had.append(counts["byes"])
        r.small_had.append(counts["small_tables"])
        r.bot_had.append(counts["bot_tables"])


def _met(r: SeatingRequest, met) -> None:
    if not isinstance(met, list):
        raise bad_request("met must be a list of [id, id] pairs")
    r.met = [{} for _ in range(r.n)]
    for item in met:
        if not isinstance(item, (list, tuple)) or len(item) not in (2, 3):
            raise bad_request(f"met: {item!r} is not a pair [id, id]")
        a, b = item[0], item[1]
        for x in (a, b):
            if not _is_id(x) or x not in r.index:
                raise bad_request(f"met: unknown player id {x!r}")
        if a == b:
            raise bad_request(f"met: pair [{a!r}, {b!r}] names one player twice")
        i, j = r.index[a], r.index[b]
        r.met[i][j] = r.met[i].get(j, 0) + 1
        r.met[j][i] = r.met[j].get(i, 0) + 1
        if len(item) == 3:
            if not _count(item[2]):
                raise bad_request(f"met: round of {item!r} must be a round number")
            r.met_rounds.setdefault((min(i, j), max(i, j)), []).append(item[2])


def _sizes(r: SeatingRequest, request: dict) -> None:
    size = request.get("table_size")
    if isinstance(size, bool) or not isinstance(size, int) or not 2 <= size <= 6:
        raise bad_request(f"table_size must be an integer from 2 to 6, not {size!r}")
    allowed = request.get("allowed_sizes") or [size]
    if not isinstance(allowed, list) or not all(
        isinstance(s, int) and not isinstance(s, bool) and 2 <= s <= 6 for s in allowed
    ):
        raise bad_request(f"allowed_sizes must be table sizes from 2 to 6, not {allowed!r}")
    allowed = sorted(set(allowed))
    if size not in allowed:
        raise bad_request(f"table_size {size} is not among allowed_sizes {allowed}")
    r.size, r.allowed = size, allowed
    bots = request.get("bots", False)
    if bots is None:
        bots = False
    if not isinstance(bots, bool):
        raise bad_request(f"bots must be true or false, not {bots!r}")
    r.bots = bots
    # with bots the bot plays the seats nobody can fill: nobody sits out
    r.byes = False if bots else bool(request.get("byes", False))


def _how(r: SeatingRequest, request: dict) -> None:
    """The mode, the teams rule, the seed and the round (of how many)."""
    r.mode = request.get("mode") or "swiss"
    if r.mode not in MODES:
        raise bad_request(f"mode must be one of {', '.join(MODES)}, not {r.mode!r}")
    r.teams = request.get("teams")
    if r.teams not in TEAM_MODES:
        raise bad_request(f"teams must be 'together', 'apart' or null, not {r.teams!r}")
    seed = request.get("seed", 0)
    if seed is None:
        seed = 0
    if not _is_id(seed):
        raise bad_request("seed must be an integer or a string")
    r.seed = seed
    for key in ("rounds", "round"):
        v = request.get(key)
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 1):
            raise bad_request(f"{key} must be a positive integer")
        setattr(r, key, v)


def parse(request) -> SeatingRequest:
    """Check a request and turn it into a :class:`SeatingRequest`; a bad one
    raises :class:`SeatingError` with code ``bad_request`` or
    ``too_few_players``."""
    if not isinstance(request, dict):
        raise bad_request("request must be a JSON object")
    r = SeatingRequest()
    _players(r, request.get("players"))
    _met(r, request.get("met") or [])
    _sizes(r, request)
    _how(r, request)
    minimum = 1 if r.bots else min(r.allowed)
    if r.n < minimum:
        raise SeatingError(
            "too_few_players",
            f"too few players: {r.n} player{'s' if r.n != 1 else ''}, "
            f"a table needs at least {minimum}",
            players=r.n,
            minimum=minimum,
        )
    return r
