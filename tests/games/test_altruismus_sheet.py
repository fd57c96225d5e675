"""Altruismus paper sheet: RULES.md "Paper result" — valid only if each bonus is
one of 0, 10, ..., 80, each total is sum + bonus, and no seat collected more
cards than turns were played."""

import pytest

from games.altruismus import ENGINE as E
from games.base import SheetError


def sheet(**over):
    d = {"turns": 10}
    rows = [(10, 95, 20, 115), (10, 80, 0, 80), (10, 95, 20, 115)]
    for i, (cards, s, b, t) in enumerate(rows):
        d.update({f"s{i}_cards": cards, f"s{i}_sum": s, f"s{i}_bonus": b, f"s{i}_total": t})
    d.update(over)
    return d


def codes(players, sh):
    with pytest.raises(SheetError) as exc:
        E.check_sheet(players, sh)
    return {(p.code, p.fields) for p in exc.value.problems}


def test_schema_fields():
    names = [f["name"] for f in E.sheet_schema(3)]
    assert names[0] == "turns"
    assert {"s2_cards", "s2_sum", "s2_bonus", "s2_total"} <= set(names)
    assert len(names) == 1 + 4 * 3


def test_valid_sheet_gives_ranks_and_figures():
    res = E.check_sheet(3, sheet())
    assert res.figures == [115, 80, 115]
    assert res.ranks == [1, 3, 1]
    assert res.details["rank_keys"] == [[115], [80], [115]]
    # strings from a form are fine
    res = E.check_sheet(2, {k: str(v) for k, v in sheet().items() if not k.startswith("s2")})
    assert res.ranks == [1, 2]


def test_bonus_must_be_0_to_80_in_tens():
    """Valid only if each bonus is one of 0, 10, ..., 80."""
    assert codes(3, sheet(s1_bonus=15, s1_total=95)) == {("bonus_not_allowed", ("s1_bonus",))}
    assert ("bonus_not_allowed", ("s0_bonus",)) in codes(3, sheet(s0_bonus=90, s0_total=185))
    assert ("bonus_not_allowed", ("s0_bonus",)) in codes(3, sheet(s0_bonus=-10, s0_total=85))


def test_total_must_be_sum_plus_bonus():
    """Each total is sum + bonus."""
    assert codes(3, sheet(s2_total=116)) == {("total_mismatch", ("s2_sum", "s2_bonus", "s2_total"))}


def test_no_seat_collected_more_cards_than_turns():
    """No seat collected more cards than turns were played."""
    assert codes(3, sheet(turns=9)) == {
        ("too_many_cards", (f"s{i}_cards", "turns")) for i in range(3)
    }


def test_bonus_and_sum_must_fit_the_cards():
    """Added checks: a bonus of 10 x m needs m + 2 cards; at most 18 per card."""
    got = codes(3, sheet(s0_cards=3, s1_cards=4))
    assert got == {
        ("bonus_needs_more_cards", ("s0_bonus", "s0_cards")),
        ("sum_too_high", ("s0_sum", "s0_cards")),
        ("sum_too_high", ("s1_sum", "s1_cards")),
    }


def test_every_problem_is_listed():
    got = codes(3, sheet(s0_bonus=5, s1_total=1, turns=8))
    assert {p[0] for p in got} == {"bonus_not_allowed", "total_mismatch", "too_many_cards"}


def test_garbage_values_give_invalid_or_missing():
    sh = sheet(s0_sum="abc", s1_total=None, turns=[1], bogus=3)
    sh.pop("s2_cards")
    got = codes(3, sh)
    assert ("invalid", ("s0_sum",)) in got
    assert ("missing", ("s1_total",)) in got
    assert ("missing", ("s2_cards",)) in got
    assert ("invalid", ("turns",)) in got
    assert ("unknown_field", ("bogus",)) in got
    assert ("too_large", ("turns",)) in codes(3, sheet(turns=11))
    assert codes(3, "nope") == {("not_a_sheet", ())}


@pytest.mark.parametrize("junk", [None, 1.5, "x", [], {}, True, -3, 10**9, "  ", float("nan")])
def test_random_garbage_never_crashes(junk):
    for name in [f["name"] for f in E.sheet_schema(4)]:
        with pytest.raises(SheetError):
            E.check_sheet(4, {**sheet(), name: junk, "s3_cards": junk})


def test_engine_results_pass_the_sheet():
    """A finished digital game filled in on paper is accepted with the same ranks."""
    from games.base import RandomBot

    for seed in range(20):
        s = E.new_game(4, seed)
        bot = RandomBot(seed)
        while not E.is_over(s):
            seat = E.to_act(s)[0]
            s = E.apply(s, seat, bot.choose(E.view(s, seat), E.legal_actions(s, seat)))
        res = E.result(s)
        sh = {"turns": s["turn"]}
        for i in range(4):
            sh.update(
                {
                    f"s{i}_cards": res.details["cards"][i],
                    f"s{i}_sum": res.details["sums"][i],
                    f"s{i}_bonus": res.details["bonuses"][i],
                    f"s{i}_total": res.figures[i],
                }
            )
        got = E.check_sheet(4, sh)
        assert got.ranks == res.ranks and got.figures == res.figures
