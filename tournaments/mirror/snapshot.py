"""What a visitor of the laptop's public pages could see, as sections with a
content hash each (pure: plain data in, plain data out).

``public_sections(doc)`` takes the tournament's export document
(``scoring.exchange``) and keeps only what is public: the settings; players'
names, clubs and teams (only when the tournament's public pages are on);
seatings once published (tables, seats, byes and why); counted results (the
confirmed sheet of each table); the clock's activations and deadlines. Never
a deal secret or seed, a digital table's moves or state, a draft seating,
who entered what, a reason, an address, a birth year or a rating. A digital
table's counted result is published as its outcome (ranks, figures, rank
keys), never its moves: the online site checks it by the game's engine.

The sections: ``tournament`` (settings, teams, players), ``season`` (the
public season standings of the series it belongs to), ``round:N`` (a
round, its tables and results) and ``clock:N`` (the round's status, deadline
and time left, and its clock log), so a start, pause or extension sends the
small clock section only. ``assemble(sections)`` puts them
back into an export document the online site imports like a file.
"""

from __future__ import annotations

import hashlib
import json
import re

CONFIRMED = "confirmed"
DIGITAL_SOURCE = "digital"
#: section names a publication may carry
NAME = re.compile(r"^(tournament|season|round:[1-9][0-9]?|clock:[1-9][0-9]?)$")
_PLAYER = ("key", "name", "club", "team", "dropped", "first_round")
_ROUND = ("number", "published", "minutes", "seating_mode", "seating_teams")
#: a round's fields the clock changes: in its clock section
_CLOCK = ("status", "deadline", "remaining_seconds", "starts_at", "time_called_at", "completed_at")
_TABLE = ("number", "digital", "status", "deadline", "extra_seconds", "time_called_at", "why")
_SUBMISSION = ("version", "status", "sheet", "ranks", "figures", "details", "source", "by_seat")
_PRIVATE_STATS = {"seed", "plan_seed", "scores"}
#: what of a digital table's result details is published with its outcome
_TOLD_DETAILS = ("rank_keys", "bot_seats", "time_called")


def digest(content) -> str:
    """The content hash of a section: SHA-256 of its canonical JSON."""
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def public_sections(doc: dict, seasons=()) -> dict[str, object]:
    """The public sections of an export document, by name; ``seasons``: the
    public season tables of the series the tournament belongs to
    (:func:`check_seasons` describes them), published only with a public
    tournament, as the section ``season``."""
    settings = dict(doc["tournament"])
    public = bool(settings.get("public"))
    head = {
        "format": doc["format"],
        "version": doc["version"],
        "tournament": settings,
        "teams": doc["teams"] if public else [],
        "players": [_player(p) for p in doc["players"]] if public else [],
    }
    sections: dict[str, object] = {"tournament": head}
    if public and seasons:
        sections["season"] = list(seasons)
    for rnd in doc["rounds"] if public else []:
        n = rnd["number"]
        sections[f"round:{n}"] = _round(rnd)
        sections[f"clock:{n}"] = {
            "round": {name: rnd.get(name) for name in _CLOCK},
            "activations": [
                {"kind": c["kind"], "table": c["table"], "seconds": c["seconds"], "at": c["at"]}
                for c in rnd["clock"]
            ],
        }
    return sections


def hashes(sections: dict[str, object]) -> dict[str, str]:
    return {name: digest(content) for name, content in sections.items()}


def _player(p: dict) -> dict:
    return {name: p.get(name) for name in _PLAYER}


def _round(rnd: dict) -> dict:
    out = {name: rnd.get(name) for name in _ROUND}
    if not rnd.get("published"):  # a draft seating is nobody's business yet
        out.update(tables=[], byes=[], seating_stats={}, seating_mode="")
        return out
    stats = rnd.get("seating_stats") or {}
    out["seating_stats"] = {k: v for k, v in stats.items() if k not in _PRIVATE_STATS}
    out["byes"] = rnd["byes"]
    out["tables"] = [_table(t) for t in rnd["tables"]]
    return out


def _table(t: dict) -> dict:
    out = {name: t.get(name) for name in _TABLE}
    out["seats"] = [
        {
            "position": s["position"],
            "player": s["player"],
            "bot": s["bot"],
            "bot_played": s["bot_played"],
        }
        for s in t["seats"]
    ]
    out["submissions"] = [_counted(s) for s in t["submissions"] if s.get("status") == CONFIRMED]
    return out


