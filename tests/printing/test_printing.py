"""PDF printing: read the files back with pdfplumber, decode the QR
codes from rendered pages (pypdfium2 + zxing-cpp)."""

from __future__ import annotations

import io

import pdfplumber
import pytest
from hypothesis import given
from hypothesis import strategies as st

from games import ENGINES
from scoring.printing import fonts
from scoring.printing.lists import (
    render_round_results,
    render_seating_by_name,
    render_seating_by_table,
    render_standings,
    render_table_cards,
)
from scoring.printing.qr import dark_runs
from scoring.printing.sheets import render_score_sheets, two_up_order

TOURNAMENT = {"name": "Herbstturnier Köln"}
NAMES = [
    "Ayşe Şahin",
    "Łukasz Wróblewski",
    "Jürgen Weiß",
    "Zoë Ødegaard",
    "Anna Berg",
    "Bernd Ćosić",
    "Chloé Dupont",
]


def make_tables(count, size=4):
    return [
        {
            "number": t + 1,
            "players": [
                {"name": f"{NAMES[(t * size + s) % 7]} {t * size + s}"} for s in range(size)
            ],
        }
        for t in range(count)
    ]


def url_for(table):
    return f"https://turnier.example.org/t/9/r/2/table/{table['number']}/?sig=Zm9vYmFy-{table['number']}"


def halves(pdf_bytes):
    """Per page the text of the top and of the bottom A5 half."""
    out = []
    with pdfplumber.open(io.BytesIO(pdf_bytes)) as pdf:
        for page in pdf.pages:
            w, h = page.width, page.height
            top = page.crop((0, 0, w, h / 2)).extract_text() or ""
            bottom = page.crop((0, h / 2, w, h)).extract_text() or ""
            out.append((top, bottom))
    return out


def test_two_up_order_keeps_a_cut_stack_in_table_order():
    assert two_up_order(1) == [(0, None)]
    assert two_up_order(4) == [(0, 2), (1, 3)]
    assert two_up_order(5) == [(0, 3), (1, 4), (2, None)]
    for n in range(1, 30):
        pairs = two_up_order(n)
        stack = [t for t, _b in pairs] + [b for _t, b in pairs if b is not None]
        assert stack == list(range(n))


@pytest.mark.skipif("quartett" not in ENGINES, reason="quartett engine not registered")
def test_score_sheets_have_every_table_and_name_in_cut_stack_order():
    tables = make_tables(7)
    pdf = render_score_sheets(
        TOURNAMENT,
        2,
        tables[::-1],
        engine_id="quartett",
        base_url_for_table=url_for,
        machine_readable=False,
    )
    pages = halves(pdf)
    assert len(pages) == 4
    for k, (top, bottom) in enumerate(pages):
        assert f"Round 2 · Table {k + 1}\n" in top + "\n"
        for p in tables[k]["players"]:
            assert p["name"] in top
        if k + 4 < 7:
            assert f"Table {k + 5}\n" in bottom + "\n"
            for p in tables[k + 4]["players"]:
                assert p["name"] in bottom
        else:
            assert "Table" not in bottom
    text = "\n".join(t + b for t, b in pages)
    for name in ("Ayşe Şahin", "Łukasz Wróblewski", "Jürgen Weiß", "Bernd Ćosić"):
        assert name in text
    assert "Herbstturnier Köln" in text
    assert "Quartett" in text
    assert "play passes to the left" in text.lower()
    assert "When time is called" in text
    assert "Cards held" in text


def test_score_sheet_qr_codes_decode_to_each_tables_link():
    # the decoder is a dev dependency (pip: zxing-cpp); pypdfium2 comes with pdfplumber
    import pypdfium2 as pdfium
    import zxingcpp

    game = "quartett" if "quartett" in ENGINES else next(iter(ENGINES))
    tables = make_tables(5)
    urls = [url_for(t) for t in tables]
    pdf = render_score_sheets(
        TOURNAMENT, 2, tables, engine_id=game, base_url_for_table=urls, machine_readable=False
    )
    doc = pdfium.PdfDocument(pdf)
    found = {}
    for k in range(len(doc)):
        image = doc[k].render(scale=150 / 72).to_pil().convert("L")
        for code in zxingcpp.read_barcodes(image):
            half = "top" if code.position.top_left.y < image.height / 2 else "bottom"
            found[(k, half)] = code.text
    assert found == {
        (0, "top"): urls[0],
        (0, "bottom"): urls[3],
        (1, "top"): urls[1],
        (1, "bottom"): urls[4],
        (2, "top"): urls[2],
    }


