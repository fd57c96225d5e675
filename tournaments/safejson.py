"""Reading JSON uploads (tournament exports, decks) without surprises.

``json.loads`` raises ``RecursionError`` on deeply nested input, and a NUL
character in a string is refused by PostgreSQL with a database error deep in
a save. :func:`loads` turns both, and invalid JSON, into :class:`BadJSON`
with a translated message that says where — before anything is stored.

A parse is bounded before it builds anything: the text counts its elements
(:func:`elements`: every ``{``, ``[`` and ``,``, an upper bound of the
values, keys and containers the parse would build, read at C speed), and
more than ``max_elements`` refuses it, so 20 MB of ``{},`` never become
millions of dictionaries. With the size of the text (bounded by the door
that reads it) that bounds the memory a parse takes.
"""

from __future__ import annotations

import json
import math

from django.utils.translation import gettext as _

from tournaments import limits


class BadJSON(ValueError):
    """The upload can't be used; ``str(exc)`` says why, for people."""


def check(value, *, max_depth: int = limits.MAX_JSON_DEPTH) -> None:
    """Refuse nesting deeper than ``max_depth``, NUL characters anywhere
    (keys included) and NaN or infinite numbers (JSON has none; Python's
    reader takes them). Iterative: any depth is walked without recursion."""
    stack = [(value, 1, "")]
    while stack:
        item, depth, path = stack.pop()
        if isinstance(item, dict | list):
            if depth > max_depth:
                raise BadJSON(
                    _("The file is nested more than %(n)s levels deep (at %(path)s).")
                    % {"n": max_depth, "path": path or "/"}
                )
            pairs = item.items() if isinstance(item, dict) else enumerate(item)
            for key, child in pairs:
                if isinstance(key, str) and "\x00" in key:
                    raise BadJSON(
                        _("The file contains a NUL character (at %(path)s).")
                        % {"path": path or "/"}
                    )
                where = f"{path}.{key}" if isinstance(key, str) else f"{path}[{key}]"
                stack.append((child, depth + 1, where.lstrip(".")))
        elif isinstance(item, str) and "\x00" in item:
            raise BadJSON(
                _("The file contains a NUL character (at %(path)s).") % {"path": path or "/"}
            )
        elif isinstance(item, float) and not math.isfinite(item):
            raise _not_a_number(path)


def _not_a_number(path: str) -> BadJSON:
    return BadJSON(
        _("The file contains NaN or Infinity, which is not a number (at %(path)s).")
        % {"path": path or "/"}
    )


def _refuse_constant(name: str):
    raise _not_a_number("/")


def elements(data) -> int:
    """An upper bound of the elements a parse of ``data`` builds: every
    value and key follows a ``{``, a ``[`` or a ``,`` (or is the whole text);
    the same characters inside strings only count more."""
    if isinstance(data, str):
        return 1 + data.count("{") + data.count("[") + data.count(",")
    return 1 + data.count(b"{") + data.count(b"[") + data.count(b",")


def loads(
    data, *, max_depth: int = limits.MAX_JSON_DEPTH, max_elements: int = limits.MAX_JSON_ELEMENTS
):
    """The parsed JSON of ``data`` (bytes or text), checked with :func:`check`;
    more than ``max_elements`` (:func:`elements`) is refused before parsing."""
    if elements(data) > max_elements:
        raise BadJSON(
            _("The file holds more than %(n)s elements: no tournament is that large.")
            % {"n": f"{max_elements:,}"}
        )
    if isinstance(data, bytes | bytearray):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise BadJSON(_("The file is not UTF-8 text.")) from None
    try:
        value = json.loads(data, parse_constant=_refuse_constant)
    except json.JSONDecodeError as exc:
        raise BadJSON(
            _("The file is not valid JSON (line %(line)s, column %(col)s).")
            % {"line": exc.lineno, "col": exc.colno}
        ) from None
    except ValueError:  # a number of more digits than Python reads
        raise BadJSON(_("The file holds a number too long to read.")) from None
    except RecursionError:
        raise BadJSON(
            _("The file is nested more than %(n)s levels deep (at %(path)s).")
            % {"n": max_depth, "path": "/"}
        ) from None
    check(value, max_depth=max_depth)
    return value
