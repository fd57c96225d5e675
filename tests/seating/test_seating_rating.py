"""Round 1 by rating, without a database (``tournaments.seating.rating``):
strong players spread over the tables, or neighbours in the rating order
together (table 1 the strongest); players without a rating last, drawn; the
reasons say what was done and are true of the data."""

import random

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tests.examples import examples
from tournaments.seating import SeatingError, seat


def request(ratings, mode, size=4, allowed=None, byes=False, seed=1, **extra):
    players = [{"id": 100 + k, "score": 0, "rating": r} for k, r in enumerate(ratings)]
    return {
        "players": players,
        "table_size": size,
        "allowed_sizes": allowed or [size],
        "byes": byes,
        "mode": mode,
        "seed": seed,
        "round": 1,
        **extra,
    }


def places(req):
    """id -> 0-based place in the rating order (only rated players)."""
    rated = sorted(
        (p for p in req["players"] if p["rating"] is not None), key=lambda p: -p["rating"]
    )
    return {p["id"]: k for k, p in enumerate(rated)}


def codes(why):
    return [w["code"] for w in why]


@st.composite
def fields(draw):
    n = draw(st.integers(4, 60))
    sizes = draw(st.sampled_from([[4], [3, 4], [4, 5], [5, 6], [2], [3], [6], [3, 4, 5]]))
    size = draw(st.sampled_from(sizes))
    ratings = draw(
        st.lists(st.one_of(st.none(), st.floats(0, 3000, allow_nan=False)), min_size=n, max_size=n)
    )
    return ratings, size, sizes, 2 in sizes


def seat_or_skip(req):
    try:
        return seat(req)
    except SeatingError as exc:
        assert exc.code in ("impossible_sizes", "too_few_players")
        return None


@settings(max_examples=examples(80), deadline=None)
@given(fields(), st.integers(0, 10**6))
def test_spread_puts_one_of_the_top_players_at_the_head_of_every_table(field, seed):
    ratings, size, sizes, byes = field
    req = request(ratings, "rating_spread", size, sizes, byes, seed)
    a = seat_or_skip(req)
    assume(a is not None)
    order = [p["id"] for p in req["players"]]
    rated = sorted(
        (p for p in req["players"] if p["rating"] is not None), key=lambda p: -p["rating"]
    )
    rated_ids = {p["id"] for p in rated}
    all_seated = [p for t in a["tables"] for p in t] + a["byes"]
    assert sorted(all_seated) == sorted(order)
    assert all(len(t) in sizes for t in a["tables"])
    k = len(a["tables"])
    # the rating order: rated (ties in the request's order), then the unrated
    strongest = [p["id"] for p in rated]
    seated_rated = [p for p in strongest if p not in a["byes"]]
    for x, (table, why) in enumerate(zip(a["tables"], a["reasons"], strict=True)):
        spread = [w for w in why if w["code"] == "rating_spread"]
        assert len(spread) == 1
        p = spread[0]["params"]
        assert p["tables"] == k and p["strongest"] in table
        # every table's strongest is among the top k of the seated
        top = [q for q in table if q in rated_ids]
        if top and len(seated_rated) >= k:
            best = min(seated_rated.index(q) for q in top)
            assert best < k
        if x == 0 and seated_rated:
            assert seated_rated[0] in table
        unrated = [w for w in why if w["code"] == "unrated"]
        assert sorted(unrated[0]["params"]["players"] if unrated else []) == sorted(
            q for q in table if q not in rated_ids
        )


@settings(max_examples=examples(80), deadline=None)
@given(fields(), st.integers(0, 10**6))
def test_swiss_by_rating_seats_neighbours_together_table_one_the_strongest(field, seed):
    ratings, size, sizes, byes = field
    req = request(ratings, "rating_swiss", size, sizes, byes, seed)
    a = seat_or_skip(req)
    assume(a is not None)
    rated = sorted(
        (p for p in req["players"] if p["rating"] is not None), key=lambda p: -p["rating"]
    )
    rated_ids = [p["id"] for p in rated]
    first = a["tables"][0]
    # table 1 holds the strongest seated players (among those the fairness
    # rule leaves at full tables)
    full = [t for t in a["tables"] if len(t) >= size]
    at_full = [q for q in rated_ids if any(q in t for t in full)]
    if len(first) >= size:
        assert set(at_full[: len(first)]) <= set(first) or len(at_full) < len(first)
    # the reasons' ranges are true: places first..last of the rating order,
    # one run of neighbours per table (the unrated after the rated, drawn)
    place = {q: k + 1 for k, q in enumerate(rated_ids)}
    byes_rated = [q for q in a["byes"] if q in place]
    firsts = []
    for table, why in zip(a["tables"], a["reasons"], strict=True):
        group = next(w["params"] for w in why if w["code"] == "rating_group")
        assert group["last"] - group["first"] + 1 == len(table)
        for q in table:
            if q in place:
                assert group["first"] <= place[q] <= group["last"]
            else:
                assert group["last"] > len(rated_ids) - len(byes_rated)
        firsts.append(group["first"])
    # the tables follow the rating order
    assert firsts == sorted(firsts)


