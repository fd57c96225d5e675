"""Reading the sheets: every game read back exactly from a 200 dpi scan and
from a turned phone photo, upside down and sideways; every doubtful mark
flagged with its reason, never guessed; every bad input refused with its
reason before it is decoded. The pages come from the corpus generator
(``tests/scans/corpus.py``): real sheets, a simulated pen."""

from __future__ import annotations

import io
import struct
import zlib

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import ENGINES
from scoring.scans.reader import Limits, read_as, read_file, read_image
from tests.examples import examples
from tests.scans.corpus import Pen, as_scan, blank_sheet, layout_of, make_case, mark_sheet

GAMES = sorted(ENGINES)


def layout_for(game, players):
    return lambda code: layout_of(game, players)


def read_case(case):
    return read_image(case.image, layout_for(case.game, case.players))


def assert_read_exactly(page, case):
    assert page.status == "read", page.reason
    assert page.code == case.code
    assert page.unsure == {}
    assert {k: r.value for k, r in page.fields.items()} == {
        f.name: case.truth.get(f.name) for f in case.layout.fields
    }


@pytest.mark.parametrize("game", GAMES)
def test_a_filled_sheet_is_read_back_exactly_from_a_200_dpi_scan(game):
    n = ENGINES[game].max_players
    case = make_case(101, game, n, "scan200", correction=False, stray=False)
    page = read_case(case)
    assert_read_exactly(page, case)
    assert page.sheet == {
        "tournament": 4711, "round": 3, "table": 102, "version": 1,
        "fingerprint": case.layout.fingerprint,
    }  # fmt: skip
    assert page.seconds > 0


@pytest.mark.parametrize("game", GAMES)
def test_a_filled_sheet_is_read_back_exactly_from_a_turned_phone_photo(game):
    n = ENGINES[game].min_players
    case = make_case(7, game, n, "photo", correction=False, stray=False)
    assert_read_exactly(read_case(case), case)


@pytest.mark.parametrize("turn", [1, 2, 3])
def test_upside_down_and_sideways_pages_are_read(turn):
    case = make_case(13, "quartett", 5, "scan200", correction=False, stray=False)
    case.image = np.ascontiguousarray(np.rot90(case.image, turn))
    assert_read_exactly(read_case(case), case)


# -- doubt is flagged, never guessed ----------------------------------------------------

TRUTH = {"s0_cards": 12, "s1_cards": 7, "s1_out_order": 1, "s2_decision": True, "s3_cards": 30}


def marked(extra, seed=3):
    """Quartett at 4 seats, TRUTH marked by a dark pen, plus ``extra(pen, layout)``."""
    rng = np.random.default_rng(seed)
    layout = layout_of("quartett", 4)
    image = blank_sheet("quartett", 4, 5, 200).copy()
    mark_sheet(image, 200, layout, TRUTH, rng)
    pen = Pen(image, 200, rng)
    pen.level = 30
    extra(pen, layout)
    page = read_image(as_scan(image, rng), layout_for("quartett", 4))
    assert page.status == "read"
    return page


def area(layout, name, value, place=0):
    return next(
        a for a in layout.field(name).areas if a.value == value and a.place in (place, None)
    )


def test_a_clean_sheet_of_the_unsure_cases_reads_without_doubt():
    page = marked(lambda pen, layout: None)
    assert page.unsure == {}
    assert page.values() == TRUTH


def test_two_marks_in_one_digit_column_make_the_field_unsure():
    page = marked(lambda pen, layout: pen.fill(area(layout, "s0_cards", 5), "fill"))
    assert page.unsure == {"s0_cards": "two_marks"}
    assert page.fields["s0_cards"].value is None
    assert page.values() == {k: v for k, v in TRUTH.items() if k != "s0_cards"}


def test_two_options_marked_make_the_field_unsure():
    page = marked(lambda pen, layout: pen.fill(area(layout, "s1_out_order", 3), "fill"))
    assert page.unsure == {"s1_out_order": "two_marks"}


