"""Why a table is as it is: reasons as codes with parameters.

The code that makes a decision records its reason here, so a reason can't
contradict the decision; the web side only translates the codes. Parameters
are JSON-safe and name players by their ids.

Codes (parameters):

- ``repeat`` (``a``, ``b``, ``times``, ``rounds``): a and b met before; no
  seating without this repeat was found. ``repeat_manual``: the same, made by
  the organizer's change.
- ``mates_together`` (``a``, ``b``, ``kind``: club/team, ``value``):
  club- or team-mates at one table although they are kept apart.
- ``team_split`` (``team``, ``players``): partners sit at different tables.
- ``moved_up`` / ``moved_down`` (``player``, ``score``, ``low``, ``high``):
  the player's score lies below / above the score group of this table (the
  standings cut into the tables' sizes in table order).
- ``small_table`` (``size``, ``preferred``, ``had``: [[id, n], ...], ``rule``:
  standings/drawn): every player here is one the rule picks: the fewest small
  tables so far, then the lowest in the standings (or drawn).
- ``small_table_forced`` (same, plus ``players``: the ids the rule did not
  pick or who had more small tables than somebody at a full table, ``constraints``: repeats/apart/teams): the rule's own pick would have
  broken these constraints.
- ``small_table_changed`` (same as ``small_table``, plus ``players``): the
  draft was changed after seating (a drop, a late arrival, a move by hand).
- ``large_table`` (``size``, ``preferred``).
- ``short_table`` (``size``, ``sizes``): a table left at a size not allowed
  (after a drop no re-seating fitted).
- ``bye`` (``player``, ``count``: byes before, ``rule``: standings/drawn/
  rating): the rule's pick, like small tables.
- the rating modes' codes are listed in ``rating.py``. ``bye_changed``: a bye after a change to the draft.
- ``bot_table`` (``players``: their ids, ``bots``: the bot seats, ``had``: the
  fewest bot tables so far among them, ``rule``: standings/drawn/rating): with
  ``bots`` on, these players did not fit the allowed sizes and sit with the
  game's bot; the rule's pick, like byes (fewest bot tables so far, then the
  lowest in the standings, or drawn, or the lowest in the rating order). As
  for byes, ``rule`` lets the web side word it (``bot_table_drawn``,
  ``bot_table_rating``). The bot table's other reasons are the ones about who
  meets whom (``repeat``, ``mates_together``, ``team_split``).
- ``bot_table_changed`` (``bots``): a draft's table left with bot seats after a
  change (a drop, a late arrival, a move by hand).

Each code's message (:data:`MESSAGES`) is English text marked for
translation (``_``, ``ngettext_noop``); the web side translates it
(``tournaments.seating_messages.why_text``). :func:`wording` picks a reason's
message and repairs reasons saved in an older form.

:data:`PARAMS` gives every code's parameters and what each holds, and
:func:`problem` checks a stored reason against it (an import does: a reason
is shown on every seating page and read by every later change to a draft).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

from games.i18n import _

#: how the fairness rule breaks ties (``rule``), the constraints a
#: ``small_table_forced`` names, what ``mates_together`` are mates by
RULES = ("standings", "drawn", "rating", "spread")
CONSTRAINTS = ("repeats", "apart", "teams", "changed")
MATE_KINDS = ("club", "team")

_SIZE = {"size": "count", "preferred": "count"}
_SMALL = {**_SIZE, "had": "had", "rule": "rule"}
_REPEAT = {"a": "player", "b": "player", "times": "count", "rounds": "counts"}
_MOVED = {"player": "player", "score": "number", "low": "number", "high": "number"}
_BYE = {"player": "player", "count": "count", "rule": "rule"}

#: every code with its parameters and what each holds: ``player`` an id (a
#: name in reasons saved by older versions), ``players`` a list of them,
#: ``count`` a whole number of 0 or more, ``counts`` a list of them,
#: ``number`` a finite number, ``label`` a text or an id (a club, a team),
#: ``had`` a count or ``[[player, count], ...]``, ``rule`` / ``constraints``
#: / ``kind`` one (a list) of :data:`RULES` / :data:`CONSTRAINTS` /
#: :data:`MATE_KINDS`. Every parameter listed is given unless its kind ends
#: in ``?`` (in reasons saved by older versions a ``name`` stands for the
#: ``player``); one not listed is refused.
PARAMS: dict[str, dict[str, str]] = {
    "repeat": _REPEAT,
    "repeat_manual": _REPEAT,
    "mates_together": {"a": "player", "b": "player", "kind": "kind", "value": "label"},
    "team_split": {"team": "label", "players": "players"},
    "moved_up": _MOVED,
    "moved_down": _MOVED,
    "small_table": _SMALL,
    # by rating, a table made small to keep club-mates apart names no rule
    "small_table_forced": {
        **_SMALL,
        "rule": "rule?",
        "players": "players",
        "constraints": "constraints",
    },
    "small_table_changed": {**_SMALL, "players": "players"},
    "large_table": _SIZE,
    "short_table": {"size": "count", "sizes": "counts"},
    "bye": _BYE,
    "bye_changed": _BYE,
    "rating_spread": {"strongest": "player", "place": "count", "tables": "count"},
    "rating_group": {"first": "count", "last": "count"},
    "unrated": {"players": "players"},
    "bot_table": {"players": "players", "bots": "count", "had": "had", "rule": "rule"},
    "bot_table_changed": {"bots": "count"},
    # saved by older versions: club-mates named, not given by id
    "club_together": {"a": "player", "b": "player", "club": "label"},
}
#: parameters of reasons saved by older versions, allowed with every code
LEGACY_PARAMS = {"name": "label"}


def _count(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def _player(v) -> bool:
    return (isinstance(v, int) and not isinstance(v, bool)) or isinstance(v, str)


_KINDS = {
    "player": _player,
    "players": lambda v: isinstance(v, list) and all(_player(x) for x in v),
    "count": _count,
    "counts": lambda v: isinstance(v, list) and all(_count(x) for x in v),
    "number": lambda v: isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v),
    "label": _player,
    "had": lambda v: (
        _count(v)
        or (
            isinstance(v, list)
            and all(
                isinstance(x, list) and len(x) == 2 and _player(x[0]) and _count(x[1]) for x in v
            )
        )
    ),
    "rule": lambda v: v in RULES,
    "kind": lambda v: v in MATE_KINDS,
    "constraints": lambda v: isinstance(v, list) and all(x in CONSTRAINTS for x in v),
}


def problem(item) -> tuple[str, dict] | None:
    """Why ``item`` is not a reason as the seating stores one (``{"code",
    "params"}`` as :data:`PARAMS` says), as ``(code, params)``:
    ``not_a_reason``, ``unknown_code`` (``code``), ``missing_param`` /
    ``unknown_param`` / ``bad_param`` (``param``); None when it is one."""
    if not isinstance(item, dict) or set(item) - {"code", "params"}:
        return "not_a_reason", {}
    code = item.get("code")
    if not isinstance(code, str) or code not in PARAMS:
        return "unknown_code", {"code": str(code)[:40]}
    params = item.get("params", {})
    if not isinstance(params, dict):
        return "not_a_reason", {}
    kinds = {**PARAMS[code], **LEGACY_PARAMS}
    required = {name for name, kind in PARAMS[code].items() if not kind.endswith("?")}
    missing = required - set(params) - ({"player"} if "name" in params else set())
    if missing:
        return "missing_param", {"param": min(missing)}
    for name, value in params.items():
        if name not in kinds:
            return "unknown_param", {"param": str(name)[:40]}
        try:
            ok = _KINDS[kinds[name].removesuffix("?")](value)
        except TypeError:  # e.g. a list tested against a tuple of words
            ok = False
        if not ok:
            return "bad_param", {"param": name}
    return None


@dataclass(frozen=True)
class Plural:
    """A message with a singular and a plural form, chosen by the number in
    its parameter ``count``."""

    singular: str
    plural: str
    count: str


def ngettext_noop(singular: str, plural: str, count: str) -> Plural:
    """Mark a message with a plural form for translation (the project's
    ``makemessages`` extracts ``ngettext_noop``)."""
    return Plural(singular, plural, count)


#: every code a reason of this package carries (the rating modes' codes: ``rating.py``)
CODES = (
    "repeat",
    "repeat_manual",
    "mates_together",
    "team_split",
    "moved_up",
    "moved_down",
    "small_table",
    "small_table_forced",
    "small_table_changed",
    "large_table",
    "short_table",
    "bye",
    "bye_changed",
    "bot_table",
    "bot_table_changed",
    "rating_spread",
    "rating_group",
    "unrated",
)
#: the codes worded by their ``rule`` (``standings``: the code's own message)
RULE_WORDED = {
    "small_table": ("drawn", "rating", "spread"),
    "bye": ("drawn", "rating"),
    "bot_table": ("drawn", "rating"),
}


@dataclass(frozen=True)
class Reason:
    code: str
    params: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {"code": self.code, "params": dict(self.params)}


def repeats(req, table, code="repeat") -> list[Reason]:
    """Pairs at ``table`` (player numbers) who met before."""
    out = []
    for a, b in itertools.combinations(table, 2):
        times = req.times_met(a, b)
        if times:
            rounds = sorted(set(req.met_rounds.get((min(a, b), max(a, b)), [])))
            out.append(
                Reason(
                    code,
                    {"a": req.ids[a], "b": req.ids[b], "times": times, "rounds": rounds},
                )
            )
    return out


def mates(req, table) -> list[Reason]:
    out = []
    for a, b in itertools.combinations(table, 2):
        kind = req.mates(a, b)
        if kind:
            value = req.club[a] if kind == "club" else req.team[a]
            out.append(
                Reason(
                    "mates_together",
                    {"a": req.ids[a], "b": req.ids[b], "kind": kind, "value": value},
                )
            )
    return out


def team_split(req, table, table_of) -> list[Reason]:
    if req.teams != "together":
        return []
    out, seen = [], set()
    here = set(table)
    for p in table:
        t = req.team[p]
        if t is None or t in seen:
            continue
        seen.add(t)
        mates_ = [q for q in table_of if req.team[q] == t]
        if any(q not in here for q in mates_):
            out.append(
                Reason(
                    "team_split",
                    {"team": t, "players": [req.ids[q] for q in table if req.team[q] == t]},
                )
            )
    return out


def score_groups(req, tables) -> list[tuple[float, float]]:
    """(high, low) of each table's score group: the standings of the seated
    players cut into the tables' sizes in table order."""
    desc = sorted((req.score[p] for t in tables for p in t), reverse=True)
    out, pos = [], 0
    for t in tables:
        chunk = desc[pos : pos + len(t)]
        pos += len(t)
        out.append((chunk[0], chunk[-1]))
    return out


