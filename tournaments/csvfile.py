"""The one CSV writer: every CSV file the product writes goes through here.

Made for spreadsheets, as the user's language reads them:

- UTF-8 with a byte-order mark (so Excel reads "Şahin" right), CRLF line
  ends, a header row with the columns' names in the reader's language
  (German: "Geburtsjahr"; English: the field names, "birth_year").
- German: ``;`` between fields and a decimal comma (``6,5``) — what German
  Excel expects; English: ``,`` and a decimal point (``6.5``). Numbers are
  written as bare numbers so a spreadsheet reads them as numbers.
- Text cells are never formulas: a cell that begins with ``=``, ``+``,
  ``-``, ``@``, a tab or a carriage return gets a leading apostrophe, as the
  OWASP guidance on CSV injection says (a spreadsheet shows the text, never
  runs it). Numbers are not text and are written as they are.

Only ``csv`` from the standard library; the caller passes the language.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from decimal import Decimal

CONTENT_TYPE = "text/csv; charset=utf-8"
#: first characters that make a spreadsheet read a cell as a formula (OWASP)
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
#: the full-width forms some spreadsheets also accept as formula starts
FORMULA_STARTS_WIDE = ("\uff1d", "\uff0b", "\uff0d", "\uff20")


def dialect_for(language: str | None) -> tuple[str, str]:
    """(field separator, decimal separator) for a language code."""
    if (language or "").lower().startswith("de"):
        return ";", ","
    return ",", "."


def escape_text(text: str) -> str:
    """``text`` made safe to open in a spreadsheet (OWASP: prefix ``'``)."""
    if text.startswith(FORMULA_STARTS) or text.startswith(FORMULA_STARTS_WIDE):
        return "'" + text
    return text


def _number(value: int | float | Decimal, decimal: str) -> str:
    if isinstance(value, Decimal):
        text = str(int(value)) if value == value.to_integral_value() else format(value, "f")
    elif isinstance(value, float):
        text = str(int(value)) if value.is_integer() else repr(value)
    else:
        text = str(value)
    return text.replace(".", decimal)


def cell(value, decimal: str = ".") -> str:
    """One value as its CSV cell: numbers as numbers (with ``decimal``),
    booleans as 1/0, nothing as empty, everything else as escaped text."""
    if value is None:
        return ""
    if value is True:
        return "1"
    if value is False:
        return "0"
    if isinstance(value, int | float | Decimal):
        return _number(value, decimal)
    return escape_text(str(value))


def write_csv(
    rows: Iterable[dict],
    header: Sequence[str],
    *,
    language: str | None = None,
    titles: Sequence[str] | None = None,
) -> bytes:
    """``rows`` (dicts, keys from ``header``) as the bytes of a CSV file; the
    header row says ``titles`` (the columns' names in the reader's language)
    or, without them, the keys."""
    delimiter, decimal = dialect_for(language)
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\r\n")
    if titles is not None and len(titles) != len(header):
        raise ValueError("one title per column")
    writer.writerow([escape_text(str(h)) for h in (header if titles is None else titles)])
    for row in rows:
        writer.writerow([cell(row.get(k), decimal) for k in header])
    return out.getvalue().encode("utf-8-sig")