def test_a_faint_mark_makes_the_field_unsure():
    page = marked(lambda pen, layout: pen.fill(area(layout, "s2_cards", 4), "faint"))
    assert page.unsure == {"s2_cards": "faint"}


def test_a_crossed_out_correction_makes_the_field_unsure():
    def correct(pen, layout):
        pen.cross_out(area(layout, "s2_cards", 3))
        pen.fill(area(layout, "s2_cards", 8), "fill")

    page = marked(correct)
    assert page.unsure == {"s2_cards": "crossed_out"}


def pen_marked(game, players, values, style, dpi, seed=7, extra=None, level=None):
    """``values`` marked digit by digit in ``style`` (a whole sheet of ticks,
    of scribbles ...) by a pen of ``level``, then scanned at ``dpi``."""
    rng = np.random.default_rng(seed)
    layout = layout_of(game, players)
    image = blank_sheet(game, players, 5, dpi).copy()
    pen = Pen(image, dpi, rng)
    pen.level = pen.level if level is None else level
    for name, value in values.items():
        f = layout.field(name)
        text = str(value).rjust(f.digits, "0")
        for a in f.areas:
            if a.value == int(text[a.column]):
                pen.fill(a, style)
    if extra:
        extra(pen, layout)
    return read_image(as_scan(image, rng), layout_for(game, players)), layout


@pytest.mark.parametrize("level", [40, 120])  # a felt-tip, a blue ballpoint
@pytest.mark.parametrize("dpi", [150, 200])
@pytest.mark.parametrize(("game", "players"), [("terra_trumpf", 6), ("altruismus", 4)])
def test_a_sheet_marked_with_ticks_is_read_exactly_not_faint(game, players, dpi, level):
    """A tick's thin stroke covers little of a bubble's inside (at 150 dpi
    7-11 %): it is a mark, dark where it is, not a faint one."""
    layout = layout_of(game, players)
    rng = np.random.default_rng(level)
    values = {
        f.name: int(rng.integers(10 ** (f.digits - 1), min(f.max + 1, 10**f.digits)))
        for f in layout.fields
        if f.kind == "int"
    }
    page, _layout = pen_marked(game, players, values, "tick", dpi, level=level)
    assert page.unsure == {}
    assert {k: v for k, v in page.values().items() if k in values} == values


DENSE = {"h1_s0_value": 444444, "h1_s1_value": 0, "h1_s2_value": 111111, "h1_s3_value": 304030}


@pytest.mark.parametrize("dpi", [150, 200, 300])
def test_scribbles_side_by_side_in_a_dense_block_are_not_taken_for_a_cross(dpi):
    """Terra Trumpf's value blocks: a hurried scribble reaches past its oval
    into the ring around the next one, where a cross's arms would show."""
    page, _layout = pen_marked("terra_trumpf", 6, DENSE, "partial", dpi)
    assert page.unsure == {}
    assert {k: v for k, v in page.values().items() if k in DENSE} == DENSE


@pytest.mark.parametrize("dpi", [150, 300])
def test_a_crossed_out_mark_among_scribbles_is_still_crossed_out(dpi):
    def correct(pen, layout):
        below = next(a for a in layout.field("h1_s0_value").areas if (a.column, a.value) == (2, 5))
        pen.cross_out(below)  # right under the scribbled 4 of its column

    page, _layout = pen_marked("terra_trumpf", 6, DENSE, "partial", dpi, extra=correct)
    assert page.unsure == {"h1_s0_value": "crossed_out"}


def test_a_stray_line_through_a_field_makes_it_unsure():
    def between_rows(pen, layout):
        f = layout.field("s3_cards")
        gap = area(layout, "s3_cards", 6).y + 4  # between the rows of 6 and 7
        pen.line(f.block[0] - 3, gap - 1, f.block[2] + 3, gap + 1, 0.8)

    assert marked(between_rows).unsure == {"s3_cards": "stray_mark"}

    def across_bubbles(pen, layout):
        x0, y0, x1, _y1 = layout.field("s3_cards").block
        pen.line(x0 + 2, y0 + 30, x1 - 2, y0 + 48, 0.8)

    page = marked(across_bubbles)  # a line that crosses bubbles: unsure too, never a value
    assert set(page.unsure) == {"s3_cards"}


