"""Judging the marks of a straightened page, each against the page's own
paper and ink: the paper's brightness is estimated around every point (so
uneven light, a shadow or a fold line do not darken a bubble), the ink's
from the printed corner markers; a pixel is dark when it is darker than
half-way to that ink.

For every mark area the share of dark pixels inside the printed outline
(``fill``) and their mean darkness (``mean``) say filled, empty or unsure; a
ring just outside a filled bubble tells a crossed-out mark (the arms of its
cross) from a filled one; dark pixels in a field's marking area outside its
bubbles, boxes and printed labels are a stray mark. A field is read only when
every one of its marks is clearly filled or clearly empty and they make one
value; otherwise it is unsure, with its reason:

``two_marks`` (two bubbles in one column, or two options), ``faint`` (a mark
neither clearly filled nor clearly empty), ``crossed_out`` (a filled bubble
with a cross over it), ``stray_mark`` (ink in the field's marking area that is
no mark), ``incomplete`` (a digit column left empty after a marked one),
``not_marked`` (a number written in the boxes but no bubble filled),
``out_of_range`` (digits that make a value the field can't hold),
``misaligned`` (the field's printed outlines are not where the straightened
page should show them: its marks are not judged at all).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from scoring.printing import marks

#: a pixel is dark when its darkness is at least this share of the ink's
DARK = 0.38
#: a mark area is filled from this share of dark pixels inside it ...
FILLED = 0.12
#: ... or from this share when they are also this dark on average: a tick's
#: thin stroke across a bubble covers 7-11 % of its inside at 150 dpi, mean
#: 0.065-0.11 (a faint mark has no dark pixel at all, an empty bubble's
#: outline seen a little off reaches 4 % at a mean of 0.03)
TICK_FILL = 0.06
TICK_MEAN = 0.05
#: ... and empty below this share and this mean darkness
EMPTY_FILL = 0.07
EMPTY_MEAN = 0.14
#: the inner part of an outline that is measured (the printed line stays out)
INNER = 0.62
#: the ring outside a bubble where a cross's arms show (in radii of the
#: bubble, and at most this many points from its centre across and down:
#: short of the next bubble's ink)
HALO = (1.6, 2.0)
HALO_REACH = (5.6, 4.7)
#: an outline's own reach (its line, a little blur), in radii
RING = 1.15
#: a filled bubble's ink may spill this far (in radii) before it is stray
SPILL = 1.75
#: stray ink: this many square points of dark pixels in a field's free area
STRAY_PT2 = 2.5
#: written digits without marks: this many square points of ink in the boxes
WRITTEN_PT2 = 3.0


@dataclass
class Reading:
    """One field as read: ``status`` is ``value`` (``value`` holds it),
    ``blank`` (nothing marked) or ``unsure`` (``reason`` says why)."""

    status: str
    value: object = None
    reason: str | None = None

    def to_json(self) -> dict:
        return {"status": self.status, "value": self.value, "reason": self.reason}


class Unreadable(Exception):
    """The page's contrast is too low to judge any mark."""


class Misaligned(Exception):
    """The printed outlines are not where the layout puts them: the page was
    not straightened right (a bent sheet, a marker taken for another)."""


#: a field is aligned when its outlines show as ink where the layout puts
#: them, clearly more than a few points beside (where no outline is): this
#: many times more ...
ALIGNED_RATIO = 1.4
#: ... measured this far beside (points; no pitch of the bubbles)
ALIGN_PROBE = 3.5
#: a thin printed outline, blurred, is at least this dark (of the ink's darkness)
OUTLINE = 0.2


