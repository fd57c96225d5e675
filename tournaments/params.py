"""Strict parsing of numbers in URLs and forms, used everywhere a view reads
one from the query string or a POST field.

``str.isdigit`` and ``int`` accept more than ASCII digits ("²", "٣", " 7",
"+7", "1_000"); a URL number is only ASCII digits, at most 9 of them.
"""

from __future__ import annotations

import re

_DIGITS = re.compile(r"[0-9]{1,9}")


def parse_int(value, *, minimum: int = 0, maximum: int = 999_999_999) -> int | None:
    """``value`` as an int when it is 1-9 ASCII digits within the bounds, else None."""
    if not isinstance(value, str) or not _DIGITS.fullmatch(value):
        return None
    number = int(value)
    return number if minimum <= number <= maximum else None
