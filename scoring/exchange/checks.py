"""The doors of an import (``scoring.exchange``): every value a file brings is
checked the way the form or service that writes it on this site checks it,
so an imported tournament holds nothing its pages could not show.

- the settings: through :class:`tournaments.forms.TournamentForm` (its fields,
  its ``clean``, the model's ``clean``: games, sizes, deck, tiebreaks once
  each, …), the file's values given as the form's fields;
- a paper result: the sheet through the check the results service uses
  (``scoring.services``: the table's player count, then the game's
  ``check_sheet``); ranks, figures and details must be what it gives;
- a digital table: its record (seed, deal options, moves) must replay
  through the digital tables' service (``tables.table_record``) to the
  stored state, and a result the engine recorded must be that game's result;
- seating reasons: through their codes (``tournaments.seating.reasons``);
  the seating's figures and the seating log as the seating service writes
  them and the pages read them.

Each function reports problems through ``error(path, message)``, messages
translated.
"""

from __future__ import annotations

import datetime as dt
import json
import math

from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils.translation import gettext as _

from games import ENGINES
from games.sheets import display
from scoring import services as results
from tournaments import clock as pure_clock
from tournaments.forms import UPLOADED, TournamentForm
from tournaments.models import TIEBREAKS, Round, SeatingChange
from tournaments.seating import reasons
from tournaments.seating.request import MODES, TEAM_MODES
from tournaments.services import clock as clock_services
from tournaments.services.errors import ServiceError

#: the tournament's yes/no settings: a checkbox on the form
FLAGS = (
    "team_mode",
    "public",
    "digital_tables",
    "bot_fill",
    "confirmation_required",
    "self_report",
    "clubs_apart",
)


def plain(value):
    """``value`` as stored in a JSON field and read back (tuples as lists)."""
    return json.loads(json.dumps(value))


def shown(value, limit: int = 120) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


# -- the settings ----------------------------------------------------------------


def settings_form(td: dict, error) -> TournamentForm | None:
    """The tournament's settings of the file through the settings form: the
    bound, valid form (its ``instance`` holds the settings as the form
    cleaned them), or None with every problem reported. ``td`` holds values
    of the right JSON types already."""
    game = td["game"]
    data: dict = {}
    for name in ("name", "game", "rounds", "round_minutes", "points_scheme", "grace_seconds"):
        if td.get(name) is not None:
            data[name] = td[name]
    if td.get("table_size") is not None:
        data["table_size"] = str(td["table_size"])
    data["allowed_sizes"] = [str(n) for n in td.get("allowed_sizes") or []]
    for name in FLAGS:
        if td.get(name):
            data[name] = "on"
    order = td.get("tiebreaks") or []
    if len(order) > len(TIEBREAKS):
        error(
            "tournament.tiebreaks",
            _("at most %(n)s tiebreaks (each once)") % {"n": len(TIEBREAKS)},
        )
        return None
    for i, name in enumerate(order):
        data[f"tiebreak_{i + 1}"] = name
    files = {}
    form = TournamentForm(game=game)  # the option fields of this game
    known = {name.removeprefix("opt_") for name in form.option_names}
    for name, value in (td.get("game_options") or {}).items():
        where = f"tournament.game_options.{name}"
        if name not in known:
            error(where, _("not an option of %(game)s") % {"game": ENGINES[game].name})
        elif name == "deck" and isinstance(value, dict):  # an own deck: as its upload
            files["deck_file"] = SimpleUploadedFile(
                "deck.json", json.dumps(value).encode(), content_type="application/json"
            )
        elif isinstance(value, dict | list) or value == UPLOADED:
            error(where, _("expected a text, a number or true/false"))
        elif value is not None and value is not False:
            data[f"opt_{name}"] = value if isinstance(value, bool) else str(value)
    form = TournamentForm(data, files, game=game)
    if not form.is_valid():
        for field, messages in form.errors.items():
            for message in messages:
                error(_settings_path(field, order), message)
        return None
    return form


def _settings_path(field: str, order: list) -> str:
    if field == "__all__":
        return "tournament"
    if field.startswith("tiebreak_"):
        i = int(field.removeprefix("tiebreak_")) - 1
        return f"tournament.tiebreaks[{i}]" if i < len(order) else "tournament.tiebreaks"
    if field.startswith("opt_"):
        return f"tournament.game_options.{field.removeprefix('opt_')}"
    if field == "deck_file":
        return "tournament.game_options.deck"
    return f"tournament.{field}"


# -- results ---------------------------------------------------------------------


def paper_result(tournament, players: int, sheet, path: str, error):
    """The result the results service makes of ``sheet`` at a table of
    ``players``, or None (its problems reported at the sheet's fields)."""
    if not isinstance(sheet, dict):
        error(f"{path}.sheet", _("expected an object"))
        return None
    try:
        return results._check(tournament, players, sheet)
    except results.ResultInvalid as exc:
        for problem in exc.problems:
            where = f"{path}.sheet.{problem.fields[0]}" if problem.fields else f"{path}.sheet"
            error(where, display(problem.template, problem.params, _))
    except ServiceError as exc:
        error(path, str(exc))
    except (TypeError, ValueError, KeyError, AttributeError):  # a value the engine can't read
        error(f"{path}.sheet", _("the game can't read this sheet"))
    return None


