"""QR codes on printed sheets: the ``qrcode`` package encodes, we only draw.

The encoding is ``qrcode``'s public API: byte mode (one segment, so the
version depends only on the length and is computed once per length),
error correction level M, the smallest version that fits. The mask pattern is
fixed: each of the eight masks gives a valid QR code that every reader
decodes, and scoring all eight to pick the lowest penalty costs several times
the encoding itself, once per table of a round.

Drawing is one filled path with a rectangle per horizontal run of dark
modules (a few hundred rectangles instead of one per module). The path is
written in module units under one coordinate transform, through the
canvas's public ``addLiteral``: whole numbers only, so a 250-table round
does not spend its time formatting floats.
"""

from __future__ import annotations

from functools import lru_cache

import qrcode
from qrcode.constants import ERROR_CORRECT_H, ERROR_CORRECT_L, ERROR_CORRECT_M, ERROR_CORRECT_Q

LEVELS = {"L": ERROR_CORRECT_L, "M": ERROR_CORRECT_M, "Q": ERROR_CORRECT_Q, "H": ERROR_CORRECT_H}
MASK = 0


def _code(data: bytes, level: int, version: int | None) -> qrcode.QRCode:
    code = qrcode.QRCode(version=version, error_correction=level, border=0, mask_pattern=MASK)
    code.add_data(data, optimize=0)
    code.make(fit=version is None)
    return code


@lru_cache(maxsize=256)
def _version(length: int, level: int) -> int:
    """The smallest version holding ``length`` bytes at ``level``. Measured
    on non-zero bytes: ``qrcode`` fails on data that is all zero bytes
    (``glog(0)``), and in byte mode only the length decides the version."""
    return _code(b"x" * length, level, None).version


def qr_matrix(text: str | bytes, level: str = "M") -> list[list[bool]]:
    """The QR code of ``text`` as rows of booleans (True = dark), no quiet zone."""
    data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    lvl = LEVELS[level]
    return _code(data, lvl, _version(len(data), lvl)).get_matrix()


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


def _num(value: float) -> str:
    return f"{value:.4f}".rstrip("0").rstrip(".")


def draw_qr(canvas, text: str, x: float, y: float, size: float, level: str = "M") -> None:
    """Draw the QR code of ``text`` with its lower left corner at (x, y), ``size``
    points wide (the quiet zone is the caller's white margin of 4 modules)."""
    matrix = qr_matrix(text, level)
    unit = size / len(matrix)
    # module (column c, row r) -> (x + c * unit, y + size - r * unit): rows downwards
    ops = [f"q 0 g {_num(unit)} 0 0 {_num(-unit)} {_num(x)} {_num(y + size)} cm"]
    for r, row in enumerate(matrix):
        ops.extend(f"{start} {r} {length} 1 re" for start, length in dark_runs(row))
    ops.append("f Q")
    canvas.addLiteral("\n".join(ops))
