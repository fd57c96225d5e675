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
    return {name: p.get(name) for name in _PLAYER} | {
        "checked_in": False,  # the check-in list is the staff's, not public
        "rating": None,
        "birth_year": None,
        "events": [],
    }


def _round(rnd: dict) -> dict:
    out = {name: rnd.get(name) for name in _ROUND}
    out["seating_seed"] = 0
    out["plan_seed"] = None
    out["seating_scores"] = None
    out["seating_changes"] = []
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
    out.update(secret="", seed=0, state=None, actions=[])
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
    out = (
        {name: s.get(name) for name in _SUBMISSION}
        | {"from_address": None, "reason": "", "late": s.get("late", False), "at": s["at"]}
        | {"by": None, "replaces": None, "confirmations": []}
    )
    if s.get("source") == DIGITAL_SOURCE:
        details = s.get("details") if isinstance(s.get("details"), dict) else {}
        out["sheet"] = {}
        out["details"] = {k: details[k] for k in _TOLD_DETAILS if k in details}
    return out


def round_numbers(names) -> list[int]:
    return sorted({int(n.split(":")[1]) for n in names if n.startswith("round:")})


def assemble(sections: dict[str, object]) -> dict:
    """The export document the sections make (see ``scoring.exchange``)."""
    head = sections["tournament"]
    doc = {
        "format": head.get("format"),
        "version": head.get("version"),
        "exported_at": None,
        "tournament": head.get("tournament"),
        "teams": head.get("teams", []),
        "players": head.get("players", []),
        "rounds": [],
    }
    for n in round_numbers(sections):
        rnd = dict(sections[f"round:{n}"])
        clock = sections.get(f"clock:{n}") or {}
        rnd.update(clock.get("round") or {})
        rnd["clock"] = clock.get("activations", [])
        doc["rounds"].append(rnd)
    return doc


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
