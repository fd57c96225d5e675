"""Property tests: random paper sheets never crash ``check_sheet``.

For every registered engine (``games.ENGINES``), every player count and the
option variants its ``options_schema`` offers, sheets are drawn from the
engine's ``sheet_schema`` with plausible and garbage values, missing and
unknown fields, plus totally random JSON values. ``check_sheet`` must return a
``TableResult`` or raise ``SheetError`` whose problems are well formed.
"""

from __future__ import annotations

import copy
import functools
import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import ENGINES, Problem, SheetError, TableResult
from tests.examples import examples


def option_variants(engine) -> list[dict | None]:
    """``None`` (the defaults) and one variant per other value of an option
    that offers a choice (e.g. a "points only" sheet)."""
    defaults = engine.default_options()
    variants: list[dict | None] = [None]
    for f in engine.options_schema():
        name = f["name"]
        if f.get("kind") == "bool":
            variants.append({name: not defaults.get(name, False)})
        elif f.get("kind") == "choice" and len(f.get("choices", [])) > 1:
            default = defaults.get(name, f["choices"][0][0])
            variants.extend({name: c[0]} for c in f["choices"] if c[0] != default)
    return variants


CASES = [
    pytest.param(game, n, options, id=f"{game}-{n}-{json.dumps(options)}")
    for game, engine in sorted(ENGINES.items())
    for n in range(engine.min_players, engine.max_players + 1)
    for options in option_variants(engine)
]

SETTINGS = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# -- strategies -------------------------------------------------------------------------

GARBAGE = st.sampled_from(
    [None, "", " ", "abc", 3.5, True, False, [], {}, [1], {"a": 1}, -1, 10**30, "-0", "1.0"]
)
JSON_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**6), max_value=10**6)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8)
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=6,
)


def plausible(field: dict, players: int) -> st.SearchStrategy:
    """Values a filled-in sheet could hold for ``field`` (in range or near it)."""
    kind = field.get("kind")
    if kind == "int":
        lo = field.get("min")
        hi = field.get("max")
        lo = lo if lo is not None else -5
        hi = hi if hi is not None else lo + 200
        ints = st.integers(min_value=lo, max_value=hi)
        near = st.integers(min_value=lo - 2, max_value=hi + 2)
        return ints | ints.map(str) | near
    if kind == "bool":
        return st.booleans() | st.sampled_from(["yes", "no", "", "x", 0, 1])
    if kind == "seat":
        return st.integers(min_value=-1, max_value=players) | st.integers(0, players - 1).map(str)
    if kind == "seats":
        seat = st.integers(min_value=0, max_value=players - 1)
        return st.lists(seat, max_size=players + 1) | st.lists(seat, unique=True, max_size=players)
    if kind == "choice":
        values = [c[0] for c in field.get("choices", [])]
        if values:
            return st.sampled_from(values) | st.sampled_from(values).map(str)
    return JSON_SCALARS


MISSING = object()  # a field left out of the sheet


@functools.cache
def sheet_strategies(game: str, players: int, options_key: str) -> tuple:
    """(plausible sheets, sheets with garbage or random dicts), built once per case."""
    options = json.loads(options_key)
    schema = ENGINES[game].sheet_schema(players, options)
    names = [f["name"] for f in schema]
    good = {f["name"]: plausible(f, players) for f in schema}
    bad = {
        name: st.one_of(
            strategy, strategy, strategy, GARBAGE, JSON_VALUES, st.just(MISSING)
        )  # mostly plausible
        for name, strategy in good.items()
    }
    extra = st.dictionaries(
        st.text(max_size=8).filter(lambda k: k not in names), JSON_VALUES, max_size=3
    )

    def present(sheet: dict) -> dict:
        return {k: v for k, v in sheet.items() if v is not MISSING}

    plausible_sheets = st.fixed_dictionaries(good)
    with_garbage = st.builds(
        lambda sheet, more: {**present(sheet), **more},
        st.fixed_dictionaries(bad),
        st.just({}) | extra,
    )
    keys = st.sampled_from(names) | st.text(max_size=10) if names else st.text(max_size=10)
    random_dicts = st.dictionaries(keys, JSON_VALUES, max_size=len(names) + 3)
    return plausible_sheets, with_garbage | random_dicts


# -- checks -----------------------------------------------------------------------------


