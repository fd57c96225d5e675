"""Finding a sheet on a page: its code (zxing-cpp reads the Data Matrix in
any orientation), its four corner markers (OpenCV contours: solid squares of
the size the code predicts, where the code predicts them), and the
perspective that straightens the page (a homography from the markers,
checked against the code's own corners).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from scoring.printing import marks

#: the straightened page's resolution (pixels per point)
SCALE = 2.5


@dataclass
class Code:
    text: str
    corners: (
        np.ndarray
    )  # 4 x 2 image points: the symbol's top-left, top-right, bottom-right, bottom-left


def find_codes(gray: np.ndarray) -> list[Code]:
    """Every Data Matrix code on the image (first on a reduced copy, then
    larger where nothing was found)."""
    import zxingcpp

    h, w = gray.shape
    longest = max(h, w)
    tried = set()
    for target in (1300, 2600, longest):
        f = min(1.0, target / longest)
        if round(f, 3) in tried:
            continue
        tried.add(round(f, 3))
        image = (
            gray if f >= 1.0 else cv2.resize(gray, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        )
        found = zxingcpp.read_barcodes(
            image,
            formats=zxingcpp.BarcodeFormat.DataMatrix,
            try_rotate=True,
            try_downscale=f >= 1.0,
        )
        codes = []
        for b in found:
            p = b.position
            pts = [p.top_left, p.top_right, p.bottom_right, p.bottom_left]
            corners = np.array([[q.x, q.y] for q in pts], dtype=np.float64) / f
            codes.append(Code(b.text, corners))
        if codes:
            return codes
    return codes_near_markers(gray)


def _enhanced(crop: np.ndarray, factor: float, amount: float) -> np.ndarray:
    """A small region made larger and crisper for the code reader: the paper
    evened out (divided by its local brightness), enlarged by ``factor``, and
    sharpened (an unsharp mask of ``amount``)."""
    bg = cv2.GaussianBlur(cv2.dilate(crop, np.ones((15, 15), np.uint8)), (0, 0), 8)
    norm = np.clip(crop.astype(np.float32) / np.maximum(bg, 1.0) * 255.0, 0, 255)
    up = cv2.resize(norm, None, fx=factor, fy=factor, interpolation=cv2.INTER_CUBIC)
    blur = cv2.GaussianBlur(up, (0, 0), 1.5 * factor)
    return np.clip(up + amount * (up - blur), 0, 255).astype(np.uint8)


#: where no code was read on the whole image (a photo from afar, blurred): the
#: regions around marker-like squares, this many points each way
NEAR_MARKER = 90.0


#: of the marker-like squares, those among the outermost this many in some
#: direction are tried (a sheet's markers are its corners)
OUTERMOST = 3

#: the directions the outermost squares are looked for in (every 22.5°: a
#: corner is the outermost point for every direction within its 90°)
_DIRECTIONS = np.array(
    [(np.cos(a), np.sin(a)) for a in np.arange(16) * (np.pi / 8)], dtype=np.float64
)


def outermost(points: list[tuple[float, float, float]], keep: int = OUTERMOST) -> list[int]:
    """The indices of the points among the ``keep`` outermost in one of 16
    directions, the outermost first: the page's corner markers come before
    its filled boxes, bubbles and letters, which are never tried at all."""
    if not points:
        return []
    xy = np.array([(x, y) for x, y, _a in points], dtype=np.float64)
    order = np.argsort(-(xy @ _DIRECTIONS.T), axis=0, kind="stable")  # n x 16
    best = np.full(len(points), len(points))
    for rank in range(min(keep, len(points))):
        for i in order[rank]:
            best[i] = min(best[i], rank)
    return [int(i) for i in np.argsort(best, kind="stable") if best[i] < keep]


def codes_near_markers(gray: np.ndarray) -> list[Code]:
    """The sheet code read from the regions around the page's outermost
    marker-like squares (the code sits beside the top-left marker), each
    enlarged and sharpened: a code too small or too soft for the whole
    image is often read so. A page whose code is blotted out costs a few
    dozen tries, not one per filled box."""
    import zxingcpp

    h, w = gray.shape
    for frac in (0.008, 0.011, 0.014):
        seen: list[tuple[float, float]] = []
        px_per_pt = frac * max(h, w) / marks.MARKER
        mask, f = dark_mask(gray, px_per_pt)
        squares = marker_candidates(mask, marks.MARKER * px_per_pt * f)
        for x, y, _area in (squares[i] for i in outermost(squares)):
            x, y = x / f, y / f
            if any(
                abs(x - sx) < 20 * px_per_pt and abs(y - sy) < 20 * px_per_pt for sx, sy in seen
            ):
                continue
            seen.append((x, y))
            r = NEAR_MARKER * px_per_pt
            x0, y0 = max(0, int(x - r)), max(0, int(y - r))
            crop = gray[y0 : int(y + r), x0 : int(x + r)]
            if min(crop.shape) < 16:
                continue
            for factor, amount in ((2.0, 1.0), (2.0, 2.0), (3.0, 1.0)):
                found = zxingcpp.read_barcodes(
                    _enhanced(crop, factor, amount),
                    formats=zxingcpp.BarcodeFormat.DataMatrix,
                    try_rotate=True,
                    try_downscale=False,
                )
                if found:
                    codes = []
                    for b in found:
                        p = b.position
                        pts = [p.top_left, p.top_right, p.bottom_right, p.bottom_left]
                        corners = np.array([[q.x, q.y] for q in pts], dtype=np.float64)
                        codes.append(Code(b.text, corners / factor + [x0, y0]))
                    return codes
    return []


def code_transform(layout: marks.Layout, code: Code) -> np.ndarray:
    """An approximate page -> image homography from the code's corners alone."""
    x, y, s = layout.code
    page = np.array([[x, y], [x + s, y], [x + s, y + s], [x, y + s]], dtype=np.float64)
    # zxing's corners are the symbol's outer corners, as printed
    return cv2.getPerspectiveTransform(page.astype(np.float32), code.corners.astype(np.float32))