def told_outcome(tournament, players: int, sub: dict, path: str, error) -> None:
    """A digital table's result told by its ranks, figures and details alone
    (a mirror's copy: the game's moves hold hidden cards and stay on the
    laptop) must be one the game can end with (``Engine.check_outcome``)."""
    problems = tournament.engine.check_outcome(
        players, sub.get("ranks"), sub.get("figures"), sub.get("details")
    )
    for problem in problems:
        error(f"{path}.{problem.fields[0]}", display(problem.template, problem.params, _))


def same_result(sub: dict, ranks, figures, details: dict, path: str, error) -> None:
    """The file's ranks, figures and details must be the ones the rules give."""
    for name, expected in (("ranks", ranks), ("figures", figures), ("details", details)):
        expected = plain(expected)
        if sub.get(name) != expected:
            error(
                f"{path}.{name}",
                _("not what the game's rules give (%(expected)s)") % {"expected": shown(expected)},
            )


# -- seating: reasons, figures, log ----------------------------------------------

REASON_PROBLEMS = {
    "not_a_reason": lambda p: _("expected a reason: an object with code and params"),
    "unknown_code": lambda p: _("unknown reason %(code)s") % p,
    "missing_param": lambda p: _("the reason lacks its %(param)s") % p,
    "unknown_param": lambda p: _("the reason has no %(param)s") % p,
    "bad_param": lambda p: _("the reason's %(param)s is not what the seating writes there") % p,
}


def check_reasons(items, path: str, error) -> None:
    """A list of seating reasons (``Table.why``, the byes' reasons)."""
    if items is None:
        return
    if not isinstance(items, list):
        error(path, _("expected a list"))
        return
    for i, item in enumerate(items):
        found = reasons.problem(item)
        if found is not None:
            code, params = found
            error(f"{path}[{i}]", REASON_PROBLEMS[code](params))


