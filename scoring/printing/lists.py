"""Seating lists, table cards, standings and a round's results as PDFs.

Plain data in, PDF bytes out (no Django). Tables are ``{"number": 7,
"players": [{"name": ...}, ...]}`` in seat order (seats print 1..n). Long
lists flow over pages with their header row repeated (platypus ``LongTable``
with ``repeatRows=1``). Every text is DejaVu Sans; labels are English and go
through the optional ``gettext`` callable.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from decimal import Decimal

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Frame,
    LongTable,
    PageTemplate,
    TableStyle,
)

from scoring.printing.fonts import register_fonts
from scoring.printing.qr import draw_qr
from scoring.printing.sheets import _player_name, binary_streams, fit_text
from tournaments.collation import name_key

Gettext = Callable[[str], str] | None


def _identity(text: str) -> str:
    return text


# alphabetical as on every page: "Şahin" next to "Sahin", case ignored
sort_key = name_key


def format_value(value, decimal_separator: str = ".") -> str:
    """A number as the reader writes it, with the reader's decimal separator
    ("6,5" in German, "6.5" in English: the caller knows the language);
    integers as they are."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return str(value)
    if isinstance(value, float):
        text = f"{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else str(int(value))
    elif isinstance(value, Decimal):
        text = format(value.normalize(), "f") if value != value.to_integral() else str(int(value))
    else:
        return str(value)
    return text.replace(".", decimal_separator)


def _doc(buf, title, subtitle, columns=1, landscape=False):
    font, bold = register_fonts()
    pagesize = (A4[1], A4[0]) if landscape else A4
    w, h = pagesize
    margin = 15 * mm
    gap = 8 * mm
    fw = (w - 2 * margin - gap * (columns - 1)) / columns
    frames = [
        Frame(margin + i * (fw + gap), margin, fw, h - 2 * margin - 14 * mm, id=f"c{i}")
        for i in range(columns)
    ]

    def on_page(canvas, doc):
        canvas.saveState()
        canvas.setFont(bold, 13)
        canvas.drawString(margin, h - margin - 4 * mm, title)
        canvas.setFont(font, 9)
        canvas.drawString(margin, h - margin - 9 * mm, subtitle)
        canvas.drawRightString(w - margin, margin - 6 * mm, str(doc.page))
        canvas.restoreState()

    doc = BaseDocTemplate(buf, pagesize=pagesize, title=title, author=subtitle)
    doc.addPageTemplates([PageTemplate(id="list", frames=frames, onPage=on_page)])
    return doc, fw


def _table(rows, widths, *, font_size=9, group_starts=(), align_right=()):
    font, bold = register_fonts()
    style = [
        ("FONT", (0, 0), (-1, -1), font, font_size),
        ("FONT", (0, 0), (-1, 0), bold, font_size),
        ("LINEBELOW", (0, 0), (-1, 0), 0.8, colors.black),
        ("BACKGROUND", (0, 0), (-1, 0), colors.Color(0.9, 0.9, 0.9)),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
    ]
    for col in align_right:
        style.append(("ALIGN", (col, 0), (col, -1), "RIGHT"))
    for r in group_starts:
        if r > 1:
            style.append(("LINEABOVE", (0, r), (-1, r), 0.5, colors.grey))
    return LongTable(rows, colWidths=widths, repeatRows=1, style=TableStyle(style))


def _build(doc, story) -> bytes:
    with binary_streams():
        doc.build(story)
    return doc.filename.getvalue()


def _subtitle(tournament, round_no, _):
    parts = [tournament.get("name", "")]
    if round_no is not None:
        parts.append(_("Round {round}").format(round=round_no))
    return " · ".join(p for p in parts if p)


def render_seating_by_table(
    tournament: dict, round_no: int, tables: list[dict], *, gettext: Gettext = None
) -> bytes:
    """Every table with its players in seat order."""
    _ = gettext or _identity
    buf = io.BytesIO()
    doc, fw = _doc(buf, _("Seating by table"), _subtitle(tournament, round_no, _), columns=2)
    rows = [[_("Table"), _("Seat"), _("Player")]]
    starts = []
    for table in sorted(tables, key=lambda t: t["number"]):
        starts.append(len(rows))
        seats = [(p.get("seat", k), _player_name(p)) for k, p in enumerate(table["players"], 1)]
        seats += [(seat, _("Bot")) for seat in table.get("bot_seats", ())]  # empty seats
        for k, (seat, name) in enumerate(sorted(seats, key=lambda s: s[0])):
            rows.append([str(table["number"]) if k == 0 else "", str(seat), name])
    return _build(doc, [_table(rows, [14 * mm, 11 * mm, fw - 25 * mm], group_starts=starts)])


