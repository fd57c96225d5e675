"""The season standings as a PDF (pure: plain data in, PDF bytes out)."""

from __future__ import annotations

import io

from reportlab.lib.styles import getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph, Spacer

from scoring.printing.fonts import register_fonts
from scoring.printing.lists import Gettext, _build, _doc, _identity, _table, format_value


def render_season(
    series: dict,
    tournaments: list[str],
    rows: list[dict],
    *,
    gettext: Gettext = None,
    decimal_separator: str = ".",
) -> bytes:
    """``rows``: ``{"place", "name", "club", "total", "played", "results"}`` with
    ``results`` one cell per tournament (points, in brackets when not counted)."""
    _ = gettext or _identity
    buf = io.BytesIO()
    wide = len(tournaments) > 6
    doc, fw = _doc(buf, _("Season standings"), series.get("name", ""), landscape=wide)
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
                *row["results"],
            ]
        )
    narrow, small = 14 * mm, 11 * mm
    rest = fw - 3 * narrow - len(tournaments) * small
    widths = [narrow, rest * 0.6, rest * 0.4, narrow, narrow] + [small] * len(tournaments)
    right = [0, 3, 4, *range(5, 5 + len(tournaments))]
    story = [_table(data, widths, align_right=right)]
    font, _bold = register_fonts()
    style = getSampleStyleSheet()["Normal"]
    style.fontName, style.fontSize = font, 8
    story.append(Spacer(1, 4 * mm))
    for i, name in enumerate(tournaments, start=1):
        story.append(Paragraph(f"{i}: {_escape(name)}", style))
    story.append(Paragraph(_("Results in brackets do not count."), style))
    return _build(doc, story)


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
