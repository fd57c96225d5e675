"""Numbers in the active language, the Django side of the pure
:func:`tournaments.points.as_number` and :func:`tournaments.points.format_value`."""

from __future__ import annotations

from django.utils.formats import get_format

from tournaments.points import as_number, format_value


def number_text(value) -> str:
    """A standings number (points, a tiebreak figure, a seating's score) as
    the standings and the prints write it, in the active language: "1,5",
    "2,333", "4" in German ("1.5" in English), never "1,50"; the pages'
    ``|number`` and the seating's messages."""
    if value is None or value == "":
        return ""
    try:
        value = as_number(value)
    except (ValueError, OverflowError):
        return str(value)
    return format_value(value, get_format("DECIMAL_SEPARATOR"))
