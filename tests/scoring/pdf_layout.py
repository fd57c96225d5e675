"""What a reader sees on a printed page, checked with pdfplumber: text boxes
that overlap or touch, text crossing a drawn rule (a grid line, a cell's
edge, a cut line), text outside the printable area or a column, and anything
drawn off the page.

A text box is one run of characters drawn in one go: consecutive characters
of the content stream in the same font and size on the same baseline, each
starting where the one before ended (a word, a cell's line, a heading). Two
boxes that overlap are text printed on top of text; two on one line closer
than :data:`MIN_GAP` read as one word ("PunkteSpielwerte").
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass

import pdfplumber

#: the narrowest gap between two text boxes on one line (points)
MIN_GAP = 1.5
#: how close to the paper's edge text may come (5 mm: what printers print)
PRINTABLE = 5 * 72 / 25.4


@dataclass
class Box:
    page: int
    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    size: float
    font: str

    def __str__(self) -> str:
        return (
            f"p{self.page} {self.text!r} ({self.x0:.1f}, {self.top:.1f})–"
            f"({self.x1:.1f}, {self.bottom:.1f}) {self.size:.1f}pt"
        )


@dataclass
class Page:
    number: int
    width: float
    height: float
    boxes: list[Box]
    rules: list[tuple[float, float, float, float]]  # segments (x0, top, x1, bottom)
    graphics: list[tuple[float, float, float, float]]  # bounding boxes of all drawings


def _same_run(prev: dict, ch: dict) -> bool:
    if prev["fontname"] != ch["fontname"] or abs(prev["size"] - ch["size"]) > 0.01:
        return False
    if prev["matrix"][:4] != ch["matrix"][:4]:
        return False
    a, b = prev["matrix"], ch["matrix"]
    if a[0] > 0 and a[1] == 0:  # upright: the run goes to the right on one baseline
        return abs(a[5] - b[5]) < 0.01 and abs(ch["x0"] - prev["x1"]) < 0.05
    if a[0] < 0 and a[1] == 0:  # upside down (a table card's far side): to the left
        return abs(a[5] - b[5]) < 0.01 and abs(ch["x1"] - prev["x0"]) < 0.05
    return False  # turned text: every character a box of its own


def _boxes(number: int, chars: list[dict]) -> list[Box]:
    boxes: list[Box] = []
    prev = None
    for ch in chars:
        if prev is not None and _same_run(prev, ch):
            box = boxes[-1]
            box.text += ch["text"]
            box.x0, box.x1 = min(box.x0, ch["x0"]), max(box.x1, ch["x1"])
            box.top, box.bottom = min(box.top, ch["top"]), max(box.bottom, ch["bottom"])
        else:
            boxes.append(
                Box(
                    number,
                    ch["text"],
                    ch["x0"],
                    ch["top"],
                    ch["x1"],
                    ch["bottom"],
                    ch["size"],
                    ch["fontname"],
                )
            )
        prev = ch
    # a box of spaces only is no text; trailing spaces are no part of a word
    out = []
    for box in boxes:
        if box.text.strip():
            out.append(box)
    return out


def _segments(page) -> tuple[list, list]:
    rules, graphics = [], []
    for line in page.lines:
        rules.append((line["x0"], line["top"], line["x1"], line["bottom"]))
        graphics.append((line["x0"], line["top"], line["x1"], line["bottom"]))
    for rect in page.rects:
        x0, top, x1, bottom = rect["x0"], rect["top"], rect["x1"], rect["bottom"]
        graphics.append((x0, top, x1, bottom))
        rules += [(x0, top, x1, top), (x0, bottom, x1, bottom)]
        rules += [(x0, top, x0, bottom), (x1, top, x1, bottom)]
    for curve in page.curves:
        graphics.append((curve["x0"], curve["top"], curve["x1"], curve["bottom"]))
    return rules, graphics


def read(pdf: bytes) -> list[Page]:
    pages = []
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        for k, page in enumerate(doc.pages, start=1):
            rules, graphics = _segments(page)
            pages.append(
                Page(
                    k, float(page.width), float(page.height), _boxes(k, page.chars), rules, graphics
                )
            )
    return pages


def overlaps(page: Page) -> list[str]:
    """Pairs of text boxes that overlap, or sit on one line closer than MIN_GAP."""
    found = []
    boxes = sorted(page.boxes, key=lambda b: b.top)
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if b.top >= a.bottom - 0.01:
                break
            vertical = min(a.bottom, b.bottom) - max(a.top, b.top)
            horizontal = min(a.x1, b.x1) - max(a.x0, b.x0)
            if vertical > 0.01 and horizontal > -MIN_GAP:
                found.append(f"{a} and {b}")
    return found


def crossings(page: Page) -> list[str]:
    """Text boxes a drawn rule runs through (text over a grid line: out of its cell)."""
    found = []
    inset = 0.6
    for box in page.boxes:
        x0, x1 = box.x0 + inset, box.x1 - inset
        top, bottom = box.top + inset, box.bottom - inset
        for rx0, rtop, rx1, rbottom in page.rules:
            if rx1 - rx0 < 0.01:  # vertical
                if x0 < rx0 < x1 and rtop < bottom and rbottom > top:
                    found.append(f"{box} crosses the vertical rule at x={rx0:.1f}")
                    break
            elif rbottom - rtop < 0.01 and top < rtop < bottom and rx0 < x1 and rx1 > x0:
                found.append(f"{box} crosses the horizontal rule at y={rtop:.1f}")
                break
    return found


def outside(page: Page, margin: float = PRINTABLE, gutters: tuple[float, ...] = ()) -> list[str]:
    """Text closer than ``margin`` to the paper's edge, text across a gutter
    (the x between two columns of a list, below the page's first drawing:
    the title above the columns spans the page), drawings off the page."""
    found = []
    below = min((top for _x0, top, _x1, _bottom in page.graphics), default=0.0)
    for box in page.boxes:
        if (
            box.x0 < margin
            or box.top < margin
            or box.x1 > page.width - margin
            or box.bottom > page.height - margin
        ):
            found.append(f"{box} is outside the printable area")
        for x in gutters:  # from the list's first drawing (its header row) down
            if box.x0 < x < box.x1 and box.bottom > below:
                found.append(f"{box} runs across the column gap at x={x:.1f}")
    for x0, top, x1, bottom in page.graphics:
        if x0 < -0.01 or top < -0.01 or x1 > page.width + 0.01 or bottom > page.height + 0.01:
            found.append(f"a drawing ({x0:.1f}, {top:.1f})–({x1:.1f}, {bottom:.1f}) is off page")
    return found


def problems(
    pdf: bytes | list[Page], *, margin: float = PRINTABLE, gutters: tuple[float, ...] = ()
) -> list:
    """Every overlap, crossing and escape on every page of ``pdf`` (or of
    its pages, read before)."""
    out = []
    for page in read(pdf) if isinstance(pdf, bytes) else pdf:
        out += overlaps(page) + crossings(page) + outside(page, margin, gutters)
    return out


def stream_text(pages: list[Page]) -> str:
    """All text boxes in drawing order, without whitespace: a cell's wrapped
    lines follow each other, so a wrapped name is a substring."""
    return "".join(box.text for page in pages for box in page.boxes).replace(" ", "")


#: a number written the English way: 3.375, 13.5 (not 21.11.2026 or a version 1.2.3)
ENGLISH_DECIMAL = re.compile(r"(?<![\d.])\d+\.\d+(?![\d.])")


def font_sizes(pages: list[Page]) -> set[float]:
    return {round(box.size, 2) for page in pages for box in page.boxes}