def render_seating_by_name(
    tournament: dict, round_no: int, tables: list[dict], *, gettext: Gettext = None
) -> bytes:
    """Every player alphabetically with table and seat ("find your table")."""
    _ = gettext or _identity
    buf = io.BytesIO()
    doc, fw = _doc(buf, _("Seating by name"), _subtitle(tournament, round_no, _), columns=2)
    entries = [
        (_player_name(p), t["number"], p.get("seat", seat))
        for t in tables
        for seat, p in enumerate(t["players"], 1)
    ]
    entries.sort(key=lambda e: (sort_key(e[0]), e[1]))
    rows = [[_("Player"), _("Table"), _("Seat")]]
    rows += [[name, str(number), str(seat)] for name, number, seat in entries]
    return _build(
        doc,
        [_table(rows, [fw - 25 * mm, 14 * mm, 11 * mm], font_size=10, align_right=(1, 2))],
    )


def render_table_cards(
    tournament: dict, tables: list[dict] | list[int], *, gettext: Gettext = None
) -> bytes:
    """One A4 page per table, folded across the middle into a tent card: the
    big table number reads upright on both sides. A table whose players carry
    a ``"url"`` (their seat link: digital tables, self-report) gets a second
    page with one QR code slip per seat, the player's name on it."""
    _ = gettext or _identity
    font, bold = register_fonts()
    numbers = sorted(t["number"] if isinstance(t, dict) else int(t) for t in tables)
    seat_slips = {
        t["number"]: t["players"]
        for t in tables
        if isinstance(t, dict) and any(isinstance(p, dict) and p.get("url") for p in t["players"])
    }
    w, h = A4
    buf = io.BytesIO()
    with binary_streams():
        c = Canvas(buf, pagesize=A4, pageCompression=1)
        c.setTitle(_("Table cards"))
        name = tournament.get("name", "")
        for number in numbers:
            for rotate in (False, True):
                c.saveState()
                if rotate:  # the upper half, seen from the other side of the table
                    c.translate(w, h)
                    c.rotate(180)
                c.setFont(font, 14)
                text, size = fit_text(name, font, 14, w - 40 * mm)
                c.setFont(font, size)
                c.drawCentredString(w / 2, h / 2 - 25 * mm, text)
                c.setFont(bold, 30)
                c.drawCentredString(w / 2, h / 2 - 45 * mm, _("Table"))
                label = str(number)
                size = min(200, (w - 30 * mm) / max(1, len(label)) * 1.6)
                c.setFont(bold, size)
                c.drawCentredString(w / 2, h / 2 - 45 * mm - size * 0.8 - 5 * mm, label)
                c.restoreState()
            c.setDash(3, 3)
            c.setLineWidth(0.3)
            c.line(10 * mm, h / 2, w - 10 * mm, h / 2)  # fold here
            c.setDash()
            c.showPage()
            if number in seat_slips:
                _draw_seat_slips(c, name, number, seat_slips[number], _)
                c.showPage()
        c.save()
    return buf.getvalue()


def _draw_seat_slips(c, tournament_name: str, number: int, players: list, _) -> None:
    """Up to six slips (two columns, three rows) to cut apart: per seat the
    player's name and the QR code of his seat link."""
    font, bold = register_fonts()
    w, h = A4
    cols, rows = 2, 3
    sw, sh = w / cols, h / rows
    qr = 50 * mm
    c.setDash(3, 3)
    c.setLineWidth(0.3)
    for col in range(1, cols):
        c.line(col * sw, 8 * mm, col * sw, h - 8 * mm)
    for row in range(1, rows):
        c.line(8 * mm, row * sh, w - 8 * mm, row * sh)
    c.setDash()
    for seat, player in enumerate(players[: cols * rows]):
        url = player.get("url") if isinstance(player, dict) else None
        if not url:
            continue
        col, row = seat % cols, seat // cols
        x0, top = col * sw, h - row * sh
        cx = x0 + sw / 2
        c.setFont(font, 8)
        text, size = fit_text(tournament_name, font, 8, sw - 16 * mm)
        c.setFont(font, size)
        c.drawCentredString(cx, top - 9 * mm, text)
        c.setFont(bold, 12)
        label = _("Table {table} · Seat {seat}").format(
            table=number, seat=player.get("seat", seat + 1)
        )
        c.drawCentredString(cx, top - 15 * mm, label)
        text, size = fit_text(_player_name(player), bold, 14, sw - 16 * mm)
        c.setFont(bold, size)
        c.drawCentredString(cx, top - 22 * mm, text)
        draw_qr(c, url, cx - qr / 2, top - 29 * mm - qr, qr)
        c.setFont(font, 8)
        c.drawCentredString(cx, top - sh + 6 * mm, _("Your seat link: scan to play or report"))


