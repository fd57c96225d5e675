"""Parse a player list from a CSV file or pasted text.

Columns: name, club, rating, birth year — in that order, or in any order when
the first line is a header (English or German names: name/Name, club/Verein,
rating/Wertung/DWZ/Elo, birth year/birth_year/Geburtsjahr/Jahrgang). Comma,
semicolon and tab separated text are all accepted. Blank lines are skipped.

``parse_players`` returns every row and every error with its line number;
the caller saves nothing unless the error list is empty.
"""

from __future__ import annotations

import codecs
import csv
import datetime
import io
import re
from dataclasses import dataclass

from django.utils.translation import gettext as _

from tournaments import limits

HEADER_ALIASES = {
    "name": "name",
    "spieler": "name",
    "player": "name",
    "club": "club",
    "verein": "club",
    "rating": "rating",
    "wertung": "rating",
    "dwz": "rating",
    "elo": "rating",
    "spielstärke": "rating",
    "birth year": "birth_year",
    "birth_year": "birth_year",
    "birthyear": "birth_year",
    "geburtsjahr": "birth_year",
    "jahrgang": "birth_year",
}
DEFAULT_COLUMNS = ["name", "club", "rating", "birth_year"]
MAX_ROWS = limits.MAX_PLAYERS
#: the longest line we read (a name and a club of 200 characters fit easily)
MAX_LINE = 4096
_WHOLE = re.compile(r"[+-]?[0-9]{1,12}")


class UnreadableFile(ValueError):
    """The bytes are not a text list we can read; the message says why."""


def decode_upload(raw: bytes) -> str:
    """The text of an uploaded list: UTF-16 (with its byte-order mark),
    UTF-8 (with or without one) or Windows-1252 (Excel's "CSV" in Western
    Europe). Anything else, and binary files, raise ``UnreadableFile``."""
    if raw.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            text = raw.decode("utf-16")
        except UnicodeDecodeError:
            raise UnreadableFile(_("The file says it is UTF-16 but isn't.")) from None
    else:
        for encoding in ("utf-8-sig", "cp1252"):
            try:
                text = raw.decode(encoding)
                break
            except UnicodeDecodeError:
                continue
        else:
            raise UnreadableFile(
                _("The file is not text we can read: save it as CSV (UTF-8) from your spreadsheet.")
            )
    return text


def _text_problem(text: str) -> str | None:
    if "\x00" in text:
        return _(
            "The list contains NUL bytes: it looks like a spreadsheet file, not CSV. "
            "Save it as CSV (UTF-8) and try again."
        )
    return None


@dataclass
class ImportRow:
    line: int
    name: str
    club: str = ""
    rating: int | None = None
    birth_year: int | None = None


@dataclass
class LineError:
    """A problem with the list, on its line (0: the list as a whole)."""

    line: int
    message: str


def _dialect(text: str):
    """The separator as sniffed; quoting always as spreadsheets write it
    (double quotes): the sniffer would take the apostrophe a spreadsheet-safe
    export puts before "=…" or "-…" for a quote character."""
    sample = "\n".join(text.splitlines()[:20])
    try:
        sniffed = csv.Sniffer().sniff(sample, delimiters=",;\t")
    except csv.Error:
        return csv.excel

    class Sniffed(csv.excel):
        delimiter = sniffed.delimiter

    return Sniffed


def _rows(reader):
    """The reader's rows; a line the csv module can't read ends the list with
    a ``LineError`` (never an exception)."""
    while True:
        try:
            yield next(reader)
        except StopIteration:
            return
        except csv.Error:
            yield LineError(reader.line_num, _("This line can't be read as CSV."))
            return