def test_spread_snake_on_sixteen_players():
    a = seat(request([2000 - 10 * k for k in range(16)], "rating_spread"))
    ids = [[q - 100 for q in t] for t in a["tables"]]
    assert [sorted(t) for t in ids] == [
        [0, 7, 8, 15],
        [1, 6, 9, 14],
        [2, 5, 10, 13],
        [3, 4, 11, 12],
    ]
    assert a["reasons"][2][0] == {
        "code": "rating_spread",
        "params": {"strongest": 102, "place": 3, "tables": 4},
    }


def test_swiss_by_rating_holds_the_top_four_at_table_one_and_small_tables_last():
    ratings = [1500 + k for k in range(11)]  # 110 is the strongest
    a = seat(request(ratings, "rating_swiss", 4, [3, 4]))
    assert sorted(a["tables"][0]) == [107, 108, 109, 110]
    assert [len(t) for t in a["tables"]] == [4, 4, 3]
    assert sorted(a["tables"][2]) == [100, 101, 102]
    small = next(w for w in a["reasons"][2] if w["code"] == "small_table")
    assert small["params"]["rule"] == "rating"
    assert a["reasons"][0][0] == {"code": "rating_group", "params": {"first": 1, "last": 4}}


def test_players_without_a_rating_come_last_in_an_order_drawn_from_the_seed():
    ratings = [1800, None, 1700, None, 1600, None, 1500, None]
    orders = set()
    for seed in range(12):
        a = seat(request(ratings, "rating_swiss", seed=seed))
        assert sorted(a["tables"][0]) == [100, 102, 104, 106]
        assert codes(a["reasons"][1]).count("unrated") == 1
        assert sorted(a["reasons"][1][1]["params"]["players"]) == [101, 103, 105, 107]
        orders.add(tuple(a["tables"][1]))
        again = seat(request(ratings, "rating_swiss", seed=seed))
        assert again["tables"] == a["tables"]  # same seed, same seating
    spreads = {
        tuple(map(tuple, seat(request(ratings, "rating_spread", seed=s))["tables"]))
        for s in range(12)
    }
    assert len(spreads) > 1  # the unrated are drawn, not fixed


def test_byes_go_to_the_lowest_rated_with_the_fewest_byes():
    a = seat(request([1000 + k for k in range(7)], "rating_swiss", size=2, byes=True))
    assert a["byes"] == [100]
    assert a["bye_reasons"][0]["params"]["rule"] == "rating"


def test_club_mates_are_swapped_apart():
    players = [
        {"id": k, "score": 0, "rating": 2000 - k, "club": "ab"[k % 2] if k < 4 else None}
        for k in range(8)
    ]
    req = {"players": players, "table_size": 4, "mode": "rating_swiss", "teams": "apart"}
    a = seat(req)
    for t in a["tables"]:
        clubs = [players[k]["club"] for k in t if players[k]["club"]]
        assert len(clubs) == len(set(clubs))
    assert not any("mates_together" in codes(w) for w in a["reasons"])


def test_team_partners_together_are_refused_with_a_code():
    players = [{"id": k, "score": 0, "rating": k, "team": k // 2} for k in range(8)]
    with pytest.raises(SeatingError) as exc:
        seat({"players": players, "table_size": 4, "mode": "rating_spread", "teams": "together"})
    assert exc.value.code == "rating_with_teams"


@pytest.mark.parametrize("bad", ["high", True, float("nan"), [1]])
def test_a_bad_rating_is_a_bad_request(bad):
    with pytest.raises(SeatingError) as exc:
        seat(request([bad, 1, 2, 3], "rating_spread"))
    assert exc.value.code == "bad_request"


def test_a_thousand_players_by_rating_are_fast():
    rng = random.Random(5)
    ratings = [rng.choice([None, rng.uniform(800, 2400)]) for _ in range(1000)]
    for mode in ("rating_spread", "rating_swiss"):
        a = seat(request(ratings, mode))
        assert a["stats"]["seconds"] < 1.0
