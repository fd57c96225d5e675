"""Where every mark goes on a machine-readable score sheet: the one geometry
the drawing (:mod:`scoring.printing.sheets`) and the reader
(:mod:`scoring.scans`) share.

``sheet_layout(schema, players)`` turns a game's ``sheet_schema`` into the
positions of everything a machine reads on the A4 page: the four corner
markers, the sheet code, and for every field its mark areas — an integer one
bubble column per digit (as many digits as the field's maximum has), a
yes/no one box, a seat or a choice one bubble per option — with the
write-in boxes above an integer's columns. Plain data in and out, no text
measuring: the geometry depends only on the schema's structure (kinds,
ranges, the number of choices, seats and groups) and the number of players,
never on the language, so a sheet printed in German is read with the layout
computed anywhere. ``Layout.fingerprint`` hashes that geometry; the sheet
code names it, so a sheet whose game options changed after printing is
refused, never misread.

Coordinates are points (1/72 inch) from the page's **top-left** corner, y
downwards; an area's ``x``/``y`` is its centre. ``Layout.to_json()`` is the
``--layout-json`` description (see :func:`Layout.to_json`).

The rows of a digit column are its digits: row ``v`` holds the digit ``v``
(0 at the top), and the scale printed left of each block names them. A seat
field's bubble for seat ``s`` (printed as ``s + 1``) sits on row ``s + 1``; a
choice's option ``m`` (1-based, as the legend numbers them) sits in column
``m // 10``, row ``m % 10`` — the column is the tens, the row the units,
so options 1..9 need one column and 1..20 three.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

#: the geometry's version (the sheet code names it); bump on any change
LAYOUT_VERSION = 1
#: the sheet code's prefix and format: TL1.<tournament>.<round>.<table>.<version>.<fingerprint>
CODE_PREFIX = "TL1"

PAGE_W, PAGE_H = 595.2756, 841.8898  # A4 portrait
#: the corner markers: solid squares this far from the paper's edges
MARKER_EDGE = 15.0
MARKER = 12.0
#: the printable frame of text and grids
LEFT, RIGHT = 32.0, PAGE_W - 32.0
TOP, BOTTOM = 16.0, PAGE_H - 16.0

# the marks
PITCH_X = 9.5  # between the digit columns of a field
PITCH_Y = 8.0  # between the rows (digits) of a column: the 8 pt scale fits
BUBBLE_W, BUBBLE_H = 7.0, 5.4  # an oval
BOX = 6.6  # a yes/no box
SCALE_W = 6.5  # the digit scale left of a block
WRITE_H = 10.0  # a write-in box above a digit column
CELL_PAD = 2.0
ROW_PAD = 1.0

# the header
QR_SIZE = 56.0
CODE_SIZE = 36.0  # the sheet code (Data Matrix), without its quiet zone
CODE_QUIET = 4.0
HEADER_H = 56.0
HOWTO_H = 11.0
HEAD_LINES = 3  # the lines of a grid's column header
LINE = 9.6  # a line of 8 pt text
#: a name row of a game without per-seat marks: two lines of 8 pt text (a long name wraps)
NAME_ROW_H = 21.0
#: ... but at a table of six or more the hands' grid and the rules below leave
#: no room for it: one line (a long name keeps its start and its end)
NAME_ROW_H_MANY, MANY = 12.5, 6


class LayoutError(ValueError):
    """The schema can't be laid out on one page (too many fields or a field
    without a range)."""


@dataclass(frozen=True)
class Area:
    """One place to mark: a bubble (``oval``) or a box."""

    field: str
    kind: str  # "digit" | "option" | "bool"
    value: object  # the digit, the option's value (a seat index or a choice key), or True
    place: int | None  # a digit's place (0 = units); None otherwise
    x: float
    y: float
    w: float
    h: float
    shape: str  # "oval" | "box"
    column: int  # the field's column this area is in (0 = leftmost)

    def to_json(self) -> dict:
        return {
            "field": self.field,
            "kind": self.kind,
            "value": self.value,
            "place": self.place,
            "x": round(self.x, 2),
            "y": round(self.y, 2),
            "w": self.w,
            "h": self.h,
            "shape": self.shape,
        }


@dataclass
class Field:
    """A schema field and its mark areas."""

    name: str
    kind: str  # the schema's kind: int | bool | seat | choice | seats
    seat: int | None
    group: str | None
    required: bool
    min: int | None
    max: int | None
    digits: int | None  # int fields: the number of digit columns
    areas: list[Area]
    write_in: list[tuple[float, float, float, float]]  # (x, y, w, h) per digit, top-left
    block: tuple[float, float, float, float]  # (x0, y0, x1, y1): the marks and their scale
    scale: list[tuple[str, float, float]]  # (text, x, y): the labels of the rows, centred
    heads: list[tuple[str, float, float]]  # (text, x, y): a choice's tens above its columns

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "kind": self.kind,
            "seat": self.seat,
            "group": self.group,
            "required": self.required,
            "min": self.min,
            "max": self.max,
            "digits": self.digits,
            "areas": [a.to_json() for a in self.areas],
            "write_in": [[round(v, 2) for v in r] for r in self.write_in],
            "block": [round(v, 2) for v in self.block],
        }


@dataclass
class Cell:
    """A grid cell (x, y, w, h, top-left) and what it shows."""

    x: float
    y: float
    w: float
    h: float
    role: str  # "seat" | "player" | "signature" | "field" | "group" | "head" | "label"
    ref: object = None  # the field label, the seat index, the group name ...


@dataclass
class Grid:
    """A ruled table: its column edges, row edges and the cells to fill."""

    x: list[float]  # column edges, left to right
    y: list[float]  # row edges, top to bottom (the first row is the header)
    cells: list[Cell] = field(default_factory=list)
    #: vertical rules that start lower (under a spanning header): x -> y top
    short: dict = field(default_factory=dict)
    #: extra horizontal rules (x0, x1, y), e.g. under a spanning header
    rules: list = field(default_factory=list)


@dataclass
class Layout:
    version: int
    players: int
    fields: list[Field]
    markers: list[tuple[float, float]]  # centres: top-left, top-right, bottom-right, bottom-left
    marker_size: float
    code: tuple[float, float, float]  # the sheet code: (x, y, size), top-left, quiet zone outside
    qr: tuple[float, float, float]  # the result form's QR code: (x, y, size)
    title: tuple[float, float, float, float]  # (x, y, w, h) for the heading lines
    howto_y: float  # the top of the "how to mark" line
    grids: list[Grid]
    side_text: tuple[float, float, float, float] | None  # a free text place beside the names
    text_top: float  # where the free text below the grids starts
    fingerprint: str = ""

    @property
    def areas(self) -> list[Area]:
        return [a for f in self.fields for a in f.areas]

    def field(self, name: str) -> Field:
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(name)

    def to_json(self, code: str | None = None) -> dict:
        """The JSON description of the sheet's marks: ``version``,
        ``fingerprint``, ``code`` (the sheet code's text when given),
        ``page`` {``width``, ``height``, ``unit``: "pt", ``origin``:
        "top-left"}, ``markers`` [{``x``, ``y``, ``size``}: centres,
        clockwise from the top-left], ``code_box`` [x, y, size] (top-left),
        ``fields`` [{``name``, ``kind``, ``seat``, ``group``, ``required``,
        ``min``, ``max``, ``digits``, ``areas`` [{``field``, ``kind``
        (digit | option | bool), ``value``, ``place``, ``x``, ``y`` (centre),
        ``w``, ``h``, ``shape``}], ``write_in`` [[x, y, w, h]], ``block``
        [x0, y0, x1, y1]}]."""
        out = {
            "version": self.version,
            "fingerprint": self.fingerprint,
            "page": {"width": PAGE_W, "height": PAGE_H, "unit": "pt", "origin": "top-left"},
            "players": self.players,
            "markers": [
                {"x": round(x, 2), "y": round(y, 2), "size": self.marker_size}
                for x, y in self.markers
            ],
            "code_box": [round(v, 2) for v in self.code],
            "fields": [f.to_json() for f in self.fields],
        }
        if code is not None:
            out["code"] = code
        return out


# -- the sheet code --------------------------------------------------------------


@dataclass(frozen=True)
class SheetCode:
    """What the sheet code names: no secret, only which sheet it is."""

    tournament: int
    round: int
    table: int
    version: int
    fingerprint: str

    def text(self) -> str:
        return (
            f"{CODE_PREFIX}.{self.tournament}.{self.round}.{self.table}."
            f"{self.version}.{self.fingerprint}"
        )


def code_text(tournament: int, round_no: int, table: int, layout: Layout) -> str:
    return SheetCode(tournament, round_no, table, layout.version, layout.fingerprint).text()


def parse_code(text: str) -> SheetCode | None:
    """The sheet code's parts, or None for any other text."""
    parts = text.split(".")
    if len(parts) != 6 or parts[0] != CODE_PREFIX:
        return None
    numbers = parts[1:5]
    if not all(p.isascii() and p.isdigit() and len(p) <= 9 for p in numbers):
        return None
    fp = parts[5]
    if not (len(fp) == 6 and all(c in "0123456789ABCDEF" for c in fp)):
        return None
    t, r, n, v = (int(p) for p in numbers)
    return SheetCode(t, r, n, v, fp)


# -- blocks of marks ------------------------------------------------------------


def int_digits(spec: dict) -> int:
    """The digit columns an int field needs; a field without a maximum
    can't be marked (its game must name the largest value a real game
    reaches)."""
    lo, hi = spec.get("min"), spec.get("max")
    if hi is None or lo is None or lo < 0:
        raise LayoutError(f"field {spec['name']} needs a range 0..max to be marked")
    return len(str(hi))


def _column_rows(spec: dict, players: int) -> list[list[tuple[object, int]]]:
    """Per column of the block, the (value, row) of each mark area, and the
    place of a digit column."""
    kind = spec["kind"]
    if kind == "int":
        lo, hi = spec["min"], spec["max"]
        d = int_digits(spec)
        if d == 1:
            return [[(v, v) for v in range(lo, hi + 1)]]
        lead = int(str(hi)[0])
        return [[(v, v) for v in range(lead + 1)]] + [
            [(v, v) for v in range(10)] for _ in range(d - 1)
        ]
    if kind == "seat":
        return [[(s, s + 1) for s in range(players)]]
    if kind == "seats":
        return [[(s, s + 1) for s in range(players)]]
    if kind == "choice":
        values = [c[0] for c in spec.get("choices") or []]
        if not values:
            raise LayoutError(f"field {spec['name']} has no choices")
        cols: list[list[tuple[object, int]]] = [[] for _ in range(len(values) // 10 + 1)]
        for m, value in enumerate(values, start=1):
            cols[m // 10].append((value, m % 10))
        return cols
    if kind == "bool":
        return [[(True, 0)]]
    raise LayoutError(f"unknown field kind {kind!r}")


def block_width(spec: dict, players: int) -> float:
    if spec["kind"] == "bool":
        return PITCH_X
    return SCALE_W + PITCH_X * len(_column_rows(spec, players))


def block_rows(spec: dict, players: int) -> int:
    return max(row for col in _column_rows(spec, players) for _v, row in col) + 1


def has_write_in(spec: dict) -> bool:
    return spec["kind"] == "int"


def _block(spec: dict, players: int, x0: float, y0: float) -> Field:
    """The field's marks with the block's top-left at (x0, y0): the write-in
    band first (empty for all but ints), the bubble rows under it."""
    kind = spec["kind"]
    cols = _column_rows(spec, players)
    areas: list[Area] = []
    write_in = []
    scale = []
    heads = []
    rows_top = y0 + WRITE_H + ROW_PAD
    if kind == "bool":
        cx = x0 + PITCH_X / 2
        cy = rows_top + PITCH_Y / 2
        areas.append(Area(spec["name"], "bool", True, None, cx, cy, BOX, BOX, "box", 0))
        return _field(spec, areas, [], (x0, rows_top, x0 + PITCH_X, rows_top + PITCH_Y), [], [])
    d = len(cols)
    first = x0 + SCALE_W
    rows_used = sorted({row for col in cols for _v, row in col})
    for row in rows_used:
        label = str(row) if kind != "seat" and kind != "seats" else str(row)
        scale.append((label, x0 + SCALE_W / 2, rows_top + row * PITCH_Y + PITCH_Y / 2))
    for c, col in enumerate(cols):
        cx = first + c * PITCH_X + PITCH_X / 2
        place = d - 1 - c if kind == "int" else None
        if kind == "int":
            write_in.append((first + c * PITCH_X, y0, PITCH_X, WRITE_H))
        elif kind == "choice" and d > 1:
            heads.append((str(c), cx, y0 + WRITE_H / 2))
        for value, row in col:
            cy = rows_top + row * PITCH_Y + PITCH_Y / 2
            if kind == "int":
                areas.append(
                    Area(spec["name"], "digit", value, place, cx, cy, BUBBLE_W, BUBBLE_H, "oval", c)
                )
            elif kind == "seats":
                areas.append(Area(spec["name"], "option", value, None, cx, cy, BOX, BOX, "box", c))
            else:
                areas.append(
                    Area(spec["name"], "option", value, None, cx, cy, BUBBLE_W, BUBBLE_H, "oval", c)
                )
    bottom = rows_top + (max(rows_used) + 1) * PITCH_Y
    return _field(spec, areas, write_in, (x0, y0, first + d * PITCH_X, bottom), scale, heads)


def _field(spec, areas, write_in, block, scale, heads) -> Field:
    return Field(
        name=spec["name"],
        kind=spec["kind"],
        seat=spec.get("seat"),
        group=spec.get("group"),
        required=bool(spec.get("required")),
        min=spec.get("min"),
        max=spec.get("max"),
        digits=len(write_in) or None,
        areas=areas,
        write_in=write_in,
        block=block,
        scale=scale,
        heads=heads,
    )


def mark_row_height(specs: list[dict], players: int) -> float:
    rows = max((block_rows(s, players) for s in specs), default=0)
    return 2 * ROW_PAD + WRITE_H + ROW_PAD + rows * PITCH_Y + ROW_PAD


# -- the page ---------------------------------------------------------------------


def _spread(mins: list[float], caps: list[float], room: float) -> list[float]:
    """Widths from their minimums: the spare room shared evenly, each up to its cap."""
    widths = list(mins)
    spare = room - sum(widths)
    if spare < -0.01:
        raise LayoutError(f"the columns need {sum(mins):.0f} pt, the page has {room:.0f}")
    open_ = [i for i in range(len(widths)) if widths[i] < caps[i]]
    while spare > 0.01 and open_:
        share = spare / len(open_)
        for i in list(open_):
            give = min(share, caps[i] - widths[i])
            widths[i] += give
            spare -= give
            if widths[i] >= caps[i] - 1e-9:
                open_.remove(i)
    return widths


def _unique(specs, key):
    seen, out = set(), []
    for s in specs:
        k = key(s)
        if k not in seen:
            seen.add(k)
            out.append(k)
    return out


def sheet_layout(schema: list[dict], players: int) -> Layout:
    """The page's geometry for ``schema`` at a table of ``players``."""
    width = RIGHT - LEFT
    seat_specs = [s for s in schema if s.get("group") is None and s.get("seat") is not None]
    group_specs = [s for s in schema if s.get("group") is not None]
    box_specs = [s for s in schema if s.get("group") is None and s.get("seat") is None]
    fields: dict[str, Field] = {}
    grids: list[Grid] = []

    code_x = LEFT
    layout = Layout(
        version=LAYOUT_VERSION,
        players=players,
        fields=[],
        markers=[
            (MARKER_EDGE + MARKER / 2, MARKER_EDGE + MARKER / 2),
            (PAGE_W - MARKER_EDGE - MARKER / 2, MARKER_EDGE + MARKER / 2),
            (PAGE_W - MARKER_EDGE - MARKER / 2, PAGE_H - MARKER_EDGE - MARKER / 2),
            (MARKER_EDGE + MARKER / 2, PAGE_H - MARKER_EDGE - MARKER / 2),
        ],
        marker_size=MARKER,
        code=(code_x, TOP, CODE_SIZE),
        qr=(RIGHT - QR_SIZE - 4, TOP, QR_SIZE),
        title=(
            LEFT + CODE_SIZE + 2 * CODE_QUIET,
            TOP,
            RIGHT - QR_SIZE - 12 - LEFT - CODE_SIZE - 2 * CODE_QUIET,
            HEADER_H,
        ),
        howto_y=TOP + HEADER_H + 4,
        grids=grids,
        side_text=None,
        text_top=0.0,
    )
    y = layout.howto_y + HOWTO_H + 3
    head_h = HEAD_LINES * LINE + 4

    # the seats: seat | player | the per-seat fields | signature
    labels = _unique(seat_specs, lambda s: s["label"])
    by_label = {lab: [s for s in seat_specs if s["label"] == lab] for lab in labels}
    seat_w = 26.0
    if labels:
        mins = [seat_w, 90.0]
        caps = [seat_w, 1000.0]
        for lab in labels:
            bw = max(block_width(s, players) for s in by_label[lab]) + 2 * CELL_PAD
            mins.append(max(bw, 30.0))
            caps.append(max(bw, 86.0))
        mins.append(50.0)
        caps.append(1000.0)
        # the fields first up to their caps, then the player and the signature
        fixed = _spread(mins[2:-1], caps[2:-1], max(sum(mins[2:-1]), width - seat_w - 200.0))
        rest = width - seat_w - sum(fixed)
        player = max(90.0, rest - max(50.0, min(110.0, rest * 0.4)))
        widths = [seat_w, player, *fixed, rest - player]
        if min(widths) < 0 or rest - player < 49.9:
            raise LayoutError("the seats' fields are too wide for the page")
        row_h = mark_row_height(seat_specs, players)
    else:
        widths = [seat_w, 175.0, 70.0]  # a long name in two lines
        row_h = NAME_ROW_H if players < MANY else NAME_ROW_H_MANY
    names_head = head_h if labels else LINE + 3
    xs = [LEFT]
    for w in widths:
        xs.append(xs[-1] + w)
    ys = [y, y + names_head] + [y + names_head + (r + 1) * row_h for r in range(players)]
    grid = Grid(xs, ys)
    grid.cells.append(Cell(xs[0], y, widths[0], names_head, "head", "Seat"))
    grid.cells.append(Cell(xs[1], y, widths[1], names_head, "head", "Player"))
    grid.cells.append(Cell(xs[-2], y, widths[-1], names_head, "head", "Signature"))
    for k, lab in enumerate(labels):
        grid.cells.append(Cell(xs[2 + k], y, widths[2 + k], names_head, "head", lab))
    for r in range(players):
        ry = ys[r + 1]
        grid.cells.append(Cell(xs[0], ry, widths[0], row_h, "seat", r))
        grid.cells.append(Cell(xs[1], ry, widths[1], row_h, "player", r))
        grid.cells.append(Cell(xs[-2], ry, widths[-1], row_h, "signature", r))
        for k, lab in enumerate(labels):
            for s in by_label[lab]:
                if s["seat"] != r:
                    continue
                bw = block_width(s, players)
                bx = xs[2 + k] + (widths[2 + k] - bw) / 2
                fields[s["name"]] = _block(s, players, bx, ry + ROW_PAD)
    grids.append(grid)
    if not labels:
        layout.side_text = (xs[-1] + 10, y, RIGHT - xs[-1] - 10, ys[-1] - y)
    y = ys[-1] + 4

    # the groups (hands): label | group fields | per seat field, one column per seat
    if group_specs:
        groups = _unique(group_specs, lambda s: s["group"])
        gfield_labels = _unique(
            [s for s in group_specs if s.get("seat") is None], lambda s: s["label"]
        )
        gseat_labels = _unique(
            [s for s in group_specs if s.get("seat") is not None], lambda s: s["label"]
        )
        specs_of = {}
        for s in group_specs:
            specs_of.setdefault((s["group"], s["label"], s.get("seat")), s)
        label_min = 30.0
        mins = [label_min]
        caps = [60.0]
        for lab in gfield_labels:
            bw = max(
                block_width(s, players)
                for s in group_specs
                if s["label"] == lab and s.get("seat") is None
            )
            mins.append(max(bw + 2 * CELL_PAD, 22.0))
            caps.append(max(bw + 2 * CELL_PAD, 70.0))
        for lab in gseat_labels:
            bw = max(
                block_width(s, players)
                for s in group_specs
                if s["label"] == lab and s.get("seat") is not None
            )
            for _s in range(players):
                mins.append(bw + 2 * CELL_PAD)
                caps.append(max(bw + 2 * CELL_PAD, 100.0))
        widths = _spread(mins, caps, width)
        xs = [LEFT]
        for w in widths:
            xs.append(xs[-1] + w)
        g_specs = list(group_specs)
        row_h = mark_row_height(g_specs, players)
        sub = LINE + 2  # the seats' row under a spanning header
        head_h = 2 * LINE + 4
        ys = [y, y + head_h] + [y + head_h + (r + 1) * row_h for r in range(len(groups))]
        grid = Grid(xs, ys)
        grid.cells.append(Cell(xs[0], y, widths[0], head_h, "head", groups[0].rpartition(" ")[0]))
        for k, lab in enumerate(gfield_labels):
            grid.cells.append(Cell(xs[1 + k], y, widths[1 + k], head_h, "head", lab))
        first = 1 + len(gfield_labels)
        for k, lab in enumerate(gseat_labels):
            c0 = first + k * players
            span_x = xs[c0]
            span_w = xs[c0 + players] - span_x
            grid.cells.append(Cell(span_x, y, span_w, head_h - sub, "head", lab))
            grid.rules.append((span_x, span_x + span_w, y + head_h - sub))
            for s in range(players):
                cx = xs[c0 + s]
                grid.cells.append(Cell(cx, y + head_h - sub, widths[c0 + s], sub, "seathead", s))
                if s > 0:
                    grid.short[c0 + s] = y + head_h - sub
        for r, group in enumerate(groups):
            ry = ys[r + 1]
            grid.cells.append(Cell(xs[0], ry, widths[0], row_h, "group", group))
            for k, lab in enumerate(gfield_labels):
                s = specs_of.get((group, lab, None))
                if s is None:
                    continue
                bw = block_width(s, players)
                fields[s["name"]] = _block(
                    s, players, xs[1 + k] + (widths[1 + k] - bw) / 2, ry + ROW_PAD
                )
            for k, lab in enumerate(gseat_labels):
                for seat in range(players):
                    s = specs_of.get((group, lab, seat))
                    if s is None:
                        continue
                    c = first + k * players + seat
                    bw = block_width(s, players)
                    fields[s["name"]] = _block(
                        s, players, xs[c] + (widths[c] - bw) / 2, ry + ROW_PAD
                    )
        grids.append(grid)
        y = ys[-1] + 4

    # the table's own fields: a band of [marks][label] cells
    if box_specs:
        row_h = mark_row_height(box_specs, players)
        x = LEFT
        band = Grid([], [])
        for s in box_specs:
            bw = block_width(s, players)
            label_w = 150.0
            if x + bw + label_w > RIGHT + 0.01:
                x = LEFT
                y += row_h + 4
            fields[s["name"]] = _block(s, players, x, y + ROW_PAD)
            band.cells.append(Cell(x + bw + 3, y + ROW_PAD, label_w - 6, row_h, "label", s))
            x += bw + label_w
        grids.append(band)
        y += row_h + 4

    layout.text_top = y
    layout.fields = [fields[s["name"]] for s in schema]
    if y > BOTTOM:
        raise LayoutError(f"the marks reach {y:.0f} pt, below the page's {BOTTOM:.0f}")
    layout.fingerprint = fingerprint(layout)
    return layout


def fingerprint(layout: Layout) -> str:
    """Six hex digits naming the marks' geometry (fields, values, places)."""
    data = [
        layout.version,
        [[round(v, 1) for v in m] for m in layout.markers],
        [
            [a.field, a.kind, str(a.value), a.place, round(a.x, 1), round(a.y, 1), a.shape]
            for a in layout.areas
        ],
    ]
    blob = json.dumps(data, separators=(",", ":"), sort_keys=True).encode()
    return hashlib.sha256(blob).hexdigest()[:6].upper()