def _project(h: np.ndarray, points) -> np.ndarray:
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, h).reshape(-1, 2)


def dark_mask(gray: np.ndarray, px_per_pt: float) -> tuple[np.ndarray, float]:
    """A mask of what is darker than its surroundings, on a copy reduced to
    about 1.5 px/pt (and the reduction factor)."""
    f = min(1.0, 1.5 / max(px_per_pt, 1e-6))
    small = gray if f >= 1.0 else cv2.resize(gray, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
    k = max(3, int(round(16 * px_per_pt * f)) | 1)
    bg = cv2.dilate(small, cv2.getStructuringElement(cv2.MORPH_RECT, (k, k)))
    bg = cv2.blur(bg, (k, k))
    norm = small.astype(np.float32) / np.maximum(bg.astype(np.float32), 1.0)
    return (norm < 0.6).astype(np.uint8), f


def marker_candidates(mask: np.ndarray, side_px: float) -> list[tuple[float, float, float]]:
    """(x, y, pixels) of the solid squares about ``side_px`` wide (an
    outlined box, a letter or a filled bubble is none)."""
    n, labels, stats, centroids = cv2.connectedComponentsWithStats(mask, connectivity=8)
    want = side_px * side_px
    out = []
    for i in range(1, n):
        x, y, w, h, area = stats[i]
        if not (0.35 * want <= area <= 2.6 * want):
            continue
        if max(w, h) > 2.2 * min(w, h) or area < 0.45 * w * h:
            continue
        sub = (labels[y : y + h, x : x + w] == i).astype(np.uint8)
        contours, _ = cv2.findContours(sub, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        (_cx, _cy), (rw, rh), _angle = cv2.minAreaRect(max(contours, key=cv2.contourArea))
        if rw <= 0 or rh <= 0 or max(rw, rh) / min(rw, rh) > 1.8 or area < 0.78 * rw * rh:
            continue
        out.append((float(centroids[i][0]), float(centroids[i][1]), float(area)))
    return out


@dataclass
class Located:
    homography: np.ndarray  # page points -> image pixels
    markers: np.ndarray  # 4 x 2 image points
    px_per_pt: float
    others: int  # marker-like squares besides the four (another sheet's)


#: the bottom-right marker's area, in shares of the other three markers' (a
#: photo's perspective makes the near corners' markers larger)
MARKER_SIZE_RANGE = (0.45, 2.5)


def locate(gray: np.ndarray, layout: marks.Layout, code: Code) -> Located | None:
    """The page's perspective from its markers, or None when they are not
    all found where the code says they are.

    The code gives the page's directions (its rows run along the page's
    width) and roughly its scale; the top-left marker is the solid square
    nearest the code, the top-right the farthest along the code's rows, the
    bottom-left the farthest along its columns, the bottom-right the one
    nearest where those three put it."""
    tl_c, tr_c, _br_c, bl_c = code.corners
    ux, uy = tr_c - tl_c, bl_c - tl_c
    side = (np.linalg.norm(ux) + np.linalg.norm(uy)) / 2
    ux, uy = ux / max(np.linalg.norm(ux), 1e-6), uy / max(np.linalg.norm(uy), 1e-6)
    px_per_pt = side / layout.code[2]
    mask, f = dark_mask(gray, px_per_pt)
    cands = marker_candidates(mask, layout.marker_size * px_per_pt * f)
    if len(cands) < 4:
        return None
    pts = np.array([(x / f, y / f) for x, y, _a in cands])
    sizes = np.array([a for _x, _y, a in cands])
    centre = code.corners.mean(axis=0)
    rel = pts - centre
    a, b = rel @ ux, rel @ uy
    # top-left: beside the code, up and to the left of its centre
    near = np.where((a < 0) & (b < 0))[0]
    if not len(near):
        return None
    tl = near[np.argmin(np.hypot(a[near], b[near]))]
    if np.hypot(a[tl], b[tl]) > 60 * px_per_pt:
        return None
    rel = pts - pts[tl]
    a, b = rel @ ux, rel @ uy
    along = np.where((a > 0) & (np.abs(b) < 0.45 * a))[0]
    down = np.where((b > 0) & (np.abs(a) < 0.45 * b))[0]
    if not len(along) or not len(down):
        return None
    tr = along[np.argmax(a[along])]
    bl = down[np.argmax(b[down])]
    predicted = pts[tr] + pts[bl] - pts[tl]
    d = np.hypot(*(pts - predicted).T)
    d[[tl, tr, bl]] = np.inf
    # under a steep perspective the parallelogram's fourth corner lies far
    # from the real one, and a filled bubble may lie nearer: the marker is a
    # square of about the other three's size (a bubble is a third of it)
    typical3 = float(np.median(sizes[[tl, tr, bl]]))
    low, high = MARKER_SIZE_RANGE
    d[(sizes < low * typical3) | (sizes > high * typical3)] = np.inf
    br = int(np.argmin(d))
    width, height = np.hypot(*(pts[tr] - pts[tl])), np.hypot(*(pts[bl] - pts[tl]))
    if not np.isfinite(d[br]) or d[br] > 0.25 * np.hypot(width, height):
        return None
    ratio = height / max(width, 1e-6)
    page = np.array(layout.markers, dtype=np.float64)
    want = (page[3, 1] - page[0, 1]) / (page[1, 0] - page[0, 0])
    if not (0.6 * want <= ratio <= 1.5 * want):
        return None
    img = np.array([pts[tl], pts[tr], pts[br], pts[bl]], dtype=np.float32)
    hom = cv2.getPerspectiveTransform(page.astype(np.float32), img)
    # the code must be where the markers put it
    cx, cy = _project(np.linalg.inv(hom), [centre])[0]
    x, y, size = layout.code
    if not (x - 5 <= cx <= x + size + 5 and y - 5 <= cy <= y + size + 5):
        return None
    scale = width / (page[1, 0] - page[0, 0])
    # squares like the markers outside this sheet: another sheet's
    chosen = [tl, tr, br, bl]
    typical = float(np.median(sizes[chosen]))
    rest = np.setdiff1d(np.arange(len(pts)), chosen)
    like = rest[(sizes[rest] > 0.6 * typical) & (sizes[rest] < 1.6 * typical)]
    others = 0
    if len(like):
        on_page = _project(np.linalg.inv(hom), pts[like])
        m = 10.0
        others = int(
            (
                (on_page[:, 0] < -m)
                | (on_page[:, 1] < -m)
                | (on_page[:, 0] > marks.PAGE_W + m)
                | (on_page[:, 1] > marks.PAGE_H + m)
            ).sum()
        )
    return Located(hom, img, float(scale), others)


def _code_page(layout: marks.Layout) -> np.ndarray:
    x, y, s = layout.code
    return np.array([[x, y], [x + s, y], [x + s, y + s], [x, y + s]], dtype=np.float64)


def straighten(gray: np.ndarray, located: Located, scale: float = SCALE) -> np.ndarray:
    """The page as printed, ``scale`` pixels per point."""
    to_canvas = np.diag([scale, scale, 1.0])
    m = located.homography @ np.linalg.inv(to_canvas)  # canvas pixel -> image pixel
    size = (int(round(marks.PAGE_W * scale)), int(round(marks.PAGE_H * scale)))
    return cv2.warpPerspective(
        gray, m, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderValue=255
    )


def sheet_like(gray: np.ndarray) -> int:
    """How many marker-like squares the page holds at any plausible size (a
    page without a readable code that still has them is a sheet whose code
    could not be read)."""
    h, w = gray.shape
    best = 0
    for frac in (0.008, 0.011, 0.014):  # a marker's side as a share of the longer edge
        px_per_pt = frac * max(h, w) / marks.MARKER
        mask, f = dark_mask(gray, px_per_pt)
        best = max(best, len(marker_candidates(mask, marks.MARKER * px_per_pt * f)))
    return best


# -- without the code ------------------------------------------------------------------

#: the corner markers' rectangle: its height over its width on the page
MARKER_ASPECT = (marks.PAGE_H - 2 * (marks.MARKER_EDGE + marks.MARKER / 2)) / (
    marks.PAGE_W - 2 * (marks.MARKER_EDGE + marks.MARKER / 2)
)
#: at most this many marker-like squares (the farthest from their middle)
#: are tried as the four corners
CORNER_CANDIDATES = 12


def _cyclic(pts: np.ndarray) -> np.ndarray | None:
    """Four points in clockwise order (image coordinates), the first two
    joined by a short side of the quadrilateral; None when not convex."""
    c = pts.mean(axis=0)
    order = np.argsort(np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0]))
    q = pts[order]
    cross = []
    for i in range(4):
        a, b, d = q[i], q[(i + 1) % 4], q[(i + 2) % 4]
        cross.append((b[0] - a[0]) * (d[1] - b[1]) - (b[1] - a[1]) * (d[0] - b[0]))
    if not (all(x > 0 for x in cross) or all(x < 0 for x in cross)):
        return None
    if cross[0] < 0:  # counter-clockwise on the image: turn it round
        q = q[::-1]
    sides = [np.hypot(*(q[(i + 1) % 4] - q[i])) for i in range(4)]
    if sides[0] + sides[2] > sides[1] + sides[3]:
        q = np.roll(q, -1, axis=0)
    return q


