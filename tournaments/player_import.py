"""Parse a player list from a CSV file or pasted text.

Columns: name, club, rating, birth year — in that order, or in any order when
the first line is a header (English or German names: name/Name, club/Verein,
rating/Wertung/DWZ/Elo, birth year/birth_year/Geburtsjahr/Jahrgang). Comma,
semicolon and tab separated text are all accepted. Blank lines are skipped.

``parse_players`` returns every row and every error with its line number;
the caller saves nothing unless the error list is empty.
"""

from __future__ import annotations

import csv
import datetime
import io
from dataclasses import dataclass

from django.utils.translation import gettext as _

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
MAX_ROWS = 5000


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
    sample = "\n".join(text.splitlines()[:20])
    try:
        return csv.Sniffer().sniff(sample, delimiters=",;\t")
    except csv.Error:
        return csv.excel


def parse_players(text: str, existing: set[tuple[str, str]] = frozenset()):
    """Rows and line-numbered errors for ``text``.

    ``existing`` holds the (name, club) pairs already registered, compared
    case-insensitively, so an import can't register a player twice.
    """
    rows: list[ImportRow] = []
    errors: list[LineError] = []
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.strip():
        return rows, [LineError(0, _("The list is empty."))]
    reader = csv.reader(io.StringIO(text), _dialect(text))
    columns = DEFAULT_COLUMNS
    seen: dict[tuple[str, str], int] = {}
    known = {(n.casefold(), c.casefold()) for n, c in existing}
    this_year = datetime.date.today().year
    for index, cells in enumerate(reader):
        line = reader.line_num
        cells = [c.strip() for c in cells]
        if not any(cells):
            continue
        if index == 0 and cells[0].casefold() in HEADER_ALIASES:
            unknown = [c for c in cells if c and c.casefold() not in HEADER_ALIASES]
            if unknown:
                errors.append(
                    LineError(line, _("Unknown column: %(names)s") % {"names": ", ".join(unknown)})
                )
            columns = [HEADER_ALIASES.get(c.casefold(), "?") for c in cells]
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
        data = dict(zip(columns, cells, strict=False))
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
            try:
                row.rating = int(rating)
            except ValueError:
                problems.append(_("Rating “%(value)s” is not a whole number.") % {"value": rating})
        year = data.get("birth_year", "")
        if year:
            try:
                row.birth_year = int(year)
            except ValueError:
                row.birth_year = None
            if row.birth_year is None or not 1900 <= row.birth_year <= this_year:
                problems.append(
                    _("Birth year “%(value)s” is not a year between 1900 and %(max)s.")
                    % {"value": year, "max": this_year}
                )
        key = (row.name.casefold(), row.club.casefold())
        if row.name and key in known:
            problems.append(_("%(name)s is already registered.") % {"name": row.name})
        elif row.name and key in seen:
            problems.append(
                _("%(name)s is listed twice (also on line %(line)s).")
                % {"name": row.name, "line": seen[key]}
            )
        seen.setdefault(key, line)
        if problems:
            errors.extend(LineError(line, p) for p in problems)
        else:
            rows.append(row)
    if not rows and not errors:
        errors.append(LineError(0, _("The list has no players.")))
    return rows, errors
