"""The shared pieces of games/: rng, rank_by, Record (with TIME_CALLED),
Problem/SheetError, the sheet readers and the base Engine helpers.

``ToyEngine`` is a tiny complete engine (highest card takes the trick) used
here and by ``test_cli.py`` to exercise the machinery without depending on the
five real engines.
"""

from __future__ import annotations

import json
import math
from collections import Counter

import pytest

import games
from games import rng, sheets
from games.base import (
    TIME_CALLED,
    Engine,
    IllegalAction,
    Problem,
    RandomBot,
    Record,
    SheetError,
    TableResult,
    _,
    rank_by,
)
from games.play import play_game
from games.testing import check_engine

# -- a toy engine ----------------------------------------------------------------


def toy_value(card: str) -> int:
    return int(card[1:-1])


class ToySmartBot:
    """Wins the trick as cheaply as possible, else throws the lowest card."""

    name = "smart"

    def __init__(self, seed: int = 0):
        self.seed = seed

    def choose(self, view: dict, legal: list[str]) -> str:
        ordered = sorted(legal, key=lambda a: toy_value(a.split(":", 1)[1]))
        if not view["trick"]:
            return ordered[-1]
        best = max(toy_value(card) for _seat, card in view["trick"])
        winning = [a for a in ordered if toy_value(a.split(":", 1)[1]) > best]
        return winning[0] if winning else ordered[0]


class ToyEngine(Engine):
    """Highest card takes the trick (the first of equal cards); most tricks
    wins. Every seat holds the values 1..3 (card ``t2b``: value 2 of seat 1);
    time called ends the game after the current trick."""

    id = "toy"
    name = "Toy"
    min_players = 2
    max_players = 4
    hand_size = 3
    figure_label = "tricks"

    def deck(self, players, options=None):
        return [
            {"id": f"t{v}{'abcd'[seat]}", "value": v}
            for seat in range(players)
            for v in range(1, self.hand_size + 1)
        ]

    def new_game(self, players, seed, options=None):
        self.check_players(players)
        options = dict(options or {})
        s = {"game": self.id, "players": players, "options": options, "rng": rng.seed_state(seed)}
        deck = self.deck(players, options)
        hands = [[] for _seat in range(players)]
        if "stack" in options:
            for i, card in enumerate(self.check_stack(options["stack"], deck)):
                hands[i % players].append(card)
        else:
            for card in deck:
                hands["abcd".index(card["id"][-1])].append(card["id"])
            for hand in hands:  # the order of a hand is random (it does not matter)
                rng.shuffle(s, hand)
        s.update(
            phase="play",
            hands=hands,
            trick=[],
            turn=0,
            tricks=[0] * players,
            won=[[] for _seat in range(players)],
            time_called=False,
        )
        return s

    def to_act(self, s):
        return [] if self.is_over(s) else [s["turn"]]

    def legal_actions(self, s, seat):
        if self.is_over(s) or seat != s["turn"]:
            return []
        return [f"play:{c}" for c in s["hands"][seat]]

    def _apply(self, s, seat, action):
        card = action.split(":", 1)[1]
        s["hands"][seat].remove(card)
        s["trick"].append([seat, card])
        n = s["players"]
        if len(s["trick"]) < n:
            s["turn"] = (seat + 1) % n
            return
        best = max(toy_value(c) for _seat, c in s["trick"])
        winner = next(seat for seat, c in s["trick"] if toy_value(c) == best)
        s["tricks"][winner] += 1
        s["won"][winner].extend(c for _seat, c in s["trick"])
        s["trick"] = []
        s["turn"] = winner
        if s["time_called"] or not any(s["hands"]):
            s["phase"] = "over"

    def view(self, s, seat):
        return {
            "phase": s["phase"],
            "to_act": self.to_act(s),
            "hand": list(s["hands"][seat]) if seat is not None else [],
            "hand_sizes": [len(h) for h in s["hands"]],
            "trick": [list(p) for p in s["trick"]],
            "scores": list(s["tricks"]),
        }

    def call_time(self, s):
        s = self.copy(s)
        s["time_called"] = True
        if not s["trick"]:
            s["phase"] = "over"
        return s

    def result(self, s):
        tricks = list(s["tricks"])
        return TableResult(rank_by(tricks), tricks, {"rank_keys": tricks})

    def zones(self, s):
        z = {f"hand:{i}": list(h) for i, h in enumerate(s["hands"])}
        z["trick"] = [c for _seat, c in s["trick"]]
        z.update({f"won:{i}": list(w) for i, w in enumerate(s["won"])})
        return z

    def sheet_schema(self, players, options=None):
        return [
            sheets.field(
                f"s{i}_tricks", f"Tricks of seat {i + 1}", seat=i, min=0, max=self.hand_size
            )
            for i in range(players)
        ]

    def check_sheet(self, players, sheet, options=None):
        schema = self.sheet_schema(players, options)
        problems: list[Problem] = []
        if not sheets.unknown_fields(sheet, schema, problems):
            raise SheetError(problems)
        tricks = [
            sheets.read_int(sheet, f["name"], problems, min=f["min"], max=f["max"]) for f in schema
        ]
        if None not in tricks and sum(tricks) > self.hand_size:
            problems.append(
                Problem(
                    "too_many_tricks",
                    tuple(f["name"] for f in schema),
                    _("The tricks add up to {total}, more than the {hands} played."),
                    {"total": sum(tricks), "hands": self.hand_size},
                )
            )
        if problems:
            raise SheetError(problems)
        return TableResult(rank_by(tricks), tricks, {"rank_keys": tricks})

    def bots(self):
        return {"random": RandomBot, "smart": ToySmartBot}


