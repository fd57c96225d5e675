"""Score sheets: one A5 sheet per table, two per A4 page.

``render_score_sheets(tournament, round_no, tables, engine_id=..., options=...,
base_url_for_table=...)`` returns the PDF as bytes. Plain data in, bytes out
(no Django): ``tournament`` is ``{"name": ...}``; each table is ``{"number":
7, "players": [{"name": ...}, ...]}`` with the players in seat order (a player
may also be a plain name string); ``base_url_for_table`` is a callable
``table -> url`` or a list of urls in the order of ``tables``.

Cut-stack order: with N tables and P = ceil(N/2) A4 pages, page k (1-based)
holds table k on its top half and table k + P on its bottom half. Cut the
printed stack across the middle, put the bottom halves under the top halves,
and the A5 sheets run 1, 2, ..., N. ``two_up_order(N)`` gives those pairs.

What a sheet shows: tournament, round, table number, game; the players in
seat order with the direction of play; the game's ``sheet_schema`` fields
(per-seat fields as a grid rows = seats x columns = fields, per-hand/group
fields as a grid groups x (group fields, then seats), other fields as
labelled boxes), help notes, the game's time-called instructions, the QR code
of the table's signed entry link and a signature column.

Speed: everything that is the same on every sheet of a round with the same
table size (grid, labels, notes, instructions) is drawn once into a PDF form
XObject and placed on each sheet; per sheet only the table number, the names
and the QR code are drawn.

Machine-readable sheets (``machine_readable=True``, the default): one A4 page
per table, in table order. The same content, and every field of the schema
as marks a scanner or a phone camera can read (:mod:`scoring.printing.marks`
lays them out; the reader in :mod:`scoring.scans` reads them): an integer as
one bubble column per digit under a write-in box per digit, a yes/no as a
box, a seat or a choice as one bubble per option; four corner markers; a
"how to mark" line; and beside the QR code a small Data Matrix code naming
the tournament (``tournament["id"]``), round, table and the layout (drawn
when the tournament has an id). ``sheet_layouts(...)`` gives the layout of
each sheet as JSON data (``--layout-json``). ``machine_readable=False``
prints today's compact A5 sheets, two per page.
"""

from __future__ import annotations

import contextlib
import io
import math
from collections.abc import Callable

from reportlab import rl_config
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen.canvas import Canvas

from games import get_engine
from games.sheets import display
from scoring.printing import fit, marks
from scoring.printing.fonts import register_fonts
from scoring.printing.qr import dark_runs, draw_qr

PAGE_W, PAGE_H = A4  # portrait; each sheet is the landscape A5 half
SHEET_W, SHEET_H = PAGE_W, PAGE_H / 2
MARGIN = 22
QR_SIZE = 72
ROW_H = 21  # two lines of 8 pt: a long name wraps
#: the smallest text on a sheet (read at arm's length, in poor light)
SMALL = fit.MIN_SIZE
CELL_PAD = 3
#: the lowest a sheet's text may reach: 5 mm above the paper's (and the cut's) edge
BOTTOM = 5 * 72 / 25.4


def _mark(text: str) -> str:
    """Mark a string for translation (makemessages); the caller's gettext translates."""
    return text


DIRECTIONS = {
    "left": (_mark("Play passes to the left (clockwise)"), "↻"),
    "right": (_mark("Play passes to the right (counter-clockwise)"), "↺"),
}


def _identity(text: str) -> str:
    return text


@contextlib.contextmanager
def binary_streams():
    """Write PDF streams zlib-compressed without ASCII85: ReportLab's
    pure-Python ASCII85 encoder otherwise costs more than drawing the pages."""
    old = rl_config.useA85
    rl_config.useA85 = 0
    try:
        yield
    finally:
        rl_config.useA85 = old


def two_up_order(n: int) -> list[tuple[int, int | None]]:
    """Indices (top, bottom) of the tables on each A4 page: page k holds k and
    k + ceil(n/2), so a stack cut in half stays in table order."""
    pages = math.ceil(n / 2)
    return [(k, k + pages if k + pages < n else None) for k in range(pages)]


def _player_name(p) -> str:
    return p if isinstance(p, str) else str(p.get("name", ""))


