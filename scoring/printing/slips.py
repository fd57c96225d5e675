"""One player's seat slip as a PDF (a re-issued link or a lost slip): the same
slip as on the table cards' cut-apart page, alone on an A6 page.

Plain data in, PDF bytes out (no Django); labels are English and go through
the optional ``gettext`` callable.
"""

from __future__ import annotations

import io
from collections.abc import Callable

from reportlab.lib.pagesizes import A6
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from scoring.printing.fonts import register_fonts
from scoring.printing.qr import draw_qr
from scoring.printing.sheets import binary_streams, fit_text


def render_seat_slip(
    tournament: dict,
    *,
    round_number: int,
    table_number: int | None,
    seat_number: int | None,
    player_name: str,
    url: str,
    gettext: Callable[[str], str] | None = None,
) -> bytes:
    """An A6 page: tournament, round, table and seat (when seated), the
    player's name and the QR code of the seat link, with the link in print."""
    _ = gettext or (lambda text: text)
    font, bold = register_fonts()
    w, h = A6
    buf = io.BytesIO()
    with binary_streams():
        c = Canvas(buf, pagesize=A6, pageCompression=1)
        c.setTitle(_("Seat slip"))
        cx = w / 2
        text, size = fit_text(tournament.get("name", ""), font, 10, w - 12 * mm)
        c.setFont(font, size)
        c.drawCentredString(cx, h - 10 * mm, text)
        if table_number is not None and seat_number is not None:
            label = _("Round {round} · Table {table} · Seat {seat}").format(
                round=round_number, table=table_number, seat=seat_number
            )
        else:
            label = _("Round {round}").format(round=round_number)
        text, size = fit_text(label, bold, 12, w - 12 * mm)
        c.setFont(bold, size)
        c.drawCentredString(cx, h - 17 * mm, text)
        text, size = fit_text(player_name, bold, 15, w - 12 * mm)
        c.setFont(bold, size)
        c.drawCentredString(cx, h - 25 * mm, text)
        qr = 70 * mm
        draw_qr(c, url, cx - qr / 2, h - 30 * mm - qr, qr)
        c.setFont(font, 8)
        c.drawCentredString(cx, 14 * mm, _("Your seat link: scan to play or report"))
        text, size = fit_text(url, font, 7, w - 10 * mm)
        c.setFont(font, size)
        c.drawCentredString(cx, 8 * mm, text)
        c.showPage()
        c.save()
    return buf.getvalue()
