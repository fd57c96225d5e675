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
    corners: np.ndarray  # 4 x 2 image points: the symbol's top-left, top-right, bottom-right, bottom-left


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
        image = gray if f >= 1.0 else cv2.resize(gray, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
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
        if not (0.5 * want <= area <= 2.6 * want):
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


def locate(gray: np.ndarray, layout: marks.Layout, code: Code) -> Located | None:
    """The page's perspective from its markers, or None when they are not
    all found where the code says they are."""
    h0 = code_transform(layout, code)
    side = float(np.linalg.norm(code.corners[1] - code.corners[0]))
    side2 = float(np.linalg.norm(code.corners[3] - code.corners[0]))
    px_per_pt = (side + side2) / 2 / layout.code[2]
    mask, f = dark_mask(gray, px_per_pt)
    cands = marker_candidates(mask, layout.marker_size * px_per_pt * f)
    if len(cands) < 4:
        return None
    pts = np.array([(x / f, y / f) for x, y, _a in cands])
    sizes = np.array([a for _x, _y, a in cands])
    everything = pts.copy()
    page = np.array(layout.markers, dtype=np.float64)
    # similarity from the code alone (no perspective) to predict; then each
    # found marker improves the prediction of the next
    chosen: dict[int, np.ndarray] = {}
    chosen_sizes: list[float] = []
    order = [0, 1, 3, 2]  # top-left (beside the code), top-right, bottom-left, bottom-right
    diag = np.hypot(marks.PAGE_W, marks.PAGE_H) * px_per_pt
    for k in order:
        if len(chosen) >= 3:
            idx = sorted(chosen)
            m = cv2.getAffineTransform(
                page[idx].astype(np.float32), np.array([chosen[i] for i in idx], dtype=np.float32)
            )
            pred = m @ np.array([page[k][0], page[k][1], 1.0])
        elif len(chosen) >= 1:
            # the code's corners and the markers found so far: a partial fit
            src = np.vstack([_code_page(layout), page[sorted(chosen)]])
            dst = np.vstack([code.corners, np.array([chosen[i] for i in sorted(chosen)])])
            m, _inl = cv2.estimateAffinePartial2D(
                src.astype(np.float32), dst.astype(np.float32), method=cv2.LMEDS
            )
            if m is None:
                return None
            pred = m @ np.array([page[k][0], page[k][1], 1.0])
        else:
            pred = _project(h0, [page[k]])[0]
        d = np.hypot(pts[:, 0] - pred[0], pts[:, 1] - pred[1])
        j = int(np.argmin(d))
        radius = (0.06 if k == 0 else 0.22) * diag
        if d[j] > radius:
            return None
        chosen[k] = pts[j]
        chosen_sizes.append(sizes[j])
        pts = np.delete(pts, j, axis=0)
        sizes = np.delete(sizes, j)
        if len(pts) == 0 and len(chosen) < 4:
            return None
    img = np.array([chosen[i] for i in range(4)], dtype=np.float32)
    hom = cv2.getPerspectiveTransform(page.astype(np.float32), img)
    # the code's corners must land where zxing found them
    err = np.hypot(*(_project(hom, _code_page(layout)) - code.corners).T).max()
    if err > 4.0 * px_per_pt:
        return None
    # squares like the markers outside this sheet: another sheet's
    others = 0
    if len(pts):
        typical = float(np.median(chosen_sizes))
        like = pts[(sizes > 0.6 * typical) & (sizes < 1.6 * typical)]
        if len(like):
            on_page = _project(np.linalg.inv(hom), like)
            m = 10.0
            outside = (
                (on_page[:, 0] < -m)
                | (on_page[:, 1] < -m)
                | (on_page[:, 0] > marks.PAGE_W + m)
                | (on_page[:, 1] > marks.PAGE_H + m)
            )
            others = int(outside.sum())
    del everything
    return Located(hom, img, px_per_pt, others)


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