@pytest.mark.parametrize("game", sorted(ENGINES))
@pytest.mark.parametrize("machine_readable", [True, False])
def test_every_game_and_table_size_fits_on_a_sheet(game, machine_readable):
    engine = ENGINES[game]
    for n in range(engine.min_players, engine.max_players + 1):
        pdf = render_score_sheets(
            TOURNAMENT,
            1,
            make_tables(2, n),
            engine_id=game,
            base_url_for_table=url_for,
            machine_readable=machine_readable,
        )
        if machine_readable:  # one A4 page per table
            top, bottom = all_text(pdf)
        else:
            ((top, bottom),) = halves(pdf)
        assert engine.name in top
        assert "When time is called" in top
        assert "Seat" in top
        for p in make_tables(2, n)[1]["players"]:
            assert p["name"] in bottom


@pytest.mark.parametrize("machine_readable", [True, False])
def test_gettext_translates_labels(machine_readable):
    game = next(iter(ENGINES))
    german = {"Seat": "Platz", "Player": "Spieler", "When time is called:": "Bei Zeitende:"}
    pdf = render_score_sheets(
        TOURNAMENT,
        1,
        make_tables(1, ENGINES[game].min_players),
        engine_id=game,
        base_url_for_table=url_for,
        gettext=lambda s: german.get(s, s),
        machine_readable=machine_readable,
    )
    top = all_text(pdf)[0]
    assert "Platz" in top and "Spieler" in top and "Bei Zeitende:" in top


@given(st.lists(st.booleans(), max_size=60))
def test_dark_runs_cover_exactly_the_dark_modules(row):
    redrawn = [False] * len(row)
    for start, length in dark_runs(row):
        assert length > 0
        redrawn[start : start + length] = [True] * length
    assert redrawn == row


def all_text(pdf_bytes):
    with pdfplumber.open(io.BytesIO(pdf_bytes)) as pdf:
        return [page.extract_text() or "" for page in pdf.pages]


def column_lines(pdf_bytes):
    """Lines of a two-column list, left column first on each page."""
    lines = []
    with pdfplumber.open(io.BytesIO(pdf_bytes)) as pdf:
        for page in pdf.pages:
            w, h = page.width, page.height
            for box in ((0, 0, w / 2, h), (w / 2, 0, w, h)):
                lines += (page.crop(box).extract_text() or "").splitlines()
    return lines


def test_seating_lists_by_table_and_by_name():
    tables = make_tables(40)
    by_table = "\n".join(all_text(render_seating_by_table(TOURNAMENT, 3, tables)))
    for t in tables:
        for p in t["players"]:
            assert p["name"] in by_table
    # by surname in German order, "Surname, Given"
    tables = [{"number": t + 1, "players": [{"name": n} for n in NAMES[t::3]]} for t in range(3)]
    pdf = render_seating_by_name(TOURNAMENT, 3, tables)
    pages = all_text(pdf)
    assert all("Player Table Seat" in pg for pg in pages)
    lines = column_lines(pdf)
    entries = {
        f"{p['name'].split()[1]}, {p['name'].split()[0]}": (t["number"], s)
        for t in tables
        for s, p in enumerate(t["players"], 1)
    }
    for name, (number, seat) in entries.items():
        assert f"{name} {number} {seat}" in lines
    found = [ln.rsplit(" ", 2)[0] for ln in lines if ln.rsplit(" ", 2)[0] in entries]
    surnames = [name.split(",")[0] for name in found]
    assert surnames == [
        "Berg",
        "Ćosić",
        "Dupont",
        "Ødegaard",
        "Şahin",
        "Weiß",
        "Wróblewski",
    ]


def test_table_cards_one_page_per_table():
    pages = all_text(render_table_cards(TOURNAMENT, [3, 1, 2]))
    assert len(pages) == 3
    for k, page in enumerate(pages):
        assert str(k + 1) in page.split() and "Table" in page


def test_standings_flow_over_pages_with_repeated_header():
    rows = [
        {"rank": i + 1, "name": f"{NAMES[i % 7]} {i}", "points": 100 - i / 2, "tb": 1.5}
        for i in range(300)
    ]
    columns = [("rank", "Place"), ("name", "Player"), ("points", "Points"), ("tb", "Opp. avg")]
    pages = all_text(render_standings(TOURNAMENT, rows, columns=columns, round_no=5))
    assert len(pages) > 3
    for page in pages:
        assert "Place Player Points Opp. avg" in page
        assert "Standings after round 5" in page
    text = "\n".join(pages)
    assert "1 Ayşe Şahin 0 100 1.5" in text
    assert "2 Łukasz Wróblewski 1 99.5 1.5" in text
    assert "300 Zoë Ødegaard 299 -49.5 1.5" in text or "300 " in text


def test_round_results():
    tables = make_tables(3)
    for t in tables:
        for s, p in enumerate(t["players"]):
            p.update(rank=s + 1, figure=12 - s, points=3 - s)
    tables.append({"number": 4, "players": ["Weiß", "Şahin"]})
    text = "\n".join(
        all_text(render_round_results(TOURNAMENT, 2, tables, figure_label="cards held"))
    )
    assert "Results of round 2" in text and "cards held" in text
    assert f"1 1 {tables[0]['players'][0]['name']} 1 12 3" in text
    assert "4 1 Weiß no result" in text