def parse_players(text: str, existing: set[tuple[str, str]] = frozenset()):
    """Rows and line-numbered errors for ``text``.

    ``existing`` holds the (name, club) pairs already registered, compared
    case-insensitively, so an import can't register a player twice.
    """
    rows: list[ImportRow] = []
    errors: list[LineError] = []
    text, refused = _readable_text(text)
    if refused:
        return rows, [refused]
    reader = csv.reader(io.StringIO(text, newline=""), _dialect(text))
    columns = DEFAULT_COLUMNS
    seen: dict[tuple[str, str], int] = {}
    known = {(n.casefold(), c.casefold()) for n, c in existing}
    this_year = datetime.date.today().year
    start = 1
    for index, cells in enumerate(_rows(reader)):
        if isinstance(cells, LineError):
            errors.append(cells)
            break
        line = reader.line_num
        first, start = start, line + 1
        if any("\n" in c for c in cells):
            errors.append(_unclosed_quote(first, line))
            continue
        cells = [c.strip() for c in cells]
        if not any(cells):
            continue
        if index == 0 and cells[0].casefold() in HEADER_ALIASES:
            columns = _header(cells, line, errors)
            continue
        if len(rows) + len(errors) >= MAX_ROWS:
            errors.append(LineError(line, _("More than %(n)s players.") % {"n": MAX_ROWS}))
            break
        if len(cells) > len(columns):
            errors.append(
                LineError(
                    line,
                    _("Too many columns: expected at most %(n)s.") % {"n": len(columns)},
                )
            )
            continue
        row, problems = _read_row(line, dict(zip(columns, cells, strict=False)), this_year)
        key = (row.name.casefold(), row.club.casefold())
        problems += _twice_problems(row, key, known, seen)
        seen.setdefault(key, line)
        if problems:
            errors.extend(LineError(line, p) for p in problems)
        else:
            rows.append(row)
    if not rows and not errors:
        errors.append(LineError(0, _("The list has no players.")))
    return rows, errors


def _readable_text(text: str) -> tuple[str, LineError | None]:
    """The text without a byte order mark and with "\\n" line ends, or the
    reason it is refused as a whole (empty, not a list, a line far too long)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.strip():
        return text, LineError(0, _("The list is empty."))
    problem = _text_problem(text)
    if problem:
        return text, LineError(0, problem)
    # old Mac files end lines with CR only: the csv module wants "\n"
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    too_long = next((n for n, line in enumerate(text.split("\n"), 1) if len(line) > MAX_LINE), None)
    if too_long:
        return text, LineError(
            too_long,
            _("The line is longer than %(n)s characters: is this a player list?") % {"n": MAX_LINE},
        )
    return text, None


def _unclosed_quote(first: int, line: int) -> LineError:
    return LineError(
        first,
        _(
            "A quotation mark on line %(first)s is not closed: lines %(first)s "
            "to %(last)s would be read as one player."
        )
        % {"first": first, "last": line},
    )


def _header(cells: list[str], line: int, errors: list[LineError]) -> list[str]:
    """The columns a header line names (an unknown name is an error)."""
    unknown = [c for c in cells if c and c.casefold() not in HEADER_ALIASES]
    if unknown:
        errors.append(
            LineError(line, _("Unknown column: %(names)s") % {"names": ", ".join(unknown)})
        )
    return [HEADER_ALIASES.get(c.casefold(), "?") for c in cells]


def _read_row(line: int, data: dict[str, str], this_year: int) -> tuple[ImportRow, list[str]]:
    """A player's row from its cells by column, and what is wrong with it."""
    row = ImportRow(line=line, name=data.get("name", ""), club=data.get("club", ""))
    problems = []
    if not row.name:
        problems.append(_("The name is missing."))
    elif len(row.name) > 200:
        problems.append(_("The name is longer than 200 characters."))
    if len(row.club) > 200:
        problems.append(_("The club is longer than 200 characters."))
    rating = data.get("rating", "")
    if rating:
        if not _WHOLE.fullmatch(rating):
            problems.append(_("Rating “%(value)s” is not a whole number.") % {"value": rating})
        elif not limits.MIN_RATING <= int(rating) <= limits.MAX_RATING:
            problems.append(
                _("Rating “%(value)s” is not between %(min)s and %(max)s.")
                % {"value": rating, "min": limits.MIN_RATING, "max": limits.MAX_RATING}
            )
        else:
            row.rating = int(rating)
    year = data.get("birth_year", "")
    if year:
        row.birth_year = int(year) if _WHOLE.fullmatch(year) else None
        if row.birth_year is None or not 1900 <= row.birth_year <= this_year:
            problems.append(
                _("Birth year “%(value)s” is not a year between 1900 and %(max)s.")
                % {"value": year, "max": this_year}
            )
    return row, problems


def _twice_problems(row: ImportRow, key: tuple, known: set, seen: dict) -> list[str]:
    """The row's player already registered, or listed on an earlier line."""
    if row.name and key in known:
        return [_("%(name)s is already registered.") % {"name": row.name}]
    if row.name and key in seen:
        return [
            _("%(name)s is listed twice (also on line %(line)s).")
            % {"name": row.name, "line": seen[key]}
        ]
    return []