def render_standings(
    tournament: dict,
    rows: list[dict],
    *,
    columns: list[tuple[str, str]] | None = None,
    round_no: int | None = None,
    gettext: Gettext = None,
    decimal_separator: str = ".",
    final: bool = False,
) -> bytes:
    """The standings as a long table; ``columns`` are ``(key, header)`` pairs
    (default rank, name, points); values are read from each row by key. The
    names (``name``, ``club``) share the width left by the numbers.
    ``final``: the tournament's final standings; the subtitle then also
    carries ``tournament["date"]`` and ``["venue"]`` when given."""
    _ = gettext or _identity
    columns = columns or [("rank", _("Place")), ("name", _("Player")), ("points", _("Points"))]
    buf = io.BytesIO()
    if final:
        title = _("Final standings")
        if round_no is not None:
            title = _("Final standings after round {round}").format(round=round_no)
    elif round_no is not None:
        title = _("Standings after round {round}").format(round=round_no)
    else:
        title = _("Standings")
    subtitle = " · ".join(p for p in (tournament.get(k) for k in ("name", "date", "venue")) if p)
    doc, fw = _doc(buf, title, subtitle, landscape=len(columns) > 7)
    data = [[_(header) for _key, header in columns]]
    for row in rows:
        data.append([format_value(row.get(key), decimal_separator) for key, _header in columns])
    narrow = 18 * mm
    name_cols = [i for i, (key, _h) in enumerate(columns) if key in ("name", "club")]
    rest = fw - narrow * (len(columns) - len(name_cols))
    share = {"name": 3, "club": 2}
    total = sum(share[columns[i][0]] for i in name_cols)
    widths = [
        (rest * share[columns[i][0]] / total if i in name_cols else narrow)
        for i in range(len(columns))
    ]
    right = [i for i in range(len(columns)) if i not in name_cols]
    return _build(doc, [_table(data, widths, align_right=right)])


def render_round_results(
    tournament: dict,
    round_no: int,
    tables: list[dict],
    *,
    figure_label: str = "figure",
    gettext: Gettext = None,
    decimal_separator: str = ".",
) -> bytes:
    """A round's results: per table its players in seat order with rank, the
    game's figure and tournament points. A player dict may carry ``rank``,
    ``figure`` and ``points``; a table without a result prints "no result"."""
    _ = gettext or _identity

    def num(value) -> str:
        return format_value(value, decimal_separator)

    buf = io.BytesIO()
    doc, fw = _doc(
        buf, _("Results of round {round}").format(round=round_no), tournament.get("name", "")
    )
    rows = [[_("Table"), _("Seat"), _("Player"), _("Rank"), _(figure_label), _("Points")]]
    starts = []
    for table in sorted(tables, key=lambda t: t["number"]):
        starts.append(len(rows))
        has = any(isinstance(p, dict) and p.get("rank") is not None for p in table["players"])
        for seat, p in enumerate(table["players"], 1):
            p = p if isinstance(p, dict) else {"name": p}
            rows.append(
                [
                    str(table["number"]) if seat == 1 else "",
                    str(seat),
                    p.get("name", ""),
                    num(p.get("rank")) if has else (_("no result") if seat == 1 else ""),
                    num(p.get("figure")),
                    num(p.get("points")),
                ]
            )
    widths = [14 * mm, 11 * mm, fw - 95 * mm, 20 * mm, 25 * mm, 25 * mm]
    return _build(doc, [_table(rows, widths, group_starts=starts, align_right=(3, 4, 5))])
