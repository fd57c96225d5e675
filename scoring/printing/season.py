"""The season standings as a PDF (pure: plain data in, PDF bytes out)."""

from __future__ import annotations

import io
from decimal import Decimal, InvalidOperation

from reportlab.lib.units import mm
from reportlab.platypus import Spacer

from scoring.printing.lists import (
    Gettext,
    _build,
    _doc,
    _identity,
    _table,
    column_widths,
    format_value,
    notes,
)


def result_cell(cell, decimal_separator: str = ".") -> str:
    """One tournament's cell in the reader's numbers: a number, ``(number,
    counted)``, or the text the page shows ("3.375", "(1.5)": a number in
    brackets does not count) — "3,375" and "(1,5)" in German."""
    if cell is None or cell == "":
        return ""
    if isinstance(cell, tuple):
        value, counted = cell
        text = result_cell(value, decimal_separator)
        return text if counted else f"({text})"
    if not isinstance(cell, str):
        return format_value(cell, decimal_separator)
    inner = cell.strip()
    bracketed = inner.startswith("(") and inner.endswith(")")
    if bracketed:
        inner = inner[1:-1].strip()
    try:
        text = format_value(Decimal(inner), decimal_separator)
    except InvalidOperation:
        return cell
    return f"({text})" if bracketed else text


def render_season(
    series: dict,
    tournaments: list[str],
    rows: list[dict],
    *,
    gettext: Gettext = None,
    decimal_separator: str = ".",
) -> bytes:
    """``rows``: ``{"place", "name", "club", "total", "played", "results"}`` with
    ``results`` one cell per tournament (points, in brackets when not
    counted; see :func:`result_cell`). The line under the title names how
    many tournaments the season counts; the list under the table names them."""
    _ = gettext or _identity
    header = [_("Place"), _("Name"), _("Club"), _("Total"), _("Played")]
    header += [str(i) for i in range(1, len(tournaments) + 1)]
    data = [header]
    for row in rows:
        data.append(
            [
                format_value(row["place"], decimal_separator) if row["place"] else "–",
                row["name"],
                row["club"],
                format_value(row["total"], decimal_separator),
                format_value(row["played"], decimal_separator),
                *(result_cell(cell, decimal_separator) for cell in row["results"]),
            ]
        )
    counts = (
        _("Counts tournament {numbers}.")
        if len(tournaments) == 1
        else _("Counts tournaments {numbers}.")
    )
    lines = [series.get("name", "")]
    if tournaments:
        lines.append(
            counts.format(numbers=f"1–{len(tournaments)}" if len(tournaments) > 1 else "1")
        )
    flexible = {1: 3, 2: 2}
    right = [0, *range(3, len(header))]
    for landscape in (False, True):
        buf = io.BytesIO()
        doc, fw = _doc(buf, _("Season standings"), lines, landscape=landscape)
        widths, fits = column_widths(data, fw, flexible)
        if fits:
            break
    texts = [f"{i}: {name}" for i, name in enumerate(tournaments, start=1)]
    texts.append(_("Results in brackets do not count."))
    story = [_table(data, widths, right=right), Spacer(1, 4 * mm), notes(texts, fw)]
    return _build(doc, story)
