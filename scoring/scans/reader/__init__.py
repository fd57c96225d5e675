"""The sheet reader: scanned pages and phone photos of the machine-readable
score sheets (:mod:`scoring.printing.marks`) in, plain data out. Pure: no
Django; OpenCV measures, zxing-cpp reads the codes, pypdfium2 renders PDFs.

    result = read_file(data, layout_for)           # PDF, JPEG or PNG bytes
    for page in read_pages(data, layout_for, keep_image=True): ...  # one by one
    page = read_image(gray_or_bgr_array, layout_for)

``layout_for(code: SheetCode) -> Layout | None`` gives the layout of the
sheet a code names (the caller knows the tournament's game, options and the
table's size: ``marks.sheet_layout(engine.sheet_schema(n, options), n)``),
None for a sheet it does not know.

A :class:`FileResult` is refused as a whole (``reason``: ``not_image_or_pdf``,
``too_large``, ``too_many_pages``, ``decompression_bomb``,
``unreadable_file``) or holds one :class:`PageResult` per page. A page is
``read`` — its ``fields`` map every field of the layout to a
:class:`~scoring.scans.reader.marking.Reading` (a value, blank, or unsure with
its reason) — or ``refused`` with a reason: ``blank_page``, ``not_a_sheet``,
``two_sheets``, ``code_unreadable`` (a sheet whose code can't be read),
``unknown_sheet`` (``layout_for`` knows no such sheet), ``layout_mismatch``
(the sheet was printed with another layout than the table's now),
``markers_not_found``, ``misaligned`` (the print is not where the markers
put it), ``unreadable`` (too little contrast), ``too_large``,
``decompression_bomb`` (a PDF page). A page whose code can't be read is read
once its sheet is known (the staff name its table): :func:`read_as` finds
its markers without the code. Nothing is ever guessed: a page or a
field that is not clear says so.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field

import cv2
import numpy as np

from scoring.printing import marks
from scoring.scans.reader import locate as _locate
from scoring.scans.reader.inputs import (
    PDF,
    Limits,
    Refused,
    check_size,
    decode_image,
    kind_of,
    pdf_pages,
)
from scoring.scans.reader.marking import (
    Misaligned,
    Reading,
    Unreadable,
    alignment,
    grids_match,
    judge,
)

__all__ = [
    "FileResult",
    "Limits",
    "PageResult",
    "Reading",
    "Refused",
    "page_count",
    "read_file",
    "read_image",
    "read_as",
    "read_pages",
]

#: images are reduced to this many pixels on their longer edge before reading
WORK_EDGE = 3000

LayoutFor = Callable[[marks.SheetCode], "marks.Layout | None"]


@dataclass
class PageResult:
    page: int
    status: str  # "read" | "refused"
    reason: str | None = None
    code: str | None = None
    sheet: dict | None = None  # tournament, round, table, version, fingerprint
    fields: dict[str, Reading] = field(default_factory=dict)
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    #: with ``keep_image``: the page straightened (``straight``) at
    #: ``locate.SCALE`` pixels per point when the sheet was found, else as read
    image: np.ndarray | None = field(default=None, repr=False, compare=False)
    straight: bool = False

    @property
    def complete(self) -> bool:
        """Read, and no field unsure."""
        return self.status == "read" and all(r.status != "unsure" for r in self.fields.values())

    @property
    def unsure(self) -> dict[str, str]:
        return {k: r.reason for k, r in self.fields.items() if r.status == "unsure"}

    def values(self) -> dict:
        """The sheet as the engine reads it: the fields read, blanks left out."""
        return {k: r.value for k, r in self.fields.items() if r.status == "value"}

    def to_json(self) -> dict:
        return {
            "page": self.page,
            "status": self.status,
            "reason": self.reason,
            "code": self.code,
            "sheet": self.sheet,
            "fields": {k: r.to_json() for k, r in self.fields.items()},
            "seconds": round(self.seconds, 4),
        }


@dataclass
class FileResult:
    status: str  # "read" | "refused"
    reason: str | None = None
    pages: list[PageResult] = field(default_factory=list)

    def to_json(self) -> dict:
        return {
            "status": self.status,
            "reason": self.reason,
            "pages": [p.to_json() for p in self.pages],
        }


def read_file(data: bytes, layout_for: LayoutFor, limits: Limits | None = None) -> FileResult:
    """Every page of a PDF, JPEG or PNG file; limits are checked before
    anything is decoded."""
    try:
        return FileResult("read", pages=list(read_pages(data, layout_for, limits)))
    except Refused as exc:
        return FileResult("refused", exc.reason)


def page_count(data: bytes, limits: Limits | None = None) -> int:
    """The pages a file holds, or :class:`Refused` (its size, kind and a
    PDF's page count checked; nothing rendered or decoded)."""
    import pypdfium2 as pdfium

    limits = limits or Limits()
    check_size(data, limits)
    if kind_of(data) != PDF:
        return 1
    try:
        doc = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        raise Refused("unreadable_file", str(exc)) from None
    try:
        count = len(doc)
    finally:
        doc.close()
    if count == 0:
        raise Refused("unreadable_file", "a PDF without pages")
    if count > limits.max_pages:
        raise Refused("too_many_pages", f"{count} pages")
    return count


def read_pages(
    data: bytes, layout_for: LayoutFor, limits: Limits | None = None, *, keep_image: bool = False
) -> Iterator[PageResult]:
    """The pages of a file one by one as they are read (:class:`Refused`
    for a file refused as a whole, before its first page)."""
    limits = limits or Limits()
    check_size(data, limits)
    kind = kind_of(data)
    if kind != PDF:
        started, cpu = time.perf_counter(), time.process_time()
        image = decode_image(data, limits)
        page = read_image(image, layout_for, keep_image=keep_image)
        page.seconds = time.perf_counter() - started
        page.cpu_seconds = time.process_time() - cpu
        yield page
        return
    started, cpu = time.perf_counter(), time.process_time()
    for k, image in enumerate(pdf_pages(data, limits), start=1):
        if isinstance(image, Refused):
            yield PageResult(k, "refused", image.reason)
        else:
            page = read_image(image, layout_for, page=k, keep_image=keep_image)
            page.seconds = time.perf_counter() - started
            page.cpu_seconds = time.process_time() - cpu
            yield page
        started, cpu = time.perf_counter(), time.process_time()


def _gray(image: np.ndarray) -> np.ndarray:
    if image.ndim == 3:
        code = cv2.COLOR_BGRA2GRAY if image.shape[2] == 4 else cv2.COLOR_BGR2GRAY
        image = cv2.cvtColor(image, code)
    if image.dtype != np.uint8:
        image = np.clip(image, 0, 255).astype(np.uint8)
    longest = max(image.shape)
    if longest > WORK_EDGE:
        f = WORK_EDGE / longest
        image = cv2.resize(image, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    return np.ascontiguousarray(image)


def _blank(gray: np.ndarray) -> bool:
    """Next to no ink anywhere (a blank page, front or back)."""
    mask, _f = _locate.dark_mask(gray, max(gray.shape) / marks.PAGE_H)
    return float(mask.mean()) < 0.0015


def read_image(
    image: np.ndarray, layout_for: LayoutFor, page: int = 1, *, keep_image: bool = False
) -> PageResult:
    """One page: an image array (grayscale or BGR) of a scan or a photo."""
    started, cpu = time.perf_counter(), time.process_time()
    result = _read(image, layout_for, page, keep_image)
    result.seconds = time.perf_counter() - started
    result.cpu_seconds = time.process_time() - cpu
    return result


def _read(image: np.ndarray, layout_for: LayoutFor, page: int, keep_image: bool) -> PageResult:
    gray = _gray(image)
    result = _judge(gray, layout_for, page)
    if keep_image and result.image is None:
        result.image = gray
    elif not keep_image:
        result.image = None
    return result


def _judge(gray: np.ndarray, layout_for: LayoutFor, page: int) -> PageResult:
    found = _locate.find_codes(gray)
    ours = [(c, marks.parse_code(c.text)) for c in found]
    ours = [(c, parsed) for c, parsed in ours if parsed is not None]
    if len(ours) > 1:
        return PageResult(page, "refused", "two_sheets", code=ours[0][0].text)
    if not ours:
        if _blank(gray):
            return PageResult(page, "refused", "blank_page")
        if _locate.sheet_like(gray) >= 4:
            result = PageResult(page, "refused", "code_unreadable")
            # the markers need no code: the page is kept straightened, to be
            # read once the staff name its table (:func:`read_as`)
            found = _locate.find_markers(gray)
            if found:
                result.image, result.straight = _locate.straighten(gray, found[0]), True
            return result
        return PageResult(page, "refused", "not_a_sheet")
    code, parsed = ours[0]
    sheet = asdict(parsed)
    layout = layout_for(parsed)
    if layout is None:
        return PageResult(page, "refused", "unknown_sheet", code=code.text, sheet=sheet)
    if layout.version != parsed.version or layout.fingerprint != parsed.fingerprint:
        return PageResult(page, "refused", "layout_mismatch", code=code.text, sheet=sheet)
    located = _locate.locate(gray, layout, code)
    if located is None:
        return PageResult(page, "refused", "markers_not_found", code=code.text, sheet=sheet)
    if located.others >= 4:
        return PageResult(page, "refused", "two_sheets", code=code.text, sheet=sheet)
    straight = _locate.straighten(gray, located)
    kept = {"image": straight, "straight": True}
    try:
        readings = judge(straight, layout, _locate.SCALE)
    except Unreadable:
        return PageResult(page, "refused", "unreadable", code=code.text, sheet=sheet, **kept)
    except Misaligned:
        return PageResult(page, "refused", "misaligned", code=code.text, sheet=sheet, **kept)
    return PageResult(page, "read", code=code.text, sheet=sheet, fields=readings, **kept)


#: a page read as a named sheet (:func:`read_as`) is that sheet when at least
#: this share of the layout's fields show their outlines where it puts them
#: (a sheet of another game or table size shows far fewer)
SAME_SHEET = 0.9


def read_as(
    image: np.ndarray, layout: marks.Layout, page: int = 1, *, keep_image: bool = False
) -> PageResult:
    """A page whose code can't be read, read as the sheet of ``layout`` (the
    staff named its table: the layout of that table's game and size). The
    four corner markers are found without the code, the page straightened
    both ways up, and the way whose print matches ``layout`` is judged
    like a read page. Refused: ``markers_not_found``, ``layout_mismatch``
    (the page is not a sheet of this layout: another game or table size),
    ``unreadable``, ``misaligned``. The result names no code or sheet."""
    started, cpu = time.perf_counter(), time.process_time()
    gray = _gray(image)
    result = _judge_as(gray, layout, page)
    if not keep_image:
        result.image = None
    elif result.image is None:
        result.image = gray
    result.seconds = time.perf_counter() - started
    result.cpu_seconds = time.process_time() - cpu
    return result


def _judge_as(gray: np.ndarray, layout: marks.Layout, page: int) -> PageResult:
    found = _locate.find_markers(gray, layout)
    if not found:
        return PageResult(page, "refused", "markers_not_found")
    best, best_share = None, -1.0
    for located in found:
        straight = _locate.straighten(gray, located)
        try:
            share = alignment(straight, layout, _locate.SCALE)
            if share >= SAME_SHEET and not grids_match(straight, layout, _locate.SCALE):
                share = 0.0
        except Unreadable:
            return PageResult(page, "refused", "unreadable", image=straight, straight=True)
        if share > best_share:
            best, best_share = straight, share
        if share >= SAME_SHEET:
            break
    kept = {"image": best, "straight": True}
    if best_share < SAME_SHEET:
        return PageResult(page, "refused", "layout_mismatch", **kept)
    try:
        readings = judge(best, layout, _locate.SCALE)
    except Unreadable:
        return PageResult(page, "refused", "unreadable", **kept)
    except Misaligned:
        return PageResult(page, "refused", "misaligned", **kept)
    return PageResult(page, "read", fields=readings, **kept)