class _Layout:
    """The static part of the sheets for one table size, and where the
    per-table parts go."""

    def __init__(self, schema, players, engine, gettext, fonts, tournament, round_no, direction):
        self.players = players
        self.font, self.bold = fonts
        _ = gettext
        self._ = _
        self.engine = engine
        self.tournament = tournament
        self.round_no = round_no
        self.direction = direction
        self.seat_cols = []  # [label, kind, note] in order
        self.groups = []  # group names in order
        self.group_cols = []  # ("field", label, kind, note) | ("seat", label, kind, note)
        self.boxes = []  # non-seat, non-group fields
        self.notes = []  # (marker, text)
        self.legends = []  # (label, choices)
        seen_seat, seen_group = {}, {}
        for f in schema:
            label = _(f["label"])
            note = self._note(label, f)
            if f.get("group") is None and f.get("seat") is not None:
                if label not in seen_seat:
                    seen_seat[label] = len(self.seat_cols)
                    self.seat_cols.append((label, f["kind"], note))
            elif f.get("group") is not None:
                if f["group"] not in self.groups:
                    self.groups.append(f["group"])
                key = ("seat" if f.get("seat") is not None else "field", label)
                if key not in seen_group:
                    seen_group[key] = len(self.group_cols)
                    self.group_cols.append((key[0], label, f["kind"], note))
            else:
                self.boxes.append((label, f["kind"], note))
            if f["kind"] == "choice" and f.get("choices") and label not in dict(self.legends):
                self.legends.append((label, [_(str(c[1])) for c in f["choices"]]))

    def _note(self, label, f) -> str:
        help_text = f.get("help") or ""
        if not help_text:
            return ""
        help_text = display(help_text, f.get("params"), self._)
        for marker, text in self.notes:
            if text == f"{label}: {help_text}":
                return marker
        marker = str(len(self.notes) + 1)
        self.notes.append((marker, f"{label}: {help_text}"))
        return marker

    # -- drawing ------------------------------------------------------------
    def _cell_box(self, c, kind, x, y, w, h):
        if kind == "bool":
            s = 8
            c.rect(x + (w - s) / 2, y + (h - s) / 2, s, s, stroke=1, fill=0)

    def _header_lines(self, text, note, w) -> list[str]:
        return fit.wrap(text + (f" ({note})" if note else ""), self.font, SMALL, w - 2 * CELL_PAD)

    def _header(self, c, x, y, w, h, text, note=""):
        """A grid header centred in its cell; lines beyond the cell's height
        end in "…" (the columns are measured so that none do)."""
        room = max(1, int((h - 2) // (SMALL * fit.LEADING)))
        lines = self._header_lines(text, note, w)
        if len(lines) > room:
            lines, _size = fit.fit_lines(
                " ".join(lines), self.font, SMALL, w - 2 * CELL_PAD, room, SMALL
            )
        c.setFont(self.font, SMALL)
        step = SMALL * fit.LEADING
        first = y + h / 2 + (len(lines) * step) / 2 - 0.85 * SMALL - (step - SMALL) / 2
        for i, line in enumerate(lines):
            c.drawCentredString(x + w / 2, first - i * step, line)

    def _seat_widths(self, total):
        """Widths of the seat grid's columns: seat, player, the game's fields,
        signature. A field's column is at least as wide as its header's
        longest word and room for a handwritten number."""
        _ = self._
        f, b = self.font, self.bold
        seat_w = max(fit.width(_("Seat"), f, SMALL), fit.width(str(self.players), b, 10)) + 8
        need = [
            max(fit.longest_piece(label + (f" ({note})" if note else ""), f, SMALL), 28)
            + 2 * CELL_PAD
            for label, _kind, note in self.seat_cols
        ]
        sig_min = fit.longest_piece(_("Signature"), f, SMALL) + 2 * CELL_PAD
        rest = total - seat_w
        share = (rest - 150 - 80) / len(need) if need else 0
        cols = [max(n, min(95, share)) for n in need]
        left = rest - sum(cols)
        sig = max(sig_min, min(80, left - 150))
        player = left - sig
        if player < 110:  # the fields are wide (German): the signature gives way first
            sig = max(sig_min, left - 110)
            player = left - sig
        return [seat_w, player, *cols, sig]

    def draw_static(self, c):
        c.setLineWidth(0.6)
        top = SHEET_H - MARGIN
        left, right = MARGIN, SHEET_W - MARGIN
        self._draw_head(c, left, right, top)
        y = self._draw_seat_grid(c, left, right, top - QR_SIZE - 9)
        # the per-group grid
        if self.groups:
            y = self._draw_groups(c, left, right, y)
        if self.boxes:
            y = self._draw_boxes(c, left, right, y)
        y = self._draw_legends_and_notes(c, left, right, y)
        self.bottom = self._draw_closing(c, left, right, y)
        if self.bottom < BOTTOM:
            raise ValueError(
                f"score sheet for {self.players} players does not fit on A5 ({self.bottom:.0f})"
            )

    def _draw_head(self, c, left, right, top):
        """The tournament's name, the game, the direction of play and the
        caption of the code."""
        _ = self._
        f, b = self.font, self.bold
        n = self.players
        head_room = right - left - QR_SIZE - 12
        name = self.tournament.get("name", "")
        lines, size = fit.fit_lines(name, b, 11, head_room, 1, min_size=9)
        if lines[-1].endswith(fit.ELLIPSIS):  # a long name: two lines of the smallest text
            lines, size = fit.fit_lines(name, b, SMALL, head_room, 2, SMALL)
        c.setFont(b, size)
        for i, line in enumerate(lines):
            c.drawString(left, top - 0.85 * size - i * size * fit.LEADING, line)
        c.setFont(f, 9)
        game, size = fit.fit_text(
            _("Game: {game}").format(game=_(self.engine.name)), f, 9, head_room
        )
        c.setFont(f, size)
        c.drawString(left, top - 46, game)
        text, arrow = DIRECTIONS.get(self.direction, DIRECTIONS["left"])
        order = " → ".join(str(i + 1) for i in range(n)) + " → 1"
        direction, size = fit.fit_text(
            f"{arrow} {_(text)}: " + _("seat {order}").format(order=order), f, SMALL, head_room
        )
        c.setFont(f, size)
        c.drawString(left, top - 59, direction)
        scan, size = fit.fit_text(_("Scan to enter the result"), f, SMALL, 200)
        c.setFont(f, size)
        c.drawRightString(right, top - QR_SIZE + 4 - 1 - 0.8 * size, scan)

    def _draw_seat_grid(self, c, left, right, y):
        """The per-seat grid from ``y`` down (its columns and rows kept for
        the names and marks drawn later); the height below it."""
        _ = self._
        b = self.bold
        n = self.players
        self.seat_top = y
        widths = self._seat_widths(right - left)
        heads = [(_("Seat"), ""), (_("Player"), "")]
        heads += [(label, note) for label, _kind, note in self.seat_cols]
        heads.append((_("Signature"), ""))
        lines = max(
            len(self._header_lines(t, nt, w)) for (t, nt), w in zip(heads, widths, strict=True)
        )
        head_h = self.head_h = max(16, lines * SMALL * fit.LEADING + 5)
        x = left
        self.col_x = []
        for (label, note), w in zip(heads, widths, strict=True):
            self.col_x.append(x)
            self._header(c, x, y - head_h, w, head_h, label, note)
            x += w
        self.widths = widths
        rh = self.row_h = 14 if (self.groups and n >= 5) else ROW_H
        grid_bottom = y - head_h - n * rh
        self._grid(c, left, y, widths, [head_h] + [rh] * n)
        for r in range(n):
            ry = y - head_h - (r + 1) * rh
            c.setFont(b, 10)
            c.drawCentredString(left + widths[0] / 2, ry + rh / 2 - 3.5, str(r + 1))
            for i, (_label, kind, _note) in enumerate(self.seat_cols):
                self._cell_box(c, kind, self.col_x[2 + i], ry, widths[2 + i], rh)
        self.name_x, self.name_w = self.col_x[1] + CELL_PAD, widths[1] - 2 * CELL_PAD
        return grid_bottom - 6

    def _draw_boxes(self, c, left, right, y):
        """The labelled boxes of the whole table, in lines; the height below."""
        f = self.font
        c.setFont(f, SMALL)
        x = left
        for label, kind, note in self.boxes:
            bw = 10 if kind == "bool" else 40
            text, _size = fit.fit_text(
                label + (f" ({note})" if note else ""), f, SMALL, right - left - bw - 4
            )
            tw = fit.width(text, f, SMALL)
            if x + tw + bw + 6 > right and x > left:
                x = left
                y -= 16
            c.drawString(x + (bw + 4 if kind == "bool" else 0), y - 9, text)
            if kind == "bool":
                c.rect(x, y - 11, 9, 9)
                x += bw + 4 + tw + 16
            else:
                c.rect(x + tw + 4, y - 13, bw, 13)
                x += tw + 4 + bw + 16
        return y - 20

    def _draw_legends_and_notes(self, c, left, right, y):
        """The legends of the game's choices and the notes; the height below."""
        f = self.font
        step = SMALL * fit.LEADING
        c.setFont(f, SMALL)
        lines = []
        for label, choices in self.legends:
            lines += fit.wrap(f"{label}: " + " · ".join(choices), f, SMALL, right - left)
        for marker, text in self.notes:
            lines += fit.wrap(f"({marker}) {text}", f, SMALL, right - left)
        for line in lines:
            c.drawString(left, y - 0.85 * SMALL, line)
            y -= step
        return y

    def _draw_closing(self, c, left, right, y):
        """What happens when time is called (the bold heading runs in before
        the text) and who signs; the height below."""
        _ = self._
        f, b = self.font, self.bold
        step = SMALL * fit.LEADING
        y -= 2
        heading = _("When time is called:")
        indent = fit.width(heading + " ", b, SMALL)
        c.setFont(b, SMALL)
        c.drawString(left, y - 0.85 * SMALL, heading)
        c.setFont(f, SMALL)
        text = fit.wrap(
            _(self.engine.time_called_text), f, SMALL, right - left, first=right - left - indent
        )
        for k, line in enumerate(text):
            c.drawString(left + (indent if k == 0 else 0), y - 0.85 * SMALL, line)
            y -= step
        sign = _("Everyone at the table signs; the scorekeeper enters the sheet or scans the code.")
        for line in fit.wrap(sign, f, SMALL, right - left):
            c.drawString(left, y - 0.85 * SMALL, line)
            y -= step
        return y

    def _grid(self, c, x, y, widths, heights, short=frozenset(), short_by=0):
        """Lines of a grid; the verticals after the columns in ``short`` start
        ``short_by`` lower (under a spanning header)."""
        total_w, total_h = sum(widths), sum(heights)
        p = c.beginPath()
        yy = y
        for h in [0, *heights]:
            yy -= h
            p.moveTo(x, yy)
            p.lineTo(x + total_w, yy)
        xx = x
        for i, w in enumerate([0, *widths]):
            xx += w
            p.moveTo(xx, y - (short_by if i in short else 0))
            p.lineTo(xx, y - total_h)
        c.drawPath(p, stroke=1, fill=0)

    def _draw_groups(self, c, left, right, y):
        _ = self._
        f = self.font
        n = self.players
        field_cols = [gc for gc in self.group_cols if gc[0] == "field"]
        seat_cols = [gc for gc in self.group_cols if gc[0] == "seat"]
        names = [display(group, None, _) for group in self.groups]
        label_w = max(42, fit.widest(names, f, SMALL) + 2 * CELL_PAD)
        least = {"bool": 40, "seat": 40, "int": 48, "choice": 80, "seats": 60}
        widths = [label_w] + [
            max(
                least.get(k, 50),
                fit.longest_piece(label + (f" ({note})" if note else ""), f, SMALL) + 2 * CELL_PAD,
            )
            for _t, label, k, note in field_cols
        ]
        for i, (_t, label, _k, note) in enumerate(field_cols, start=1):
            # a little wider where that saves the header a third line
            while (
                len(self._header_lines(label, note, widths[i])) > 2
                and widths[i] < 100
                and right - left - sum(widths) - 4 >= 30 * n * len(seat_cols)
            ):
                widths[i] += 4
        rest = right - left - sum(widths)
        per = rest / max(1, n * len(seat_cols))
        widths += [per] * (n * len(seat_cols))
        sub = SMALL * fit.LEADING + 2  # the seats' row under a spanning header
        field_lines = max(
            (
                len(self._header_lines(label, note, w))
                for (_t, label, _k, note), w in zip(field_cols, widths[1:], strict=False)
            ),
            default=1,
        )
        span_lines = max(
            (len(self._header_lines(label, note, per * n)) for _t, label, _k, note in seat_cols),
            default=0,
        )
        span_h = span_lines * SMALL * fit.LEADING + 2
        head_h = max(24, field_lines * SMALL * fit.LEADING + 5, (span_h + sub) if seat_cols else 0)
        rows = len(self.groups)
        row_h = ROW_H if rows <= 5 else 14
        first = 1 + len(field_cols)
        short = {
            first + k * n + s for k in range(len(seat_cols)) for s in range(1, n)
        }  # vertical after column index i (1-based count of columns)
        self._grid(c, left, y, widths, [head_h] + [row_h] * rows, short, head_h - sub)
        x = left + label_w
        for (_t, label, _k, note), w in zip(field_cols, widths[1:], strict=False):
            self._header(c, x, y - head_h, w, head_h, label, note)
            x += w
        self.group_seat_x = []
        for _t, label, _k, note in seat_cols:
            self._header(c, x, y - (head_h - sub), per * n, head_h - sub, label, note)
            c.setFont(f, SMALL)
            for s in range(n):
                self.group_seat_x.append(x + s * per)
                seat, _size = fit.fit_text(
                    _("Seat {n}").format(n=s + 1), f, SMALL, per - 2 * CELL_PAD
                )
                c.drawCentredString(x + s * per + per / 2, y - head_h + 4, seat)
            c.line(x, y - (head_h - sub), x + per * n, y - (head_h - sub))
            x += per * n
        c.setFont(f, SMALL)
        for r, name in enumerate(names):
            ry = y - head_h - (r + 1) * row_h
            c.drawString(left + CELL_PAD, ry + (row_h - SMALL) / 2 + 0.2 * SMALL, name)
            x = left + label_w
            for (_t, _l, kind, _n), w in zip(field_cols, widths[1:], strict=False):
                self._cell_box(c, kind, x, ry, w, row_h)
                x += w
            for _t, _l, kind, _n in seat_cols:
                for _s in range(n):
                    self._cell_box(c, kind, x, ry, per, row_h)
                    x += per
        return y - head_h - rows * row_h - 6

    def draw_table(self, c, table, url):
        _ = self._
        top = SHEET_H - MARGIN
        c.setFont(self.bold, 18)
        # a final stage's round is named by its stage ("Final"), not its number
        round_name = self.tournament.get("round_name")
        if round_name:
            heading = _("{round} · Table {table}").format(round=round_name, table=table["number"])
        else:
            heading = _("Round {round} · Table {table}").format(
                round=self.round_no, table=table["number"]
            )
        title, size = fit.fit_text(
            heading,
            self.bold,
            18,
            SHEET_W - 2 * MARGIN - QR_SIZE - 12,
        )
        c.setFont(self.bold, size)
        c.drawString(MARGIN, top - 32, title)
        names = [_player_name(p) for p in table["players"]]
        twice = {name for name in names if names.count(name) > 1}
        for r, p in enumerate(table["players"]):
            name = names[r]
            if name in twice and isinstance(p, dict) and p.get("club"):
                name = f"{name} ({p['club']})"  # two of the same name at one table
            lines, size = fit.fit_box(name, self.font, 9.5, self.name_w, self.row_h - 1, SMALL)
            c.setFont(self.font, size)
            ry = self.seat_top - self.head_h - (r + 1) * self.row_h
            step = size * fit.LEADING
            first = ry + self.row_h / 2 + (len(lines) - 1) * step / 2 - 0.3 * size
            for i, line in enumerate(lines):
                c.drawString(self.name_x, first - i * step, line)
        if url:
            draw_qr(c, url, SHEET_W - MARGIN - QR_SIZE, SHEET_H - MARGIN - QR_SIZE + 4, QR_SIZE)


# -- the machine-readable A4 sheet ---------------------------------------------------

SCAN_CAPTION = _mark("Scan to enter the result")
NOTE_KEYS = "abcdefghijklmnopqrstuvwxyz"


def draw_matrix(c, matrix, x: float, y: float, size: float) -> None:
    """Dark modules of a code (rows of booleans, top row first) with the
    code's lower left corner at (x, y), ``size`` points wide."""
    unit = size / len(matrix[0])
    ops = [f"q 0 g {unit:.4f} 0 0 {-unit:.4f} {x:.3f} {y + unit * len(matrix):.3f} cm"]
    for r, row in enumerate(matrix):
        ops.extend(f"{start} {r} {length} 1 re" for start, length in dark_runs(row))
    ops.append("f Q")
    c.addLiteral("\n".join(ops))


def data_matrix(text: str) -> list[list[bool]]:
    """The square Data Matrix symbol of ``text`` (zxing-cpp encodes), rows of
    booleans. Square always: the encoder's own choice is a 12 x 26 rectangle
    for some texts, whose modules, drawn across the code's square, are half
    as tall as a square symbol's and too small for a photo."""
    import numpy as np
    import zxingcpp

    code = zxingcpp.create_barcode(text, zxingcpp.BarcodeFormat.DataMatrix, force_square=True)
    image = np.asarray(code.to_image(scale=1, add_quiet_zones=False))
    return (image < 128).tolist()


class _MarkSheet:
    """One table size's A4 sheet: the static part (grids, marks, texts) drawn
    once into a form, the table's title, names and codes per sheet. Page
    coordinates come from :mod:`marks` (top-left origin); ``_y`` turns them
    into ReportLab's."""

    def __init__(self, schema, players, engine, gettext, fonts, tournament, round_no, direction):
        self.schema = schema
        self.players = players
        self.engine = engine
        self._ = gettext
        self.font, self.bold = fonts
        self.tournament = tournament
        self.round_no = round_no
        self.direction = direction
        self.layout = marks.sheet_layout(schema, players)
        self.notes: list[tuple[str, str]] = []  # (marker, text)
        self.legends: list[tuple[str, list[str]]] = []
        self._helps: dict[str, str] = {}
        for f in schema:
            if f["kind"] == "choice" and f.get("choices"):
                label = gettext(f["label"])
                if label not in dict(self.legends):
                    self.legends.append((label, [gettext(str(c[1])) for c in f["choices"]]))

    @staticmethod
    def _y(y: float) -> float:
        return marks.PAGE_H - y

    def _spec_of_label(self, label):
        for f in self.schema:
            if f["label"] == label:
                return f
        return None

    def _note_for(self, key: str, text: str) -> str:
        for marker, noted in self.notes:
            if noted == text:
                return marker
        marker = NOTE_KEYS[len(self.notes) % len(NOTE_KEYS)]
        self.notes.append((marker, text))
        return marker

    def _header_text(self, label: str, w: float, h: float | None = None) -> str:
        """A column's header: its label (with a note's marker where the field
        has help), or only the marker where the label does not fit."""
        _ = self._
        spec = self._spec_of_label(label)
        text = display(label, spec.get("params") if spec else None, _) if label else ""
        help_text = display(spec.get("help") or "", spec.get("params"), _) if spec else ""
        room = w - 2 * CELL_PAD
        full = text
        if help_text:
            marker = self._note_for(label, f"{text}: {help_text}")
            full = f"{text} ({marker})"
        lines = fit.wrap(full, self.font, SMALL, room)
        if (
            fit.longest_piece(full, self.font, SMALL) <= room
            and len(lines) <= marks.HEAD_LINES
            and (h is None or self._fits(full, w, h))
        ):
            return full
        if not help_text:
            marker = self._note_for(label, text)
        return f"({marker})"

    def _fits(self, text, w, h) -> bool:
        """``text`` fits a box of ``w`` by ``h`` in the sheet's small text, uncut."""
        lines = max(1, int((h - 1) // (SMALL * fit.LEADING)))
        return len(fit.wrap(text, self.font, SMALL, w - 2 * CELL_PAD)) <= lines

    def _text_in(self, c, text, x, y, w, h, font=None, size=SMALL, centre=True):
        """``text`` wrapped into the box (top-left x, y), vertically centred."""
        font = font or self.font
        room_lines = max(1, int((h - 1) // (size * fit.LEADING)))
        lines, size = fit.fit_lines(text, font, size, w - 2 * CELL_PAD, room_lines, SMALL)
        step = size * fit.LEADING
        top = y + (h - len(lines) * step) / 2
        c.setFont(font, size)
        for i, line in enumerate(lines):
            base = self._y(top + i * step + 0.8 * size + (step - size) / 2)
            if centre:
                c.drawCentredString(x + w / 2, base, line)
            else:
                c.drawString(x + CELL_PAD, base, line)

    # -- static -------------------------------------------------------------------
    def draw_static(self, c):
        _ = self._
        lay = self.layout
        c.setLineWidth(0.6)
        half = lay.marker_size / 2
        for mx, my in lay.markers:
            c.rect(
                mx - half, self._y(my + half), lay.marker_size, lay.marker_size, stroke=0, fill=1
            )
        self._draw_head(c)
        for grid in lay.grids:
            self._draw_grid(c, grid)
        c.setLineWidth(0.5)
        for f in lay.fields:
            self._draw_field(c, f)
        self.bottom = self._draw_texts(c)
        if self.bottom > marks.BOTTOM + 0.01:
            raise ValueError(
                f"score sheet for {self.players} players does not fit on A4 ({self.bottom:.0f})"
            )

    def _draw_head(self, c):
        _ = self._
        lay = self.layout
        tx, ty, tw, _th = self.title_box()
        n = self.players
        name = self.tournament.get("name", "")
        lines, size = fit.fit_lines(name, self.bold, 11, tw, 1, min_size=9)
        if lines[-1].endswith(fit.ELLIPSIS):
            lines, size = fit.fit_lines(name, self.bold, SMALL, tw, 2, SMALL)
        self.name_lines = len(lines)
        c.setFont(self.bold, size)
        for i, line in enumerate(lines):
            c.drawString(tx, self._y(ty + 0.85 * size + i * size * fit.LEADING), line)
        base = self.rows_y()
        caption, csize = fit.fit_text(_(SCAN_CAPTION), self.font, SMALL, 170)
        cw = fit.width(caption, self.font, csize)
        c.setFont(self.font, csize)
        c.drawRightString(lay.qr[0] - 5, self._y(base["game"]), caption)
        game, size = fit.fit_text(
            _("Game: {game}").format(game=_(self.engine.name)), self.font, 9, tw - cw - 12
        )
        c.setFont(self.font, size)
        c.drawString(tx, self._y(base["game"]), game)
        text, arrow = DIRECTIONS.get(self.direction, DIRECTIONS["left"])
        order = " → ".join(str(i + 1) for i in range(n)) + " → 1"
        direction, size = fit.fit_text(
            f"{arrow} {_(text)}: " + _("seat {order}").format(order=order),
            self.font,
            SMALL,
            lay.qr[0] - 8 - tx,
        )
        c.setFont(self.font, size)
        c.drawString(tx, self._y(base["direction"]), direction)
        howto, size = fit.fit_text(
            _(
                "How to mark: write the number in the boxes, fill one circle per column "
                "with a dark pen (●), cross a box (☒)."
            ),
            self.font,
            SMALL,
            marks.RIGHT - marks.LEFT,
        )
        c.setFont(self.font, size)
        c.drawString(marks.LEFT, self._y(lay.howto_y + 0.85 * size + 1), howto)

    def title_box(self):
        return self.layout.title

    def rows_y(self) -> dict:
        """Baselines of the heading's lines (top-left coordinates)."""
        top = marks.TOP
        if getattr(self, "name_lines", 1) > 1:
            return {"title": top + 35, "game": top + 47, "direction": top + 57}
        return {"title": top + 31, "game": top + 44, "direction": top + 55}

    def _draw_grid(self, c, grid):
        _ = self._
        if grid.x:
            p = c.beginPath()
            x0, x1 = grid.x[0], grid.x[-1]
            for y in grid.y:
                p.moveTo(x0, self._y(y))
                p.lineTo(x1, self._y(y))
            for i, x in enumerate(grid.x):
                p.moveTo(x, self._y(grid.short.get(i, grid.y[0])))
                p.lineTo(x, self._y(grid.y[-1]))
            for rx0, rx1, ry in grid.rules:
                p.moveTo(rx0, self._y(ry))
                p.lineTo(rx1, self._y(ry))
            c.drawPath(p, stroke=1, fill=0)
        for cell in grid.cells:
            if cell.role == "head":
                label = {"Seat": _("Seat"), "Player": _("Player"), "Signature": _("Signature")}
                if cell.ref in label:
                    self._text_in(c, label[cell.ref], cell.x, cell.y, cell.w, cell.h)
                elif cell.ref:
                    self._text_in(
                        c,
                        self._header_text(cell.ref, cell.w, cell.h),
                        cell.x,
                        cell.y,
                        cell.w,
                        cell.h,
                    )
            elif cell.role == "seathead":
                text, _size = fit.fit_text(
                    _("Seat {n}").format(n=cell.ref + 1), self.font, SMALL, cell.w - 2 * CELL_PAD
                )
                self._text_in(c, text, cell.x, cell.y, cell.w, cell.h)
            elif cell.role == "seat":
                self._text_in(
                    c, str(cell.ref + 1), cell.x, cell.y, cell.w, min(cell.h, 14), self.bold, 10
                )
            elif cell.role == "group":
                number = cell.ref.rpartition(" ")[2]
                self._text_in(c, number, cell.x, cell.y, cell.w, min(cell.h, 14), self.bold, 10)
            elif cell.role == "label":
                spec = cell.ref
                text = display(spec["label"], spec.get("params"), _)
                help_text = display(spec.get("help") or "", spec.get("params"), _)
                if help_text:
                    text = f"{text} ({self._note_for(spec['label'], f'{text}: {help_text}')})"
                h = min(cell.h, 40)
                if not self._fits(text, cell.w, h):  # the label in full among the notes
                    full = f"{display(spec['label'], spec.get('params'), _)}: {help_text}"
                    text = f"({self._note_for(spec['label'], full.rstrip(': '))})"
                self._text_in(c, text, cell.x, cell.y, cell.w, h, centre=False)

    def _draw_field(self, c, f):
        for x, y, w, h in f.write_in:
            c.rect(x, self._y(y + h), w, h, stroke=1, fill=0)
        c.setFont(self.font, SMALL)
        for text, x, y in f.scale + f.heads:
            c.drawCentredString(x, self._y(y + 0.36 * SMALL), text)
        for a in f.areas:
            if a.shape == "box":
                c.rect(a.x - a.w / 2, self._y(a.y + a.h / 2), a.w, a.h, stroke=1, fill=0)
            else:
                c.ellipse(
                    a.x - a.w / 2,
                    self._y(a.y - a.h / 2),
                    a.x + a.w / 2,
                    self._y(a.y + a.h / 2),
                    stroke=1,
                    fill=0,
                )

    def _text_items(self) -> list[str]:
        """The legends of the choices and the notes, in order."""
        out = [
            f"{label}: " + " · ".join(f"{k} {c}" for k, c in enumerate(choices, start=1))
            for label, choices in self.legends
        ]
        return out + [f"({marker}) {text}" for marker, text in self.notes]

    def _draw_texts(self, c) -> float:
        """Legends and notes (beside the names where there is room), what to
        do when time is called, who signs; the height reached."""
        _ = self._
        lay = self.layout
        step = SMALL * fit.LEADING
        y = lay.text_top
        items = self._text_items()
        c.setFont(self.font, SMALL)
        if lay.side_text is not None:
            # beside the names: as many legends and notes as fit there, in order
            sx, sy, sw, sh = lay.side_text
            room = int(sh // step)
            while items:
                wrapped = fit.wrap(items[0], self.font, SMALL, sw)
                if len(wrapped) > room:
                    break
                for line in wrapped:
                    c.drawString(sx, self._y(sy + 0.85 * SMALL), line)
                    sy += step
                room -= len(wrapped)
                items.pop(0)
        lines = [
            (self.font, line)
            for item in items
            for line in fit.wrap(item, self.font, SMALL, marks.RIGHT - marks.LEFT)
        ]
        left, width = marks.LEFT, marks.RIGHT - marks.LEFT
        c.setFont(self.font, SMALL)
        for _f, line in lines:
            c.drawString(left, self._y(y + 0.85 * SMALL), line)
            y += step
        y += 2
        heading = _("When time is called:")
        indent = fit.width(heading + " ", self.bold, SMALL)
        c.setFont(self.bold, SMALL)
        c.drawString(left, self._y(y + 0.85 * SMALL), heading)
        c.setFont(self.font, SMALL)
        text = fit.wrap(
            _(self.engine.time_called_text), self.font, SMALL, width, first=width - indent
        )
        for k, line in enumerate(text):
            c.drawString(left + (indent if k == 0 else 0), self._y(y + 0.85 * SMALL), line)
            y += step
        sign = _("Everyone at the table signs; the scorekeeper enters the sheet or scans the code.")
        for line in fit.wrap(sign, self.font, SMALL, width):
            c.drawString(left, self._y(y + 0.85 * SMALL), line)
            y += step
        return y

    # -- per table ------------------------------------------------------------------
    def code_for(self, table) -> str | None:
        tid = self.tournament.get("id")
        if tid is None:
            return None
        return marks.code_text(int(tid), int(self.round_no), int(table["number"]), self.layout)

    def draw_table(self, c, table, url):
        _ = self._
        lay = self.layout
        tx, _ty, tw, _th = self.title_box()
        round_name = self.tournament.get("round_name")
        if round_name:
            heading = _("{round} · Table {table}").format(round=round_name, table=table["number"])
        else:
            heading = _("Round {round} · Table {table}").format(
                round=self.round_no, table=table["number"]
            )
        title, size = fit.fit_text(heading, self.bold, 18, tw)
        c.setFont(self.bold, size)
        c.drawString(tx, self._y(self.rows_y()["title"]), title)
        names = [_player_name(p) for p in table["players"]]
        twice = {name for name in names if names.count(name) > 1}
        cells = [cell for cell in lay.grids[0].cells if cell.role == "player"]
        for cell in cells:
            p = table["players"][cell.ref]
            name = names[cell.ref]
            if name in twice and isinstance(p, dict) and p.get("club"):
                name = f"{name} ({p['club']})"
            # wrapped on as many lines as the row holds (two at least), never cut
            # but for a name no row could hold (then its end stays: "… (SC Köln)")
            lines, size = fit.fit_box(
                name, self.font, 9.5, cell.w - 2 * CELL_PAD, cell.h - 1, SMALL
            )
            rows = len(lines)
            step = size * fit.LEADING
            c.setFont(self.font, size)
            top = cell.y + (min(cell.h, 14) - step) / 2 if rows == 1 else cell.y + 2
            for i, line in enumerate(lines):
                c.drawString(
                    cell.x + CELL_PAD,
                    self._y(top + i * step + 0.8 * size + (step - size) / 2),
                    line,
                )
        if url:
            qx, qy, qs = lay.qr
            draw_qr(c, url, qx, self._y(qy + qs), qs)
        code = self.code_for(table)
        if code:
            x, y, size = lay.code
            draw_matrix(c, data_matrix(code), x, self._y(y + size), size)

    def layout_json(self, table) -> dict:
        return self.layout.to_json(code=self.code_for(table))


def render_score_sheets(
    tournament: dict,
    round_no: int,
    tables: list[dict],
    *,
    engine_id: str,
    options: dict | None = None,
    base_url_for_table: Callable[[dict], str] | list[str] | None = None,
    gettext: Callable[[str], str] | None = None,
    direction: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    machine_readable: bool = True,
) -> bytes:
    """The score sheets of a round as a PDF (see the module docstring).
    ``progress(done, total)`` is called with the number of sheets drawn after
    each page (a Celery task reports it)."""
    with binary_streams():
        render = _render_mark_sheets if machine_readable else _render_score_sheets
        return render(
            tournament,
            round_no,
            tables,
            engine_id=engine_id,
            options=options,
            base_url_for_table=base_url_for_table,
            gettext=gettext,
            direction=direction,
            progress=progress,
        )


def sheet_layouts(
    tournament: dict, round_no: int, tables: list[dict], *, engine_id: str, options=None
) -> list[dict]:
    """Per table (in table order) the JSON description of its machine-readable
    sheet: every mark area's position in points and the sheet code's text
    (:meth:`scoring.printing.marks.Layout.to_json`, plus ``table``)."""
    engine = get_engine(engine_id)
    options = options if options is not None else engine.default_options()
    out = []
    layouts: dict[int, marks.Layout] = {}
    for table in sorted(tables, key=lambda t: t["number"]):
        n = len(table["players"])
        if n not in layouts:
            layouts[n] = marks.sheet_layout(engine.sheet_schema(n, options), n)
        lay = layouts[n]
        tid = tournament.get("id")
        code = None if tid is None else marks.code_text(int(tid), round_no, table["number"], lay)
        out.append({"table": table["number"], **lay.to_json(code=code)})
    return out


def _urls(tables, base_url_for_table) -> list:
    if base_url_for_table is None:
        return [None] * len(tables)
    if callable(base_url_for_table):
        return [base_url_for_table(t) for t in tables]
    urls = list(base_url_for_table)
    if len(urls) != len(tables):
        raise ValueError("base_url_for_table: one url per table")
    return urls


def _render_mark_sheets(
    tournament,
    round_no,
    tables,
    *,
    engine_id,
    options,
    base_url_for_table,
    gettext,
    direction,
    progress=None,
) -> bytes:
    _ = gettext or _identity
    fonts = register_fonts()
    engine = get_engine(engine_id)
    options = options if options is not None else engine.default_options()
    direction = direction or getattr(engine, "play_direction", "left")
    urls = _urls(tables, base_url_for_table)
    pairs = sorted(zip(tables, urls, strict=True), key=lambda tu: tu[0]["number"])
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=A4, pageCompression=1)
    c.setTitle(_("Score sheets, round {round}").format(round=round_no))
    c.setAuthor(tournament.get("name", ""))
    sheets: dict[int, _MarkSheet] = {}
    for n in sorted({len(t["players"]) for t, _u in pairs}):
        sheet = _MarkSheet(
            engine.sheet_schema(n, options), n, engine, _, fonts, tournament, round_no, direction
        )
        c.beginForm(f"marksheet{n}")
        sheet.draw_static(c)
        c.endForm()
        sheets[n] = sheet
    for drawn, (table, url) in enumerate(pairs, start=1):
        n = len(table["players"])
        c.doForm(f"marksheet{n}")
        sheets[n].draw_table(c, table, url)
        c.showPage()
        if progress is not None:
            progress(drawn, len(pairs))
    c.save()
    return buf.getvalue()


def _render_score_sheets(
    tournament,
    round_no,
    tables,
    *,
    engine_id,
    options,
    base_url_for_table,
    gettext,
    direction,
    progress=None,
) -> bytes:
    _ = gettext or _identity
    fonts = register_fonts()
    engine = get_engine(engine_id)
    options = options if options is not None else engine.default_options()
    direction = direction or getattr(engine, "play_direction", "left")
    urls = _urls(tables, base_url_for_table)
    pairs = sorted(zip(tables, urls, strict=True), key=lambda tu: tu[0]["number"])

    buf = io.BytesIO()
    c = Canvas(buf, pagesize=A4, pageCompression=1)
    c.setTitle(_("Score sheets, round {round}").format(round=round_no))
    c.setAuthor(tournament.get("name", ""))
    layouts: dict[int, _Layout] = {}

    def layout_for(n):
        if n not in layouts:
            schema = engine.sheet_schema(n, options)
            lay = _Layout(schema, n, engine, _, fonts, tournament, round_no, direction)
            c.beginForm(f"sheet{n}")
            lay.draw_static(c)
            c.endForm()
            layouts[n] = lay
        return layouts[n]

    for size in sorted({len(t["players"]) for t, _u in pairs}):
        layout_for(size)  # forms first, outside any page
    drawn = 0
    for top, bottom in two_up_order(len(pairs)):
        for index, y0 in ((top, SHEET_H), (bottom, 0)):
            if index is None:
                continue
            table, url = pairs[index]
            lay = layout_for(len(table["players"]))
            c.saveState()
            c.translate(0, y0)
            c.doForm(f"sheet{len(table['players'])}")
            lay.draw_table(c, table, url)
            c.restoreState()
            drawn += 1
        c.setDash(3, 3)
        c.setLineWidth(0.3)
        c.line(8, SHEET_H, PAGE_W - 8, SHEET_H)  # cut here
        c.setDash()
        c.showPage()
        if progress is not None:
            progress(drawn, len(pairs))
    c.save()
    return buf.getvalue()
