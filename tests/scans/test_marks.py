"""The layout of a machine-readable sheet: every field of every game at
every table size has its marks on one A4 page, inside the markers, none on
another; the drawing puts its bubbles where the layout says; the layout
does not depend on the language and its JSON names every mark."""

from __future__ import annotations

import json

import numpy as np
import pytest

from games import ENGINES
from scoring.printing import marks
from scoring.printing.sheets import render_score_sheets, sheet_layouts

CASES = [
    (game, n)
    for game, engine in sorted(ENGINES.items())
    for n in range(engine.min_players, engine.max_players + 1)
]


def schema(game, n):
    engine = ENGINES[game]
    return engine.sheet_schema(n, engine.default_options())


@pytest.mark.parametrize(("game", "players"), CASES)
def test_every_field_has_its_marks_inside_the_markers_and_apart(game, players):
    layout = marks.sheet_layout(schema(game, players), players)
    fields = {f["name"]: f for f in schema(game, players)}
    assert [f.name for f in layout.fields] == list(fields)
    (x0, y0), _tr, (x1, y1), _bl = layout.markers
    boxes = []
    for f in layout.fields:
        spec = fields[f.name]
        values = [a.value for a in f.areas]
        if spec["kind"] == "int":  # one column per digit of the largest value
            assert f.digits == len(str(spec["max"]))
            assert len({a.column for a in f.areas}) == f.digits
            units = [a.value for a in f.areas if a.place == 0]
            assert min(units) <= spec["min"] and max(units) >= min(9, spec["max"])
        elif spec["kind"] == "bool":
            assert values == [True]
        elif spec["kind"] == "seat":
            assert values == list(range(players))
        elif spec["kind"] == "choice":
            assert values == [c[0] for c in spec["choices"]]
        for a in f.areas:
            assert x0 < a.x - a.w / 2 and a.x + a.w / 2 < x1
            assert y0 < a.y - a.h / 2 and a.y + a.h / 2 < y1
            boxes.append((a.x - a.w / 2, a.y - a.h / 2, a.x + a.w / 2, a.y + a.h / 2))
    b = np.array(boxes)
    # no two marks touch: each at least 1.5 pt from every other
    for i in range(len(b)):
        gap_x = np.maximum(b[i, 0] - b[:, 2], b[:, 0] - b[i, 2])
        gap_y = np.maximum(b[i, 1] - b[:, 3], b[:, 1] - b[i, 3])
        gaps = np.maximum(gap_x, gap_y)
        gaps[i] = np.inf
        assert gaps.min() >= 1.5


def test_the_layout_is_the_same_in_every_language_and_names_its_geometry():
    a = marks.sheet_layout(schema("quartett", 4), 4)
    b = marks.sheet_layout(schema("quartett", 4), 4)
    assert a.fingerprint == b.fingerprint and len(a.fingerprint) == 6
    assert marks.sheet_layout(schema("quartett", 5), 5).fingerprint != a.fingerprint
    # another deck, another range of "cards held": another fingerprint
    other = ENGINES["terra_trumpf"].sheet_schema(4, {"deck": "tiere", "sheet": "points"})
    assert marks.sheet_layout(other, 4).fingerprint != (
        marks.sheet_layout(schema("terra_trumpf", 4), 4).fingerprint
    )


def test_a_field_without_a_largest_value_cannot_be_marked():
    spec = {**schema("quartett", 2)[0], "max": None}
    with pytest.raises(marks.LayoutError, match="range"):
        marks.sheet_layout([spec], 2)


def test_the_sheet_code_names_tournament_round_table_and_layout_only():
    layout = marks.sheet_layout(schema("trumpet", 3), 3)
    text = marks.code_text(4711, 3, 17, layout)
    assert text == f"TL1.4711.3.17.1.{layout.fingerprint}"
    code = marks.parse_code(text)
    assert (code.tournament, code.round, code.table, code.version) == (4711, 3, 17, 1)
    for bad in ("https://x.org/s/abc", "TL1.1.2.3.1", "TL1.a.2.3.1.ABCDEF", "TL2.1.2.3.1.ABCDEF"):
        assert marks.parse_code(bad) is None


def test_layout_json_describes_every_mark_of_every_printed_sheet():
    tables = [{"number": n, "players": ["A", "B", "C"]} for n in (2, 1)]
    out = sheet_layouts({"id": 9}, 4, tables, engine_id="monddaemmerung")
    assert [s["table"] for s in out] == [1, 2]
    data = json.loads(json.dumps(out))[0]
    assert data["code"] == marks.code_text(
        9, 4, 1, marks.sheet_layout(schema("monddaemmerung", 3), 3)
    )
    assert data["page"] == {
        "width": marks.PAGE_W,
        "height": marks.PAGE_H,
        "unit": "pt",
        "origin": "top-left",
    }
    won = next(f for f in data["fields"] if f["name"] == "s0_won")
    assert won["digits"] == 2 and len(won["write_in"]) == 2
    assert {(a["place"], a["value"]) for a in won["areas"]} >= {(1, 6), (0, 9), (0, 0)}


@pytest.mark.parametrize(
    ("game", "players"), [("terra_trumpf", 6), ("quartett", 6), ("altruismus", 2)]
)
def test_the_bubbles_are_drawn_where_the_layout_says(game, players):
    """Rasterized, every mark area's outline is dark at its edge and white
    in its middle."""
    import pypdfium2 as pdfium

    pdf = render_score_sheets(
        {"name": "Herbstturnier", "id": 1},
        1,
        [{"number": 1, "players": [f"P{s}" for s in range(players)]}],
        engine_id=game,
    )
    dpi = 200
    k = dpi / 72
    image = pdfium.PdfDocument(pdf)[0].render(scale=k, grayscale=True).to_numpy()
    image = image[:, :, 0] if image.ndim == 3 else image
    layout = marks.sheet_layout(schema(game, players), players)

    def dark(x, y):
        r, c = int(round(y * k)), int(round(x * k))
        return image[r - 1 : r + 2, c - 1 : c + 2].min() < 128

    for a in layout.areas:
        assert not dark(a.x, a.y), a
        assert dark(a.x + a.w / 2, a.y) and dark(a.x - a.w / 2, a.y), a
        assert dark(a.x, a.y - a.h / 2) and dark(a.x, a.y + a.h / 2), a
    for x, y in layout.markers:
        assert dark(x, y)
