"""Fast QR codes for printed sheets.

ReportLab's stock QR widget (and the ``qrcode`` package's ``make``) spend most
of their time in pure-Python bit buffers and in building one module matrix per
mask candidate; a 250-table round then prints at about 31 pages/s. Here the
encoding is the same standard QR (byte mode, error correction level M by
default) but:

- the function patterns, format/version bits and the order of the data
  modules come from the ``qrcode`` package once per version/mask and are cached;
- codewords and Reed-Solomon blocks are built with integers and log tables
  (the RS block table is ``qrcode``'s);
- the whole matrix is one Python ``int`` (rows side by side, and a second one
  column by column), so each of the eight mask candidates is one XOR, and the
  ISO 18004 penalty (rules 1-4) is a few dozen shifts and ANDs on those ints
  for all lines at once;
- ``draw_qr`` emits one filled path with a rectangle per horizontal run of
  dark modules (a few hundred ``re`` operators instead of one per module).

``qr_matrix(text)`` returns the rows as lists of booleans and is tested against
``qrcode``'s own output for the same version and mask.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from qrcode import util as _qutil
from qrcode.base import rs_blocks as _rs_blocks
from qrcode.constants import ERROR_CORRECT_H, ERROR_CORRECT_L, ERROR_CORRECT_M, ERROR_CORRECT_Q
from qrcode.main import QRCode as _QRCode

LEVELS = {"L": ERROR_CORRECT_L, "M": ERROR_CORRECT_M, "Q": ERROR_CORRECT_Q, "H": ERROR_CORRECT_H}

# GF(256) with the QR polynomial 0x11d
_EXP = [0] * 512
_LOG = [0] * 256
_x = 1
for _i in range(255):
    _EXP[_i] = _x
    _LOG[_x] = _i
    _x <<= 1
    if _x & 0x100:
        _x ^= 0x11D
for _i in range(255, 512):
    _EXP[_i] = _EXP[_i - 255]


@cache
def _rs_table(degree: int) -> tuple[int, ...]:
    """For every lead coefficient, the generator polynomial times it, packed
    as one int of ``degree`` bytes: a division step is then a shift and a XOR."""
    poly = [1]
    for i in range(degree):
        nxt = [0] * (len(poly) + 1)
        for j, c in enumerate(poly):
            nxt[j] ^= c
            if c:
                nxt[j + 1] ^= _EXP[_LOG[c] + i]
        poly = nxt
    glog = [_LOG[c] for c in poly[1:]]
    table = [0]
    for coef in range(1, 256):
        lc = _LOG[coef]
        table.append(int.from_bytes(bytes(_EXP[lc + g] for g in glog), "big"))
    return tuple(table)


def _rs_remainder(data: list[int], degree: int) -> list[int]:
    table = _rs_table(degree)
    top = 8 * (degree - 1)
    keep = (1 << (8 * degree)) - 1
    rem = 0
    for byte in data:
        rem = ((rem << 8) & keep) ^ table[byte ^ (rem >> top)]
    return list(rem.to_bytes(degree, "big"))


@cache
def _blocks(version: int, level: int) -> tuple[tuple[int, int], ...]:
    return tuple((b.total_count, b.data_count) for b in _rs_blocks(version, level))


def _capacity_bits(version: int, level: int) -> int:
    return 8 * sum(d for _t, d in _blocks(version, level))


def _count_bits(version: int) -> int:
    return 8 if version < 10 else 16


def _choose_version(nbytes: int, level: int) -> int:
    for version in range(1, 41):
        if 4 + _count_bits(version) + 8 * nbytes <= _capacity_bits(version, level):
            return version
    raise ValueError(f"{nbytes} bytes do not fit in a QR code")


def _codewords(data: bytes, version: int, level: int) -> list[int]:
    cap = _capacity_bits(version, level)
    cc = _count_bits(version)
    nbits = 4 + cc + 8 * len(data)
    value = (((0b0100 << cc) | len(data)) << (8 * len(data))) | int.from_bytes(data, "big")
    term = min(4, cap - nbits)
    value <<= term
    nbits += term
    pad = (-nbits) % 8
    value <<= pad
    nbits += pad
    words = list(value.to_bytes(nbits // 8, "big"))
    fill = (0xEC, 0x11)
    i = 0
    while len(words) < cap // 8:
        words.append(fill[i & 1])
        i += 1
    # split in blocks, add error correction, interleave
    blocks, ecs = [], []
    pos = 0
    for total, count in _blocks(version, level):
        block = words[pos : pos + count]
        pos += count
        blocks.append(block)
        ecs.append(_rs_remainder(block, total - count))
    out = []
    for i in range(max(len(b) for b in blocks)):
        out.extend(b[i] for b in blocks if i < len(b))
    for i in range(max(len(e) for e in ecs)):
        out.extend(e[i] for e in ecs if i < len(e))
    return out


def _stride(n: int) -> int:
    return n + 16  # zero padding between rows keeps shifted patterns apart


@cache
def _layout(version: int):
    """Size, and per data module in placement order its bit index in the
    row-major and the column-major big int (see ``_penalty``)."""
    n = version * 4 + 17
    blank = _QRCode(version=version)
    blank.modules_count = n
    blank.modules = [[None] * n for _ in range(n)]
    blank.setup_position_probe_pattern(0, 0)
    blank.setup_position_probe_pattern(n - 7, 0)
    blank.setup_position_probe_pattern(0, n - 7)
    blank.setup_position_adjust_pattern()
    blank.setup_timing_pattern()
    blank.setup_type_info(True, 0)
    if version >= 7:
        blank.setup_type_number(True)
    mods = blank.modules
    w = _stride(n)
    positions = []
    row, inc = n - 1, -1
    for col in range(n - 1, 0, -2):
        if col <= 6:
            col -= 1
        while True:
            for c in (col, col - 1):
                if mods[row][c] is None:
                    i, j = row * w + c, c * w + row
                    positions.append((i >> 3, 1 << (i & 7), j >> 3, 1 << (j & 7)))
            row += inc
            if row < 0 or row >= n:
                row -= inc
                inc = -inc
                break
    return n, tuple(positions)


def _pack(cells, n: int) -> tuple[int, int]:
    """Dark cells (row, col) as the row-major and the column-major big int."""
    w = _stride(n)
    rows = cols = 0
    for r, c in cells:
        rows |= 1 << (r * w + c)
        cols |= 1 << (c * w + r)
    return rows, cols


@cache
def _function_bits(version: int, level: int, mask: int) -> tuple[int, int]:
    """Dark function modules (finders, timing, alignment, format, version)."""
    n = version * 4 + 17
    q = _QRCode(version=version, error_correction=level)
    q.modules_count = n
    q.modules = [[None] * n for _ in range(n)]
    q.setup_position_probe_pattern(0, 0)
    q.setup_position_probe_pattern(n - 7, 0)
    q.setup_position_probe_pattern(0, n - 7)
    q.setup_position_adjust_pattern()
    q.setup_timing_pattern()
    q.setup_type_info(False, mask)
    if version >= 7:
        q.setup_type_number(False)
    return _pack(((r, c) for r in range(n) for c in range(n) if q.modules[r][c]), n)


@cache
def _mask_bits(version: int, mask: int) -> tuple[int, int]:
    """The data cells that mask ``mask`` inverts."""
    n, positions = _layout(version)
    w = _stride(n)
    func = _qutil.mask_func(mask)
    cells = []
    for byte, bit, _jb, _jbit in positions:
        r, c = divmod(byte * 8 + bit.bit_length() - 1, w)
        if func(r, c):
            cells.append((r, c))
    return _pack(cells, n)


@cache
def _valid(n: int) -> int:
    w = _stride(n)
    line = (1 << n) - 1
    return sum(line << (r * w) for r in range(n))


def _popcount(x: int) -> int:
    return x.bit_count()


def _line_penalty(d: int, light: int, w: int) -> int:
    """Rules 1 and 3 of ISO 18004 on every line of a packed matrix at once."""
    score = 0
    for x in (d, light):
        five = x & x >> 1 & x >> 2 & x >> 3 & x >> 4  # windows of 5 equal modules
        runs = five & ~(five >> 1)  # one bit per run of 5 or more
        score += _popcount(five) + 2 * _popcount(runs)  # 3 + (length - 5) per run
    core = d & light >> 1 & d >> 2 & d >> 3 & d >> 4 & light >> 5 & d >> 6  # 1011101
    after = light >> 7 & light >> 8 & light >> 9 & light >> 10
    before = light << 1 & light << 2 & light << 3 & light << 4
    score += 40 * (_popcount(core & after) + _popcount(core & before))
    return score


def _penalty(rows: int, cols: int, n: int) -> int:
    w = _stride(n)
    valid = _valid(n)
    lrows = ~rows & valid
    lcols = ~cols & valid
    score = _line_penalty(rows, lrows, w) + _line_penalty(cols, lcols, w)
    dark2 = rows & rows >> 1 & rows >> w & rows >> (w + 1)
    light2 = lrows & lrows >> 1 & lrows >> w & lrows >> (w + 1)
    score += 3 * (_popcount(dark2) + _popcount(light2))
    dark = _popcount(rows)
    score += 10 * (abs(dark * 20 - n * n * 10) // (n * n))
    return score


def qr_rows(text: str | bytes, level: str = "M", mask: int | None = None) -> tuple[int, list[int]]:
    """The QR code of ``text``: its size ``n`` and one int per row (bit c = column c
    dark). ``mask`` None chooses the mask with the lowest penalty, as the
    standard says."""
    data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    lvl = LEVELS[level]
    version = _choose_version(len(data), lvl)
    n, positions = _layout(version)
    words = _codewords(data, version, lvl)
    bits = format(int.from_bytes(bytes(words), "big"), f"0{8 * len(words)}b")
    size = (n * _stride(n) + 7) // 8
    brows, bcols = bytearray(size), bytearray(size)
    for (ib, ibit, jb, jbit), ch in zip(positions, bits, strict=False):
        if ch == "1":
            brows[ib] |= ibit
            bcols[jb] |= jbit
    drows = int.from_bytes(brows, "little")
    dcols = int.from_bytes(bcols, "little")
    best = None
    for m in range(8) if mask is None else (mask,):
        frows, fcols = _function_bits(version, lvl, m)
        mrows, mcols = _mask_bits(version, m)
        rows = frows | (drows ^ mrows)
        if mask is None:
            score = _penalty(rows, fcols | (dcols ^ mcols), n)
            if best is not None and score >= best[0]:
                continue
        best = (0 if mask is not None else score, rows)
    w = _stride(n)
    line = (1 << n) - 1
    packed = best[1]
    return n, [(packed >> (r * w)) & line for r in range(n)]


def qr_matrix(text: str | bytes, level: str = "M", mask: int | None = None) -> list[list[bool]]:
    """The QR code as rows of booleans (True = dark), without quiet zone."""
    n, rows = qr_rows(text, level, mask)
    return [[bool(r >> c & 1) for c in range(n)] for r in rows]


_DARK_RUN = re.compile(r"1+")


@lru_cache(maxsize=64)
def _grid_strings(n: int, x: float, y: float, size: float):
    """PDF number strings for column edges, row bottoms, row heights and run
    widths: the same for every code of one size at one place."""
    unit = size / n
    xs = [round(x + i * unit, 3) for i in range(n + 1)]
    ys = [round(y + size - i * unit, 3) for i in range(n + 1)]  # top edge of row i
    row_parts = [f" {ys[r + 1]} " for r in range(n)]
    heights = [f" {round(ys[r] - ys[r + 1], 3)} re" for r in range(n)]
    return xs, [str(v) for v in xs], row_parts, heights


def draw_qr(canvas, text: str, x: float, y: float, size: float, level: str = "M") -> None:
    """Draw the QR code of ``text`` with its lower left corner at (x, y), ``size``
    points wide (the quiet zone is the caller's white margin of 4 modules)."""
    n, rows = qr_rows(text, level)
    xs, xstr, row_parts, heights = _grid_strings(n, float(x), float(y), float(size))
    ops = []
    append = ops.append
    for r, row in enumerate(rows):
        if not row:
            continue
        s = format(row, f"0{n}b")[::-1]  # index = column
        mid, h = row_parts[r], heights[r]
        for m in _DARK_RUN.finditer(s):
            a, b = m.span()
            append(f"{xstr[a]}{mid}{round(xs[b] - xs[a], 3)}{h}")
    # One filled path, written as PDF operators: ReportLab's path objects cost
    # more than the rest of the sheet. q/Q keep the canvas's graphics state.
    canvas._code.append("q 0 g " + " ".join(ops) + " f Q")