def test_a_number_written_but_not_marked_is_unsure():
    page = marked(lambda pen, layout: pen.write("9", layout.field("s2_cards").write_in[1]))
    assert page.unsure == {"s2_cards": "not_marked"}


def test_a_gap_after_a_marked_digit_is_unsure_not_a_smaller_number():
    page = marked(lambda pen, layout: pen.fill(area(layout, "s2_cards", 2, place=1), "fill"))
    assert page.unsure == {"s2_cards": "incomplete"}


def test_digits_beyond_the_fields_range_are_unsure():
    def too_many(pen, layout):
        pen.fill(area(layout, "s2_cards", 3, place=1), "fill")
        pen.fill(area(layout, "s2_cards", 9, place=0), "fill")  # 39 > 30 cards

    page = marked(too_many)
    assert page.unsure == {"s2_cards": "out_of_range"}


def test_the_generator_flags_match_the_reader():
    """The corpus's own cases: a crossed-out correction and a faint mark."""
    case = make_case(20, "altruismus", 3, "scan300", correction=True, stray=False)
    page = read_case(case)
    assert case.corrected and all(page.unsure.get(n) == "crossed_out" for n in case.corrected)
    case = make_case(21, "trumpet", 4, "scan150", correction=False, stray=False, faint=True)
    page = read_case(case)
    assert page.unsure == {next(iter(case.faint)): "faint"}


# -- pages that are no sheet, and files that are no page -----------------------------------


def test_a_blank_page_is_refused_as_blank():
    rng = np.random.default_rng(1)
    page = np.clip(rng.normal(240, 3, (1654, 1169)), 0, 255).astype(np.uint8)
    assert read_image(page, layout_for("quartett", 4)).reason == "blank_page"


def test_a_photo_of_something_else_is_no_sheet():
    rng = np.random.default_rng(2)
    photo = np.full((1500, 2000), 120, np.uint8)
    for _ in range(40):
        p = rng.integers(0, 2000, 2)
        cv2.rectangle(
            photo,
            tuple(int(v) for v in p),
            tuple(int(v) for v in p + rng.integers(20, 300, 2)),
            int(rng.integers(0, 255)),
            -1,
        )
    cv2.putText(photo, "Speisekarte", (300, 700), cv2.FONT_HERSHEY_SIMPLEX, 4, 20, 8)
    page = read_image(photo, layout_for("quartett", 4))
    assert (page.status, page.reason) == ("refused", "not_a_sheet")


def test_two_sheets_on_one_photo_are_refused():
    a = make_case(31, "quartett", 3, "scan150", correction=False, stray=False).image
    b = make_case(32, "quartett", 3, "scan150", correction=False, stray=False).image
    h = min(a.shape[0], b.shape[0])
    both = np.hstack([a[:h], np.full((h, 40), 200, np.uint8), b[:h]])
    assert read_image(both, layout_for("quartett", 3)).reason == "two_sheets"


def test_a_sheet_whose_code_is_unreadable_says_so():
    image = blank_sheet("trumpet", 3, 9, 200).copy()
    layout = layout_of("trumpet", 3)
    assert read_image(image, layout_for("trumpet", 3)).status == "read"
    k = 200 / 72
    x, y, size = layout.code  # ink spilt over the code
    image[
        int((y + 4) * k) : int((y + size - 6) * k), int((x + 4) * k) : int((x + size - 6) * k)
    ] = 30
    page = read_image(image, layout_for("trumpet", 3))
    assert (page.status, page.reason) == ("refused", "code_unreadable")