def moved(req, table, group) -> list[Reason]:
    hi, lo = group
    out = []
    for p in table:
        s = req.score[p]
        params = {"player": req.ids[p], "score": s, "low": lo, "high": hi}
        if s < lo:
            out.append(Reason("moved_up", params))
        elif s > hi:
            out.append(Reason("moved_down", params))
    return out


def table_size(req, table, picked, constraints, big_min=None) -> list[Reason]:
    """``big_min``: the fewest small tables had among players at full tables."""
    size = len(table)
    if size > req.size:
        return [Reason("large_table", {"size": size, "preferred": req.size})]
    if size == req.size:
        return []
    params = {
        "size": size,
        "preferred": req.size,
        "had": [[req.ids[p], req.small_had[p]] for p in table],
        "rule": "standings" if req.mode == "swiss" else "drawn",
    }
    if req.mode == "swiss":
        outside = [p for p in table if p not in picked]
    else:  # drawn: the draw among equals is the rule; outside: who had more than the pick
        top = max((req.small_had[p] for p in picked), default=0)
        outside = [p for p in table if req.small_had[p] > top]
    if big_min is not None:  # somebody at a full table had fewer: not by the rule either
        outside = [p for p in table if p in outside or req.small_had[p] > big_min]
    if not outside:
        return [Reason("small_table", params)]
    params["players"] = [req.ids[p] for p in outside]
    if tuple(constraints) == ("changed",):
        return [Reason("small_table_changed", params)]
    params["constraints"] = list(constraints)
    return [Reason("small_table_forced", params)]