TOY = ToyEngine()


@pytest.fixture
def toy(monkeypatch):
    """The toy engine, registered in ``games.ENGINES`` for the test."""
    monkeypatch.setitem(games.ENGINES, TOY.id, TOY)
    return TOY


# -- rng ------------------------------------------------------------------------


def test_rng_same_seed_same_sequence():
    a, b = {"rng": rng.seed_state(42)}, {"rng": rng.seed_state(42)}
    assert [rng.randrange(a, 1000) for _i in range(50)] == [
        rng.randrange(b, 1000) for _i in range(50)
    ]
    assert a == b
    c = {"rng": rng.seed_state(43)}
    assert [rng.randrange(c, 1000) for _i in range(50)] != [
        rng.randrange(a, 1000) for _i in range(50)
    ]


def test_rng_state_is_a_json_int_and_resumes_after_a_round_trip():
    s = {"rng": rng.seed_state(-7)}
    rng.randrange(s, 10)
    assert isinstance(s["rng"], int) and 0 <= s["rng"] < 2**64
    t = json.loads(json.dumps(s))
    assert [rng.randrange(s, 6) for _i in range(20)] == [rng.randrange(t, 6) for _i in range(20)]


def test_rng_negative_and_big_seeds_work():
    for seed in (-1, 0, 2**70, -(2**70)):
        s = {"rng": rng.seed_state(seed)}
        assert 0 <= rng.randrange(s, 3) < 3


@pytest.mark.parametrize("n", [1, 2, 6, 7, 52])
def test_rng_randrange_is_roughly_uniform(n):
    s = {"rng": rng.seed_state(2024)}
    draws = 600 * n
    counts = Counter(rng.randrange(s, n) for _i in range(draws))
    assert set(counts) == set(range(n))
    expected = draws / n
    chi2 = sum((counts[k] - expected) ** 2 / expected for k in range(n))
    # far beyond the 99.9% quantile of chi2 with n-1 degrees of freedom
    assert chi2 < 3 * (n - 1) + 30


def test_rng_randrange_rejects_empty_ranges():
    s = {"rng": rng.seed_state(1)}
    for n in (0, -3):
        with pytest.raises(ValueError):
            rng.randrange(s, n)