def _counted(s: dict) -> dict:
    """A table's counted result. A digital table's is told by its outcome
    (ranks, figures, and of the details only the rank keys, the seats a bot
    played and whether time was called): the online site checks it by the
    game's engine instead of replaying the moves, which stay on the laptop."""
    out = {name: s.get(name) for name in _SUBMISSION} | {
        "late": s.get("late", False),
        "at": s["at"],
    }
    if s.get("source") == DIGITAL_SOURCE:
        details = s.get("details") if isinstance(s.get("details"), dict) else {}
        out["sheet"] = {}
        out["details"] = {k: details[k] for k in _TOLD_DETAILS if k in details}
    return out


def round_numbers(names) -> list[int]:
    return sorted({int(n.split(":")[1]) for n in names if n.startswith("round:")})


#: what an export document holds that a publication never carries, as the
#: online site stores it: empty (the check-in list, ratings and birth years,
#: logs, the seating's seeds and standings, a deal's secret, seed, state and
#: moves, who entered a result, from where and why)
_BLANK_PLAYER = {"checked_in": False, "rating": None, "birth_year": None, "events": []}
_BLANK_ROUND = {"seating_seed": 0, "plan_seed": None, "seating_scores": None}
_BLANK_TABLE = {"secret": "", "seed": 0, "state": None}
_BLANK_SUBMISSION = {"from_address": None, "reason": "", "by": None, "replaces": None}


def _blank(d, blanks: dict, **lists) -> object:
    """``d`` with the fields a publication never carries set empty."""
    if not isinstance(d, dict):
        return d  # the import names what is wrong with it
    return d | blanks | {name: [] for name in lists}


def assemble(sections: dict[str, object]) -> dict:
    """The export document the sections make (see ``scoring.exchange``),
    the fields a publication never carries empty."""
    head = sections["tournament"]
    players = head.get("players", [])
    doc = {
        "format": head.get("format"),
        "version": head.get("version"),
        "exported_at": None,
        "tournament": head.get("tournament"),
        "teams": head.get("teams", []),
        "players": [_blank(p, _BLANK_PLAYER) for p in players]
        if isinstance(players, list)
        else players,
        "rounds": [],
    }
    for n in round_numbers(sections):
        rnd = _blank(sections[f"round:{n}"], _BLANK_ROUND, seating_changes=1)
        clock = sections.get(f"clock:{n}") or {}
        rnd.update(clock.get("round") or {})
        rnd["clock"] = clock.get("activations", [])
        tables = rnd.get("tables")
        if isinstance(tables, list):
            rnd["tables"] = [_blank_table(t) for t in tables]
        doc["rounds"].append(rnd)
    return doc


def _blank_table(t):
    t = _blank(t, _BLANK_TABLE, actions=1)
    if isinstance(t, dict) and isinstance(t.get("submissions"), list):
        t["submissions"] = [
            _blank(s, _BLANK_SUBMISSION, confirmations=1) for s in t["submissions"]
        ]
    return t


# -- what a publication may carry: exactly the public fields -----------------------

#: a leaf: any value (the tournament import checks it)
_ANY = None
#: the seating's figures (checked by the import) less the private ones
_STATS = "stats"
#: the settings: the names the caller gives (the export's settings fields)
_SETTINGS = "settings"


def _fields(names, **inner) -> dict:
    return {name: _ANY for name in names} | inner


_SUBMISSION_FIELDS = _fields((*_SUBMISSION, "late", "at"))
_PUBLIC = {
    "tournament": _fields(
        ("format", "version"),
        tournament=_SETTINGS,
        teams=[_fields(("name",))],
        players=[_fields(_PLAYER)],
    ),
    "round": _fields(
        _ROUND,
        seating_stats=_STATS,
        byes=_ANY,
        tables=[
            _fields(
                _TABLE,
                seats=[_fields(("position", "player", "bot", "bot_played"))],
                submissions=[_SUBMISSION_FIELDS],
            )
        ],
    ),
    "clock": _fields(
        (), round=_fields(_CLOCK), activations=[_fields(("kind", "table", "seconds", "at"))]
    ),
}
#: at most this many fields not public are named in one refusal
MAX_NAMED = 10