@pytest.mark.parametrize(
    ("seed", "game", "players", "kind"),
    [
        (40, "quartett", 4, "scan200"),
        (41, "terra_trumpf", 6, "scan300"),
        (42, "trumpet", 3, "scan150"),
        (43, "altruismus", 2, "photo"),
        (44, "monddaemmerung", 5, "photo"),
    ],
)
def test_a_sheet_whose_code_is_blotted_out_is_read_once_its_layout_is_named(
    seed, game, players, kind
):
    """The staff picked the table: its layout (the table's game and size)
    is all the reader needs; the markers are found without the code."""
    case = make_case(seed, game, players, kind, correction=False, stray=False, blotted=True)
    assert read_case(case).reason == "code_unreadable"
    page = read_as(case.image, case.layout)
    assert (page.status, page.unsure) == ("read", {}), page.reason
    assert {k: r.value for k, r in page.fields.items()} == {
        f.name: case.truth.get(f.name) for f in case.layout.fields
    }


@pytest.mark.parametrize("turn", [1, 2, 3])
def test_a_blotted_sheet_fed_upside_down_or_sideways_is_read_the_right_way_up(turn):
    case = make_case(45, "quartett", 5, "scan200", correction=False, stray=False, blotted=True)
    image = np.ascontiguousarray(np.rot90(case.image, turn))
    page = read_as(image, case.layout)
    assert (page.status, page.unsure) == ("read", {}), page.reason
    assert page.values() == {k: v for k, v in case.truth.items() if v is not None}


def test_a_blotted_sheets_unsure_marks_stay_unsure():
    case = make_case(46, "trumpet", 4, "scan200", correction=True, stray=False, blotted=True)
    page = read_as(case.image, case.layout)
    assert page.status == "read"
    assert set(page.unsure) >= case.corrected and case.corrected


@pytest.mark.parametrize(
    ("game", "players", "named"),
    [
        ("quartett", 4, ("quartett", 3)),  # a table of fewer players
        ("quartett", 4, ("quartett", 5)),  # ... of more
        ("trumpet", 5, ("trumpet", 4)),
        ("terra_trumpf", 3, ("terra_trumpf", 4)),
        ("altruismus", 3, ("monddaemmerung", 3)),  # another game
        ("trumpet", 4, ("quartett", 4)),
    ],
)
def test_a_blotted_sheet_named_as_another_game_or_size_is_refused_not_misread(game, players, named):
    case = make_case(47, game, players, "scan200", correction=False, stray=False, blotted=True)
    page = read_as(case.image, layout_of(*named))
    assert (page.status, page.reason, page.fields) == ("refused", "layout_mismatch", {})


def test_a_page_without_a_sheets_markers_is_refused_when_named():
    rng = np.random.default_rng(3)
    noise = rng.integers(200, 255, (1600, 1200)).astype(np.uint8)
    page = read_as(noise, layout_of("quartett", 4))
    assert (page.status, page.reason) == ("refused", "markers_not_found")


def test_a_sheet_of_another_layout_or_unknown_is_refused_not_misread():
    case = make_case(34, "trumpet", 3, "scan200", correction=False, stray=False)
    page = read_image(case.image, lambda code: None)
    assert page.reason == "unknown_sheet" and page.sheet["table"] == 35
    page = read_image(case.image, lambda code: layout_of("trumpet", 4))
    assert page.reason == "layout_mismatch"


def png_header(width: int, height: int) -> bytes:
    """A PNG that claims ``width`` x ``height`` pixels (its data is tiny)."""

    def chunk(kind, data):
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", ihdr)
        + chunk(b"IDAT", zlib.compress(b"\0" * 1000))
        + chunk(b"IEND", b"")
    )


def pdf_with_image(width: int, height: int) -> bytes:
    """A one-page PDF whose image claims ``width`` x ``height`` pixels."""
    stream = zlib.compress(b"\0" * 4096)
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>",
        b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n"
        % (width, height, len(stream))
        + stream
        + b"\nendstream",
        b"<< /Length 30 >>\nstream\nq 595 0 0 842 0 0 cm /Im0 Do Q\nendstream",
    ]
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objs, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % i + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objs) + 1))
    for off in offsets:
        out.write(b"%010d 00000 n \n" % off)
    out.write(
        b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objs) + 1, xref)
    )
    return out.getvalue()