def test_rng_shuffle_is_a_permutation_and_every_order_occurs():
    s = {"rng": rng.seed_state(5)}
    orders = Counter()
    for _i in range(2400):
        items = [1, 2, 3, 4]
        rng.shuffle(s, items)
        assert sorted(items) == [1, 2, 3, 4]
        orders[tuple(items)] += 1
    assert len(orders) == 24
    assert min(orders.values()) > 50  # 100 expected each


def test_rng_shuffle_of_short_lists_and_choice():
    s = {"rng": rng.seed_state(9)}
    empty, one = [], ["x"]
    rng.shuffle(s, empty)
    rng.shuffle(s, one)
    assert empty == [] and one == ["x"]
    picks = Counter(rng.choice(s, ["a", "b", "c"]) for _i in range(900))
    assert set(picks) == {"a", "b", "c"} and min(picks.values()) > 200


# -- rank_by ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("keys", "ranks"),
    [
        ([5, 9, 5], [2, 1, 2]),
        ([3, 2, 1], [1, 2, 3]),
        ([1, 1, 1, 1], [1, 1, 1, 1]),
        ([7, 7, 3, 9], [2, 2, 4, 1]),
        ([0], [1]),
        ([], []),
        ([(2, 1), (2, 3), (1, 9)], [2, 1, 3]),  # tuple keys: tie-breaks
        ([(2, 1), (2, 1), (1, 9)], [1, 1, 3]),
        ([-1.5, -0.5, -1.5], [2, 1, 2]),
    ],
)
def test_rank_by_is_competition_ranking(keys, ranks):
    assert rank_by(keys) == ranks


def test_rank_by_rank_counts_the_better_seats():
    keys = [4, 8, 8, 1, 4, 4]
    ranks = rank_by(keys)
    for k, r in zip(keys, ranks, strict=True):
        assert r == 1 + sum(1 for other in keys if other > k)
    assert min(ranks) == 1


# -- Problem / SheetError / TableResult -----------------------------------------------


def test_problem_message_fills_the_template():
    p = Problem("too_small", ("s0_cards",), "Must be at least {min}.", {"min": 3})
    assert p.message == "Must be at least 3."
    d = p.as_dict()
    assert d == {
        "code": "too_small",
        "fields": ["s0_cards"],
        "message": "Must be at least 3.",
        "template": "Must be at least {min}.",
        "params": {"min": 3},
    }
    json.dumps(d)


def test_problem_without_params_and_with_several_fields():
    p = Problem("sum", ("a", "b"), "Counts don't add up.")
    assert p.message == "Counts don't add up." and p.params == {}
    assert p.as_dict()["fields"] == ["a", "b"]
    assert Problem("x", (), "Seat {seat} and {other}.", {"seat": 1, "other": "two"}).message == (
        "Seat 1 and two."
    )


def test_problem_is_frozen_and_hashable_by_value():
    p = Problem("x", ("a",), "m")
    with pytest.raises(AttributeError):
        p.code = "y"  # type: ignore[misc]
    assert p == Problem("x", ("a",), "m")


def test_sheet_error_lists_every_problem():
    problems = [
        Problem("missing", ("a",), "This field is required."),
        Problem("too_large", ("b",), "Must be at most {max}.", {"max": 9}),
    ]
    exc = SheetError(problems)
    assert exc.problems == problems
    assert str(exc) == "This field is required.; Must be at most 9."
    assert isinstance(exc, ValueError)


def test_table_result_as_dict():
    r = TableResult([1, 2], [5, 3], {"rank_keys": [5, 3]})
    assert r.as_dict() == {"ranks": [1, 2], "figures": [5, 3], "details": {"rank_keys": [5, 3]}}


# -- Record ----------------------------------------------------------------------------


def test_record_replay_gives_the_played_state(toy):
    s, record, n = play_game(toy, 3, 11, [RandomBot(1), ToySmartBot(), RandomBot(2)])
    assert toy.is_over(s) and n == len(record.actions) == 9
    assert record.replay() == s


