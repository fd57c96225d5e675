from decimal import Decimal
from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.points import (
    PointsScheme,
    as_number,
    competition_ranks,
    figure_points,
    get_scheme,
    placement_points,
    table_points,
    win_draw_loss_points,
)

# --- placement -------------------------------------------------------------


@pytest.mark.parametrize(
    ("ranks", "expected"),
    [
        ([1, 2], [3, 0]),
        ([1, 2, 3], [3, F(3, 2), 0]),
        ([1, 2, 3, 4], [3, 2, 1, 0]),
        ([1, 2, 3, 4, 5], [3, F(9, 4), F(3, 2), F(3, 4), 0]),
        ([1, 2, 3, 4, 5, 6], [3, F(12, 5), F(9, 5), F(6, 5), F(3, 5), 0]),
    ],
)
def test_placement_scaled_to_table_size(ranks, expected):
    assert list(placement_points(ranks)) == expected


@pytest.mark.parametrize("k", [2, 3, 4, 5, 6])
def test_placement_same_average_and_range_at_every_size(k):
    pts = placement_points(list(range(1, k + 1)))
    assert max(pts) == 3 and min(pts) == 0
    assert F(sum(pts), k) == F(3, 2)


def test_placement_seats_in_any_order():
    assert placement_points([3, 1, 4, 2]) == (1, 3, 0, 2)


@pytest.mark.parametrize(
    ("ranks", "expected"),
    [
        ([1, 1, 3, 4], [F(5, 2), F(5, 2), 1, 0]),
        ([1, 2, 2, 4], [3, F(3, 2), F(3, 2), 0]),
        ([1, 1, 1, 4], [2, 2, 2, 0]),
        ([1, 1, 1, 1], [F(3, 2)] * 4),
        ([1, 1], [F(3, 2)] * 2),
        ([1, 1, 3, 3, 3], [F(21, 8), F(21, 8), F(3, 4), F(3, 4), F(3, 4)]),
        ([2, 1, 2], [F(3, 4), 3, F(3, 4)]),
    ],
)
def test_placement_ties_share_the_places(ranks, expected):
    assert list(placement_points(ranks)) == expected


def test_dense_ranks_are_read_competition_style():
    assert competition_ranks([1, 1, 2]) == (1, 1, 3)
    assert competition_ranks([2, 3, 3]) == (1, 2, 2)
    assert placement_points([1, 1, 2]) == placement_points([1, 1, 3])


def test_placement_top_is_configurable():
    assert placement_points([1, 2, 3], top=2) == (2, 1, 0)
    assert get_scheme("placement", top=10).table([1, 2, 3, 4, 5, 6]) == (10, 8, 6, 4, 2, 0)


@given(st.lists(st.integers(1, 6), min_size=2, max_size=6))
def test_placement_keeps_the_table_total(ranks):
    pts = placement_points(ranks)
    assert sum(pts) == F(3, 2) * len(ranks)
    ranks = competition_ranks(ranks)
    for a, pa in zip(ranks, pts, strict=True):
        for b, pb in zip(ranks, pts, strict=True):
            assert (a < b) <= (pa > pb)
            assert (a == b) <= (pa == pb)


# --- win / draw / loss and figure ------------------------------------------


def test_win_draw_loss():
    assert win_draw_loss_points([2, 1, 3, 4]) == (0, 3, 0, 0)
    assert win_draw_loss_points([1, 1, 3, 4]) == (1, 1, 0, 0)
    assert win_draw_loss_points([1, 1, 1]) == (1, 1, 1)
    assert win_draw_loss_points([1, 2], win=2, draw=1, loss=0) == (2, 0)
    assert get_scheme("win_draw_loss", win=1, draw=F(1, 2)).table([1, 1]) == (F(1, 2), F(1, 2))


def test_figure_scheme_uses_the_figures():
    assert figure_points([12, 7, 7, 0]) == (12, 7, 7, 0)
    assert table_points([1, 2], ["2.5", Decimal("1.5")], scheme="figure") == (F(5, 2), F(3, 2))
    with pytest.raises(ValueError, match="figure"):
        table_points([1, 2], [3, None], scheme="figure")
    with pytest.raises(ValueError, match="figure"):
        table_points([1, 2], None, scheme="figure")


def test_every_scheme_through_table_points():
    ranks, figures = [2, 1, 3], [5, 9, 1]
    assert table_points(ranks, figures) == (F(3, 2), 3, 0)
    assert table_points(ranks, figures, scheme="win_draw_loss") == (0, 3, 0)
    assert table_points(ranks, figures, scheme="figure") == (5, 9, 1)


# --- byes ---------------------------------------------------------------------


def test_bye_points():
    assert PointsScheme().bye_points() == F(3, 2)
    assert PointsScheme(top=4).bye_points() == 2
    assert PointsScheme(bye=3).bye_points(F(1, 2)) == 3
    assert PointsScheme("win_draw_loss").bye_points(F(3, 4)) == F(3, 4)
    assert PointsScheme("figure").bye_points() == 0


# --- checks and printing ------------------------------------------------------


@pytest.mark.parametrize("ranks", [[], [0, 1], [1, -2], [1, 1.5], [True, 2]])
def test_bad_ranks(ranks):
    with pytest.raises(ValueError):
        placement_points(ranks)


def test_bad_scheme_and_table():
    with pytest.raises(ValueError, match="unknown points scheme"):
        get_scheme("elo")
    with pytest.raises(ValueError, match="at least 2"):
        placement_points([1])
    with pytest.raises(ValueError, match="as many figures"):
        table_points([1, 2], [1, 2, 3], scheme="figure")


@pytest.mark.parametrize(
    ("value", "printed"),
    [
        (3, 3),
        (F(6, 2), 3),
        (F(5, 2), Decimal("2.5")),
        (F(21, 8), Decimal("2.625")),
        (F(1, 3), Decimal("0.333")),
        (F(2, 3), Decimal("0.667")),
        (F(-5, 2), Decimal("-2.5")),
        (F(5999, 2000), 3),
        (F(1, 2000), Decimal("0.001")),
        (Decimal("1.50"), Decimal("1.5")),
    ],
)
def test_as_number(value, printed):
    out = as_number(value)
    assert out == printed
    assert type(out) is type(printed)
    assert "E" not in str(out)