def rule_name(req) -> str:
    """How the fairness rule breaks ties among those who had fewest."""
    if req.mode == "swiss":
        return "standings"
    return "rating" if req.mode.startswith("rating_") else "drawn"


def bye(req, p) -> Reason:
    return Reason(
        "bye",
        {"player": req.ids[p], "count": req.byes_had[p], "rule": rule_name(req)},
    )


def bot_table(req, players, bots) -> Reason:
    """The bot table's reason: ``players`` (player numbers, seat order), ``bots``
    the seats the bot plays."""
    return Reason(
        "bot_table",
        {
            "players": [req.ids[p] for p in players],
            "bots": bots,
            "had": min(req.bot_had[p] for p in players),
            "rule": rule_name(req),
        },
    )


#: each code's message in English (a code whose wording depends on its ``rule``
#: also has ``<code>_<rule>``), marked for translation: the web side translates
#: it and fills in the parameters, players and teams by name
MESSAGES = {
    "repeat": _(
        "%(a)s and %(b)s meet again (at one table in round %(rounds)s): "
        "no seating without this repeat was found."
    ),
    "repeat_manual": _(
        "%(a)s and %(b)s meet again (at one table in round %(rounds)s): changed by hand."
    ),
    "moved_up": _(
        "%(player)s (score %(score)s) plays above their score group at this table "
        "(scores %(low)s–%(high)s)."
    ),
    "moved_down": _(
        "%(player)s (score %(score)s) plays below their score group at this table "
        "(scores %(low)s–%(high)s)."
    ),
    "small_table": _(
        "Small table (%(size)s instead of %(preferred)s players): the lowest in the standings "
        "among those with the fewest small tables so far (small tables before: %(had)s)."
    ),
    "small_table_drawn": _(
        "Small table (%(size)s instead of %(preferred)s players), drawn among those with the "
        "fewest small tables so far (small tables before: %(had)s)."
    ),
    "small_table_forced": _(
        "Small table (%(size)s instead of %(preferred)s players) for %(players)s although others "
        "had fewer small tables or stand lower: %(constraints)s (small tables before: %(had)s)."
    ),
    "small_table_changed": _(
        "Small table (%(size)s instead of %(preferred)s players) after a change to the draft "
        "(small tables before: %(had)s)."
    ),
    "large_table": _(
        "Large table (%(size)s instead of %(preferred)s players): the player count does not "
        "divide into tables of %(preferred)s."
    ),
    "short_table": _(
        "A table of %(size)s is left (allowed: %(sizes)s): no re-seating after the drop "
        "fits the allowed sizes. Move players by hand."
    ),
    "team_split": _("Team %(team)s could not sit together."),
    "mates_together": _(
        "%(a)s and %(b)s (%(value)s) sit at one table although club-mates are kept apart."
    ),
    "bye": _(
        "%(player)s has a bye: the lowest in the standings among those with the fewest byes "
        "(byes before: %(count)s)."
    ),
    "bye_drawn": _(
        "%(player)s has a bye, drawn among those with the fewest byes (byes before: %(count)s)."
    ),
    "small_table_rating": _(
        "Small table (%(size)s instead of %(preferred)s players): the lowest in the rating "
        "order among those with the fewest small tables so far (small tables before: %(had)s)."
    ),
    "small_table_spread": _(
        "Small table (%(size)s instead of %(preferred)s players): with strong players spread "
        "by rating, this table took no pick in the last, weakest pass."
    ),
    "bye_rating": _(
        "%(player)s has a bye: the lowest in the rating order among those with the fewest "
        "byes (byes before: %(count)s)."
    ),
    "rating_spread": _(
        "Seated by rating, strong players spread: %(strongest)s, the strongest here, is "
        "No. %(place)s of the rating order (one of the strongest, one per table)."
    ),
    "rating_group": _("Seated by rating: places %(first)s–%(last)s of the rating order."),
    "unrated": _("No rating: %(players)s, seated after the rated players in a random order."),
    "bot_table": ngettext_noop(
        "The bot plays %(bots)s empty seat: the field does not divide into the allowed table "
        "sizes. %(players)s sit here as the lowest in the standings among those with the "
        "fewest tables with the bot so far (before: %(had)s).",
        "The bot plays %(bots)s empty seats: the field does not divide into the allowed table "
        "sizes. %(players)s sit here as the lowest in the standings among those with the "
        "fewest tables with the bot so far (before: %(had)s).",
        "bots",
    ),
    "bot_table_drawn": ngettext_noop(
        "The bot plays %(bots)s empty seat: the field does not divide into the allowed table "
        "sizes. %(players)s were drawn among those with the fewest tables with the bot so far "
        "(before: %(had)s).",
        "The bot plays %(bots)s empty seats: the field does not divide into the allowed table "
        "sizes. %(players)s were drawn among those with the fewest tables with the bot so far "
        "(before: %(had)s).",
        "bots",
    ),
    "bot_table_rating": ngettext_noop(
        "The bot plays %(bots)s empty seat: the field does not divide into the allowed table "
        "sizes. %(players)s sit here as the lowest in the rating order among those with the "
        "fewest tables with the bot so far (before: %(had)s).",
        "The bot plays %(bots)s empty seats: the field does not divide into the allowed table "
        "sizes. %(players)s sit here as the lowest in the rating order among those with the "
        "fewest tables with the bot so far (before: %(had)s).",
        "bots",
    ),
    "bot_table_changed": ngettext_noop(
        "The bot plays %(bots)s empty seat after a change to the draft.",
        "The bot plays %(bots)s empty seats after a change to the draft.",
        "bots",
    ),
    "bye_changed": _("%(player)s has a bye after a change to the draft (byes before: %(count)s)."),
}

#: the constraints a ``small_table_forced`` reason names (``constraints``)
CONSTRAINTS = {
    "repeats": _("otherwise players would meet again"),
    "apart": _("otherwise club-mates would sit together"),
    "teams": _("otherwise team partners would be split"),
}


def wording(reason: dict) -> tuple[str, dict]:
    """(the key of a reason's message in :data:`MESSAGES`, its parameters).

    Reasons saved in an older form are read as today's: ``club_together``
    (``club``) is ``mates_together`` (``value``), and a player named by
    ``name`` is the ``player``. The key is the code itself when no message is
    known for it: the web side shows such a code rather than hide the reason."""
    code = reason.get("code")
    params = dict(reason.get("params") or {})
    if code == "club_together":
        code, params["value"] = "mates_together", params.get("club")
    if "name" in params and "player" not in params:
        params["player"] = params["name"]
    if params.get("rule") in RULE_WORDED.get(code, ()):
        code = f"{code}_{params['rule']}"
    return str(code), params
