"""A corpus of filled-in machine-readable score sheets, made here (by seed):
real sheets drawn by the sheet printer, rasterized, marked by a simulated
pen where the layout says, and turned into scans (300/200/150 dpi) or phone
photos. The ground truth is what was marked.

    case = make_case(seed, "quartett", 4, "scan200")
    case.image, case.truth, case.layout, case.code
    make_case(seed, game, players, kind, blotted=True)  # its code inked over

Pen marks: filled ovals (dark or light, sometimes only partly filled), ticks
and crosses, boxes crossed or filled, the digits written in the boxes above;
``correction`` crosses out a wrong digit and marks the right one beside it
(the field must come back unsure), ``stray`` draws a stray line or dot
somewhere on the page. Scans: a little skew and shift, sometimes upside
down or sideways, noise, paper and ink levels, JPEG. Photos: perspective
up to 20°, any quarter turn plus up to ±10°, blur, JPEG quality 40, uneven
light and a shadow, a fold line, the table around the sheet.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from games import ENGINES
from scoring.printing import marks
from scoring.printing.sheets import render_score_sheets

TOURNAMENT_ID = 4711
ROUND = 3
NAMES = [
    "Ayşe Şahin",
    "Łukasz Wróblewski",
    "Jürgen Weiß",
    "Zoë Ødegaard",
    "Anna Berg",
    "Bernd Ćosić",
]
KINDS = ("scan300", "scan200", "scan150", "photo")


@dataclass
class Case:
    game: str
    players: int
    kind: str
    seed: int
    image: np.ndarray
    truth: dict  # field -> value marked, or None (left blank)
    layout: marks.Layout
    code: str
    corrected: set = field(default_factory=set)  # fields with a crossed-out correction
    stray: bool = False
    faint: set = field(default_factory=set)


@functools.lru_cache(maxsize=64)
def layout_of(game: str, players: int) -> marks.Layout:
    engine = ENGINES[game]
    return marks.sheet_layout(engine.sheet_schema(players, engine.default_options()), players)


def layout_for(code: marks.SheetCode, game: str, players: int):
    return layout_of(game, players)


@functools.lru_cache(maxsize=256)
def blank_sheet(game: str, players: int, table: int, dpi: int) -> np.ndarray:
    """The printed sheet of table ``table``, rasterized (grayscale)."""
    import pypdfium2 as pdfium

    pdf = render_score_sheets(
        {"name": "Herbstturnier Köln", "id": TOURNAMENT_ID},
        ROUND,
        [{"number": table, "players": [{"name": NAMES[s]} for s in range(players)]}],
        engine_id=game,
        base_url_for_table=lambda t: f"https://turnier.example.org/s/{t['number']}:Zm9vYmFy",
    )
    doc = pdfium.PdfDocument(pdf)
    image = doc[0].render(scale=dpi / 72, grayscale=True).to_numpy()
    doc.close()
    image = image[:, :, 0] if image.ndim == 3 else image
    return np.ascontiguousarray(image)


# -- values -----------------------------------------------------------------------


def arbitrary_values(layout: marks.Layout, rng: np.random.Generator) -> dict:
    """A value in range (or blank where allowed) for every field."""
    out = {}
    for f in layout.fields:
        blank_ok = not f.required
        if f.kind == "bool":
            out[f.name] = True if rng.random() < 0.35 else None
        elif blank_ok and rng.random() < 0.2:
            out[f.name] = None
        elif f.kind == "int":
            digits = rng.integers(1, len(str(f.max)) + 1)
            hi = min(f.max, 10**digits - 1)
            out[f.name] = int(rng.integers(f.min, hi + 1))
        else:
            values = [a.value for a in f.areas]
            out[f.name] = values[int(rng.integers(len(values)))]
    return out


def engine_values(game: str, players: int, seed: int) -> dict | None:
    """The sheet of a game the engine played to its end (random bots), as the
    table would write it; None where the engine would not accept it."""
    from games import SheetError
    from games.base import RandomBot
    from games.play import play_game

    engine = ENGINES[game]
    state, _record, _n = play_game(engine, players, seed, RandomBot(seed))
    r = engine.result(state)
    d = r.details
    sheet: dict = {}
    if game == "altruismus":
        sheet["turns"] = d["turns"]
        for i in range(players):
            sheet[f"s{i}_cards"] = d["cards"][i]
            sheet[f"s{i}_sum"] = d["sums"][i]
            sheet[f"s{i}_bonus"] = d["bonuses"][i]
            sheet[f"s{i}_total"] = r.figures[i]
    elif game == "monddaemmerung":
        for i in range(players):
            sheet[f"s{i}_won"] = d["win_pile"][i]
            if d.get("one_laid") == i:
                sheet[f"s{i}_one"] = True
        for k, seat in enumerate(d.get("out_order") or []):
            sheet[f"s{seat}_out"] = k + 1
    elif game == "quartett":
        for i in range(players):
            order = d["out_order"][i]
            if order is None:
                sheet[f"s{i}_cards"] = r.figures[i]
            else:
                sheet[f"s{i}_out"] = True
                sheet[f"s{i}_out_order"] = order
        for seat in d.get("decision_winners") or []:
            sheet[f"s{seat}_decision"] = True
        if d.get("undecided_ties"):
            sheet["ties_undecided"] = True
    elif game == "terra_trumpf":
        for k, hand in enumerate(d["hands"], start=1):
            sheet[f"h{k}_chooser"] = hand["chooser"]
            sheet[f"h{k}_alpha"] = hand["alpha"]
            if hand["finished"]:
                sheet[f"h{k}_finished"] = True
            for j, v in enumerate(hand["values"]):
                sheet[f"h{k}_s{j}_value"] = v
    elif game == "trumpet":
        for i in range(players):
            if d.get("great_hall") == i:
                sheet[f"s{i}_hall"] = True
            else:
                sheet[f"s{i}_field"] = r.figures[i]
    try:
        engine.check_sheet(players, sheet, engine.default_options())
    except SheetError:
        return None
    layout = layout_of(game, players)
    return {f.name: sheet.get(f.name) for f in layout.fields}


# -- the pen ----------------------------------------------------------------------


class Pen:
    def __init__(self, image: np.ndarray, dpi: float, rng: np.random.Generator):
        self.img = image
        self.k = dpi / 72
        self.rng = rng
        # one pen per sheet: dark (a felt-tip or a soft pencil) or light (a blue ballpoint)
        self.level = int(rng.integers(15, 60)) if rng.random() < 0.7 else int(rng.integers(80, 125))

    def p(self, x, y):
        return (int(round(x * self.k * 16)), int(round(y * self.k * 16)))

    def line(self, x0, y0, x1, y1, width=0.9, level=None):
        cv2.line(
            self.img,
            self.p(x0, y0),
            self.p(x1, y1),
            int(level if level is not None else self.level),
            max(1, int(round(width * self.k))),
            cv2.LINE_AA,
            4,
        )

    def fill(self, a: marks.Area, style: str):
        r = self.rng
        jx, jy = r.normal(0, 0.3, 2)
        x, y = a.x + jx, a.y + jy
        if style == "fill":
            sx, sy = a.w / 2 * r.uniform(0.85, 1.12), a.h / 2 * r.uniform(0.85, 1.12)
            cv2.ellipse(
                self.img,
                self.p(x, y),
                self.p(sx, sy),
                float(r.uniform(-10, 10)),
                0,
                360,
                self.level,
                -1,
                cv2.LINE_AA,
                4,
            )
        elif style == "partial":  # a hurried scribble: strokes over most of it
            n = int(r.integers(4, 7))
            for i in range(n):
                t = -0.8 + 1.6 * i / (n - 1)
                self.line(
                    x - a.w * 0.42,
                    y + t * a.h / 2,
                    x + a.w * 0.42,
                    y + t * a.h / 2 + r.normal(0, 0.3),
                    1.1,
                )
        elif style == "tick":
            w, h = a.w / 2, a.h / 2
            self.line(x - w * 0.8, y, x - w * 0.1, y + h * 0.95, 1.1)
            self.line(x - w * 0.1, y + h * 0.95, x + w * 1.0, y - h * 1.1, 1.1)
        elif style == "cross":
            w, h = a.w / 2 * 0.8, a.h / 2 * 0.8
            self.line(x - w, y - h, x + w, y + h, 1.1)
            self.line(x - w, y + h, x + w, y - h, 1.1)
        elif style == "faint":
            level = int(r.integers(195, 215))
            cv2.ellipse(
                self.img,
                self.p(x, y),
                self.p(a.w / 2, a.h / 2),
                0,
                0,
                360,
                level,
                -1,
                cv2.LINE_AA,
                4,
            )

    def cross_out(self, a: marks.Area):
        """A filled bubble crossed out with a big X."""
        self.fill(a, "fill")
        w, h = a.w * 0.75, a.h * 0.85
        self.line(a.x - w, a.y - h, a.x + w, a.y + h, 1.0)
        self.line(a.x - w, a.y + h, a.x + w, a.y - h, 1.0)

    def write(self, text: str, box):
        x, y, w, h = box
        scale = h * self.k / 30
        org = (int((x + w * 0.18) * self.k), int((y + h * 0.85) * self.k))
        cv2.putText(
            self.img,
            text,
            org,
            cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
            scale,
            self.level,
            max(1, int(0.7 * self.k)),
            cv2.LINE_AA,
        )

    def stray(self):
        r = self.rng
        x, y = r.uniform(40, marks.PAGE_W - 40), r.uniform(90, marks.PAGE_H - 40)
        if r.random() < 0.5:
            ang = r.uniform(0, math.pi)
            ln = r.uniform(10, 40)
            self.line(x, y, x + ln * math.cos(ang), y + ln * math.sin(ang), r.uniform(0.6, 1.2))
        else:
            cv2.circle(
                self.img,
                self.p(x, y),
                int(r.uniform(0.6, 1.5) * self.k * 16),
                self.level,
                -1,
                cv2.LINE_AA,
                4,
            )


def mark_sheet(image, dpi, layout, truth, rng, *, correction=False, stray=False, faint_field=None):
    """Mark ``truth`` on the rasterized sheet; returns the corrected fields."""
    pen = Pen(image, dpi, rng)
    styles = ["fill"] * 14 + ["partial"] * 2 + ["tick", "cross"]
    corrected = set()
    candidates = [f for f in layout.fields if f.kind == "int" and truth.get(f.name) is not None]
    fix = candidates[int(rng.integers(len(candidates)))].name if correction and candidates else None
    for f in layout.fields:
        value = truth.get(f.name)
        if value is None:
            continue
        if f.kind == "bool":
            pen.fill(f.areas[0], "cross" if rng.random() < 0.6 else "fill")
            continue
        if f.kind != "int":
            area = next(a for a in f.areas if a.value == value)
            pen.fill(
                area, "faint" if f.name == faint_field else styles[int(rng.integers(len(styles)))]
            )
            continue
        d = f.digits
        text = str(value)
        full = text.rjust(d, "0")
        lead = rng.random() < 0.5  # leading zeros marked, or left empty
        written = full if lead else text
        for k, ch in enumerate(written):
            pen.write(ch, f.write_in[d - len(written) + k])
        columns = {}
        for a in f.areas:
            columns.setdefault(a.column, {})[a.value] = a
        start = 0 if lead else d - len(text)
        for c in range(start, d):
            digit = int(full[c])
            area = columns[c][digit]
            if f.name == faint_field:
                pen.fill(area, "faint")
                continue
            if f.name == fix and c == d - 1:
                wrong = [v for v in columns[c] if v != digit]
                pen.cross_out(columns[c][wrong[int(rng.integers(len(wrong)))]])
                corrected.add(f.name)
            pen.fill(area, styles[int(rng.integers(len(styles)))])
    if stray:
        pen.stray()
    return corrected


def blot_code(image: np.ndarray, dpi: float, layout: marks.Layout) -> None:
    """Ink spilt over the sheet's code (a coffee ring, a thumb): no code
    reader gets it back; the corner markers stay."""
    k = dpi / 72
    x, y, size = layout.code
    image[
        int((y + 3) * k) : int((y + size - 4) * k), int((x + 3) * k) : int((x + size - 4) * k)
    ] = 30


# -- scans and photos ---------------------------------------------------------------


def noise(shape, sigma: float, rng: np.random.Generator) -> np.ndarray:
    """Gaussian noise (OpenCV's generator, seeded from ``rng``: fast and repeatable)."""
    cv2.setRNGSeed(int(rng.integers(2**31)))
    out = np.empty(shape, np.float32)
    cv2.randn(out, 0.0, sigma)
    return out


def jpeg(image: np.ndarray, quality: int) -> np.ndarray:
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(buf, cv2.IMREAD_GRAYSCALE)


def as_scan(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    paper, ink = rng.uniform(225, 250), rng.uniform(0, 35)
    # the scanner's glass is a little larger than the sheet
    pad = int(0.012 * image.shape[0])
    image = cv2.copyMakeBorder(image, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=255)
    h, w = image.shape
    img = ink + image.astype(np.float32) * (paper - ink) / 255.0
    m = cv2.getRotationMatrix2D((w / 2, h / 2), rng.uniform(-1.5, 1.5), 1.0)
    m[:, 2] += rng.normal(0, 0.004 * w, 2)
    img = cv2.warpAffine(img, m, (w, h), flags=cv2.INTER_LINEAR, borderValue=float(paper))
    img = cv2.GaussianBlur(img, (0, 0), 0.5)
    img += noise(img.shape, 3.0, rng)
    img = np.clip(img, 0, 255).astype(np.uint8)
    if rng.random() < 0.15:  # fed upside down or sideways
        img = np.ascontiguousarray(np.rot90(img, int(rng.integers(1, 4))))
    return jpeg(img, int(rng.integers(75, 92)))


def as_photo(image: np.ndarray, dpi: float, rng: np.random.Generator) -> np.ndarray:
    h, w = image.shape
    img = image.astype(np.float32)
    # a fold line across the sheet: a crease, one side a little darker
    if rng.random() < 0.5:
        y = int(rng.uniform(0.3, 0.7) * h)
        img[y:] *= rng.uniform(0.85, 0.97)
        img[y - 1 : y + 1] *= 0.75
    else:
        x = int(rng.uniform(0.3, 0.7) * w)
        img[:, x:] *= rng.uniform(0.85, 0.97)
        img[:, x - 1 : x + 1] *= 0.75
    # the camera: the sheet tilted up to 20°, turned, at a distance
    out_w, out_h = 1800, 2400
    tilt = math.radians(rng.uniform(0, 20))
    axis = rng.uniform(0, 2 * math.pi)
    turn = math.radians(90 * int(rng.integers(4)) + rng.uniform(-10, 10))
    corners = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    rot = np.array([[math.cos(turn), -math.sin(turn)], [math.sin(turn), math.cos(turn)]])
    pts = corners @ rot.T
    ax, ay = math.cos(axis), math.sin(axis)
    # rotate about the in-plane axis (ax, ay) by ``tilt``: a point's distance along the normal
    d = (pts[:, 0] * -ay + pts[:, 1] * ax) * math.sin(tilt)
    flat = pts - np.outer((pts[:, 0] * -ay + pts[:, 1] * ax) * (1 - math.cos(tilt)), [-ay, ax])
    f = 1.3 * max(w, h)
    z = f + d
    proj = flat * (f / z)[:, None]
    span = proj.max(axis=0) - proj.min(axis=0)
    s = rng.uniform(0.75, 0.9) * min(out_w / span[0], out_h / span[1])
    proj = (proj - proj.min(axis=0)) * s
    proj += (np.array([out_w, out_h]) - (proj.max(axis=0))) * rng.uniform(0.2, 0.8, 2)
    hom = cv2.getPerspectiveTransform(
        (corners + [w / 2, h / 2]).astype(np.float32), proj.astype(np.float32)
    )
    table = float(rng.uniform(50, 140))
    small = (out_w // 8, out_h // 8)
    bg = table + cv2.resize(
        cv2.GaussianBlur(noise((small[1], small[0]), 25, rng), (0, 0), 2), (out_w, out_h)
    )
    paper = rng.uniform(200, 245)
    photo = cv2.warpPerspective(
        img * (paper / 255.0),
        hom,
        (out_w, out_h),
        dst=bg,
        flags=cv2.INTER_LINEAR,
        borderMode=cv2.BORDER_TRANSPARENT,
    )
    # uneven light and a shadow (smooth: made small, then enlarged)
    yy, xx = np.mgrid[0 : small[1], 0 : small[0]].astype(np.float32)
    gx, gy = rng.normal(0, 1, 2)
    grad = gx * xx / small[0] + gy * yy / small[1]
    grad = (grad - grad.min()) / max(float(np.ptp(grad)), 1e-6)
    light = 1.0 - rng.uniform(0.15, 0.4) * grad
    shadow = np.zeros((small[1], small[0]), np.float32)
    cx, cy = rng.uniform(0, small[0]), rng.uniform(0, small[1])
    poly = np.array(
        [[cx + rng.normal(0, 100), cy + rng.normal(0, 100)] for _ in range(5)], np.int32
    )
    cv2.fillConvexPoly(shadow, cv2.convexHull(poly), 1.0)
    shadow = cv2.GaussianBlur(shadow, (0, 0), 5)
    light *= 1.0 - rng.uniform(0.2, 0.4) * shadow
    photo *= cv2.resize(light, (out_w, out_h), interpolation=cv2.INTER_LINEAR)
    photo = cv2.GaussianBlur(photo, (0, 0), rng.uniform(0.6, 1.6))
    photo += noise(photo.shape, 3.0, rng)
    return jpeg(np.clip(photo, 0, 255).astype(np.uint8), 40)


def make_case(
    seed: int,
    game: str,
    players: int,
    kind: str,
    *,
    truth=None,
    correction=None,
    stray=None,
    faint=False,
    blotted=False,
) -> Case:
    rng = np.random.default_rng(seed)
    layout = layout_of(game, players)
    table = 1 + seed % 250
    dpi = {"scan300": 300, "scan200": 200, "scan150": 150, "photo": 250}[kind]
    image = blank_sheet(game, players, table, dpi).copy()
    if truth is None and seed % 2 == 0:  # every other sheet: a game the engine played
        truth = engine_values(game, players, seed)
    truth = arbitrary_values(layout, rng) if truth is None else truth
    correction = (seed % 20 == 0) if correction is None else correction
    stray = (seed % 10 == 5) if stray is None else stray
    faint_field = None
    if faint:
        names = [
            f.name for f in layout.fields if truth.get(f.name) is not None and f.kind != "bool"
        ]
        faint_field = names[0]
    corrected = mark_sheet(
        image, dpi, layout, truth, rng, correction=correction, stray=stray, faint_field=faint_field
    )
    if blotted:
        blot_code(image, dpi, layout)
    image = as_photo(image, dpi, rng) if kind == "photo" else as_scan(image, rng)
    code = marks.code_text(TOURNAMENT_ID, ROUND, table, layout)
    return Case(
        game,
        players,
        kind,
        seed,
        image,
        truth,
        layout,
        code,
        corrected,
        stray,
        {faint_field} - {None},
    )