def test_record_replay_with_time_called(toy):
    s = toy.new_game(2, 5)
    record = Record(toy.id, 2, 5)
    for _i in range(3):  # into the second trick
        seat = toy.to_act(s)[0]
        action = toy.legal_actions(s, seat)[0]
        s = toy.apply(s, seat, action)
        record.actions.append((seat, action))
    s = toy.call_time(s)
    record.actions.append(TIME_CALLED)
    assert record.replay() == s and not toy.is_over(s)
    seat = toy.to_act(s)[0]
    action = toy.legal_actions(s, seat)[0]
    s = toy.apply(s, seat, action)
    record.actions.append((seat, action))
    assert toy.is_over(s)  # time called: over after the current trick
    assert record.replay() == s
    # and through the dict form the Django side stores
    stored = json.loads(json.dumps(record.as_dict()))
    assert stored["actions"][3] == [-1, "call_time"]
    again = Record.from_dict(stored)
    assert again == record
    assert again.replay() == s


def test_record_replay_of_an_illegal_record_raises(toy):
    record = Record(toy.id, 2, 5, actions=[(1, "play:t1b")])  # seat 1 is not to act
    with pytest.raises(IllegalAction):
        record.replay()


def test_record_from_dict_defaults_and_types():
    r = Record.from_dict({"game": "toy", "players": 2, "seed": 3, "actions": [["0", 7]]})
    assert r.options == {} and r.actions == [(0, "7")]
    assert Record.from_dict({"game": "toy", "players": 2, "seed": 3, "options": None}).actions == []


def test_record_of_an_unknown_game_does_not_replay():
    with pytest.raises(KeyError):
        Record("no_such_game", 2, 1).replay()


# -- base Engine helpers -------------------------------------------------------------


def test_toy_engine_passes_the_conformance_suite(toy):
    for players in (2, 3, 4):
        stats = check_engine(toy, players, games=30, all_actions_games=10)
        assert stats.games == 30 and stats.time_called == 10


def test_check_players_messages():
    TOY.check_players(2)
    for bad in (1, 5, 0, -2, "3", 2.0, None):
        with pytest.raises(ValueError, match="2 to 4 players"):
            TOY.check_players(bad)


def test_check_stack_wants_every_card_once():
    deck = TOY.deck(2)
    ids = [c["id"] for c in deck]
    assert TOY.check_stack(list(reversed(ids)), deck) == list(reversed(ids))
    for bad in (ids[:-1], [*ids, "t1a"], [*ids[:-1], "zz"], []):
        with pytest.raises(ValueError, match="stack"):
            TOY.check_stack(bad, deck)


def test_stack_deals_one_card_at_a_time_from_seat_0():
    ids = ["t1a", "t1b", "t2a", "t2b", "t3b", "t3a"]
    s = TOY.new_game(2, 1, {"stack": ids})
    assert s["hands"] == [["t1a", "t2a", "t3b"], ["t1b", "t2b", "t3a"]]


def test_apply_is_pure_and_explains_illegal_actions():
    s = TOY.new_game(2, 3)
    before = json.dumps(s, sort_keys=True)
    with pytest.raises(IllegalAction, match="not to act"):
        TOY.apply(s, 1, TOY.legal_actions(s, 0)[0])
    with pytest.raises(IllegalAction, match="not a legal action"):
        TOY.apply(s, 0, "play:nope")
    TOY.apply(s, 0, TOY.legal_actions(s, 0)[0])
    assert json.dumps(s, sort_keys=True) == before
    over = TOY.finish(s)
    with pytest.raises(IllegalAction, match="over"):
        TOY.apply(over, 0, "play:t1a")


def test_dump_load_round_trip_and_wrong_game():
    s = TOY.new_game(3, 8)
    assert TOY.load(TOY.dump(s)) == s
    with pytest.raises(ValueError, match="not a toy state"):
        TOY.load({**s, "game": "other"})


def test_default_hidden_covers_other_hands_and_the_stock():
    s = TOY.new_game(2, 4)
    assert TOY.hidden(s, 0) == set(s["hands"][1])
    assert TOY.hidden(s, None) == set(s["hands"][0]) | set(s["hands"][1])


