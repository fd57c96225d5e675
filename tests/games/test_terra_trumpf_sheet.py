"""Terra Trumpf paper sheets: sheet_schema and check_sheet."""

from __future__ import annotations

import random

import pytest

from games.base import RandomBot, SheetError
from games.terra_trumpf import ENGINE as E

CATS3 = ["bigcats", "bears", "canines", "hoofed", "primates", "rodents", "reptiles",
         "amphibians", "marsupials"]  # fmt: skip
OPTS3 = {"categories": CATS3}
TOTAL3 = sum(c["value"] for c in E.deck(3, OPTS3) if c["category"] in CATS3)


def codes(exc: SheetError) -> list[str]:
    return [p.code for p in exc.problems]


def problem(exc: SheetError, code: str):
    return next(p for p in exc.problems if p.code == code)


def hand(k: int, chooser: int, alpha: str, values: list[int], finished=True, unit="value"):
    d = {f"h{k}_chooser": chooser, f"h{k}_alpha": alpha, f"h{k}_finished": finished}
    d.update({f"h{k}_s{j}_{unit}": v for j, v in enumerate(values)})
    return d


def split(total: int, parts: list[int]) -> list[int]:
    """Values for a finished hand: the given ones and the rest on the last seat."""
    return [*parts, total - sum(parts)]


def full_sheet() -> dict:
    return {
        **hand(1, 0, "bears", split(TOTAL3, [40000, 30500])),
        **hand(2, 1, "canines", split(TOTAL3, [20999, 50000])),
        **hand(3, 2, "bigcats", split(TOTAL3, [30000, 20000])),
    }


def test_schema_fields_per_hand():
    schema = E.sheet_schema(3, OPTS3)
    names = [f["name"] for f in schema]
    assert names[:6] == ["h1_chooser", "h1_alpha", "h1_finished", "h1_s0_value",
                         "h1_s1_value", "h1_s2_value"]  # fmt: skip
    assert len(names) == 3 * 6 and "h3_s2_value" in names
    alpha = next(f for f in schema if f["name"] == "h2_alpha")
    assert [c[0] for c in alpha["choices"]] == CATS3 and alpha["group"] == "hand 2"
    assert not alpha["required"]
    points = E.sheet_schema(2, {"sheet": "points"})
    assert "h1_s1_points" in [f["name"] for f in points]
    unknown_cats = next(f for f in points if f["name"] == "h1_alpha")
    assert len(unknown_cats["choices"]) == 20  # categories unknown: any of the deck


