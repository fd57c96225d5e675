"""What a reader accepts, checked before anything is decoded: the file's
kind by its first bytes (PDF, JPEG, PNG), its size, an image's pixel count
read from its header, a PDF's page count, every page's size and every
embedded image's pixel count; then the pages as grayscale arrays.

Every refusal is a :class:`Refused` with a reason code the web side
translates: ``not_image_or_pdf``, ``too_large`` (bytes or pixels of a page),
``too_many_pages``, ``decompression_bomb`` (an image whose pixels are far
more than its bytes can honestly hold, or more than the limit),
``unreadable_file`` (a broken file of a known kind).
"""

from __future__ import annotations

import io
import struct
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

PDF, JPEG, PNG = "pdf", "jpeg", "png"


@dataclass(frozen=True)
class Limits:
    """The most a reader takes: bytes of one file, pages of a PDF, pixels
    of one image or rendered page, and the resolution PDF pages are
    rendered at."""

    max_bytes: int = 40 * 1024 * 1024
    max_pages: int = 300
    max_pixels: int = 60_000_000
    #: pixels per byte of a compressed image beyond which it is a bomb
    max_ratio: int = 1000
    pdf_dpi: int = 200


class Refused(Exception):
    def __init__(self, reason: str, detail: str = ""):
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail


def kind_of(data: bytes) -> str:
    """``pdf``, ``jpeg`` or ``png`` by the file's first bytes, else Refused."""
    head = data[:1024]
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return PNG
    if head.startswith(b"\xff\xd8\xff"):
        return JPEG
    if b"%PDF-" in head:
        return PDF
    raise Refused("not_image_or_pdf")


def image_size(data: bytes, kind: str) -> tuple[int, int]:
    """(width, height) from a PNG's or JPEG's header, without decoding."""
    if kind == PNG:
        if len(data) < 24 or data[12:16] != b"IHDR":
            raise Refused("unreadable_file", "PNG without a header")
        w, h = struct.unpack(">II", data[16:24])
        return w, h
    # JPEG: walk the segments to the first start-of-frame
    pos = 2
    while pos + 4 <= len(data):
        if data[pos] != 0xFF:
            pos += 1
            continue
        marker = data[pos + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
            pos += 1 if marker == 0xFF else 2
            continue
        length = struct.unpack(">H", data[pos + 2 : pos + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
            if pos + 9 > len(data):
                break
            h, w = struct.unpack(">HH", data[pos + 5 : pos + 9])
            return w, h
        pos += 2 + length
    raise Refused("unreadable_file", "JPEG without a frame header")


def check_pixels(w: int, h: int, nbytes: int, limits: Limits) -> None:
    if w <= 0 or h <= 0:
        raise Refused("unreadable_file", "an image without pixels")
    pixels = w * h
    if pixels > limits.max_pixels:
        if pixels > limits.max_ratio * max(nbytes, 1):
            raise Refused("decompression_bomb", f"{w}x{h} from {nbytes} bytes")
        raise Refused("too_large", f"{w}x{h} pixels")
    if pixels > limits.max_ratio * max(nbytes, 1) and pixels > 4_000_000:
        raise Refused("decompression_bomb", f"{w}x{h} from {nbytes} bytes")


def decode_image(data: bytes, limits: Limits) -> np.ndarray:
    """A PNG or JPEG as a grayscale array, after its header passed the limits."""
    import cv2

    kind = kind_of(data)
    w, h = image_size(data, kind)
    check_pixels(w, h, len(data), limits)
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE)
    if image is None:
        raise Refused("unreadable_file", f"{kind} that does not decode")
    if image.shape[0] * image.shape[1] > limits.max_pixels:
        raise Refused("decompression_bomb", "decoded larger than its header said")
    return image


def check_size(data: bytes, limits: Limits) -> None:
    if len(data) > limits.max_bytes:
        raise Refused("too_large", f"{len(data)} bytes")


def pdf_pages(data: bytes, limits: Limits) -> Iterator[np.ndarray | Refused]:
    """The PDF's pages rendered as grayscale arrays (a page over the limits
    gives a :class:`Refused` in its place). The page count is checked before
    any page is rendered, and each page's size and embedded images before
    that page is."""
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    try:
        doc = pdfium.PdfDocument(io.BytesIO(data))
    except pdfium.PdfiumError as exc:
        raise Refused("unreadable_file", str(exc)) from None
    try:
        count = len(doc)
        if count == 0:
            raise Refused("unreadable_file", "a PDF without pages")
        if count > limits.max_pages:
            raise Refused("too_many_pages", f"{count} pages")
        scale = limits.pdf_dpi / 72
        for k in range(count):
            page = doc[k]
            try:
                w, h = page.get_size()
                if w * scale * h * scale > limits.max_pixels:
                    yield Refused("too_large", f"page {k + 1}: {w:.0f}x{h:.0f} pt")
                    continue
                bomb = _image_bomb(page, raw, limits, len(data))
                if bomb:
                    yield Refused("decompression_bomb", f"page {k + 1}: {bomb}")
                    continue
                bitmap = page.render(scale=scale, grayscale=True)
                array = bitmap.to_numpy()
                if array.ndim == 3:
                    array = array[:, :, 0]
                yield np.ascontiguousarray(array)
            finally:
                page.close()
    finally:
        doc.close()


def _image_bomb(page, raw, limits: Limits, nbytes: int) -> str:
    """Why an image on the page is a bomb (its pixels from its dictionary,
    before pdfium decodes it), or ""."""
    total = 0
    for obj in page.get_objects(filter=[raw.FPDF_PAGEOBJ_IMAGE], max_depth=3):
        try:
            w, h = obj.get_px_size()
        except Exception:
            continue
        total += w * h
        if w * h > limits.max_pixels or total > 2 * limits.max_pixels:
            return f"an image of {w}x{h} pixels"
    return ""