def _corners(pts: np.ndarray, sizes: np.ndarray) -> np.ndarray | None:
    """The four squares that make the markers' rectangle (the largest such
    quadrilateral: convex, of the page's proportions under a photo's
    perspective, its squares of one size and of the size the rectangle
    predicts), clockwise from a short side; or None."""
    from itertools import combinations

    if len(pts) > CORNER_CANDIDATES:
        far = np.argsort(-np.hypot(*(pts - np.median(pts, axis=0)).T))[:CORNER_CANDIDATES]
        pts, sizes = pts[far], sizes[far]
    best, best_area = None, 0.0
    for idx in combinations(range(len(pts)), 4):
        s = sizes[list(idx)]
        if s.max() > 2.5 * s.min():
            continue
        q = _cyclic(pts[list(idx)])
        if q is None:
            continue
        sides = [np.hypot(*(q[(i + 1) % 4] - q[i])) for i in range(4)]
        if max(sides[0], sides[2]) > 1.6 * min(sides[0], sides[2]):
            continue
        if max(sides[1], sides[3]) > 1.6 * min(sides[1], sides[3]):
            continue
        aspect = (sides[1] + sides[3]) / max(sides[0] + sides[2], 1e-6)
        if not 0.7 * MARKER_ASPECT <= aspect <= 1.4 * MARKER_ASPECT:
            continue
        width_pt = marks.PAGE_W - 2 * (marks.MARKER_EDGE + marks.MARKER / 2)
        px_per_pt = (sides[0] + sides[2]) / 2 / width_pt
        side = float(np.sqrt(np.median(s)))
        if not 0.55 * marks.MARKER * px_per_pt <= side <= 1.6 * marks.MARKER * px_per_pt:
            continue
        x, y = q[:, 0], q[:, 1]
        area = 0.5 * abs(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1)))
        if area > best_area:
            best, best_area = q, area
    return best