def test_finish_plays_out_with_a_bot_seeing_views_only():
    seen = []

    class Spy(RandomBot):
        def choose(self, view, legal):
            seen.append((view, legal))
            return super().choose(view, legal)

    s = TOY.call_time(TOY.apply(TOY.new_game(3, 2), 0, "play:" + TOY.new_game(3, 2)["hands"][0][0]))
    s = TOY.finish(s, Spy(1))
    assert TOY.is_over(s)
    assert len(seen) == 2  # the rest of the first trick only
    assert all(
        set(view) == {"phase", "to_act", "hand", "hand_sizes", "trick", "scores"}
        for view, _l in seen
    )


def test_base_engine_defaults():
    e = Engine()
    assert e.options_schema() == [] and e.default_options() == {}
    assert e.teams(4) is None
    for method, args in [
        ("bots", ()),
        ("deck", (2,)),
        ("new_game", (2, 1)),
        ("to_act", ({},)),
        ("legal_actions", ({}, 0)),
        ("view", ({}, 0)),
        ("result", ({},)),
        ("call_time", ({},)),
        ("zones", ({},)),
        ("sheet_schema", (2,)),
        ("check_sheet", (2, {})),
    ]:
        with pytest.raises(NotImplementedError):
            getattr(e, method)(*args)


def test_random_bot_is_deterministic_per_seed():
    legal = [f"a{i}" for i in range(10)]
    a, b, c = RandomBot(3), RandomBot(3), RandomBot(4)
    first = [a.choose({}, legal) for _i in range(30)]
    assert first == [b.choose({}, legal) for _i in range(30)]
    assert first != [c.choose({}, legal) for _i in range(30)]
    assert set(first) <= set(legal)


# -- sheets readers -----------------------------------------------------------------

GARBAGE = [
    None,
    "",
    "   ",
    "abc",
    3.5,
    True,
    False,
    [],
    {},
    [1],
    {"a": 1},
    math.nan,
    math.inf,
    -math.inf,
    "1e3",
    "0x10",
    "٣",
    object(),
    b"1",
    (1,),
]


def _readers(value):
    """Every reader on the field ``f`` holding ``value``; returns (results, problems)."""
    sheet = {"f": value}
    out = []
    for call in (
        lambda p: sheets.read_int(sheet, "f", p),
        lambda p: sheets.read_int(sheet, "f", p, required=False),
        lambda p: sheets.read_int(sheet, "f", p, min=0, max=5),
        lambda p: sheets.read_bool(sheet, "f", p),
        lambda p: sheets.read_choice(sheet, "f", p, ["red", "blue", 3]),
        lambda p: sheets.read_choice(sheet, "f", p, ["red"], required=False),
        lambda p: sheets.read_seat(sheet, "f", p, 4),
        lambda p: sheets.read_seat(sheet, "f", p, 4, required=False),
    ):
        problems: list[Problem] = []
        out.append((call(problems), problems))
    return out


def _assert_good_problems(problems):
    for p in problems:
        assert isinstance(p, Problem)
        assert isinstance(p.code, str) and p.code
        assert p.fields == ("f",)
        assert isinstance(p.message, str) and p.message
        json.dumps(p.as_dict())


@pytest.mark.parametrize(
    "value", GARBAGE, ids=[f"{i}-{type(v).__name__}" for i, v in enumerate(GARBAGE)]
)
def test_readers_never_raise_on_garbage(value):
    for result, problems in _readers(value):
        _assert_good_problems(problems)
        # a reader either gives a value or records why not (or the field is optional/blank)
        if problems:
            assert result is None


@pytest.mark.parametrize("value", [None, "", "abc", 3.5, True, [], {}], ids=repr)
def test_required_int_choice_and_seat_record_a_problem_for_garbage(value):
    for reader in (
        lambda p: sheets.read_int({"f": value}, "f", p),
        lambda p: sheets.read_choice({"f": value}, "f", p, ["red", "blue"]),
        lambda p: sheets.read_seat({"f": value}, "f", p, 3),
    ):
        problems: list[Problem] = []
        assert reader(problems) is None
        assert len(problems) == 1
        _assert_good_problems(problems)


