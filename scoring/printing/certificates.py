"""Certificates (Urkunden) for the top places: one A4 page per player.

Plain data in, PDF bytes out (no Django). ``tournament`` is ``{"name",
"game", "date", "venue"}`` with the date already written for people ("23.
November 2026"); ``winners`` are ``{"place", "name", "club", "points"}``, best
first. Every text is DejaVu Sans, so "Şahin" and "Łukasz" print; labels are
English and go through the optional ``gettext``.
"""

from __future__ import annotations

import io

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from scoring.printing.fonts import register_fonts
from scoring.printing.lists import Gettext, _identity, format_value
from scoring.printing.sheets import binary_streams, fit_text

GOLD = colors.Color(0.62, 0.48, 0.14)


def render_certificates(
    tournament: dict, winners: list[dict], *, gettext: Gettext = None, decimal_separator: str = "."
) -> bytes:
    """One certificate per entry of ``winners``."""
    _ = gettext or _identity
    font, bold = register_fonts()
    buf = io.BytesIO()
    w, h = A4
    c = Canvas(buf, pagesize=A4, pageCompression=1)
    c.setTitle(_("Certificates"))
    c.setAuthor(tournament.get("name", ""))
    inner = w - 60 * mm
    for winner in winners:
        _frame(c, w, h)
        y = h - 62 * mm
        c.setFillColor(GOLD)
        c.setFont(bold, 40)
        c.drawCentredString(w / 2, y, _("Certificate"))
        c.setFillColor(colors.black)
        y -= 22 * mm
        text, size = fit_text(tournament.get("name", ""), bold, 22, inner)
        c.setFont(bold, size)
        c.drawCentredString(w / 2, y, text)
        if tournament.get("game"):
            y -= 10 * mm
            c.setFont(font, 13)
            c.drawCentredString(w / 2, y, tournament["game"])
        y -= 34 * mm
        c.setFont(bold, 30)
        c.drawCentredString(w / 2, y, _("Place {place}").format(place=winner["place"]))
        y -= 26 * mm
        text, size = fit_text(winner["name"], bold, 34, inner, min_size=14)
        c.setFont(bold, size)
        c.drawCentredString(w / 2, y, text)
        if winner.get("club"):
            y -= 12 * mm
            text, size = fit_text(winner["club"], font, 16, inner)
            c.setFont(font, size)
            c.drawCentredString(w / 2, y, text)
        if winner.get("points") is not None:
            y -= 14 * mm
            c.setFont(font, 14)
            c.drawCentredString(
                w / 2,
                y,
                _("Points: {points}").format(
                    points=format_value(winner["points"], decimal_separator)
                ),
            )
        _footer(c, w, tournament, _, font)
        c.showPage()
    with binary_streams():
        c.save()
    return buf.getvalue()


def _frame(c: Canvas, w: float, h: float) -> None:
    c.saveState()
    c.setStrokeColor(GOLD)
    c.setLineWidth(3)
    c.rect(15 * mm, 15 * mm, w - 30 * mm, h - 30 * mm)
    c.setLineWidth(0.8)
    c.rect(19 * mm, 19 * mm, w - 38 * mm, h - 38 * mm)
    c.restoreState()


def _footer(c: Canvas, w: float, tournament: dict, _, font: str) -> None:
    """Venue and date bottom left, a line to sign bottom right."""
    place_date = ", ".join(p for p in (tournament.get("venue"), tournament.get("date")) if p)
    base = 45 * mm
    left, right = 32 * mm, w - 32 * mm
    sign = 0.38 * (right - left)
    if place_date:
        text, size = fit_text(place_date, font, 12, right - left - sign - 8 * mm)
        c.setFont(font, size)
        c.drawString(left, base, text)
    c.setLineWidth(0.6)
    c.line(right - sign, base - 2 * mm, right, base - 2 * mm)
    c.setFont(font, 10)
    c.drawCentredString(right - sign / 2, base - 7 * mm, _("Tournament director"))