def not_public(name: str, content, settings=()) -> list[str]:
    """The places in section ``name`` of fields a publication may not carry
    (everything but the public fields ``public_sections`` writes: a deal's
    secret, a game's state or moves, a rating, who entered a result, a
    field of any other name), e.g. ``round:2.tables[0].secret``; at most
    :data:`MAX_NAMED`. ``settings``: the tournament's settings fields. A
    value of another type than the section's shape is left to the import."""
    kind = name.partition(":")[0]
    if kind not in _PUBLIC:
        return []  # the season: checked for its exact shape by check_seasons
    found: list[str] = []
    stack = [(content, _PUBLIC[kind], name)]
    while stack and len(found) < MAX_NAMED:
        value, shape, path = stack.pop()
        if shape is _ANY:
            continue
        if shape == _SETTINGS:
            shape = _fields(settings)
        if shape == _STATS:
            if isinstance(value, dict):
                found += [f"{path}.{k}" for k in value if k in _PRIVATE_STATS]
            continue
        if isinstance(shape, list):
            if isinstance(value, list):
                stack += [(item, shape[0], f"{path}[{i}]") for i, item in enumerate(value)]
            continue
        if not isinstance(value, dict):
            continue
        for key, item in value.items():
            if key not in shape:
                found.append(f"{path}.{str(key)[:40]}")
            else:
                stack.append((item, shape[key], f"{path}.{key}"))
        if kind == "round" and value.get("source") == DIGITAL_SOURCE:
            details = value.get("details")
            if isinstance(details, dict):
                found += [f"{path}.details.{k}" for k in details if k not in _TOLD_DETAILS]
            if value.get("sheet"):
                found.append(f"{path}.sheet")
    return sorted(found)[:MAX_NAMED]


# -- the season: the public season tables of the tournament's series ----------

#: at most this many series, tournaments in a series, rows in a season table
MAX_SEASONS, MAX_SEASON_EVENTS, MAX_SEASON_ROWS = 20, 200, 5000
_POINTS = re.compile(r"^-?[0-9]{1,9}(\.[0-9]{1,6})?$")


def season_points(value):
    """Season points as published: a whole number, or a decimal as text."""
    return value if isinstance(value, int) else str(value)


def _text(value, limit: int = 200) -> bool:
    return isinstance(value, str) and len(value) <= limit


def _count(value, low: int = 0) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value < 10**6


def _points(value) -> bool:
    if isinstance(value, bool):
        return False
    return (isinstance(value, int) and abs(value) < 10**9) or (
        isinstance(value, str) and bool(_POINTS.match(value))
    )


def _season_row(row, events: int) -> bool:
    cells = row.get("cells") if isinstance(row, dict) else None
    if not isinstance(cells, list) or len(cells) != events:
        return False
    played = [c for c in cells if c is not None]
    place = row.get("place")
    return (
        set(row) == {"place", "shared", "name", "club", "total", "played", "cells"}
        and (place is None or _count(place, 1))
        and isinstance(row.get("shared"), bool)
        and _text(row.get("name"))
        and _text(row.get("club"))
        and _points(row.get("total"))
        and row.get("played") == len(played)
        and all(
            isinstance(c, dict)
            and set(c) == {"points", "counted"}
            and _points(c["points"])
            and isinstance(c["counted"], bool)
            for c in played
        )
    )


def check_seasons(content) -> bool:
    """Whether ``content`` is a list of season tables, each::

        {"name": str, "best": int | None, "minimum": int,
         "tournaments": [str, ...],  # their names, in season order
         "rows": [{"place": int | None, "shared": bool, "name": str,
                   "club": str, "total": points, "played": int,
                   "cells": [None | {"points": points, "counted": bool}]}]}

    with one cell per tournament, ``played`` the cells filled, places from 1
    in order (unranked rows, without a place, last), within the limits."""
    if not isinstance(content, list) or not 0 < len(content) <= MAX_SEASONS:
        return False
    for season in content:
        if not isinstance(season, dict) or set(season) != {
            "name",
            "best",
            "minimum",
            "tournaments",
            "rows",
        }:
            return False
        events, rows = season["tournaments"], season["rows"]
        if not (
            _text(season["name"])
            and (season["best"] is None or _count(season["best"], 1))
            and _count(season["minimum"])
            and isinstance(events, list)
            and len(events) <= MAX_SEASON_EVENTS
            and all(_text(e) for e in events)
            and isinstance(rows, list)
            and len(rows) <= MAX_SEASON_ROWS
            and all(_season_row(r, len(events)) for r in rows)
        ):
            return False
        places = [r["place"] for r in rows]
        ranked = [p for p in places if p is not None]
        if places[: len(ranked)] != ranked or ranked != sorted(ranked):
            return False
        if any(p > i + 1 for i, p in enumerate(ranked)):
            return False
    return True