@pytest.mark.parametrize("value", ["abc", 3.5, [], {}, 2, -1, "maybe"], ids=repr)
def test_read_bool_records_a_problem_for_garbage(value):
    problems: list[Problem] = []
    assert sheets.read_bool({"f": value}, "f", problems) is None
    assert [p.code for p in problems] == ["invalid"]


def test_read_int_codes():
    def run(value, **kw):
        problems: list[Problem] = []
        result = sheets.read_int({"f": value}, "f", problems, **kw)
        return result, [p.code for p in problems]

    assert run(None) == (None, ["missing"])
    assert run("  ") == (None, ["missing"])
    assert run(None, required=False) == (None, [])
    assert run("abc") == (None, ["invalid"])
    assert run(True) == (None, ["invalid"])
    assert run(3.5) == (None, ["invalid"])
    assert run(4.0) == (4, [])
    assert run(" 12 ") == (12, [])
    assert run("-3") == (-3, [])
    assert run(-1, min=0) == (None, ["too_small"])
    assert run(6, max=5) == (None, ["too_large"])
    assert run(5, min=0, max=5) == (5, [])
    problems: list[Problem] = []
    sheets.read_int({"f": 9}, "f", problems, max=5)
    assert problems[0].message == "Must be at most 5."


def test_read_int_of_an_absent_field():
    problems: list[Problem] = []
    assert sheets.read_int({}, "f", problems) is None
    assert [(p.code, p.fields) for p in problems] == [("missing", ("f",))]


def test_read_bool_values():
    for value, expected in [
        (None, False),
        (True, True),
        (False, False),
        (1, True),
        (0, False),
        ("yes", True),
        (" Ja ", True),
        ("x", True),
        ("off", False),
        ("", False),
        ("nein", False),
    ]:
        problems: list[Problem] = []
        assert sheets.read_bool({"f": value}, "f", problems) is expected, value
        assert problems == []


def test_read_choice_and_seat_values():
    problems: list[Problem] = []
    assert sheets.read_choice({"f": " red "}, "f", problems, ["red", "blue"]) == "red"
    assert sheets.read_choice({"f": "3"}, "f", problems, [3, 4]) == 3
    assert sheets.read_seat({"f": 2}, "f", problems, 3) == 2
    assert sheets.read_seat({"f": "0"}, "f", problems, 3) == 0
    assert problems == []
    for value in (3, -1, "one", 1.5):
        problems = []
        assert sheets.read_seat({"f": value}, "f", problems, 3) is None
        assert [p.code for p in problems] == ["invalid_choice"]


def test_unknown_fields():
    schema = [sheets.field("a", "A"), sheets.field("b", "B", "bool")]
    problems: list[Problem] = []
    assert sheets.unknown_fields({"a": 1, "z": 2, "c": 3}, schema, problems) is True
    assert [(p.code, p.fields) for p in problems] == [("unknown_field", ("c", "z"))]
    assert problems[0].message == "Unknown field(s): c, z."
    for not_a_sheet in (None, [], "abc", 3, [["a", 1]]):
        problems = []
        assert sheets.unknown_fields(not_a_sheet, schema, problems) is False
        assert [(p.code, p.fields) for p in problems] == [("not_a_sheet", ())]
    problems = []
    assert sheets.unknown_fields({1: "x"}, schema, problems) is True
    assert problems[0].fields == ("1",)


def test_field_shapes():
    f = sheets.field("s0_cards", "Cards held", seat=0, min=0, max=32)
    assert f == {
        "name": "s0_cards",
        "label": "Cards held",
        "kind": "int",
        "seat": 0,
        "group": None,
        "required": True,
        "help": "",
        "min": 0,
        "max": 32,
    }
    c = sheets.field("colour", "Colour", "choice", choices=[("red", "Red")])
    assert c["choices"] == [["red", "Red"]] and "min" not in c
    assert "choices" not in sheets.field("out", "Out", "bool")
    assert sheets.is_blank(None) and sheets.is_blank(" ") and not sheets.is_blank(0)
