"""QR codes on printed sheets: the ``qrcode`` package encodes, we only draw.

The encoding (byte mode, error correction level M, version chosen to fit) is
``qrcode``'s public API. The mask pattern is fixed: any of the eight masks is a
valid QR code that every reader decodes, and trying all eight to pick the one
with the lowest penalty score costs about five times the encoding itself, once
per table of a round.

Drawing is one filled path with a rectangle per horizontal run of dark modules
(a few hundred rectangles instead of one per module), through ReportLab's
public path API.
"""

from __future__ import annotations

import qrcode
from qrcode.constants import ERROR_CORRECT_H, ERROR_CORRECT_L, ERROR_CORRECT_M, ERROR_CORRECT_Q

LEVELS = {"L": ERROR_CORRECT_L, "M": ERROR_CORRECT_M, "Q": ERROR_CORRECT_Q, "H": ERROR_CORRECT_H}
MASK = 0


def qr_matrix(text: str | bytes, level: str = "M") -> list[list[bool]]:
    """The QR code of ``text`` as rows of booleans (True = dark), no quiet zone."""
    code = qrcode.QRCode(error_correction=LEVELS[level], border=0, mask_pattern=MASK)
    code.add_data(text.encode("utf-8") if isinstance(text, str) else bytes(text))
    code.make(fit=True)
    return code.get_matrix()


def dark_runs(row: list[bool]) -> list[tuple[int, int]]:
    """(first column, length) of every run of dark modules in one row."""
    runs = []
    start = None
    for c, dark in enumerate(row):
        if dark and start is None:
            start = c
        elif not dark and start is not None:
            runs.append((start, c - start))
            start = None
    if start is not None:
        runs.append((start, len(row) - start))
    return runs


def draw_qr(canvas, text: str, x: float, y: float, size: float, level: str = "M") -> None:
    """Draw the QR code of ``text`` with its lower left corner at (x, y), ``size``
    points wide (the quiet zone is the caller's white margin of 4 modules)."""
    matrix = qr_matrix(text, level)
    unit = size / len(matrix)
    path = canvas.beginPath()
    for r, row in enumerate(matrix):
        bottom = y + size - (r + 1) * unit
        for start, length in dark_runs(row):
            path.rect(x + start * unit, bottom, length * unit, unit)
    canvas.saveState()
    canvas.setFillColorRGB(0, 0, 0)
    canvas.drawPath(path, stroke=0, fill=1)
    canvas.restoreState()
