"""Every reason the seating writes is one ``tournaments.seating.reasons``
lists (its code, its parameters and what they hold): the import checks
stored reasons against that list, so it must hold for every decision — a
seating in every mode, a re-seating after a drop, a late arrival, a bot
table — and refuse what no decision writes."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, assume, given, reject, settings
from hypothesis import strategies as st

from tests.examples import examples
from tests.seating.test_seating_properties import _feasible, fields
from tournaments.seating import SeatingError, add_late_arrival, reseat_after_drop, seat
from tournaments.seating.reasons import CODES, PARAMS, problem
from tournaments.seating.request import MODES


def all_reasons(answer) -> list[dict]:
    reasons = answer["reasons"]
    items = [r for rs in (reasons.values() if isinstance(reasons, dict) else reasons) for r in rs]
    items += answer.get("bye_reasons", [])
    if answer.get("bot_table"):
        items += answer["bot_table"]["reasons"]
    return items


def assert_listed(answer) -> set[str]:
    items = all_reasons(answer)
    for item in items:
        assert problem(item) is None, item
    return {r["code"] for r in items}


@settings(max_examples=examples(80), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fields(), st.sampled_from(MODES), st.data())
def test_every_reason_of_every_decision_is_listed(request_, mode, data):
    request_ = {**request_, "mode": mode}
    if mode != "swiss" and mode != "mixing":
        rng = random.Random(request_["seed"])
        for p in request_["players"]:
            p["rating"] = rng.choice([None, 1200, 1500, 1800, 2100])
    assume(_feasible(request_))
    try:
        answer = seat(request_)
    except SeatingError:
        reject()
    assert_listed(answer)
    if len(request_["players"]) < 2 * max(request_["allowed_sizes"]):
        return
    tables = {k + 1: t for k, t in enumerate(answer["tables"])}
    dropped = data.draw(st.sampled_from([p["id"] for p in request_["players"]]))
    after = reseat_after_drop(request_, tables, answer["byes"], dropped)
    assert_listed({**after, "reasons": after["reasons"]})
    newcomer = {"id": 10_000, "score": 0, "small_tables": 0, "byes": 0, "seat_history": []}
    left = [p for p in request_["players"] if p["id"] != dropped]
    joined = {**request_, "players": [*left, newcomer]}
    try:
        late = add_late_arrival(joined, dict(after["tables"]), after["byes"], 10_000)
    except SeatingError:
        return
    assert_listed(late)


def test_a_bot_table_and_its_change_are_listed():
    players = [{"id": p, "score": 0, "seat_history": []} for p in range(10)]
    request_ = {
        "players": players,
        "met": [],
        "table_size": 4,
        "allowed_sizes": [4],
        "byes": False,
        "bots": True,
        "mode": "random",
        "seed": 3,
    }
    answer = seat(request_)
    assert "bot_table" in assert_listed(answer)


@pytest.mark.parametrize(
    ("item", "found"),
    [
        ("x", ("not_a_reason", {})),
        ({"code": "bye", "params": [], "x": 1}, ("not_a_reason", {})),
        ({"code": "luck", "params": {}}, ("unknown_code", {"code": "luck"})),
        ({"code": ["bye"], "params": {}}, ("unknown_code", {"code": "['bye']"})),
        ({"code": "large_table", "params": {"size": 5}}, ("missing_param", {"param": "preferred"})),
        (
            {"code": "large_table", "params": {"size": 5, "preferred": 4, "x": 1}},
            ("unknown_param", {"param": "x"}),
        ),
        (
            {"code": "large_table", "params": {"size": "5", "preferred": 4}},
            ("bad_param", {"param": "size"}),
        ),
        (
            {"code": "moved_up", "params": {"player": 1, "score": 1e999, "low": 1, "high": 2}},
            ("bad_param", {"param": "score"}),
        ),
        (
            {"code": "bye", "params": {"player": 1, "count": 0, "rule": ["drawn"]}},
            ("bad_param", {"param": "rule"}),
        ),
        ({"code": "bye", "params": {"name": "Anna", "count": 0, "rule": "drawn"}}, None),
    ],
)
def test_what_no_decision_writes_is_named(item, found):
    assert problem(item) == found


def test_every_code_the_seating_writes_has_its_parameters_listed():
    """Every code a decision writes has its parameters listed (and the
    legacy one only that)."""
    assert set(PARAMS) - {"club_together"} == set(CODES)
