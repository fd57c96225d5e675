"""Monddämmerung paper sheets: "for each seat the win-pile count, whether the One
was laid, and the order of going out. Valid only if the counts add up to at most
64, at most one seat laid the One, and the ranking follows from the scores."""

import random

import pytest

from games import get_engine
from games.base import SheetError

E = get_engine("monddaemmerung")


def sheet(won, one=(), out=None, place=None):
    d = {}
    for i, w in enumerate(won):
        d[f"s{i}_won"] = w
        d[f"s{i}_one"] = i in one
        if out and out[i] is not None:
            d[f"s{i}_out"] = out[i]
        if place and place[i] is not None:
            d[f"s{i}_place"] = place[i]
    return d


def codes(exc):
    return {p.code for p in exc.value.problems}


def problem(exc, code):
    return next(p for p in exc.value.problems if p.code == code)


def test_schema_fields():
    names = [f["name"] for f in E.sheet_schema(4)]
    assert names[:4] == ["s0_won", "s0_one", "s0_out", "s0_place"]
    assert len(names) == 16
    won = E.sheet_schema(4)[0]
    assert won["max"] == 64 and won["required"]


def test_valid_sheet_ranks_by_score_one_counts_five_extra():
    res = E.check_sheet(4, sheet([20, 16, 12, 16], one=[2], out=[None, 2, 1, 3]))
    assert res.figures == [20, 16, 17, 16]
    assert res.ranks == [1, 3, 2, 3]  # equal scores share the rank
    assert res.details["rank_keys"] == [[20], [16], [17], [16]]
    assert res.details["one_laid"] == 2
    assert res.details["out_order"] == [2, 1, 3]


def test_valid_sheet_from_strings_and_placings_checked():
    d = {k: str(v) for k, v in sheet([10, 30, 5], out=[1, None, None]).items()}
    d.update({"s0_place": "2", "s1_place": "1", "s2_place": "3"})
    res = E.check_sheet(3, d)
    assert res.ranks == [2, 1, 3]


def test_counts_exceed_deck():
    with pytest.raises(SheetError) as exc:
        E.check_sheet(3, sheet([30, 30, 5]))
    p = problem(exc, "counts_exceed_deck")
    assert p.fields == ("s0_won", "s1_won", "s2_won")
    assert "65" in p.message


def test_at_most_64_is_fine():
    assert E.check_sheet(3, sheet([30, 30, 4])).ranks == [1, 1, 3]


def test_one_laid_twice():
    with pytest.raises(SheetError) as exc:
        E.check_sheet(3, sheet([5, 5, 5], one=[0, 1], out=[1, 2, None]))
    assert codes(exc) == {"one_laid_twice"}
    assert problem(exc, "one_laid_twice").fields == ("s0_one", "s1_one")


def test_one_laid_must_be_counted_and_out():
    with pytest.raises(SheetError) as exc:
        E.check_sheet(3, sheet([0, 5, 5], one=[0]))
    assert codes(exc) == {"one_not_counted", "one_laid_not_out"}
    assert problem(exc, "one_laid_not_out").fields == ("s0_out", "s0_one")


@pytest.mark.parametrize(
    "out",
    [
        [1, 1, None],  # repeated
        [2, None, None],  # gap
        [1, 3, None],  # gap
        [1, 2, 3],  # everyone out: the game ends with one player left
    ],
)
def test_out_order_invalid(out):
    with pytest.raises(SheetError) as exc:
        E.check_sheet(3, sheet([5, 5, 5], out=out))
    assert "out_order_invalid" in codes(exc)


def test_placings_must_follow_from_scores():
    with pytest.raises(SheetError) as exc:
        E.check_sheet(3, sheet([10, 20, 10], place=[1, 2, None]))
    p = problem(exc, "placings_mismatch")
    assert p.fields == ("s0_place", "s1_place")
    assert "seat 1: 2" in p.message


def test_garbage_values_give_invalid_and_missing():
    d = sheet([5, "lots", None], out=["x", None, None])
    d["s1_one"] = "maybe"
    with pytest.raises(SheetError) as exc:
        E.check_sheet(3, d)
    got = {(p.code, p.fields) for p in exc.value.problems}
    assert ("invalid", ("s1_won",)) in got
    assert ("missing", ("s2_won",)) in got
    assert ("invalid", ("s0_out",)) in got
    assert ("invalid", ("s1_one",)) in got


def test_every_problem_is_reported_at_once():
    d = sheet([40, 40, 0], one=[0, 2], out=[1, 1, None])
    d["s9_won"] = 3
    with pytest.raises(SheetError) as exc:
        E.check_sheet(3, d)
    assert {
        "unknown_field",
        "counts_exceed_deck",
        "one_laid_twice",
        "one_not_counted",
        "one_laid_not_out",
        "out_order_invalid",
    } <= codes(exc)


def test_not_a_sheet():
    with pytest.raises(SheetError) as exc:
        E.check_sheet(3, ["s0_won", 3])
    assert codes(exc) == {"not_a_sheet"}


def test_random_garbage_never_crashes():
    r = random.Random(4)
    junk = [None, "", "x", -3, 0, 7, 64, 99, 2.5, 3.0, True, [], {}, "12", " 4 ", "yes"]
    for _ in range(400):
        n = r.choice([3, 4, 5])
        names = [f["name"] for f in E.sheet_schema(n)]
        d = {k: r.choice(junk) for k in names if r.random() < 0.9}
        if r.random() < 0.1:
            d["junk"] = 1
        try:
            res = E.check_sheet(n, d)
        except SheetError as exc:
            assert exc.problems
        else:
            assert len(res.ranks) == n


def test_sheet_matches_an_engine_game():
    """A finished digital game written on paper passes the check with the same ranks."""
    from games.monddaemmerung import SmartBot

    for seed in range(5):
        s = E.finish(E.new_game(4, seed), SmartBot(seed))
        res = E.result(s)
        out = [None] * 4
        for k, seat in enumerate(s["out"]):
            out[seat] = k + 1
        won = [len(w) for w in s["won"]]
        one = [s["one_laid"]] if s["one_laid"] is not None else []
        paper = E.check_sheet(4, sheet(won, one=one, out=out, place=res.ranks))
        assert paper.ranks == res.ranks and paper.figures == res.figures