def test_missing_fonts_give_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setattr(fonts.pdfmetrics, "getRegisteredFontNames", lambda: [])
    monkeypatch.setattr(fonts, "FONT_DIRS", (str(tmp_path),))
    monkeypatch.delenv("TURNIERLEITER_FONT_DIR", raising=False)
    with pytest.raises(fonts.FontsMissing, match="fonts-dejavu-core"):
        fonts.register_fonts()


# -- text that fits its place --------------------------------------------------


@pytest.fixture(scope="module")
def hyphenation():
    """The hyphenation patterns, loaded once (a second or two) outside the
    examples' deadline."""
    from scoring.printing import fit

    fit.syllable_break("Warmlaufen", fonts.register_fonts()[0], 9, 30)


WORDS = st.text(alphabet=st.sampled_from("abcÄöüßŁŞ-–/ WMi"), min_size=0, max_size=120)


@given(WORDS, st.floats(min_value=12, max_value=400))
def test_wrapped_lines_fit_and_keep_every_character(hyphenation, text, room):
    from scoring.printing import fit

    font, _bold = fonts.register_fonts()
    lines = fit.wrap(text, font, 9, room)
    assert all(fit.width(line, font, 9) <= room + 1e-6 or len(line) == 1 for line in lines)
    # every character kept; a syllable's break adds its hyphen
    assert "".join(lines).replace(" ", "").replace("-", "") == text.replace(" ", "").replace(
        "-", ""
    )


GERMAN = st.lists(
    st.sampled_from(
        ["Spielgemeinschaft", "Lindenstraße", "Kartenspielfreunde", "Oberschleißheim",
         "Donaudampfschifffahrt", "Übelacker-Schönbrunn", "4", "e.V.", "Quartett"]
    ),
    min_size=1,
    max_size=6,
).map(" ".join)  # fmt: skip


@given(GERMAN, st.floats(min_value=40, max_value=200))
def test_a_word_too_long_for_its_line_breaks_at_a_syllables_end(hyphenation, text, room):
    """The final standings and certificates broke "Spielgemeinsc / haft" and
    "Lindenstra / ße": a word breaks at a space or hyphen, then at a
    syllable's end (German hyphenation) with its hyphen, never inside one."""
    import pyphen

    from scoring.printing import fit

    font, _bold = fonts.register_fonts()
    lines = fit.wrap(text, font, 9, room)
    ends = {w: set(pyphen.Pyphen(lang="de_DE").positions(w)) for w in text.split()}
    words = iter(text.split())
    word, at = next(words), 0
    for line in lines:
        for piece in line.split(" "):
            while at >= len(word):
                word, at = next(words), 0
            part = piece[:-1] if piece.endswith("-") and not word[at:].startswith(piece) else piece
            assert word[at:].startswith(part), (word, piece, lines)
            at += len(part)
            if at < len(word) and not part.endswith("-"):
                # the word goes on on the next line: here is a syllable's end
                assert at in ends[word], (word, part, lines)
                assert piece.endswith("-")


@given(WORDS, st.floats(min_value=30, max_value=300), st.integers(min_value=1, max_value=3))
def test_fitted_lines_shrink_then_cut_with_a_visible_ellipsis(hyphenation, text, room, lines):
    from scoring.printing import fit

    font, _bold = fonts.register_fonts()
    out, size = fit.fit_lines(text, font, 12, room, lines, min_size=8)
    assert len(out) <= lines and 8 <= size <= 12
    assert all(fit.width(line, font, size) <= room + 1e-6 for line in out)
    # (a syllable's break adds its hyphen)
    joined = "".join(out).replace(" ", "").replace("-", "")
    whole = text.replace(" ", "").replace("-", "")
    if joined != whole:  # cut: at the smallest size, with "…"
        assert size == 8 and joined.endswith("…")
        assert whole.startswith(joined[:-1])


@pytest.mark.parametrize("length", [1, 61, 62, 63, 83, 84, 85, 150, 300, 600])
def test_qr_codes_of_every_link_length(length):
    """qrcode fails on all-zero probe data; links of 62 and of 84+ bytes
    (a long host name) crashed the score sheets."""
    from scoring.printing.qr import qr_matrix

    matrix = qr_matrix("h" * length)
    assert len(matrix) >= 21 and all(len(row) == len(matrix) for row in matrix)


def test_lists_of_an_empty_round_still_print_their_header():
    for render in (render_seating_by_table, render_seating_by_name, render_round_results):
        (page,) = all_text(render(TOURNAMENT, 1, []))
        assert "Herbstturnier Köln" in page and "Player" in page