def find_markers(gray: np.ndarray, layout: marks.Layout | None = None) -> list[Located]:
    """The page's four corner markers found without its code (a sheet whose
    code is blotted out or torn off): the largest rectangle of solid squares
    of the page's proportions. The markers alone do not tell the page's top
    from its bottom: both ways are returned (``[]`` when no such rectangle
    is found), the one whose top band holds more print (the title, the
    codes) first. ``layout`` only gives the markers' places on the page
    (they are the same on every sheet)."""
    page = np.array((layout.markers if layout is not None else _MARKERS), dtype=np.float64)
    h, w = gray.shape
    for frac in (0.011, 0.008, 0.014):  # a marker's side as a share of the longer edge
        px_per_pt = frac * max(h, w) / marks.MARKER
        mask, f = dark_mask(gray, px_per_pt)
        cands = marker_candidates(mask, marks.MARKER * px_per_pt * f)
        if len(cands) < 4:
            continue
        pts = np.array([(x / f, y / f) for x, y, _a in cands])
        sizes = np.array([a / (f * f) for _x, _y, a in cands])
        q = _corners(pts, sizes)
        if q is None:
            continue
        found = []
        for turn in (0, 2):
            img = np.roll(q, -turn, axis=0).astype(np.float32)
            hom = cv2.getPerspectiveTransform(page.astype(np.float32), img)
            width = np.hypot(*(img[1] - img[0]))
            scale = width / (page[1, 0] - page[0, 0])
            found.append(Located(hom, img, float(scale), 0))
        if _top_ink(gray, found[1]) > _top_ink(gray, found[0]):
            found.reverse()
        return found
    return []


