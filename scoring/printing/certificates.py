"""Certificates (Urkunden) for the top places: one A4 page per player.

Plain data in, PDF bytes out (no Django). ``tournament`` is ``{"name",
"game", "date", "venue"}`` with the date already written for people ("23.
November 2026"); ``winners`` are ``{"place", "name", "club", "points"}``, best
first; a winner whose place the final decided carries ``"honour"`` ("Winner
of the final", "Final, place 2") in place of the points. Every text is DejaVu Sans, so "Şahin" and "Łukasz" print; labels are
English and go through the optional ``gettext``.

A long tournament name, player name or club wraps (and shrinks) instead of
being cut; only what would not fit even in three lines of the smallest size
ends in "…". The page says after which round the standings it honours are.
"""

from __future__ import annotations

import io

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from scoring.printing import fit
from scoring.printing.fonts import register_fonts
from scoring.printing.lists import Gettext, Ngettext, _identity, format_value, standings_title
from scoring.printing.sheets import binary_streams

GOLD = colors.Color(0.62, 0.48, 0.14)
#: the footer's top: venue and date above the signature line
FOOT = 45 * mm


def render_certificates(
    tournament: dict,
    winners: list[dict],
    *,
    gettext: Gettext = None,
    ngettext: Ngettext = None,
    counts: dict | None = None,
    decimal_separator: str = ".",
) -> bytes:
    """One certificate per entry of ``winners``; ``counts`` (see
    :func:`scoring.printing.lists.standings_title`) puts "Final standings
    after round 4 of 4" under the game."""
    _ = gettext or _identity
    font, bold = register_fonts()
    buf = io.BytesIO()
    w, h = A4
    c = Canvas(buf, pagesize=A4, pageCompression=1)
    c.setTitle(_("Certificates"))
    c.setAuthor(tournament.get("name", ""))
    inner = w - 60 * mm
    title = fit.fit_lines(tournament.get("name", ""), bold, 22, inner, 5, min_size=11)
    game = fit.fit_lines(tournament.get("game", ""), font, 13, inner, 1, min_size=10)
    after = standings_title(counts, final=True, gettext=_, ngettext=ngettext) if counts else ""
    after = fit.fit_lines(after, font, 11, inner, 2, min_size=9)
    foot_lines, foot_size = _footer_lines(w, tournament, font)
    for winner in winners:
        _frame(c, w, h)
        name = fit.fit_lines(winner["name"], bold, 34, inner, 5, min_size=14)
        club = fit.fit_lines(winner.get("club") or "", font, 16, inner, 3, min_size=10)
        place = fit.fit_lines(_("Place {place}").format(place=winner["place"]), bold, 30, inner, 1)
        points = ""
        if winner.get("honour"):  # the final decided the place: "Winner of the final"
            points = winner["honour"]
        elif winner.get("points") is not None:
            points = _("Points: {points}").format(
                points=format_value(winner["points"], decimal_separator)
            )
        points = fit.fit_lines(points, font, 14, inner, 2, min_size=10)
        # blocks top down: (lines, size), font, colour, the gap above it (weight)
        blocks = [
            (fit.fit_lines(_("Certificate"), bold, 40, inner, 1), bold, GOLD, 0),
            (title, bold, colors.black, 3),
            (game, font, colors.black, 1),
            (after, font, colors.black, 0.5),
            (place, bold, colors.black, 4),
            (name, bold, colors.black, 3),
            (club, font, colors.black, 1),
            (points, font, colors.black, 1.5),
        ]
        blocks = [b for b in blocks if b[0][0] != [""]]
        top = h - 40 * mm
        bottom = FOOT + len(foot_lines) * foot_size * fit.LEADING + 12 * mm
        height = sum(len(lines) * size * fit.LEADING for (lines, size), *_r in blocks)
        weights = sum(b[3] for b in blocks)
        unit = min(7 * mm, max(0, (top - bottom - height) / weights)) if weights else 0
        y = top
        for (lines, size), face, colour, gap in blocks:
            y -= gap * unit
            c.setFillColor(colour)
            c.setFont(face, size)
            for line in lines:
                c.drawCentredString(w / 2, y - 0.85 * size, line)
                y -= size * fit.LEADING
        c.setFillColor(colors.black)
        _footer(c, w, foot_lines, foot_size, _, font)
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


def _footer_room(w: float) -> tuple[float, float, float]:
    left, right = 32 * mm, w - 32 * mm
    sign = 0.38 * (right - left)
    return left, right, sign


def _footer_lines(w: float, tournament: dict, font: str) -> tuple[list[str], float]:
    """Venue and date, wrapped into the room left of the signature line; the
    date on a line of its own when the venue takes more than one."""
    left, right, sign = _footer_room(w)
    room = right - left - sign - 8 * mm
    venue, date = tournament.get("venue") or "", tournament.get("date") or ""
    both = ", ".join(p for p in (venue, date) if p)
    if not both:
        return [], 12
    lines, size = fit.fit_lines(both, font, 12, room, 1, min_size=10)
    if not lines[-1].endswith(fit.ELLIPSIS):
        return lines, size
    lines, size = fit.fit_lines(venue, font, 10, room, 4)
    return ([*lines, date] if date else lines), size


def _footer(c: Canvas, w: float, lines: list[str], size: float, _, font: str) -> None:
    """Venue and date bottom left (from the signature line upwards), a line
    to sign bottom right."""
    left, right, sign = _footer_room(w)
    c.setFont(font, size)
    y = FOOT + len(lines) * size * fit.LEADING
    for line in lines:
        c.drawString(left, y - 0.85 * size, line)
        y -= size * fit.LEADING
    c.setLineWidth(0.6)
    c.line(right - sign, FOOT - 2 * mm, right, FOOT - 2 * mm)
    c.setFont(font, 10)
    label, size = fit.fit_text(_("Tournament director"), font, 10, sign)
    c.setFont(font, size)
    c.drawCentredString(right - sign / 2, FOOT - 7 * mm, label)