def _count(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _scalar(value) -> bool:
    return value is None or isinstance(value, bool | str) or _number(value)


#: the seating's figures (``Round.seating_stats``) the pages and later
#: seatings read, and what each holds; any other figure is a plain value
STATS = {
    "mode": lambda v: v in MODES,
    "teams": lambda v: v in TEAM_MODES,
    "seed": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "plan_seed": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "planned": lambda v: isinstance(v, bool),
    "players": _count,
    "tables": _count,
    "byes": _count,
    "bot_seats": _count,
    "repeat_pairs": _count,
    "scores": lambda v: (
        isinstance(v, dict)
        and all(k.isascii() and k.isdigit() and _number(x) for k, x in v.items())
    ),
}


def check_stats(stats, path: str, error) -> None:
    if not isinstance(stats, dict):
        error(path, _("expected an object"))
        return
    for name, value in stats.items():
        if name == "bye_why":
            check_reasons(value, f"{path}.bye_why", error)
            continue
        test = STATS.get(name, _scalar)
        try:
            ok = test(value)
        except TypeError:  # an unhashable value tested against a list of words
            ok = False
        if not ok:
            error(f"{path}.{name}", _("not what the seating writes here"))


#: what the seating log's lines read of a change's detail, by kind
_TABLE_LISTS = (
    SeatingChange.SWAP,
    SeatingChange.MOVE,
    SeatingChange.RESEAT,
    SeatingChange.LATE,
)
DETAIL = {
    "names": lambda v: isinstance(v, list) and len(v) == 2 and all(isinstance(x, str) for x in v),
    "name": lambda v: isinstance(v, str),
    "to": lambda v: v is None or _count(v),
    "mode": lambda v: _scalar(v),
    "seed": lambda v: _scalar(v),
    "round": lambda v: _scalar(v),
}


def check_detail(kind, detail, path: str, error) -> None:
    """A seating change's detail, as the seating service writes it for its
    kind (the seat's is the seating's figures)."""
    if detail is None:
        return
    if not isinstance(detail, dict):
        error(path, _("expected an object"))
        return
    if kind == SeatingChange.SEAT:
        check_stats(detail, path, error)
        return
    for name, test in DETAIL.items():
        if name in detail and not test(detail[name]):
            error(f"{path}.{name}", _("not what the seating writes here"))
    if "tables" in detail:
        tables = detail["tables"]
        ok = (
            isinstance(tables, list) and all(_count(n) for n in tables)
            if kind in _TABLE_LISTS
            else _count(tables)
        )
        if not ok:
            error(f"{path}.tables", _("not what the seating writes here"))


# -- the clock -------------------------------------------------------------------

#: how far ahead of this site's clock a time in a clock log may be (the
#: clock of the laptop a tournament comes from may run a little fast)
CLOCK_SKEW = dt.timedelta(hours=1)
#: stored times and the time left that differ less are the same
_CLOSE = dt.timedelta(milliseconds=1)


def _when(value) -> str:
    return value.isoformat() if value is not None else _("none")


def check_clock(rnd, path: str, acts: list, tables: list, now, error) -> None:
    """A round's clock as the clock service writes it
    (``tournaments.services.clock``): each activation's seconds by the
    service's rules (a start some time, at most the longest round; an
    extension 1 s to 12 h), no time beyond this site's clock (and
    :data:`CLOCK_SKEW`), the log replayed in time order through the pure
    clock (a pause only while running, nothing after time was called but a
    table's extension, …), and the round's status, deadline and time left
    and each table's extension and deadline what the service stores after
    that log. ``acts``: (activation, its place) in the file's order;
    ``tables``: the round's tables with their places (their numbers are
    the activations' keys)."""
    if not isinstance(rnd.minutes, int) or isinstance(rnd.minutes, bool):
        return  # reported with the round already
    clock = pure_clock.derive([], rnd.minutes * 60)
    ordered = sorted((pair for pair in acts if pair[0].at is not None), key=lambda pair: pair[0].at)
    if len(ordered) != len(acts):
        return  # a time that isn't one: reported already
    for act, cpath in ordered:
        if not _activation_sound(act, cpath, now, error):
            return
        step = pure_clock.Activation(
            kind=act.kind,
            at=act.at,
            seconds=act.seconds,
            table=act.table.number if act.table is not None else None,
        )
        try:
            clock = pure_clock.step(clock, step)
        except pure_clock.ClockError:
            error(
                f"{cpath}.kind",
                _("the clock can't do this here (it is %(status)s then)")
                % {"status": _status_label(clock.status)},
            )
            return
    _same_as_stored(rnd, path, clock, error, logged=bool(ordered))
    for tpath, table in tables:
        expected = clock_services.stored_table(clock, table.number)
        if table.extra_seconds != expected["extra_seconds"]:
            error(
                f"{tpath}.extra_seconds",
                _("not the extension the clock's log gives (%(expected)s s)")
                % {"expected": expected["extra_seconds"]},
            )
        if not _same_time(table.deadline, expected["deadline"]):
            error(
                f"{tpath}.deadline",
                _("not the deadline the clock's log gives (%(expected)s)")
                % {"expected": _when(expected["deadline"])},
            )


def _activation_sound(act, cpath: str, now, error) -> bool:
    if act.kind not in pure_clock.KINDS or not isinstance(act.seconds, int):
        return False  # reported by the activation's own check
    if act.at > now + CLOCK_SKEW:
        error(
            f"{cpath}.at",
            _("%(at)s is later than this site's clock: a clock log holds no time to come")
            % {"at": _when(act.at)},
        )
        return False
    try:
        if act.kind == pure_clock.EXTEND:
            clock_services.extension_seconds(seconds=act.seconds)
        elif act.kind == pure_clock.START:
            clock_services.start_seconds(act.seconds)
        elif act.seconds < 0:
            raise ServiceError(_("no time is less than none"))
    except ServiceError as exc:
        error(f"{cpath}.seconds", str(exc))
        return False
    return True


def _status_label(status: str) -> str:
    return str(dict(Round.STATUSES).get(status, status))


def _same_time(a, b) -> bool:
    if a is None or b is None:
        return a is b
    return abs(a - b) < _CLOSE


def _same_as_stored(rnd, path: str, clock, error, *, logged: bool) -> None:
    """The round's status, deadline and time left are the ones the clock
    service stores after its log (``logged``: it has one; a round just
    seated holds no time left yet); a complete round with a log had its
    time called."""
    expected = clock_services.stored_round(rnd.status, clock)
    if not logged and rnd.remaining_seconds is None:
        expected["remaining_seconds"] = None
    if rnd.status == Round.COMPLETE and clock.status != pure_clock.TIME_CALLED and logged:
        expected["status"] = clock.status  # (a round completed without a clock log is kept)
    if rnd.status != expected["status"]:
        error(
            f"{path}.status",
            _("%(stored)s, but the clock's log gives %(expected)s")
            % {"stored": _status_label(rnd.status), "expected": _status_label(expected["status"])},
        )
        return
    if not _same_time(rnd.deadline, expected["deadline"]):
        error(
            f"{path}.deadline",
            _("not the deadline the clock's log gives (%(expected)s)")
            % {"expected": _when(expected["deadline"])},
        )
    left, should = rnd.remaining_seconds, expected["remaining_seconds"]
    if not _same_left(left, should):
        error(
            f"{path}.remaining_seconds",
            _("not the time left the clock's log gives (%(expected)s)")
            % {"expected": "–" if should is None else f"{should:.0f} s"},
        )


def _same_left(left, should) -> bool:
    if should is None:
        return left is None
    number = isinstance(left, int | float) and not isinstance(left, bool)
    return number and abs(left - should) <= 0.001