def check(engine, players: int, sheet, options) -> TableResult | None:
    """Run ``check_sheet``; assert the outcome is well formed; the result or None."""
    schema_names = {f["name"] for f in engine.sheet_schema(players, options)}
    submitted = {str(k) for k in sheet} if isinstance(sheet, dict) else set()
    before = copy.deepcopy(sheet)
    try:
        result = engine.check_sheet(players, sheet, options)
    except SheetError as exc:
        assert exc.problems, "SheetError without problems"
        for p in exc.problems:
            assert isinstance(p, Problem)
            assert isinstance(p.code, str) and p.code
            assert isinstance(p.fields, tuple)
            assert all(isinstance(name, str) for name in p.fields), p
            # fields of the schema; an unknown field names the submitted key
            assert set(p.fields) <= schema_names | submitted, (p, schema_names)
            assert isinstance(p.message, str) and p.message.strip(), p
            json.dumps(p.as_dict())
        result = None
    else:
        assert isinstance(result, TableResult)
        check_result(result, players)
    assert _same(sheet, before), "check_sheet changed the sheet it was given"
    return result


def check_result(result: TableResult, players: int):
    ranks = result.ranks
    assert len(ranks) == players and len(result.figures) == players
    assert all(isinstance(r, int) and 1 <= r <= players for r in ranks)
    # competition ranking: rank r means r - 1 seats ranked better
    for r in ranks:
        assert sum(1 for other in ranks if other < r) == r - 1, ranks
    json.dumps(result.as_dict())


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


# -- properties ---------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "players", "options"), CASES)
def test_schema_is_well_formed(game, players, options):
    schema = ENGINES[game].sheet_schema(players, options)
    assert schema
    names = [f["name"] for f in schema]
    assert len(names) == len(set(names)), "field names repeat"
    for f in schema:
        assert isinstance(f["name"], str) and f["name"]
        assert f["kind"] in {"int", "bool", "seat", "choice", "seats"}, f
        assert f.get("seat") is None or 0 <= f["seat"] < players
        if f["kind"] == "choice":
            assert f["choices"], f
    json.dumps(schema)


@pytest.mark.parametrize(("game", "players", "options"), CASES)
@settings(SETTINGS, max_examples=examples(80))
@given(data=st.data())
def test_random_sheets_never_crash(game, players, options, data):
    """Schema sheets with garbage, missing and unknown fields, and random dicts."""
    _good, garbage = sheet_strategies(game, players, json.dumps(options))
    check(ENGINES[game], players, data.draw(garbage, label="sheet"), options)


@pytest.mark.parametrize(("game", "players", "options"), CASES)
@settings(SETTINGS, max_examples=examples(50))
@given(data=st.data())
def test_plausible_sheets_pass_with_a_full_ranking_or_fail_cleanly(game, players, options, data):
    """Sheets with a plausible value in every field; one that passes ranks every seat."""
    good, _garbage = sheet_strategies(game, players, json.dumps(options))
    result = check(ENGINES[game], players, data.draw(good, label="sheet"), options)
    if result is not None:
        assert len(result.ranks) == players


@pytest.mark.parametrize(("game", "players", "options"), CASES)
@settings(SETTINGS, max_examples=examples(25))
@given(sheet=JSON_VALUES.filter(lambda v: not isinstance(v, dict)))
def test_a_sheet_that_is_not_a_dict_is_a_problem(game, players, options, sheet):
    assert check(ENGINES[game], players, sheet, options) is None, "not a dict, yet accepted"


@pytest.mark.parametrize(("game", "players", "options"), CASES)
def test_empty_sheet_is_rejected_or_ranks_everyone(game, players, options):
    check(ENGINES[game], players, {}, options)


def test_each_game_says_which_sheets_cant_be_a_finished_game():
    """``sheet_unfinished``: a stable code, or None when the sheet may show a
    finished game (or can't tell, as Altruismus)."""
    from games import get_engine

    quartett = get_engine("quartett")
    two_holding = quartett.check_sheet(
        4,
        {"s0_cards": 20, "s1_cards": 12, "s2_out": True, "s2_out_order": 2,
         "s3_out": True, "s3_out_order": 1},
    )  # fmt: skip
    problem = quartett.sheet_unfinished(two_holding, 4)
    assert (problem.code, problem.params) == ("cards_still_held", {"n": 2})
    trumpet = get_engine("trumpet")
    race = trumpet.check_sheet(3, {"s0_field": 3, "s1_field": 2, "s2_field": 1})
    assert trumpet.sheet_unfinished(race, 3).code == "hall_not_reached"
    won = trumpet.check_sheet(3, {"s0_hall": True, "s1_field": 2, "s2_field": 1})
    assert trumpet.sheet_unfinished(won, 3) is None
    altruismus = get_engine("altruismus")
    sheet = {"turns": 10}
    for i, (cards, total, bonus) in enumerate([(10, 95, 20), (10, 80, 0), (10, 90, 10)]):
        sheet |= {f"s{i}_cards": cards, f"s{i}_sum": total, f"s{i}_bonus": bonus}
        sheet[f"s{i}_total"] = total + bonus
    assert altruismus.sheet_unfinished(altruismus.check_sheet(3, sheet), 3) is None