def many_pages(count: int) -> bytes:
    from reportlab.pdfgen.canvas import Canvas

    buf = io.BytesIO()
    c = Canvas(buf)
    for _ in range(count):
        c.showPage()
    c.save()
    return buf.getvalue()


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"GIF89a" + b"\0" * 100, "not_image_or_pdf"),
        (b"Name;Verein\nAnna;SC\n", "not_image_or_pdf"),
        (b"\xff\xd8\xff\xe0" + b"\0" * (50 * 1024 * 1024), "too_large"),
        (png_header(40_000, 40_000), "decompression_bomb"),
        (png_header(20_000, 20_000) + b"\0" * 3_000_000, "too_large"),
        (b"\xff\xd8\xff\xe0\0\x10JFIF", "unreadable_file"),
        (b"%PDF-1.4 broken", "unreadable_file"),
    ],
    ids=["gif", "csv", "50MB", "png-bomb", "png-huge", "jpeg-cut", "pdf-broken"],
)
def test_bad_files_are_refused_with_their_reason(data, reason):
    result = read_file(data, layout_for("quartett", 4))
    assert (result.status, result.reason, result.pages) == ("refused", reason, [])


def test_a_500_page_pdf_is_refused_before_any_page_is_rendered():
    result = read_file(many_pages(500), layout_for("quartett", 4))
    assert (result.status, result.reason) == ("refused", "too_many_pages")


def test_a_pdf_page_with_a_bomb_image_is_refused_and_the_others_read():
    result = read_file(pdf_with_image(60_000, 60_000), layout_for("quartett", 4))
    assert result.status == "read"
    assert [(p.status, p.reason) for p in result.pages] == [("refused", "decompression_bomb")]


def test_a_scanners_pdf_and_an_image_file_are_read_page_by_page():
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen.canvas import Canvas

    cases = [
        make_case(40 + k, "monddaemmerung", 4, "scan200", correction=False, stray=False)
        for k in range(2)
    ]
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=A4)
    for case in cases:
        ok, jpg = cv2.imencode(".jpg", case.image, [cv2.IMWRITE_JPEG_QUALITY, 85])
        c.drawImage(ImageReader(io.BytesIO(jpg.tobytes())), 0, 0, *A4)
        c.showPage()
    c.showPage()  # a blank page at the end of the pile
    c.save()
    result = read_file(buf.getvalue(), layout_for("monddaemmerung", 4), Limits(pdf_dpi=200))
    assert [p.page for p in result.pages] == [1, 2, 3]
    for page, case in zip(result.pages, cases, strict=False):
        assert_read_exactly(page, case)
    assert result.pages[2].reason == "blank_page"
    ok, png = cv2.imencode(".png", cases[0].image)
    (page,) = read_file(png.tobytes(), layout_for("monddaemmerung", 4)).pages
    assert_read_exactly(page, cases[0])


# -- values -> marks -> values ---------------------------------------------------------

COMBOS = [(g, n) for g in GAMES for n in range(ENGINES[g].min_players, ENGINES[g].max_players + 1)]


@st.composite
def sheets(draw):
    game, n = draw(st.sampled_from(COMBOS))
    layout = layout_of(game, n)
    truth = {}
    for f in layout.fields:
        if draw(st.booleans()) and (not f.required or f.kind == "bool"):
            truth[f.name] = None
        elif f.kind == "int":
            truth[f.name] = draw(st.integers(f.min, f.max))
        elif f.kind == "bool":
            truth[f.name] = True
        else:
            truth[f.name] = draw(st.sampled_from([a.value for a in f.areas]))
    return game, n, truth, draw(st.integers(0, 2**32 - 1))


@settings(max_examples=examples(12), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sheets())
def test_values_marked_on_a_clean_print_are_read_back(sheet):
    game, n, truth, seed = sheet
    rng = np.random.default_rng(seed)
    layout = layout_of(game, n)
    image = blank_sheet(game, n, 1, 150).copy()
    mark_sheet(image, 150, layout, truth, rng)
    page = read_image(image, layout_for(game, n))
    assert page.status == "read"
    assert page.unsure == {}
    assert {k: r.value for k, r in page.fields.items()} == truth


