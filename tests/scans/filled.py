"""Sheets of a real round in the database, printed as the print page prints
them and filled by the simulated pen of :mod:`tests.scans.corpus`: a scanner's
pages as PNG or one PDF."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

from scoring.printing import documents
from scoring.scans.selectors import layout_of, table_size
from tests.scans.corpus import as_scan, blot_code, engine_values, mark_sheet

DPI = 200


def valid_values(game: str, players: int, start: int = 0) -> dict:
    """A sheet the engine accepts (blanks left out)."""
    for seed in range(start, start + 200):
        values = engine_values(game, players, seed)
        if values is not None:
            return {k: v for k, v in values.items() if v is not None}
    raise AssertionError("no engine sheet found")


def filled_pages(
    tournament, round_no: int, fill: dict[int, dict], seed: int = 1, blotted=(), corrected=()
) -> list:
    """The round's sheets (grayscale arrays, table order) of the tables in
    ``fill`` (table number -> values marked); the code of the tables in
    ``blotted`` inked over, a crossed-out correction on those in ``corrected``."""
    import pypdfium2 as pdfium

    pdf = documents.render("sheets", tournament, round_no)
    numbers = [s["table"] for s in documents.sheet_layouts(tournament, round_no)]
    doc = pdfium.PdfDocument(pdf)
    rng = np.random.default_rng(seed)
    pages = []
    for k, number in enumerate(numbers):
        if number not in fill:
            continue
        image = doc[k].render(scale=DPI / 72, grayscale=True).to_numpy()
        image = np.ascontiguousarray(image[:, :, 0] if image.ndim == 3 else image)
        layout = layout_of(tournament, table_size(tournament, round_no, number))
        mark_sheet(
            image, DPI, layout, fill[number], rng, correction=number in corrected, stray=False
        )
        if number in blotted:
            blot_code(image, DPI, layout)
        pages.append(as_scan(image, rng))
    doc.close()
    return pages


def png(image: np.ndarray) -> bytes:
    out = io.BytesIO()
    # the least compression: the same pixels, about a third less time to write
    Image.fromarray(image).save(out, format="PNG", compress_level=1)
    return out.getvalue()


def pdf(images: list) -> bytes:
    out = io.BytesIO()
    first, *rest = [Image.fromarray(i).convert("L") for i in images]
    first.save(out, format="PDF", save_all=True, append_images=rest, resolution=DPI)
    return out.getvalue()


def fill_from_layout_json(image: np.ndarray, dpi: float, sheet: dict, values: dict) -> None:
    """Mark ``values`` on a rasterized sheet using only its layout JSON
    (``manage.py print sheets --layout-json``): a dark filled oval or box on
    each area the value stands for, as a careful pen would."""
    import cv2

    k = dpi / 72
    for f in sheet["fields"]:
        value = values.get(f["name"])
        if value is None:
            continue
        if f["kind"] == "int":
            text = str(value)
            wanted = [("digit", p, int(text[-1 - p])) for p in range(len(text))]
            areas = [a for a in f["areas"] if (a["kind"], a["place"], a["value"]) in wanted]
            assert len(areas) == len(text), f["name"]
        elif f["kind"] == "bool":
            areas = f["areas"][:1]
        else:
            areas = [a for a in f["areas"] if a["value"] == value]
            assert len(areas) == 1, f["name"]
        for a in areas:
            centre = (int(round(a["x"] * k)), int(round(a["y"] * k)))
            axes = (int(a["w"] * k * 0.42), int(a["h"] * k * 0.42))
            cv2.ellipse(image, centre, axes, 0, 0, 360, 30, -1, cv2.LINE_AA)
