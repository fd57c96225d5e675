"""Parse a player list from a CSV file or pasted text.

Columns: name, club, rating, birth year — in that order, or in any order when
the first line is a header (English or German names, case, spaces, "_", "-"
and "." ignored: name/Name/Spieler, first name/Vorname and last
name/Nachname (joined into the name; "Name" beside "Vorname" is the
surname), club/Verein, rating/Wertung/DWZ/Elo, birth year/Geburtsjahr/
Jahrgang; a running number "Nr."/"#" and the other columns of the product's
own players export (id, team, check-in, … in English or German) are read
past, so an exported list imports again). A header column that is not
understood is named in an error, never read as another column. Comma,
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

#: header names → the column they name (looked up as :func:`header_word` writes them)
_ALIASES = {
    **dict.fromkeys(
        ("name", "spieler", "spielerin", "player", "full name", "spielername", "teilnehmer"),
        "name",
    ),
    **dict.fromkeys(
        ("first name", "firstname", "given name", "forename", "vorname", "rufname"),
        "first_name",
    ),
    **dict.fromkeys(
        (
            "last name",
            "lastname",
            "surname",
            "family name",
            "nachname",
            "familienname",
            "zuname",
        ),
        "last_name",
    ),
    **dict.fromkeys(("club", "verein", "klub", "vereinsname"), "club"),
    **dict.fromkeys(("rating", "wertung", "dwz", "elo", "spielstärke"), "rating"),
    **dict.fromkeys(
        (
            "birth year",
            "birthyear",
            "year of birth",
            "geburtsjahr",
            "jahrgang",
            "jg",
            "geb jahr",
            "geburtsjahrgang",
        ),
        "birth_year",
    ),
    # a list's running number: read past, never a rating
    **dict.fromkeys(("nr", "#", "no", "lfd nr", "pos", "start nr", "startnummer"), "-"),
    # the other columns of the product's own players export (English field
    # names and German titles): read past, so an exported list imports again
    **dict.fromkeys(
        (
            "id",
            "spieler-id",
            "team",
            "checked_in",
            "eingecheckt",
            "dropped",
            "ausgeschieden",
            "first_round",
            "erste runde",
        ),
        "-",
    ),
}
DEFAULT_COLUMNS = ["name", "club", "rating", "birth_year"]
MAX_ROWS = limits.MAX_PLAYERS
#: the longest line we read (a name and a club of 200 characters fit easily)
MAX_LINE = 4096
_WHOLE = re.compile(r"[+-]?[0-9]{1,12}")
_HEADER_SEPARATORS = re.compile(r"[\s_.:\-]+")


def header_word(cell: str) -> str:
    """A header cell as it is looked up: lower case, without spaces, "_",
    "-", "." and ":" ("First_Name", "Nach-name", "Geb.-Jahr " → "firstname",
    "nachname", "gebjahr")."""
    return _HEADER_SEPARATORS.sub("", cell.casefold())


#: every header name as :func:`header_word` writes it → the column it names
HEADER_ALIASES = {header_word(name): column for name, column in _ALIASES.items()}


def _is_header(cells: list[str]) -> bool:
    """Whether the first line names the columns: its first cell is a column
    name, or two of its cells are (a player "Anna" of the club "Club" is
    still a player)."""
    known = [c for c in cells if c and header_word(c) in HEADER_ALIASES]
    return bool(cells) and (header_word(cells[0]) in HEADER_ALIASES or len(known) >= 2)


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
        if index == 0 and _is_header(cells):
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
    """The columns a header line names. A name not understood, or a column
    named twice, is an error naming it (its cells are never read as another
    column)."""
    columns, named = [], {}
    for cell in cells:
        column = HEADER_ALIASES.get(header_word(cell), "?") if cell else "?"
        if column == "-":  # a running number: not read
            column = "?"
        elif cell and column == "?":
            errors.append(
                LineError(
                    line,
                    _(
                        "Column “%(name)s” is not recognised: the columns are name (or "
                        "first name and last name), club, rating and birth year."
                    )
                    % {"name": cell},
                )
            )
        elif column in named:
            errors.append(
                LineError(
                    line,
                    _("Columns “%(first)s” and “%(second)s” are the same column.")
                    % {"first": named[column], "second": cell},
                )
            )
            column = "?"
        else:
            named[column] = cell
        columns.append(column)
    if "first_name" in named and "last_name" not in named and "name" in named:
        # "Name;Vorname": German lists name the surname "Name"
        columns = ["last_name" if c == "name" else c for c in columns]
    return columns


def _full_name(data: dict[str, str]) -> str:
    """The name column, or the first and last names joined."""
    if "first_name" in data or "last_name" in data:
        parts = (data.get("first_name", ""), data.get("last_name", ""))
        return " ".join(" ".join(p.split()) for p in parts if p.strip())
    return data.get("name", "")


def _read_row(line: int, data: dict[str, str], this_year: int) -> tuple[ImportRow, list[str]]:
    """A player's row from its cells by column, and what is wrong with it."""
    row = ImportRow(line=line, name=_full_name(data), club=data.get("club", ""))
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