def test_valid_sheet_gives_points_per_full_1000():
    """Paper result: per hand, the Alpha chooser, the Alpha category and each
    player's collected value; 1 point per full 1000."""
    res = E.check_sheet(3, full_sheet(), OPTS3)
    v1, v2, v3 = (split(TOTAL3, p) for p in ([40000, 30500], [20999, 50000], [30000, 20000]))
    pts = [sum(v[j] // 1000 for v in (v1, v2, v3)) for j in range(3)]
    assert res.details["points"] == res.figures == pts
    assert res.details["values"] == [sum(v[j] for v in (v1, v2, v3)) for j in range(3)]
    assert res.details["hands"][1] == {
        "chooser": 1, "alpha": "canines", "finished": True, "values": v2
    }  # fmt: skip


def test_sheet_tie_broken_by_total_value():
    """Ruling: equal points share the rank; total collected value breaks the tie."""
    sheet = {
        **hand(1, 0, "bears", [50999, 50000, TOTAL3 - 100999]),
        **hand(2, 1, "bears", [50000, 50500, TOTAL3 - 100500]),
        **hand(3, 2, "bears", [1000, 1000, TOTAL3 - 2000]),
    }
    res = E.check_sheet(3, sheet, OPTS3)
    assert res.figures[0] == res.figures[1] == 101
    assert res.ranks[0] == res.ranks[1] - 1  # seat 0: 50999 + 50000 + 1000 > 101500


def test_sheet_of_a_digital_game_gives_the_same_result():
    for n in (2, 4, 6):
        s = E.finish(E.new_game(n, 12), RandomBot(5))
        sheet = {}
        for k, h in enumerate(s["history"], 1):
            sheet.update(hand(k, h["chooser"], h["alpha"], h["values"], h["finished"]))
        res = E.check_sheet(n, sheet, {"categories": s["in_play"]})
        assert (res.ranks, res.figures) == (E.result(s).ranks, E.result(s).figures)


def test_unfinished_last_hand_time_called():
    """Time called: the current hand is scored as it stands: an unfinished hand
    adds up to at most the value of the cards in play."""
    sheet = {
        **hand(1, 2, "bears", split(TOTAL3, [40000, 30500])),
        **hand(2, 0, "rodents", [10000, 2000, 7000], finished=False),
    }
    res = E.check_sheet(3, sheet, OPTS3)
    assert len(res.details["hands"]) == 2
    with pytest.raises(SheetError) as exc:
        E.check_sheet(3, {**sheet, "h2_s0_value": TOTAL3}, OPTS3)
    p = problem(exc.value, "hand_total_exceeds")
    assert p.fields == ("h2_s0_value", "h2_s1_value", "h2_s2_value")
    assert p.params == {"hand": 2, "got": TOTAL3 + 9000, "total": TOTAL3}


def test_finished_hand_must_add_up_exactly():
    sheet = full_sheet()
    sheet["h2_s2_value"] += 10
    with pytest.raises(SheetError) as exc:
        E.check_sheet(3, sheet, OPTS3)
    assert codes(exc.value) == ["hand_total_mismatch"]
    assert "add up to" in exc.value.problems[0].message
    # with the categories in play unknown, the totals can't be checked
    E.check_sheet(3, sheet, {})


def test_chooser_repeated():
    """Valid only if each player chose Alpha at most once ..."""
    sheet = full_sheet()
    sheet["h3_chooser"] = 0
    with pytest.raises(SheetError) as exc:
        E.check_sheet(3, sheet, OPTS3)
    assert codes(exc.value) == ["chooser_repeated"]
    assert exc.value.problems[0].fields == ("h1_chooser", "h3_chooser")


def test_chooser_out_of_order():
    """... and in play order."""
    sheet = {
        **hand(1, 1, "bears", split(TOTAL3, [1000, 2000])),
        **hand(2, 0, "bears", split(TOTAL3, [1000, 2000])),
    }
    with pytest.raises(SheetError) as exc:
        E.check_sheet(3, sheet, OPTS3)
    assert codes(exc.value) == ["chooser_out_of_order"]
    assert exc.value.problems[0].params == {"hand": 2, "expected": 3}
    # wrapping around is in order
    sheet["h2_chooser"] = 2
    E.check_sheet(3, sheet, OPTS3)


def test_wrong_first_chooser_when_given():
    sheet = full_sheet()
    E.check_sheet(3, sheet, dict(OPTS3, first_chooser=0))
    with pytest.raises(SheetError) as exc:
        E.check_sheet(3, sheet, dict(OPTS3, first_chooser=1))
    assert codes(exc.value) == ["wrong_first_chooser"]


def test_too_many_hands():
    """... there are at most n hands."""
    sheet = {**full_sheet(), **hand(4, 0, "bears", split(TOTAL3, [1, 2]))}
    with pytest.raises(SheetError) as exc:
        E.check_sheet(3, sheet, OPTS3)
    assert codes(exc.value) == ["too_many_hands"]
    assert "h4_chooser" in exc.value.problems[0].fields


def test_only_the_last_hand_can_be_unfinished():
    sheet = full_sheet()
    sheet["h1_finished"] = False
    sheet["h1_s0_value"] -= 5000
    with pytest.raises(SheetError) as exc:
        E.check_sheet(3, sheet, OPTS3)
    assert codes(exc.value) == ["unfinished_hand_not_last"]
    assert exc.value.problems[0].fields == ("h1_finished",)


def test_hands_must_be_consecutive():
    sheet = full_sheet()
    for name in [k for k in sheet if k.startswith("h2_")]:
        del sheet[name]
    with pytest.raises(SheetError) as exc:
        E.check_sheet(3, sheet, OPTS3)
    assert "hands_not_consecutive" in codes(exc.value)


def test_points_only_sheet():
    """(or, in a "points only" sheet, each player's points)"""
    opts = dict(OPTS3, sheet="points")
    most = TOTAL3 // 1000
    sheet = {
        **hand(1, 0, "bears", [40, 30, most - 71], unit="points"),
        **hand(2, 1, "bears", [20, 10, 5], finished=False, unit="points"),
    }
    res = E.check_sheet(3, sheet, opts)
    assert res.figures == [60, 40, most - 66]
    assert res.details["values"] is None
    assert res.details["rank_keys"] == [[60], [40], [most - 66]]
    bad = dict(sheet, h1_s2_points=most)
    with pytest.raises(SheetError) as exc:
        E.check_sheet(3, bad, opts)
    assert codes(exc.value) == ["hand_points_exceed"]
    low = dict(sheet, h1_s2_points=0)
    with pytest.raises(SheetError) as exc:
        E.check_sheet(3, low, opts)
    assert codes(exc.value) == ["hand_points_too_low"]
    # value fields are unknown on a points sheet
    with pytest.raises(SheetError) as exc:
        E.check_sheet(3, {**sheet, "h1_s0_value": 5}, opts)
    assert codes(exc.value) == ["unknown_field"]


def test_teams_on_paper():
    s = {**hand(1, 0, "bears", [100, 3100, 2000, 900])}
    res = E.check_sheet(4, s, {})
    assert res.details["points"] == [0, 3, 2, 0]
    assert res.figures == [2, 3, 2, 3] and res.ranks == [3, 1, 3, 1]


def test_garbage_values_are_reported():
    sheet = full_sheet()
    sheet.update({"h1_s0_value": "abc", "h2_alpha": "zebra", "h3_chooser": 7,
                  "h2_finished": "maybe", "h1_s1_value": -3, "extra": 1})  # fmt: skip
    del sheet["h1_s2_value"]
    with pytest.raises(SheetError) as exc:
        E.check_sheet(3, sheet, OPTS3)
    found = {(p.code, p.fields) for p in exc.value.problems}
    assert ("invalid", ("h1_s0_value",)) in found
    assert ("invalid_choice", ("h2_alpha",)) in found
    assert ("invalid_choice", ("h3_chooser",)) in found
    assert ("invalid", ("h2_finished",)) in found
    assert ("too_small", ("h1_s1_value",)) in found
    assert ("missing", ("h1_s2_value",)) in found
    assert ("unknown_field", ("extra",)) in found


def test_empty_and_non_dict_sheets():
    with pytest.raises(SheetError) as exc:
        E.check_sheet(2, {}, {})
    assert codes(exc.value).count("missing") == 4
    for bad in (None, [], "x", 3):
        with pytest.raises(SheetError) as exc:
            E.check_sheet(2, bad, {})
        assert codes(exc.value) == ["not_a_sheet"]


def test_bad_options_raise_value_error():
    with pytest.raises(ValueError, match="exactly 6 categories"):
        E.check_sheet(2, {}, {"categories": ["bears"]})


def test_random_garbage_never_crashes():
    r = random.Random(4)
    junk = [None, "", " ", "x", -1, 0, 1, 2, 10**9, 3.5, 2.0, True, False, [], {}, "bears",
            "12", "ja", "nein"]  # fmt: skip
    for n in (2, 3, 4, 6):
        names = [f["name"] for f in E.sheet_schema(n, {})] + [f"h{n + 1}_chooser", "zz"]
        for _ in range(150):
            sheet = {name: r.choice(junk) for name in r.sample(names, r.randint(0, len(names)))}
            for opts in ({}, {"sheet": "points"}):
                try:
                    res = E.check_sheet(n, sheet, opts)
                except SheetError as exc:
                    assert exc.problems
                else:
                    assert len(res.ranks) == n


def test_hand_gap_reported_once_at_the_first_blank_hand():
    sheet = {**hand(1, 0, "bears", [1000, 0, 0, 0]), **hand(4, 1, "bears", [0, 0, 0, 0])}
    with pytest.raises(SheetError) as exc:
        E.check_sheet(4, sheet, {})
    gaps = [p for p in exc.value.problems if p.code == "hands_not_consecutive"]
    assert [(p.fields, p.params) for p in gaps] == [(("h2_chooser",), {"hand": 2})]


# -- categories of one set at 2 and 3 players ----------------------------------------
MIXED3 = CATS3[:8] + ["sharks"]


def test_mixed_set_categories_at_three_players_are_a_sheet_problem():
    """RULES.md: 3 players 9 categories of one set; a sheet whose categories in play
    mix "Land & Fresh Water" and "Sea & Air" is refused with a stable code."""
    with pytest.raises(SheetError) as exc:
        E.check_sheet(3, full_sheet(), {"categories": MIXED3})
    p = problem(exc.value, "categories_mixed_sets")
    assert p.fields == ()
    assert p.params == {"players": 3, "sets": "Land & Fresh Water, Sea & Air"}
    assert "must all come from one card set" in p.message
    # the schema still offers the entered categories, so the form can show the sheet
    alpha = next(f for f in E.sheet_schema(3, {"categories": MIXED3}) if f["name"] == "h1_alpha")
    assert [c[0] for c in alpha["choices"]] == MIXED3


def test_mixed_set_problem_is_reported_with_the_other_problems():
    sheet = full_sheet()
    sheet["h3_chooser"] = 0
    with pytest.raises(SheetError) as exc:
        E.check_sheet(3, sheet, {"categories": MIXED3})
    assert codes(exc.value)[0] == "categories_mixed_sets"
    assert "chooser_repeated" in codes(exc.value)


def test_two_players_mixed_refused_four_players_may_mix():
    mixed2 = ["bigcats", "bears", "canines", "hoofed", "primates", "whales"]
    sheet = {**hand(1, 0, "bears", [10000, 2000], finished=False)}
    with pytest.raises(SheetError) as exc:
        E.check_sheet(2, sheet, {"categories": mixed2, "sheet": "values"})
    assert codes(exc.value) == ["categories_mixed_sets"]
    E.check_sheet(2, sheet, {"categories": CATS3[:6]})
    mixed4 = CATS3 + ["sharks", "whales", "corals"]
    E.check_sheet(
        4, {**hand(1, 0, "bears", [1000, 0, 0, 0], finished=False)}, {"categories": mixed4}
    )
