"""Seat slips: the player's name, table and seat and the QR code of the seat
link. One alone on an A6 page (a re-issued link or a lost slip), or six to
cut apart on the table cards' second page (:func:`draw_slip`).

Plain data in, PDF bytes out (no Django); labels are English and go through
the optional ``gettext`` callable.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from reportlab.lib.pagesizes import A6
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from scoring.printing import fit
from scoring.printing.fonts import register_fonts
from scoring.printing.qr import draw_qr
from scoring.printing.sheets import binary_streams

HINT = 8


def _lines(c, lines, font, size, cx, y) -> float:
    c.setFont(font, size)
    for line in lines:
        c.drawCentredString(cx, y - 0.85 * size, line)
        y -= size * fit.LEADING
    return y


def draw_slip(
    c,
    box: tuple[float, float, float, float],
    *,
    tournament: str,
    label: str,
    name: str,
    url: str,
    qr_max: float,
    gettext: Callable[[str], str] | None = None,
    show_url: bool = False,
) -> None:
    """One slip in ``box`` (x, y, width, height), top down: the tournament,
    ``label`` (round, table, seat), the player's name (wrapped; a name too
    long for three lines ends in "…"), the QR code as large as the rest
    leaves (at most ``qr_max``), a hint and, with ``show_url``, the link."""
    _ = gettext or (lambda text: text)
    font, bold = register_fonts()
    x0, y0, w, h = box
    cx = x0 + w / 2
    room = w - 16 * mm
    y = y0 + h - 6 * mm
    lines, size = fit.fit_lines(tournament, font, 9, room, 2)
    y = _lines(c, lines, font, size, cx, y)
    text, size = fit.fit_text(label, bold, 12, room)
    y = _lines(c, [text], bold, size, cx, y - 1 * mm)
    lines, size = fit.fit_lines(name, bold, 14, room, 3)
    y = _lines(c, lines, bold, size, cx, y - 1 * mm)
    foot = [_("Your seat link: scan to play or report")]
    foot = [line for text in foot for line in fit.wrap(text, font, HINT, room)]
    if show_url:
        foot += fit.wrap(url, font, HINT, w - 10 * mm)
    bottom = y0 + 5 * mm + len(foot) * HINT * fit.LEADING
    qr = min(qr_max, y - 3 * mm - (bottom + 2 * mm), room)
    draw_qr(c, url, cx - qr / 2, y - 3 * mm - qr, qr)
    _lines(c, foot, font, HINT, cx, bottom)


def slip_label(
    _,
    *,
    round_number: int | None,
    table: int | None,
    seat: int | None,
    round_name: str = "",
) -> str:
    """The line a seat slip names its seat with: "Round 3 · Table 2 · Seat 1",
    or with ``round_name`` (a final stage's round, "Final") in place of the
    round's number; without a table and seat only the round."""
    if table is None or seat is None:
        return round_name or _("Round {round}").format(round=round_number)
    if round_name:
        return _("{round} · Table {table} · Seat {seat}").format(
            round=round_name, table=table, seat=seat
        )
    if round_number is None:
        return _("Table {table} · Seat {seat}").format(table=table, seat=seat)
    return _("Round {round} · Table {table} · Seat {seat}").format(
        round=round_number, table=table, seat=seat
    )


def render_seat_slip(
    tournament: dict,
    *,
    round_number: int,
    table_number: int | None,
    seat_number: int | None,
    player_name: str,
    url: str,
    gettext: Callable[[str], str] | None = None,
    round_name: str = "",
) -> bytes:
    """An A6 page: tournament, round, table and seat (when seated), the
    player's name and the QR code of the seat link, with the link in print.
    ``round_name``: a final stage's round is named by it, not its number."""
    _ = gettext or (lambda text: text)
    w, h = A6
    label = slip_label(
        _, round_number=round_number, table=table_number, seat=seat_number, round_name=round_name
    )
    buf = io.BytesIO()
    with binary_streams():
        c = Canvas(buf, pagesize=A6, pageCompression=1)
        c.setTitle(_("Seat slip"))
        draw_slip(
            c,
            (0, 0, w, h),
            tournament=tournament.get("name", ""),
            label=label,
            name=player_name,
            url=url,
            qr_max=70 * mm,
            gettext=_,
            show_url=True,
        )
        c.showPage()
        c.save()
    return buf.getvalue()
