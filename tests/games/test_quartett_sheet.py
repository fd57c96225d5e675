"""Quartett paper result sheet: games/quartett/RULES.md, "Paper result"."""

from __future__ import annotations

import random

import pytest

from games import DeckError, SheetError, get_engine
from games.base import RandomBot

E = get_engine("quartett")


def sheet(*seats, **extra):
    """``seats``: an int (cards held), ``("out", order)``, or ``(cards, "won")``."""
    d = {}
    for p, spec in enumerate(seats):
        if isinstance(spec, tuple) and spec[0] == "out":
            d[f"s{p}_out"] = True
            d[f"s{p}_out_order"] = spec[1]
        elif isinstance(spec, tuple):
            d[f"s{p}_cards"] = spec[0]
            d[f"s{p}_decision"] = True
        else:
            d[f"s{p}_cards"] = spec
    d.update(extra)
    return d


def codes(players, s, options=None):
    with pytest.raises(SheetError) as exc:
        E.check_sheet(players, s, options)
    return {p.code: p.fields for p in exc.value.problems}


def test_schema_asks_cards_out_order_and_decision_per_seat():
    names = [f["name"] for f in E.sheet_schema(3)]
    assert names[:4] == ["s0_cards", "s0_out", "s0_out_order", "s0_decision"]
    assert "ties_undecided" in names and len(names) == 13
    cards = next(f for f in E.sheet_schema(3) if f["name"] == "s0_cards")
    assert cards["max"] == 30  # 32 cards, 2 set aside for 3 players
    assert E.time_called_text and E.figure_label == "cards held"


def test_valid_sheet_ranks_by_cards_held():
    """Paper result: the cards held at the end; ranking follows from the counts."""
    r = E.check_sheet(3, sheet(12, 10, 8))
    assert r.figures == [12, 10, 8] and r.ranks == [1, 2, 3]
    assert r.details["in_play"] == 30


def test_valid_sheet_with_out_players_later_exits_above_earlier():
    """'out' with the order of going out: out seats rank below all others,
    later exits above earlier ones."""
    r = E.check_sheet(4, sheet(("out", 1), 20, ("out", 2), 12))
    assert r.ranks == [4, 1, 3, 2]
    assert r.figures == [0, 20, 0, 12]
    r = E.check_sheet(3, sheet(30, ("out", 1), ("out", 1)))
    assert r.ranks == [1, 2, 2]


def test_valid_sheet_with_decision_round_winner():
    """The decision-round winner where card counts tie ranks ahead."""
    r = E.check_sheet(3, sheet(15, (15, "won"), ("out", 1)))
    assert r.ranks == [2, 1, 3]
    r = E.check_sheet(4, sheet((8, "won"), 8, 8, 8))
    assert r.ranks == [1, 2, 2, 2]


def test_strings_from_a_form_are_read():
    s = {"s0_cards": "16", "s1_cards": " 14 ", "s2_out": "yes", "s2_out_order": "1"}
    assert E.check_sheet(3, s).ranks == [1, 2, 3]


def test_counts_must_add_up_to_the_cards_in_play():
    """Valid only if the counts add up to exactly the cards in play."""
    found = codes(3, sheet(12, 10, 7))
    assert found["counts_do_not_add_up"] == ("s0_cards", "s1_cards", "s2_cards")


def test_cards_in_play_follow_the_deck_option():
    """In play: the deck (options) minus the cards set aside for n players."""
    deck = {
        "name": "Mini",
        "attributes": [{"key": "a", "direction": "higher"}],
        "cards": [{"id": f"M-{i}", "name": f"m{i}", "values": {"a": i}} for i in range(7)],
    }
    assert E.check_sheet(3, sheet(4, 2, ("out", 1)), {"deck": deck}).ranks == [1, 2, 3]
    assert "counts_do_not_add_up" in codes(3, sheet(5, 2, ("out", 1)), {"deck": deck})
    with pytest.raises(DeckError):
        E.check_sheet(3, sheet(4, 2, 0), {"deck": "nope"})


def test_out_seat_must_hold_no_cards():
    """Valid only if every 'out' seat holds 0."""
    s = sheet(12, 10, ("out", 1))
    s["s2_cards"] = 8
    assert codes(3, s)["out_with_cards"] == ("s2_cards", "s2_out")
    s["s2_cards"] = 0
    assert E.check_sheet(3, {**s, "s0_cards": 20}).ranks == [1, 2, 3]


