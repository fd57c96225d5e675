"""Paper score sheets: the field format of ``sheet_schema`` and value readers
for ``check_sheet``.

A schema is a list of fields, in the order a printed sheet asks them::

    {"name": "s0_cards",          # unique key in the submitted sheet dict
     "label": "Cards held",       # English, marked for translation
     "kind": "int",               # int | bool | seat | choice | seats
     "seat": 0,                   # the seat row it belongs to, or None
     "group": None,               # e.g. "hand 2" for per-hand rows, or None
     "required": True,
     "min": 0, "max": 32,         # int only (None: unbounded)
     "choices": [["red", "red"], ...],   # choice only: [value, label]
     "params": {"track": 30}}     # optional: filled into label/help AFTER translating

Labels, help texts and group names are English msgids: translate them first,
then ``.format(**params)``. A group name is a word and a number ("hand 2"):
translate the word. ``display(text, params, gettext)`` does this.

A submitted sheet is a ``dict`` from field name to value. Values may arrive as
strings from a form or JSON; the readers here convert them and record a
``Problem`` (code ``invalid`` / ``missing``) instead of raising, so a checker
finds every problem in one pass and never crashes on garbage.
"""

from __future__ import annotations

from games.base import Problem
from games.i18n import _


def field(
    name: str,
    label: str,
    kind: str = "int",
    *,
    seat: int | None = None,
    group: str | None = None,
    required: bool = True,
    min: int | None = None,  # noqa: A002 - the schema's own key names
    max: int | None = None,  # noqa: A002
    choices: list | None = None,
    help: str = "",  # noqa: A002
    params: dict | None = None,
) -> dict:
    d = {
        "name": name,
        "label": label,
        "kind": kind,
        "seat": seat,
        "group": group,
        "required": required,
        "help": help,
    }
    if kind == "int":
        d["min"] = min
        d["max"] = max
    if kind in ("choice",):
        d["choices"] = [list(c) for c in (choices or [])]
    if params:
        d["params"] = dict(params)
    return d


def display(text: str, params: dict | None = None, gettext=lambda t: t) -> str:
    """A schema text for people: translated, then filled with its params.
    A trailing number ("hand 2") is kept and the words before it translated."""
    if not text:
        return ""
    word, sep, number = text.rpartition(" ")
    if sep and number.isdigit() and word:
        return f"{gettext(word)} {number}"
    translated = gettext(text)
    return translated.format(**params) if params else translated


def is_blank(value) -> bool:
    return value is None or (isinstance(value, str) and value.strip() == "")


def read_int(sheet: dict, name: str, problems: list, *, required=True, min=None, max=None):  # noqa: A002
    """The field as an int, or None (blank, or a problem was recorded)."""
    value = sheet.get(name)
    if is_blank(value):
        if required:
            problems.append(Problem("missing", (name,), _("This field is required.")))
        return None
    if isinstance(value, bool):
        value = None
    elif isinstance(value, float) and value.is_integer():
        value = int(value)
    elif isinstance(value, str):
        try:
            value = int(value.strip())
        except ValueError:
            value = None
    if not isinstance(value, int):
        problems.append(Problem("invalid", (name,), _("Enter a whole number.")))
        return None
    if min is not None and value < min:
        problems.append(Problem("too_small", (name,), _("Must be at least {min}."), {"min": min}))
        return None
    if max is not None and value > max:
        problems.append(Problem("too_large", (name,), _("Must be at most {max}."), {"max": max}))
        return None
    return value


_TRUE = {"1", "true", "yes", "on", "ja", "x"}
_FALSE = {"0", "false", "no", "off", "nein", ""}


def read_bool(sheet: dict, name: str, problems: list) -> bool | None:
    """A checkbox: blank/absent is False."""
    value = sheet.get(name)
    if value is None or isinstance(value, bool):
        return bool(value)
    if isinstance(value, int):
        if value in (0, 1):
            return bool(value)
    elif isinstance(value, str) and value.strip().lower() in _TRUE | _FALSE:
        return value.strip().lower() in _TRUE
    problems.append(Problem("invalid", (name,), _("Enter yes or no.")))
    return None


def read_choice(sheet: dict, name: str, problems: list, choices, *, required=True):
    """The field's value if it is one of ``choices`` (compared as strings)."""
    value = sheet.get(name)
    if is_blank(value):
        if required:
            problems.append(Problem("missing", (name,), _("This field is required.")))
        return None
    allowed = {str(c): c for c in choices}
    key = str(value).strip() if not isinstance(value, (dict, list)) else None
    if key not in allowed:
        problems.append(Problem("invalid_choice", (name,), _("Choose one of the listed values.")))
        return None
    return allowed[key]


def read_seat(sheet: dict, name: str, problems: list, players: int, *, required=True):
    """A seat number 0..players-1 (sheets print seats 1..n; forms send 0-based)."""
    return read_choice(sheet, name, problems, list(range(players)), required=required)


def unknown_fields(sheet, schema: list[dict], problems: list) -> bool:
    """Record a problem for a sheet that is not a dict or has fields the schema
    does not know; returns False when the sheet can't be read at all."""
    if not isinstance(sheet, dict):
        problems.append(Problem("not_a_sheet", (), _("The sheet must be a set of named fields.")))
        return False
    known = {f["name"] for f in schema}
    extra = sorted(str(k) for k in sheet if k not in known)
    if extra:
        problems.append(
            Problem(
                "unknown_field",
                tuple(extra),
                _("Unknown field(s): {names}."),
                {"names": ", ".join(extra)},
            )
        )
    return True
