"""Trumpet paper sheet: schema, valid sheets, every inconsistency code, garbage."""

import random

import pytest

from games.base import SheetError
from games.trumpet import ENGINE as E


def codes(exc):
    return sorted(p.code for p in exc.value.problems)


def problem(exc, code):
    return next(p for p in exc.value.problems if p.code == code)


def test_schema_asks_field_and_hall_per_seat():
    schema = E.sheet_schema(3)
    names = [f["name"] for f in schema]
    assert names == ["s0_field", "s0_hall", "s1_field", "s1_hall", "s2_field", "s2_hall"]
    assert {f["kind"] for f in schema} == {"int", "bool"}
    assert all(f["seat"] in (0, 1, 2) for f in schema)


def test_valid_sheet_with_hall_winner():
    """Paper result: each figure's final field, and who reached the Hall."""
    res = E.check_sheet(3, {"s0_field": 28, "s1_hall": True, "s2_field": "0"})
    assert res.figures == [28, 31, 0]
    assert res.ranks == [2, 1, 3]
    assert res.details["rank_keys"] == [[28], [31], [0]]
    assert res.details["great_hall"] == 1


def test_valid_sheet_time_called_no_hall_start_shared():
    """The start field 0 may be shared."""
    res = E.check_sheet(4, {"s0_field": 0, "s1_field": 0, "s2_field": 12, "s3_field": 11})
    assert res.ranks == [3, 3, 1, 2]
    assert res.details["great_hall"] is None


def test_hall_may_be_written_as_hall_field_number():
    res = E.check_sheet(2, {"s0_field": 31, "s0_hall": "yes", "s1_field": 30})
    assert res.figures == [31, 30]


def test_field_shared_rejected():
    """Valid only if no two figures share a track field."""
    with pytest.raises(SheetError) as exc:
        E.check_sheet(3, {"s0_field": 12, "s1_field": 12, "s2_field": 5})
    assert codes(exc) == ["field_shared"]
    p = problem(exc, "field_shared")
    assert p.fields == ("s0_field", "s1_field") and "12" in p.message


def test_several_in_hall_rejected():
    """At most one figure is in the Hall."""
    with pytest.raises(SheetError) as exc:
        E.check_sheet(3, {"s0_hall": True, "s1_hall": True, "s2_field": 5})
    assert codes(exc) == ["several_in_hall"]
    assert problem(exc, "several_in_hall").fields == ("s0_hall", "s1_hall")


@pytest.mark.parametrize("value", [32, 45, -1])
def test_no_such_field_rejected(value):
    """Every field exists on the board."""
    with pytest.raises(SheetError) as exc:
        E.check_sheet(2, {"s0_field": value, "s1_field": 3})
    assert codes(exc) == ["no_such_field"]
    assert problem(exc, "no_such_field").fields == ("s0_field",)


def test_field_31_without_hall_tick_rejected():
    with pytest.raises(SheetError) as exc:
        E.check_sheet(2, {"s0_field": 31, "s1_field": 3})
    assert codes(exc) == ["hall_not_ticked"]


def test_hall_and_track_field_rejected():
    with pytest.raises(SheetError) as exc:
        E.check_sheet(2, {"s0_field": 20, "s0_hall": True, "s1_field": 3})
    assert codes(exc) == ["hall_and_field"]


def test_every_problem_is_listed():
    with pytest.raises(SheetError) as exc:
        E.check_sheet(
            4,
            {"s0_field": 7, "s1_field": 7, "s2_hall": 1, "s3_hall": 1, "zz": 1},
        )
    assert codes(exc) == ["field_shared", "several_in_hall", "unknown_field"]


def test_garbage_values_give_invalid_and_missing():
    with pytest.raises(SheetError) as exc:
        E.check_sheet(3, {"s0_field": "abc", "s1_hall": "maybe", "s2_field": ""})
    found = {(p.code, p.fields) for p in exc.value.problems}
    assert ("invalid", ("s0_field",)) in found
    assert ("invalid", ("s1_hall",)) in found
    assert ("missing", ("s1_field",)) in found
    assert ("missing", ("s2_field",)) in found


def test_not_a_sheet():
    with pytest.raises(SheetError) as exc:
        E.check_sheet(2, ["s0_field", 3])
    assert codes(exc) == ["not_a_sheet"]


def test_custom_board_fields():
    board = {"track": 10, "crest_fields": [3], "final_fields": [9, 10]}
    res = E.check_sheet(2, {"s0_field": 10, "s1_hall": True}, {"board": board})
    assert res.figures == [10, 11]
    with pytest.raises(SheetError) as exc:
        E.check_sheet(2, {"s0_field": 12, "s1_field": 1}, {"board": board})
    assert codes(exc) == ["no_such_field"]


def test_random_garbage_never_crashes():
    r = random.Random(5)
    junk = [None, "", "x", -3, 0, 5, 31, 99, 2.5, 3.0, True, False, [], {}, "12", " 7 ", "yes"]
    names = [f["name"] for f in E.sheet_schema(4)] + ["bogus"]
    for _ in range(500):
        sheet = {n: r.choice(junk) for n in names if r.random() < 0.8}
        try:
            res = E.check_sheet(4, sheet)
        except SheetError as exc:
            assert exc.problems
        else:
            assert len(res.ranks) == 4