_MARKERS = [
    (marks.MARKER_EDGE + marks.MARKER / 2, marks.MARKER_EDGE + marks.MARKER / 2),
    (marks.PAGE_W - marks.MARKER_EDGE - marks.MARKER / 2, marks.MARKER_EDGE + marks.MARKER / 2),
    (
        marks.PAGE_W - marks.MARKER_EDGE - marks.MARKER / 2,
        marks.PAGE_H - marks.MARKER_EDGE - marks.MARKER / 2,
    ),
    (marks.MARKER_EDGE + marks.MARKER / 2, marks.PAGE_H - marks.MARKER_EDGE - marks.MARKER / 2),
]


def _top_ink(gray: np.ndarray, located: Located) -> float:
    """The share of dark pixels in the page's header band (the title and
    the codes), as ``located`` puts the page."""
    scale = 1.0
    to_canvas = np.diag([scale, scale, 1.0])
    m = located.homography @ np.linalg.inv(to_canvas)
    band = cv2.warpPerspective(
        gray,
        m,
        (int(marks.PAGE_W), int(marks.HEADER_H + 16)),
        flags=cv2.INTER_AREA | cv2.WARP_INVERSE_MAP,
        borderValue=255,
    )
    band = band[16:, 40:-40]
    return float((band < 0.6 * np.median(band)).mean())
