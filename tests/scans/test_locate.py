"""Where the reader looks for a sheet code it could not read on the whole
page: beside the outermost marker-like squares, the page's corners first."""

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.scans.reader.locate import OUTERMOST, outermost
from tests.examples import examples


def sheet_squares(angle: float, inner: list[tuple[float, float]]):
    """A sheet's four corner markers turned by ``angle`` about (500, 500),
    and filled boxes at ``inner`` (fractions of the sheet inside its
    margin), as the candidates' (x, y, area)."""
    c, s = math.cos(angle), math.sin(angle)

    def turn(u, v):  # u, v from -1 to 1 across the sheet (a 600 x 800 page)
        x, y = 300 * u, 400 * v
        return (500 + c * x - s * y, 500 + s * x + c * y, 100.0)

    corners = [turn(-1, -1), turn(1, -1), turn(1, 1), turn(-1, 1)]
    return corners, [turn(u, v) for u, v in inner]


@settings(max_examples=examples(60), deadline=None)
@given(
    angle=st.floats(0, 2 * math.pi),
    inner=st.lists(
        st.tuples(st.floats(-0.85, 0.85), st.floats(-0.85, 0.85)), min_size=0, max_size=300
    ),
    shuffle=st.randoms(use_true_random=False),
)
def test_the_four_corner_markers_come_first_whatever_the_sheets_turn(angle, inner, shuffle):
    corners, boxes = sheet_squares(angle, inner)
    squares = corners + boxes
    shuffle.shuffle(squares)
    tried = outermost(squares)
    assert {squares[i] for i in tried[:4]} == set(corners)
    # however many boxes the sheet has, the tries stay few
    assert len(tried) <= 16 * OUTERMOST


def test_a_page_of_filled_boxes_costs_a_few_tries_not_one_per_box():
    corners, boxes = sheet_squares(
        0.3, [(u / 10, v / 10) for u in range(-8, 9) for v in range(-8, 9)]
    )
    tried = outermost(corners + boxes)
    assert len(boxes) == 289 and len(tried) < 40
    assert set(tried[:4]) == {0, 1, 2, 3}


def test_no_squares_no_tries_and_a_few_squares_are_all_tried():
    assert outermost([]) == []
    assert sorted(outermost([(0, 0, 1.0), (5, 5, 1.0)])) == [0, 1]