def darkness(page: np.ndarray, layout: marks.Layout, scale: float) -> tuple[np.ndarray, float]:
    """Each pixel's darkness against its paper, as a share of the ink's
    (1 = as dark as the printed markers); and the ink's own darkness."""
    small = cv2.resize(page, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
    k = int(round(15 * scale * 0.25)) | 1  # wider than any solid print (the markers)
    bg = cv2.dilate(small, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    bg = cv2.GaussianBlur(bg, (k, k), 0)
    bg = cv2.resize(bg, (page.shape[1], page.shape[0]), interpolation=cv2.INTER_LINEAR)
    dark = 1.0 - page.astype(np.float32) / np.maximum(bg.astype(np.float32), 1.0)
    inks = []
    half = layout.marker_size * 0.3 * scale
    for mx, my in layout.markers:
        x, y = int(round(mx * scale)), int(round(my * scale))
        h = int(half)
        inks.append(float(np.median(dark[y - h : y + h + 1, x - h : x + h + 1])))
    ink = float(np.median(inks))
    if ink < 0.2:
        raise Unreadable(f"ink {ink:.2f}")
    np.multiply(dark, 1.0 / ink, out=dark)
    return dark, ink


@lru_cache(maxsize=64)
def _shape(w: float, h: float, shape: str, scale: float):
    """Offsets and masks of one kind of mark area: (oy, ox, inner, halo
    quadrants)."""
    rx, ry = w / 2 * HALO[1] * scale, h / 2 * HALO[1] * scale
    hx, hy = int(np.ceil(rx)) + 1, int(np.ceil(ry)) + 1
    oy, ox = np.mgrid[-hy : hy + 1, -hx : hx + 1]
    ax, ay = w / 2 * scale, h / 2 * scale
    if shape == "box":
        r = np.maximum(np.abs(ox) / ax, np.abs(oy) / ay)
    else:
        r = np.sqrt((ox / ax) ** 2 + (oy / ay) ** 2)
    inner = r <= INNER
    halo = (
        (r >= HALO[0])
        & (r <= HALO[1])
        & (np.abs(ox) <= HALO_REACH[0] * scale)
        & (np.abs(oy) <= HALO_REACH[1] * scale)
    )
    quads = [
        halo & (ox * sx > 0) & (oy * sy > 0) for sx, sy in ((1, 1), (1, -1), (-1, 1), (-1, -1))
    ]
    return oy, ox, inner, quads


@dataclass
class Measure:
    fill: np.ndarray
    mean: np.ndarray  # above the paper just around it
    halo: np.ndarray  # the dark share of the ring outside
    quads: np.ndarray  # how many quarters of that ring hold ink


def measure(
    dark: np.ndarray, areas: list, scale: float, printed: np.ndarray | None = None
) -> Measure:
    """The marks of ``areas`` (all of one size and shape); ``printed`` marks
    the pixels where the sheet has print (no pen ink counts there in the ring)."""
    a0 = areas[0]
    oy, ox, inner, quads = _shape(a0.w, a0.h, a0.shape, scale)
    cx = np.array([round(a.x * scale) for a in areas], dtype=np.intp)
    cy = np.array([round(a.y * scale) for a in areas], dtype=np.intp)
    ys = np.clip(cy[:, None, None] + oy[None], 0, dark.shape[0] - 1)
    xs = np.clip(cx[:, None, None] + ox[None], 0, dark.shape[1] - 1)
    win = dark[ys, xs]
    d = win >= DARK
    n_in = inner.sum()
    fill = d[:, inner].sum(axis=1) / n_in
    mean = win[:, inner].mean(axis=1)
    clear = np.ones_like(d) if printed is None else ~printed[ys, xs]
    ring = d & clear
    qs = np.stack([ring[:, q].sum(axis=1) / max(q.sum(), 1) for q in quads], axis=1)
    halo = qs.mean(axis=1)
    # the paper just around: a shadow's or a fold's edge darkens both alike
    around = np.zeros_like(inner)
    for q in quads:
        around |= q
    sel = clear & around[None]
    local = (win * sel).sum(axis=(1, 2)) / np.maximum(sel.sum(axis=(1, 2)), 1)
    return Measure(fill, mean - np.minimum(local, mean), halo, (qs > 0.04).sum(axis=1))


@lru_cache(maxsize=32)
def _free_masks(layout_key: str, scale: float, layout_ref):
    """Per field, the window (y0, y1, x0, x1) of its marking area and a mask
    of where no printed thing and no mark belongs (stray ink shows there),
    and the write-in boxes' insides."""
    layout = layout_ref()
    out = {}
    for f in layout.fields:
        x0, y0, x1, y1 = f.block
        rows_top = min((a.y - a.h / 2 for a in f.areas), default=y0) - 1.0
        wx0, wy0 = int((x0 - 1.5) * scale), int(rows_top * scale)
        wx1, wy1 = int(np.ceil((x1 + 1.5) * scale)), int(np.ceil((y1 + 1.5) * scale))
        free = np.ones((wy1 - wy0, wx1 - wx0), dtype=np.uint8)
        for a in f.areas:
            cx, cy = (a.x * scale - wx0, a.y * scale - wy0)
            ax, ay = (a.w / 2 * RING + 0.4) * scale, (a.h / 2 * RING + 0.4) * scale
            if a.shape == "box":
                cv2.rectangle(
                    free, (int(cx - ax), int(cy - ay)), (int(cx + ax), int(cy + ay)), 0, -1
                )
            else:
                cv2.ellipse(free, (round(cx), round(cy)), (round(ax), round(ay)), 0, 0, 360, 0, -1)
        for _text, tx, ty in f.scale + f.heads:
            cx, cy = tx * scale - wx0, ty * scale - wy0
            cv2.rectangle(
                free,
                (int(cx - 4.0 * scale), int(cy - 4.2 * scale)),
                (int(cx + 4.0 * scale), int(cy + 4.2 * scale)),
                0,
                -1,
            )
        writes = []
        for bx, by, bw, bh in f.write_in:
            i = 1.3
            writes.append(
                (
                    int((by + i) * scale),
                    int((by + bh - i) * scale),
                    int((bx + i) * scale),
                    int((bx + bw - i) * scale),
                )
            )
        out[f.name] = ((wy0, wy1, wx0, wx1), free.astype(bool), writes)
    return out


_PRINTED: dict = {}


def printed_mask(layout: marks.Layout, scale: float) -> np.ndarray:
    """Where the sheet has print near its marks: outlines, write-in boxes,
    scale labels, grid lines (a little wider than printed)."""
    key = (layout.fingerprint, layout.players, len(layout.areas), scale)
    if key in _PRINTED:
        return _PRINTED[key]
    h, w = int(round(marks.PAGE_H * scale)), int(round(marks.PAGE_W * scale))
    m = np.zeros((h, w), np.uint8)
    t = max(1, int(round(1.2 * scale)))

    def pt(x, y):
        return (int(round(x * scale)), int(round(y * scale)))

    for f in layout.fields:
        for a in f.areas:
            if a.shape == "box":
                cv2.rectangle(
                    m, pt(a.x - a.w / 2, a.y - a.h / 2), pt(a.x + a.w / 2, a.y + a.h / 2), 1, t
                )
            else:
                cv2.ellipse(m, pt(a.x, a.y), pt(a.w / 2, a.h / 2), 0, 0, 360, 1, t)
        for x, y, bw, bh in f.write_in:
            cv2.rectangle(m, pt(x, y), pt(x + bw, y + bh), 1, t)
        for _text, tx, ty in f.scale + f.heads:
            cv2.rectangle(m, pt(tx - 4.0, ty - 4.2), pt(tx + 4.0, ty + 4.2), 1, -1)
    for grid in layout.grids:
        if not grid.x:
            continue
        for y in grid.y:
            cv2.line(m, pt(grid.x[0], y), pt(grid.x[-1], y), 1, t)
        for x in grid.x:
            cv2.line(m, pt(x, grid.y[0]), pt(x, grid.y[-1]), 1, t)
        for x0, x1, y in grid.rules:
            cv2.line(m, pt(x0, y), pt(x1, y), 1, t)
    out = m.astype(bool)
    if len(_PRINTED) > 32:
        _PRINTED.clear()
    _PRINTED[key] = out
    return out


#: a field's outlines are looked for this far (points) around where the
#: straightened page puts them (a bent sheet, a photo's imprecise markers);
#: less than half the rows' pitch, so a row can never be taken for the next
SEARCH = 3.0
#: a field whose outlines stand out only this much is aligned when at least
#: two clearly aligned fields within this many points agree on its shift
NEIGHBOUR_RATIO = 1.15
NEIGHBOURS = 160.0


def _outline_mask(f, scale: float, x0: int, y0: int, shape: tuple[int, int]) -> np.ndarray:
    mask = np.zeros(shape, np.uint8)
    for a in f.areas:
        centre = (round(a.x * scale) - x0, round(a.y * scale) - y0)
        if a.shape == "box":
            hw, hh = round(a.w / 2 * scale), round(a.h / 2 * scale)
            cv2.rectangle(
                mask, (centre[0] - hw, centre[1] - hh), (centre[0] + hw, centre[1] + hh), 1, 1
            )
        else:
            axes = (round(a.w / 2 * scale), round(a.h / 2 * scale))
            cv2.ellipse(mask, centre, axes, 0, 0, 360, 1, 1)
    return mask


def _register(ink: np.ndarray, layout: marks.Layout, scale: float) -> dict[str, tuple]:
    """Per field: where its printed outlines are (a shift of at most
    ``SEARCH`` points from where the layout puts them, in pixels), and
    whether that is clear — more ink on them there than on the same shapes
    moved ``ALIGN_PROBE`` points aside, and not at the edge of the search.
    ``{name: (dx, dy, aligned)}``."""
    out = {}
    r = int(round(SEARCH * scale))
    d = int(round(ALIGN_PROBE * scale))
    probes = [(dx, dy) for dx in (-d, 0, d) for dy in (-d, 0, d) if (dx, dy) != (0, 0)]
    h, w = ink.shape
    m = r + d
    weak: dict[str, bool] = {}
    for f in layout.fields:
        x0, y0, x1, y1 = (int(round(v * scale)) for v in f.block)
        x0, y0 = max(x0, m), max(y0, m)
        x1, y1 = min(x1, w - m), min(y1, h - m)
        if x1 <= x0 or y1 <= y0:
            out[f.name] = (0, 0, False)
            continue
        mask = _outline_mask(f, scale, x0, y0, (y1 - y0, x1 - x0))
        n = max(int(mask.sum()), 1)
        region = ink[y0 - r : y1 + r, x0 - r : x1 + r]
        score = cv2.matchTemplate(region, mask.astype(np.float32), cv2.TM_CCORR) / n
        _lo, best, _lo_at, (bx, by) = cv2.minMaxLoc(score)
        dx, dy = bx - r, by - r
        on = mask.astype(bool)
        beside = max(
            ink[y0 + dy + py : y1 + dy + py, x0 + dx + px : x1 + dx + px][on].sum() / n
            for px, py in probes
        )
        inside = abs(dx) < r and abs(dy) < r and best > 0.08
        ratio = best / max(beside, 1e-6)
        out[f.name] = (dx, dy, bool(inside and ratio >= ALIGNED_RATIO))
        weak[f.name] = inside and ratio >= NEIGHBOUR_RATIO
    # a field whose outlines stand out less (a small field, a blurred photo)
    # is aligned where its clearly aligned neighbours put it too
    centres = {
        f.name: ((f.block[0] + f.block[2]) / 2, (f.block[1] + f.block[3]) / 2)
        for f in layout.fields
    }
    for f in layout.fields:
        dx, dy, ok = out[f.name]
        if ok or not weak.get(f.name):
            continue
        cx, cy = centres[f.name]
        near = [
            out[g.name][:2]
            for g in layout.fields
            if out[g.name][2]
            and abs(centres[g.name][0] - cx) <= NEIGHBOURS
            and abs(centres[g.name][1] - cy) <= NEIGHBOURS
        ]
        if len(near) >= 2:
            mx, my = np.median(np.array(near), axis=0)
            if abs(dx - mx) <= 1.5 and abs(dy - my) <= 1.5:
                out[f.name] = (dx, dy, True)
    return out


def _shifted(dark: np.ndarray, layout: marks.Layout, scale: float, shifts: dict) -> np.ndarray:
    """The page with each field's region moved by its shift, so that its
    outlines are where the layout puts them."""
    out = dark.copy()
    h, w = dark.shape
    pad = 2.5  # points around a field's block: its spill, its stray-ink window
    for f in layout.fields:
        dx, dy, aligned = shifts[f.name]
        if not aligned or (dx == 0 and dy == 0):
            continue
        x0, y0, x1, y1 = f.block
        rows_top = min((a.y - a.h / 2 for a in f.areas), default=y0)
        y0 = min(y0, rows_top)
        x0, y0 = int((x0 - pad) * scale), int((y0 - pad) * scale)
        x1, y1 = int(np.ceil((x1 + pad) * scale)), int(np.ceil((y1 + pad) * scale))
        x0, y0 = max(x0, 0, -dx), max(y0, 0, -dy)
        x1, y1 = min(x1, w, w - dx), min(y1, h, h - dy)
        out[y0:y1, x0:x1] = dark[y0 + dy : y1 + dy, x0 + dx : x1 + dx]
    return out


class _Ref:
    """A hashable handle on a layout for the caches (by its fingerprint)."""

    def __init__(self, layout):
        self.layout = layout

    def __call__(self):
        return self.layout

    def __hash__(self):
        return hash((self.layout.fingerprint, self.layout.players, len(self.layout.areas)))

    def __eq__(self, other):
        return isinstance(other, _Ref) and hash(self) == hash(other)


def alignment(page: np.ndarray, layout: marks.Layout, scale: float) -> float:
    """The share of the layout's fields whose printed outlines the
    straightened ``page`` shows where the layout puts them (1.0: every one;
    a sheet of another layout shows few)."""
    dark, _ink = darkness(page, layout, scale)
    shifts = _register((dark >= OUTLINE).astype(np.float32), layout, scale)
    return sum(ok for _dx, _dy, ok in shifts.values()) / max(len(shifts), 1)


#: a ruled line shows as ink along at least this share of its length (the
#: page's lines measured in a band this many points high, for a line a
#: straightened photo shows a little slanted or bent) ...
RULED = 0.6
#: a rule the layout does not have counts from this share (a blurred photo's
#: line of text may run together over more than ``RULED`` of the width)
RULED_MORE = 0.9
RULE_BAND = 2.5
#: ink is a rule where it runs on this many points (no letter does)
RULE_RUN = 16.0
#: ... within this many points of where the layout puts it
RULE_NEAR = 4.0


def _lines(profile: np.ndarray, scale: float, level: float = RULED) -> list[float]:
    """The centres (points) of the runs where ``profile`` shows a line."""
    on = np.concatenate([[False], profile >= level, [False]])
    edges = np.flatnonzero(on[1:] != on[:-1])
    return [(a + b - 1) / 2 / scale for a, b in zip(edges[::2], edges[1::2], strict=True)]


def grids_match(page: np.ndarray, layout: marks.Layout, scale: float) -> bool:
    """Whether the straightened ``page`` shows the ruled tables of
    ``layout`` and no others: each table's full-width rules exactly where
    the layout puts them (none missing, none more: a sheet of the same game
    for more or fewer players has more or fewer rows), and its column rules
    through the last row likewise (another game has other columns)."""
    dark, _ink = darkness(page, layout, scale)
    ink = (dark >= OUTLINE).astype(np.uint8)
    band = max(1, int(round(RULE_BAND * scale)))
    run = max(3, int(round(RULE_RUN * scale)))
    across = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((1, run), np.uint8))
    down = cv2.morphologyEx(ink, cv2.MORPH_OPEN, np.ones((run, 1), np.uint8))
    h, w = ink.shape
    grids = [g for g in layout.grids if g.x and len(g.y) >= 2]
    # every full-width print the layout has: its rules, and rows of write-in boxes
    every_y = [y for g in layout.grids for y in g.y] + [
        y for g in layout.grids for *_x, y in g.rules
    ]
    every_y += [y + d for f in layout.fields for _x, y, _w, bh in f.write_in for d in (0, bh)]
    for g in grids:
        x0, x1 = int(g.x[0] * scale), int(g.x[-1] * scale)
        rows = np.diff(g.y)
        # within the markers' rows: a photo's page edge is no rule
        inside = marks.MARKER_EDGE + marks.MARKER
        y0 = int(max(inside, g.y[0] - 1.5 * rows.max()) * scale)
        y1 = int(min(marks.PAGE_H - inside, g.y[-1] + 1.5 * rows.max()) * scale)
        region = cv2.dilate(across[y0:y1, x0:x1], np.ones((band, 1), np.uint8))
        profile = region.mean(axis=1)
        seen = [y + y0 / scale for y in _lines(profile, scale)]
        if any(min(abs(y - s) for s in seen) > RULE_NEAR for y in g.y) if seen else True:
            return False
        seen = [y + y0 / scale for y in _lines(profile, scale, RULED_MORE)]
        if any(
            min(abs(s - y) for y in every_y) > RULE_NEAR and not _fold(ink, s, None, scale)
            for s in seen
        ):
            return False
        ya, yb = int(g.y[-2] * scale) + band, int(g.y[-1] * scale) - band
        xa, xb = max(0, x0 - band), min(w, x1 + band)
        if yb - ya < band:
            continue
        region = cv2.dilate(down[ya:yb, xa:xb], np.ones((1, band), np.uint8))
        profile = region.mean(axis=0)
        seen = [x + xa / scale for x in _lines(profile, scale)]
        if not seen or any(min(abs(x - s) for s in seen) > RULE_NEAR for x in g.x):
            return False
        seen = [x + xa / scale for x in _lines(profile, scale, RULED_MORE)]
        if any(
            min(abs(s - x) for x in g.x) > RULE_NEAR and not _fold(ink, None, s, scale)
            for s in seen
        ):
            return False
    return True


def _fold(ink: np.ndarray, y: float | None, x: float | None, scale: float) -> bool:
    """Whether a line seen at ``y`` (across) or ``x`` (down) runs on into the
    page's margin, where no rule is printed: a fold or a crease of the paper."""
    b = max(1, int(round(RULE_BAND * scale)))
    if y is not None:
        c = int(round(y * scale))
        margin = ink[max(0, c - b) : c + b + 1, int(4 * scale) : int(28 * scale)]
        return bool(margin.size) and float(margin.max(axis=0).mean()) >= 0.5
    c = int(round(x * scale))
    margin = ink[int(4 * scale) : int(14 * scale), max(0, c - b) : c + b + 1]
    return bool(margin.size) and float(margin.max(axis=1).mean()) >= 0.5


#: a filled bubble is crossed out when ink shows in at least three quarters
#: of the ring around it, this share of the ring dark
CROSSED_HALO = 0.06
#: a filled neighbour's own ink, for the ring of the bubble beside it: its
#: outline's box widened this far (points; a scribble's corners spill past
#: the oval, a cross's arms through the ring reach no nearer to it)
NEIGHBOUR_PAD = (1.2, 1.0)


def _crossed_apart(dark, printed, areas, state, crossed, scale: float) -> np.ndarray:
    """``crossed`` checked again with the filled neighbours' own ink left
    out of each ring: in a dense block a scribble in the next column or row
    reaches into the ring and looks like the arms of a cross."""
    out = crossed.copy()
    filled = np.flatnonzero(state == 2)
    for i in np.flatnonzero(crossed):
        a = areas[i]
        oy, ox, _inner, quads = _shape(a.w, a.h, a.shape, scale)
        cx, cy = round(a.x * scale), round(a.y * scale)
        ys = np.clip(cy + oy, 0, dark.shape[0] - 1)
        xs = np.clip(cx + ox, 0, dark.shape[1] - 1)
        keep = ~printed[ys, xs]
        for j in filled:
            b = areas[j]
            if j == i or abs(b.x - a.x) > 3 * a.w or abs(b.y - a.y) > 3 * a.h:
                continue
            bx, by = b.x * scale - cx, b.y * scale - cy
            hx = (b.w / 2 + NEIGHBOUR_PAD[0]) * scale
            hy = (b.h / 2 + NEIGHBOUR_PAD[1]) * scale
            keep &= ~((np.abs(ox - bx) <= hx) & (np.abs(oy - by) <= hy))
        ring = (dark[ys, xs] >= DARK) & keep
        qs = np.array([ring[q].sum() / max(int((q & keep).sum()), 1) for q in quads])
        out[i] = (qs > 0.04).sum() >= 3 and qs.mean() > CROSSED_HALO
    return out


def judge(page: np.ndarray, layout: marks.Layout, scale: float) -> dict[str, Reading]:
    """Every field of the straightened ``page`` (``scale`` px/pt)."""
    dark, _ink = darkness(page, layout, scale)
    shifts = _register((dark >= OUTLINE).astype(np.float32), layout, scale)
    aligned = {name: ok for name, (_dx, _dy, ok) in shifts.items()}
    if aligned and sum(aligned.values()) < len(aligned) / 2:
        raise Misaligned("the outlines are not where the markers put them")
    dark = _shifted(dark, layout, scale, shifts)
    areas = layout.areas
    groups: dict[tuple, list[int]] = {}
    for i, a in enumerate(areas):
        groups.setdefault((a.w, a.h, a.shape), []).append(i)
    fill = np.zeros(len(areas))
    mean = np.zeros(len(areas))
    halo = np.zeros(len(areas))
    quads = np.zeros(len(areas), dtype=int)
    printed = printed_mask(layout, scale)
    for idx in groups.values():
        m = measure(dark, [areas[i] for i in idx], scale, printed)
        fill[idx], mean[idx], halo[idx], quads[idx] = m.fill, m.mean, m.halo, m.quads
    filled = (fill >= FILLED) | ((fill >= TICK_FILL) & (mean >= TICK_MEAN))
    state = np.where(
        filled, 2, np.where((fill < EMPTY_FILL) & (mean < EMPTY_MEAN), 0, 1)
    )  # 2 filled, 0 empty, 1 unsure
    crossed = (state == 2) & (quads >= 3) & (halo > CROSSED_HALO)
    if crossed.any():
        crossed = _crossed_apart(dark, printed, areas, state, crossed, scale)
    ref = _Ref(layout)
    free = _free_masks(layout.fingerprint + str(len(areas)), scale, ref)
    print_ink = dark >= DARK
    ink_px = print_ink & ~printed
    out = {}
    k = 0
    for f in layout.fields:
        n = len(f.areas)
        sl = slice(k, k + n)
        k += n
        (wy0, wy1, wx0, wx1), mask, writes = free[f.name]
        loose = ink_px[wy0:wy1, wx0:wx1] & mask
        stray = int(loose.sum())
        if stray > STRAY_PT2 * scale * scale:
            # the spill of a filled bubble is no stray ink
            spill = np.zeros(loose.shape, np.uint8)
            for a, st in zip(f.areas, state[sl], strict=True):
                if st == 2:
                    centre = (round(a.x * scale - wx0), round(a.y * scale - wy0))
                    axes = (round(a.w / 2 * SPILL * scale), round(a.h / 2 * SPILL * scale))
                    cv2.ellipse(spill, centre, axes, 0, 0, 360, 1, -1)
            stray = int((loose & (spill == 0)).sum())
        written = sum(int(ink_px[a:b, c:d].sum()) for a, b, c, d in writes)
        if not aligned[f.name]:
            out[f.name] = Reading("unsure", reason="misaligned")
            continue
        out[f.name] = _decide(
            f,
            state[sl],
            crossed[sl],
            stray > STRAY_PT2 * scale * scale,
            written > WRITTEN_PT2 * scale * scale,
        )
    return out


def _decide(f, state, crossed, stray: bool, written: bool) -> Reading:
    if crossed.any():
        return Reading("unsure", reason="crossed_out")
    if stray:
        return Reading("unsure", reason="stray_mark")
    areas = f.areas
    if f.kind == "int":
        columns: dict[int, list[int]] = {}
        for i, a in enumerate(areas):
            columns.setdefault(a.column, []).append(i)
        digits = []
        for c in sorted(columns):
            idx = columns[c]
            filled = [i for i in idx if state[i] == 2]
            unsure = [i for i in idx if state[i] == 1]
            if len(filled) > 1:
                return Reading("unsure", reason="two_marks")
            if unsure:
                return Reading("unsure", reason="faint")
            digits.append(areas[filled[0]].value if filled else None)
        if all(d is None for d in digits):
            if written:
                return Reading("unsure", reason="not_marked")
            return Reading("blank")
        first = next(i for i, d in enumerate(digits) if d is not None)
        if any(d is None for d in digits[first:]):
            return Reading("unsure", reason="incomplete")
        value = int("".join(str(d) for d in digits[first:]))
        if (f.min is not None and value < f.min) or (f.max is not None and value > f.max):
            return Reading("unsure", reason="out_of_range")
        return Reading("value", value)
    if (state == 1).any():
        return Reading("unsure", reason="faint")
    filled = [areas[i].value for i in range(len(areas)) if state[i] == 2]
    if f.kind == "bool":
        return Reading("value", True) if filled else Reading("blank")
    if f.kind == "seats":
        return Reading("value", sorted(filled)) if filled else Reading("blank")
    if len(filled) > 1:
        return Reading("unsure", reason="two_marks")
    if not filled:
        return Reading("blank")
    return Reading("value", filled[0])