def test_a_page_whose_print_is_not_where_the_markers_put_it_is_refused_not_misread():
    """A bent sheet or a marker taken for another: the outlines are off, so
    no mark is judged at all."""
    rng = np.random.default_rng(5)
    layout = layout_of("quartett", 4)
    image = blank_sheet("quartett", 4, 5, 200).copy()
    mark_sheet(image, 200, layout, TRUTH, rng)
    k = 200 / 72
    band = slice(int(90 * k), int(790 * k))  # below the code, above the lower markers
    shifted = image.copy()
    shifted[band] = np.roll(np.roll(image[band], int(4.75 * k), axis=1), int(4 * k), axis=0)
    page = read_image(shifted, layout_for("quartett", 4))
    assert (page.status, page.reason) == ("refused", "misaligned")
    # one field's block off on its own: only that field is unsure
    x0, y0, x1, y1 = (int(v * k) for v in layout.field("s0_cards").block)
    one = image.copy()
    one[y0 - 8 : y1 + 8, x0 - 8 : x1 + 8] = np.roll(
        image[y0 - 8 : y1 + 8, x0 - 8 : x1 + 8], int(4.0 * k), axis=0
    )
    page = read_image(one, layout_for("quartett", 4))
    assert page.unsure == {"s0_cards": "misaligned"}


def test_a_field_bent_a_little_off_is_found_beside_and_read_exactly():
    """A sheet that lay curved on the glass: one field's print sits 2.5 points
    lower and 2 to the right than the markers put it (less than half a row's
    pitch): its outlines are looked for around, and it reads exactly."""
    rng = np.random.default_rng(5)
    layout = layout_of("quartett", 4)
    image = blank_sheet("quartett", 4, 5, 200).copy()
    mark_sheet(image, 200, layout, TRUTH, rng)
    k = 200 / 72
    x0, y0, x1, y1 = (v * k for v in layout.field("s0_cards").block)
    # a smooth bulge around the field: the paper moves most at its centre
    h, w = image.shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    bump = np.exp(
        -(((xx - (x0 + x1) / 2) / (60 * k)) ** 2) - ((yy - (y0 + y1) / 2) / (60 * k)) ** 2
    )
    bent = cv2.remap(
        image, xx - 2 * k * bump, yy - 2.5 * k * bump, cv2.INTER_LINEAR, borderValue=255
    )
    page = read_image(bent, layout_for("quartett", 4))
    assert page.unsure == {}
    assert page.values() == TRUTH


def test_a_photo_from_afar_reads_its_code_beside_the_marker():
    """The code of a sheet photographed from afar (Monddämmerung, 5 seats,
    turned and tilted) is too small and soft for the whole picture; read
    from the enlarged region beside a corner marker, the sheet is read."""
    from scoring.scans.reader import locate

    case = make_case(68, "monddaemmerung", 5, "photo")
    gray = case.image
    assert locate.codes_near_markers(gray)[0].text == case.code
    page = read_case(case)
    assert page.status == "read" and page.code == case.code


@pytest.mark.parametrize("seed, players", [(834, 6), (1127, 5)])
def test_a_steep_photo_finds_its_fourth_marker_not_a_filled_bubble(seed, players):
    """Terra Trumpf photographed at a steep angle, turned: the corner that
    the other three markers' parallelogram predicts lies nearer a filled
    bubble than the real marker. The marker is a square of about the other
    markers' size, so the page is straightened on it and read exactly (it
    was refused as misaligned)."""
    case = make_case(seed, "terra_trumpf", players, "photo")
    assert not case.corrected and not case.stray
    assert_read_exactly(read_case(case), case)


def test_every_sheet_code_is_a_square_symbol():
    """The encoder alone picks a 12 x 26 rectangle for some texts: drawn over
    the code's square its modules are half as tall, too small for a photo."""
    from scoring.printing import marks
    from scoring.printing.sheets import data_matrix

    layout = layout_of("monddaemmerung", 5)
    shapes = {
        (len(m), len(m[0]))
        for m in (data_matrix(marks.code_text(4711, 3, t, layout)) for t in range(1, 120))
    }
    assert all(rows == cols for rows, cols in shapes), shapes