def test_out_order_must_run_without_gaps():
    found = codes(4, sheet(20, 12, ("out", 1), ("out", 3)))
    assert found["out_order_invalid"] == ("s2_out_order", "s3_out_order")


def test_out_needs_an_order_and_an_order_needs_out():
    s = sheet(30, ("out", 1), 0)
    del s["s1_out_order"]
    found = codes(3, s)
    assert found["missing"] == ("s1_out_order",)
    assert found["no_cards_not_out"] == ("s2_cards", "s2_out")
    found = codes(3, {**sheet(20, 10, ("out", 1)), "s0_out_order": 2})
    assert found["out_order_without_out"] == ("s0_out_order", "s0_out")


def test_seat_still_in_needs_its_count():
    found = codes(3, {"s0_cards": 20, "s2_out": True, "s2_out_order": 1})
    assert found["missing"] == ("s1_cards",)


def test_tie_needs_a_decision_round_winner():
    """Players tied on card count play a decision round: the sheet records who
    won it; the ranking must follow."""
    found = codes(3, sheet(15, 15, ("out", 1)))
    assert found["tie_without_decision"] == ("s0_decision", "s1_decision")
    r = E.check_sheet(3, sheet(15, 15, ("out", 1), ties_undecided=True))
    assert r.ranks == [1, 1, 3]
    assert "undecided_without_tie" in codes(3, sheet(20, 10, ("out", 1), ties_undecided=True))


def test_decision_winner_must_be_tied():
    found = codes(3, sheet((12, "won"), 10, 8))
    assert found["decision_winner_not_tied"] == ("s0_decision",)
    found = codes(3, {**sheet(30, ("out", 1), ("out", 2)), "s1_decision": True})
    assert found["decision_winner_not_tied"] == ("s1_decision",)
    found = codes(3, sheet((15, "won"), (15, "won"), ("out", 1)))
    assert found["two_decision_winners"] == ("s0_decision", "s1_decision")


def test_garbage_values_give_invalid_and_missing_problems():
    found = codes(3, {"s0_cards": "lots", "s1_cards": 10.5, "s2_out": "maybe", "s9": 1})
    assert found["invalid"] in (("s0_cards",), ("s1_cards",), ("s2_out",))
    assert found["unknown_field"] == ("s9",)
    assert "too_large" in codes(3, sheet(31, 0, 0))
    assert "not_a_sheet" in codes(3, ["s0_cards"])
    with pytest.raises(SheetError) as exc:
        E.check_sheet(3, {"s0_cards": "x", "s1_cards": "y", "s2_cards": "z"})
    assert [p.fields for p in exc.value.problems if p.code == "invalid"] == [
        ("s0_cards",),
        ("s1_cards",),
        ("s2_cards",),
    ]


def test_random_garbage_never_crashes():
    rnd = random.Random(5)
    names = [f["name"] for f in E.sheet_schema(4)] + ["zz"]
    values = [None, "", "x", -1, 0, 1, 2, 5, 16, 32, 99, True, False, "yes", "1", 3.5, [], {}]
    for _ in range(500):
        s = {n: rnd.choice(values) for n in rnd.sample(names, rnd.randrange(len(names)))}
        try:
            r = E.check_sheet(4, s)
        except SheetError as exc:
            assert exc.problems and all(p.message for p in exc.problems)
        else:
            assert len(r.ranks) == 4


def test_a_digital_games_result_is_a_valid_sheet_with_the_same_ranking():
    """What a finished (or time-called) game ends with passes the paper check."""
    for seed in range(30):
        n = 2 + seed % 5
        s = E.new_game(n, seed)
        bot = RandomBot(seed)
        for _ in range(seed * 3):
            if E.is_over(s):
                break
            seat = E.to_act(s)[0]
            s = E.apply(s, seat, bot.choose(E.view(s, seat), E.legal_actions(s, seat)))
        s = E.finish(E.call_time(s), bot)
        r = E.result(s)
        if len(s["pot"]):
            continue  # everyone went out together: the pot is unowned
        paper = {}
        for p in range(n):
            if s["out"][p] is not None:
                paper[f"s{p}_out"] = True
                paper[f"s{p}_out_order"] = s["out"][p]
            else:
                paper[f"s{p}_cards"] = r.figures[p]
                paper[f"s{p}_decision"] = p in r.details["decision_winners"]
        if r.details["undecided_ties"]:
            paper["ties_undecided"] = True
        assert E.check_sheet(n, paper).ranks == r.ranks, seed
