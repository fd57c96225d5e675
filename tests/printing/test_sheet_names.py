"""Score sheets (issue 36): a long name wraps on two lines in its row and is
printed in full, never cut with "…"; three long names alike at one table
are each printed in full, so each player finds the own row. Read back with
pdfplumber from the A4 sheets (the default) and the A5 two-up sheets."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from games import ENGINES
from scoring.printing import fit
from scoring.printing.fonts import register_fonts
from scoring.printing.sheets import render_score_sheets
from tests.examples import examples
from tests.printing.test_print_layout import printed_in_full_or_cut
from tests.scoring import pdf_layout

ALIKE = [
    "Anna-Katharina von Übelacker-Schönbrunn-Lindenthal",
    "Anna-Katharina von Übelacker-Schönbrunn-Lindenberg",
    "Anna-Katharina von Übelacker-Schönbrunn-Lindenau",
]


def sheet_text(game: str, names: list[str], *, machine_readable: bool) -> str:
    tables = [{"number": 7, "players": [{"name": n, "club": "SC Köln"} for n in names]}]
    pdf = render_score_sheets(
        {"name": "Herbstturnier", "id": 3},
        2,
        tables,
        engine_id=game,
        base_url_for_table=lambda t: "https://turnier.example.org/t/1/",
        machine_readable=machine_readable,
    )
    return pdf_layout.stream_text(pdf_layout.read(pdf))


@pytest.mark.parametrize("machine_readable", [True, False])
@pytest.mark.parametrize("game", sorted(ENGINES))
def test_three_long_names_alike_at_one_table_are_printed_in_full(game, machine_readable):
    engine = ENGINES[game]
    n = max(engine.min_players, min(4, engine.max_players))
    names = (ALIKE + ["Jürgen Weiß"] * 3)[:n]
    text = sheet_text(game, names, machine_readable=machine_readable)
    assert "…" not in text
    for name in names:
        assert printed_in_full_or_cut(name, text, may_cut=False), (game, name)


def test_a_name_too_long_for_any_row_keeps_its_end_so_alike_names_differ():
    font, _bold = register_fonts()
    head = "Maximilian Freiherr von und zu Übelacker-Schönbrunn " * 3
    printed = [fit.fit_box(head + end, font, 9.5, 120, 20, 8)[0] for end in ("Ost", "West", "Süd")]
    assert len({tuple(lines) for lines in printed}) == 3
    for lines, end in zip(printed, ("Ost", "West", "Süd"), strict=True):
        assert len(lines) == 2 and lines[-1].startswith("…") and lines[-1].endswith(end)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    words=st.lists(
        st.text(alphabet="abcdefghijklmnopqrstuvwxyzäöüß-", min_size=1, max_size=14),
        min_size=1,
        max_size=8,
    )
)
def test_a_name_that_fits_two_lines_is_never_cut(words):
    font, _bold = register_fonts()
    name = " ".join(w.capitalize() for w in words)
    lines = fit.wrap(name, font, 8, 120)
    assume(len(lines) <= 2)
    boxed, size = fit.fit_box(name, font, 9.5, 120, 20, 8)
    assert fit.ELLIPSIS not in "".join(boxed)
    assert size >= 8 and len(boxed) * size * fit.LEADING <= 20
    assert all(fit.width(line, font, size) <= 120 for line in boxed)
