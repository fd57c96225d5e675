"""Seating: guarantees on small cases, bad requests, rotation, teams, determinism."""

import itertools
import json
import os
import random
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.examples import examples
from tournaments.seating import SeatingError, mixing_plan, mixing_round, plan_sizes, seat
from tournaments.seating.designs import RESOLVABLE

ROOT = Path(__file__).resolve().parents[2]


def req(n, size=4, **kw):
    players = kw.pop("players", None) or [{"id": i, "score": n - i} for i in range(n)]
    return {"players": players, "met": kw.pop("met", []), "table_size": size, **kw}


def pairs_of(tables):
    return {frozenset(p) for t in tables for p in itertools.combinations(t, 2)}


def check_valid(request, answer):
    ids = [p["id"] for p in request["players"]]
    seated = [x for t in answer["tables"] for x in t] + answer["byes"]
    assert sorted(map(str, seated)) == sorted(map(str, ids))
    allowed = request.get("allowed_sizes") or [request["table_size"]]
    assert all(len(t) in allowed for t in answer["tables"])


# ---------------------------------------------------------------- 2 players


def test_pairs_avoid_rematches_and_mix_least():
    # 8 players, scores 3,3,2,2,2,1,1,0; 0-1 and 2-3 met before
    scores = [3, 3, 2, 2, 2, 1, 1, 0]
    players = [{"id": i, "score": s} for i, s in enumerate(scores)]
    a = seat(req(8, 2, players=players, met=[[0, 1], [2, 3]]))
    assert a["stats"]["repeat_pairs"] == 0
    assert pairs_of(a["tables"]).isdisjoint({frozenset((0, 1)), frozenset((2, 3))})
    assert a["stats"]["mixed_pairs_lower_bound"] == 2
    # 0 and 1 cannot meet: both leaders float down (the cut below them is crossed
    # twice), so two more score-group crossings than the bound are the best possible
    assert a["stats"]["mixed_pairs"] == 4


def test_pairs_reach_mixed_lower_bound():
    scores = [5, 4, 4, 4, 3, 3, 2, 2, 2, 2, 1, 0]
    players = [{"id": i, "score": s} for i, s in enumerate(scores)]
    a = seat(req(12, 2, players=players))
    assert a["stats"]["mixed_pairs"] == a["stats"]["mixed_pairs_lower_bound"] == 2


def test_pairs_rematch_only_when_unavoidable():
    a = seat(req(2, 2, met=[[0, 1]]))
    assert a["tables"] and a["stats"]["repeat_pairs"] == 1


def test_bye_goes_to_bottom_then_rotates():
    players = [{"id": i, "score": 10 - i} for i in range(7)]
    a = seat(req(7, 2, players=players, byes=True))
    assert a["byes"] == [6]
    players[6]["byes"] = 1
    a = seat(req(7, 2, players=players, byes=True))
    assert a["byes"] == [5]


def test_odd_without_byes_is_impossible():
    with pytest.raises(SeatingError, match="impossible table sizes"):
        seat(req(7, 2))


def test_pair_jumping_a_score_group_counts_as_two_mixed_pairs():
    # 7 players, the bye to the last: 3 | 2 2 | 1 | 0 0 — the cuts after 3 and after
    # the 2s have an odd number above them, each is crossed by a pair. Pairing 3
    # with 1 (jumping over the 2s) crosses both cuts at once; it used to be counted
    # as one mixed pair, below the bound of 2.
    players = [{"id": i, "score": s} for i, s in enumerate([3, 2, 2, 1, 0, 0, 0])]
    a = seat(req(7, 2, players=players, byes=True))
    assert a["byes"] == [6]
    st_ = a["stats"]
    assert st_["mixed_pairs_lower_bound"] == 2
    assert st_["mixed_pairs"] == 2
    # the neighbours float rather than the leader meeting the 1-point player
    assert sorted(map(sorted, a["tables"])) == [[0, 1], [2, 3], [4, 5]]


def _matchings(people):
    if not people:
        yield []
        return
    a, rest = people[0], people[1:]
    for k, b in enumerate(rest):
        for m in _matchings(rest[:k] + rest[k + 1 :]):
            yield [(a, b), *m]


def _random_pair_request(rnd, n):
    scores = sorted((rnd.randrange(4) for _ in range(n)), reverse=True)
    players = [{"id": i, "score": s, "byes": rnd.choice([0, 0, 1])} for i, s in enumerate(scores)]
    met = [list(p) for p in itertools.combinations(range(n), 2) if rnd.random() < 0.3]
    return req(n, 2, players=players, met=met, byes=True, seed=rnd.randrange(100))


def test_pair_bound_against_brute_force_with_byes():
    # 5-9 players with random scores, histories and byes had: the bound never
    # exceeds the true optimum, and the matcher finds the optimum: fewest rematches,
    # then fewest score-group crossings (a pair k groups apart crosses k of them)
    rnd = random.Random(2024)
    for _ in range(300):
        n = rnd.randint(5, 9)
        r = _random_pair_request(rnd, n)
        a = seat(r)
        check_valid(r, a)
        score = {p["id"]: p["score"] for p in r["players"]}
        had = {p["id"]: p["byes"] for p in r["players"]}
        # the bye: among those who had the fewest, the lowest in the standings
        if n % 2:
            (bye,) = a["byes"]
            fewest = min(had.values())
            assert had[bye] == fewest
            assert bye == max(i for i in score if had[i] == fewest)
        else:
            assert a["byes"] == []
        seated = sorted((x for t in a["tables"] for x in t), key=lambda i: (-score[i], i))
        levels = sorted({score[i] for i in seated}, reverse=True)
        group = {i: levels.index(score[i]) for i in seated}
        met = Counter(frozenset(m) for m in r["met"])

        def cost(m, met=met, group=group):
            return (
                sum(met[frozenset(p)] for p in m),
                sum(abs(group[x] - group[y]) for x, y in m),
            )

        costs = [cost(m) for m in _matchings(seated)]
        best = min(costs)
        st_ = a["stats"]
        assert st_["mixed_pairs_lower_bound"] <= min(c[1] for c in costs)
        assert st_["mixed_pairs_lower_bound"] <= best[1]
        assert (st_["repeat_pairs"], st_["mixed_pairs"]) == best == cost(a["tables"]), r


def test_random_draw_pairs_fast_rotates_byes_and_avoids_rematches():
    players = [{"id": i, "score": 0} for i in range(1001)]
    r = req(1001, 2, players=players, byes=True, mode="random", seed=5)
    a = seat(r)
    check_valid(r, a)
    assert len(a["byes"]) == 1
    assert a["stats"]["seconds"] < 0.5  # a few ms on an idle machine
    assert seat(json.loads(json.dumps(r)))["tables"] == a["tables"]
    assert seat({**r, "seed": 6})["tables"] != a["tables"]
    # byes go to those who had the fewest, drawn by the seed (not always the last)
    small = [{"id": i, "score": 0, "byes": 1 if i < 5 else 0} for i in range(7)]
    got = {
        seat(req(7, 2, players=small, byes=True, mode="random", seed=s))["byes"][0]
        for s in range(20)
    }
    assert got <= {5, 6} and len(got) == 2
    # a draw with history repeats no pair while it can be avoided
    met = [[i, j] for i in range(10) for j in range(i + 1, 10) if (i + j) % 3]
    b = seat(req(10, 2, players=[{"id": i, "score": 0} for i in range(10)], met=met, mode="random"))
    assert b["stats"]["repeat_pairs"] == 0


@pytest.mark.parametrize("size", [2, 3, 4, 5, 6])
def test_random_round_one_of_1000_is_fast(size):
    r = req(
        1000, size, players=[{"id": i, "score": 0} for i in range(1000)], byes=True, mode="random"
    )
    a = seat(r)
    check_valid(r, a)
    assert a["stats"]["repeat_pairs"] == 0
    assert a["stats"]["seconds"] < 0.5  # under 0.01 s on an idle machine


# ---------------------------------------------------------------- 3-6 players


def test_groups_by_standings_without_repeats():
    a = seat(req(8, 4, met=[[0, 1]]))
    assert a["stats"]["repeat_pairs"] == 0
    assert frozenset((0, 1)) not in pairs_of(a["tables"])
    assert all(len(t) == 4 for t in a["tables"])


def test_groups_chunk_standings_when_free():
    players = [{"id": i, "score": s} for i, s in enumerate([9, 9, 9, 9, 5, 5, 5, 5, 1, 1, 1, 1])]
    a = seat(req(12, 4, players=players))
    assert sorted(sorted(t) for t in a["tables"]) == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]
    assert a["stats"]["score_range_sum"] == a["stats"]["score_range_lower_bound"] == 0


def test_plan_sizes():
    assert plan_sizes(1002, [3, 4], 4) == ([4] * 249 + [3] * 2, 0)
    assert plan_sizes(10, [3, 4, 5], 4) == ([4, 3, 3], 0)
    assert plan_sizes(10, [4], 4, byes=True) == ([4, 4], 2)
    with pytest.raises(SeatingError, match="impossible"):
        plan_sizes(10, [4], 4)


def test_small_tables_to_bottom_then_rotate():
    players = [{"id": i, "score": 20 - i} for i in range(11)]
    a = seat(req(11, 4, players=players, allowed_sizes=[3, 4]))
    small = next(t for t in a["tables"] if len(t) == 3)
    assert sorted(small) == [8, 9, 10]
    for p in players[8:]:
        p["small_tables"] = 1
    a = seat(req(11, 4, players=players, allowed_sizes=[3, 4]))
    small = next(t for t in a["tables"] if len(t) == 3)
    # the lowest players who had none (by standings, not where the
    # score ranges would be cheapest)
    assert sorted(small) == [5, 6, 7]


def test_byes_for_groups():
    a = seat(req(10, 4, byes=True))
    assert sorted(a["byes"]) == [8, 9]


def test_seat_order_rotates_the_lead():
    players = [{"id": i, "score": 0, "seat_history": [0, 0] if i < 3 else [1, 2]} for i in range(4)]
    a = seat(req(4, 4, players=players))
    assert a["tables"][0][0] == 3


def test_teams_together_and_apart():
    players = [{"id": i, "score": 8 - i, "team": f"t{i % 4}"} for i in range(8)]
    a = seat(req(8, 4, players=players, teams="together"))
    for t in a["tables"]:
        assert len({i % 4 for i in t}) == 2
    a = seat(req(8, 4, players=players, teams="apart"))
    for t in a["tables"]:
        assert len({i % 4 for i in t}) == 4
    assert a["stats"]["apart_violations"] == 0
    clubs = [{"id": i, "score": 0, "club": "A" if i < 2 else f"c{i}"} for i in range(8)]
    a = seat(req(8, 4, players=clubs, teams="apart"))
    assert frozenset((0, 1)) not in pairs_of(a["tables"])


def test_late_entry_and_drop():
    base = req(12, 4, met=[[0, 1], [2, 3], [4, 5]])
    a = seat(base)
    # drop player 11, add a late entry 99 with score 0 and no history
    players = [p for p in base["players"] if p["id"] != 11] + [{"id": 99, "score": 0}]
    b = seat({**base, "players": players})
    check_valid({**base, "players": players}, b)
    assert b["stats"]["repeat_pairs"] == 0
    assert a["stats"]["repeat_pairs"] == 0


def test_determinism_per_seed():
    players = [{"id": i, "score": i % 5} for i in range(40)]
    met = [[i, (i * 7 + 3) % 40] for i in range(40) if i != (i * 7 + 3) % 40]
    for mode in ("swiss", "mixing", "random"):
        r = req(40, 4, players=players, met=met, mode=mode, seed=3)
        a, b = seat(r), seat(json.loads(json.dumps(r)))
        assert a["tables"] == b["tables"]
    r1 = seat(req(40, 4, players=players, mode="random", seed=1))
    r2 = seat(req(40, 4, players=players, mode="random", seed=2))
    assert r1["tables"] != r2["tables"]


# ---------------------------------------------------------------- mixing


def repeat_free_rounds(plan):
    seen, r = set(), 0
    for rnd in plan:
        ps = [frozenset(p) for t in rnd for p in itertools.combinations(t, 2)]
        if len(set(ps)) != len(ps) or seen & set(ps):
            break
        seen |= set(ps)
        r += 1
    return r


@pytest.mark.parametrize(("n", "rounds"), [(9, 4), (16, 5), (32, 10), (64, 21)])
def test_mixing_plans_resolvable_designs(n, rounds):
    size = 3 if n == 9 else 4
    plan = mixing_plan(range(n), size, rounds, seed=1)
    assert repeat_free_rounds(plan) == rounds
    for rnd in plan:
        assert sorted(x for t in rnd for x in t) == list(range(n))


@pytest.mark.parametrize(("n", "k"), sorted(RESOLVABLE))
def test_designs_kept_as_data_are_resolvable(n, k):
    rounds = RESOLVABLE[n, k]
    # the design maximum: each player meets k - 1 new players a round
    assert len(rounds) == (n - 1) // (k - 1)
    met = Counter()
    for rnd in rounds:
        assert sorted(x for t in rnd for x in t) == list(range(n))
        assert all(len(t) == k for t in rnd)
        met.update(frozenset(p) for t in rnd for p in itertools.combinations(t, 2))
    assert max(met.values()) == 1


def test_mixing_32_players_plays_10_rounds_then_repeats_least():
    plan = mixing_plan([f"p{x}" for x in range(32)], 4, 11, seed=3)
    assert repeat_free_rounds(plan) == 10
    # round 11: each player has met all but one; at best a table holds two pairs
    # of players new to each other, so 4 of its 6 pairs repeat: 8 tables, 32 repeats
    met = {frozenset(p) for rnd in plan[:10] for t in rnd for p in itertools.combinations(t, 2)}
    repeats = [frozenset(p) in met for t in plan[10] for p in itertools.combinations(t, 2)]
    assert sum(repeats) == 32


def test_mixing_round_by_request_follows_plan():
    ids = list(range(16))
    met = []
    for r in range(1, 6):
        a = seat(
            req(
                16,
                4,
                players=[{"id": i, "score": 0} for i in ids],
                met=met,
                mode="mixing",
                rounds=5,
                round=r,
                seed=7,
            )
        )
        assert a["stats"]["planned"] and a["stats"]["repeat_pairs"] == 0
        assert sorted(map(sorted, a["tables"])) == sorted(
            map(sorted, mixing_round(ids, 4, 5, r, met, seed=7))
        )
        met += [list(p) for t in a["tables"] for p in itertools.combinations(t, 2)]


def test_mixing_round_none_when_history_differs():
    assert mixing_round(range(16), 4, 5, 2, met=[[0, 1]] + [[0, x] for x in range(2, 16)]) is None


# ---------------------------------------------------------------- bad requests


@pytest.mark.parametrize(
    ("request_", "message"),
    [
        (req(8, 4, met=[[0, 77]]), "unknown player id 77"),
        (req(4, 4, players=[{"id": 1}, {"id": 1}, {"id": 2}, {"id": 3}]), "duplicate player id 1"),
        (req(9, 4), "impossible table sizes"),
        (req(1, 2), "too few players"),
        (req(3, 4), "too few players"),
        (req(8, 7), "table_size"),
        (req(8, 4, allowed_sizes=[3, 5]), "not among allowed_sizes"),
        (req(8, 4, mode="chaos"), "mode"),
        (req(8, 4, teams="mixed"), "teams"),
        (req(8, 4, met=[[0, 0]]), "names one player twice"),
        ({"players": "x", "table_size": 4}, "players must be a list"),
    ],
)
def test_bad_requests(request_, message):
    with pytest.raises(SeatingError, match=message) as exc:
        seat(request_)
    assert exc.value.code in ("bad_request", "too_few_players", "impossible_sizes")


@pytest.mark.parametrize(
    ("request_", "code", "params"),
    [
        (req(3, 4), "too_few_players", {"players": 3, "minimum": 4}),
        (req(7, 2), "impossible_sizes", {"players": 7, "sizes": [2], "byes": False}),
        (
            req(8, 4, players=[{"id": i, "team": "T"} for i in range(8)], teams="together"),
            "team_too_large",
            {"team": "T", "players": 8, "largest": 4},
        ),
    ],
)
def test_errors_carry_a_code_and_its_parameters(request_, code, params):
    # the web side translates the code; it never reads the English text
    with pytest.raises(SeatingError) as exc:
        seat(request_)
    assert exc.value.code == code and exc.value.params == params


def run_cli(payload, env=None):
    return subprocess.run(
        [sys.executable, "-m", "tournaments.seating"],
        input=payload,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        env={**os.environ, **env} if env else None,
    )


def test_cli_ok_and_bad():
    p = run_cli(json.dumps(req(8, 4)))
    assert p.returncode == 0, p.stderr
    assert len(json.loads(p.stdout)["tables"]) == 2
    p = run_cli(json.dumps(req(8, 4, met=[[0, 77]])))
    assert p.returncode == 2
    assert "unknown player id 77" in p.stderr
    assert json.loads(p.stdout)["code"] == "bad_request"
    p = run_cli("{not json")
    assert p.returncode == 2 and "JSON" in p.stderr


# ---------------------------------------------------------------- properties


@st.composite
def requests(draw):
    allowed = sorted(draw(st.sets(st.integers(2, 6), min_size=1, max_size=3)))
    size = draw(st.sampled_from(allowed))
    n = draw(st.integers(max(allowed), 40))
    scores = draw(st.lists(st.integers(0, 6), min_size=n, max_size=n))
    players = [{"id": i, "score": s} for i, s in enumerate(sorted(scores, reverse=True))]
    teams = draw(st.sampled_from([None, "apart", "together"]))
    if teams:
        for p in players:
            if draw(st.booleans()):
                p["team"] = f"t{p['id'] // 2}"
    met = draw(
        st.lists(
            st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(lambda t: t[0] != t[1]),
            max_size=3 * n,
        )
    )
    return {
        "players": players,
        "met": [list(m) for m in met],
        "table_size": size,
        "allowed_sizes": allowed,
        "byes": draw(st.booleans()),
        "mode": draw(st.sampled_from(["swiss", "mixing", "random"])),
        "teams": teams,
        "seed": draw(st.integers(0, 5)),
    }


@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(requests())
def test_every_seating_is_valid(request_):
    try:
        answer = seat(request_)
    except SeatingError as exc:
        assert "impossible table sizes" in str(exc) or "team" in str(exc)
        return
    check_valid(request_, answer)
    met = Counter(frozenset(m) for m in request_["met"])
    repeats = sum(1 for p in pairs_of(answer["tables"]) if p in met)
    assert repeats == answer["stats"]["repeat_pairs"]


# ---------------------------------------------------------------- benchmark-like cases


def _generated(n, seed, **kw):
    from tests.bench.generator import generate

    return generate(n, 4, seed, **kw)


@pytest.mark.parametrize("seed", [4, 10])
def test_64_players_by_standings_range_at_most_15(seed):
    # 64 players at tables of 4 after 4 rounds, 0 repeats and a range sum <= 15
    # (not every seed can: seed 3 needs at least 17, see score_range_repeat_bound)
    r = _generated(64, seed)
    a = seat(r)
    check_valid(r, a)
    assert a["stats"]["repeat_pairs"] == 0
    assert a["stats"]["score_range_sum"] <= 15
    assert a["stats"]["seconds"] < 2  # 0.2 s on an idle machine; generous under load


@pytest.mark.parametrize(("seed", "optimum"), [(1, 16), (2, 17)])
def test_64_players_within_one_of_the_proven_optimum(seed, optimum):
    # the optimum of these two instances was proven once (exact search)
    r = _generated(64, seed)
    a = seat(r)
    assert a["stats"]["repeat_pairs"] == 0
    assert a["stats"]["score_range_sum"] <= optimum + 1


@pytest.mark.parametrize("seed", [1, 4])
def test_mixed_sizes_reach_the_fair_bound(seed):
    # 1002 players at tables of 4 and 3: the small tables go to the bottom (all
    # had none), and the range sum is the best possible with them there
    r = _generated(1002, seed, allowed_sizes=[3, 4])
    a = seat(r)
    check_valid(r, a)
    st_ = a["stats"]
    assert st_["repeat_pairs"] == 0
    assert st_["score_range_sum"] == st_["score_range_fair_bound"]
    bottom = {p["id"] for p in r["players"][-6:]}
    assert {p for t in a["tables"] if len(t) == 3 for p in t} == bottom


def test_small_table_at_the_bottom_even_where_the_top_is_cheaper():
    # 9 9 9 | 5 5 5 5 | 1 1 1 1: the small table at the top would cost 0, but
    # small tables go to the lowest among those who had the fewest
    scores = [9, 9, 9, 5, 5, 5, 5, 1, 1, 1, 1]
    players = [{"id": i, "score": s} for i, s in enumerate(scores)]
    a = seat(req(11, 4, players=players, allowed_sizes=[3, 4]))
    assert sorted(a["tables"][-1]) == [8, 9, 10]
    assert [r["code"] for r in a["reasons"][-1]] == ["small_table"]
    # and never on a player who had more small tables than others
    players[9]["small_tables"] = 1
    a = seat(req(11, 4, players=players, allowed_sizes=[3, 4]))
    small = next(t for t in a["tables"] if len(t) == 3)
    assert sorted(small) == [7, 8, 10]


def test_repeat_aware_range_bound():
    # 0 and 1 met: the four leaders cannot sit together, two tables span the gap 5 -> 0
    players = [{"id": i, "score": 5 if i < 4 else 0} for i in range(8)]
    a = seat(req(8, 4, players=players, met=[[0, 1]]))
    st_ = a["stats"]
    assert st_["repeat_pairs"] == 0
    assert st_["score_range_lower_bound"] == 0
    assert st_["score_range_repeat_bound"] == 10
    assert st_["score_range_sum"] == 10


def test_determinism_across_processes():
    # the matcher may pick any of several equal matchings; ties are broken by the seed
    from tests.bench.generator import generate

    payload = json.dumps(generate(64, 4, 2))
    first, second = run_cli(payload), run_cli(payload)
    assert first.returncode == 0, first.stderr
    assert json.loads(first.stdout)["tables"] == json.loads(second.stdout)["tables"]


@pytest.mark.parametrize("kind", ["swiss", "random", "ties"])
def test_pairs_determinism_across_processes(kind):
    # 2-player tables: many pairings are equally good; the seed decides, not the
    # process (hash seeds differ between the two runs)
    from tests.bench.generator import generate

    if kind == "ties":
        players = [{"id": i, "score": i % 3} for i in range(300)]
        request = req(300, 2, players=players, met=[[i, i + 1] for i in range(299)], seed=4)
    else:
        request = generate(1001, 2, 3, rounds=4 if kind == "swiss" else 0, byes=True, mode=kind)
    payload = json.dumps(request)
    runs = [run_cli(payload, env={"PYTHONHASHSEED": h}) for h in ("1", "2")]
    assert runs[0].returncode == 0, runs[0].stderr
    assert json.loads(runs[0].stdout)["tables"] == json.loads(runs[1].stdout)["tables"]
    assert json.loads(runs[0].stdout)["byes"] == json.loads(runs[1].stdout)["byes"]


# ---------------------------------------------------------------- rounds in a row
# These were checked through the database in test_round_seating.py; the
# algorithm's part of them is checked here, the service's (loading the
# request from the rows, saving the answer) stays there.


def _met_at(tables, round_no):
    return [[a, b, round_no] for t in tables for a, b in itertools.combinations(t, 2)]


def _round_two(n, size, scores_of_table, round_one, **kw):
    """Round 2 after ``round_one`` (tables of ids): each table's players get
    the scores ``scores_of_table(table, seat)``; ids not in ``round_one`` 0."""
    score = {p: scores_of_table(t, k) for t in round_one for k, p in enumerate(t)}
    players = sorted(
        ({"id": p, "score": score.get(p, 0)} for p in range(n)), key=lambda e: -e["score"]
    )
    return req(n, size, players=players, met=_met_at(round_one, 1), **kw)


def test_round_two_puts_the_leaders_together_without_repeats():
    # 24 players at six tables of 4 in round 1, ranked 3-2-1-0 at each table
    round_one = [list(range(k, k + 4)) for k in range(0, 24, 4)]
    request = _round_two(24, 4, lambda t, k: 3 - k, round_one, allowed_sizes=[3, 4, 5])
    a = seat(request)
    score = {p["id"]: p["score"] for p in request["players"]}
    assert pairs_of(a["tables"]).isdisjoint(pairs_of(round_one))
    assert a["stats"]["repeat_pairs"] == 0
    # table 1: four of the six winners; the last table: four who lost
    assert [score[p] for p in a["tables"][0]] == [3] * 4
    assert [score[p] for p in a["tables"][-1]] == [0] * 4
    assert a["stats"]["score_range_sum"] <= a["stats"]["score_range_chunking"] + 1e-9


def test_25_players_at_tables_of_3_to_5_sit_at_five_of_4_and_one_of_5():
    assert sorted(plan_sizes(25, [3, 4, 5], 4)[0]) == [4, 4, 4, 4, 4, 5]


def test_an_unavoidable_repeat_is_named_with_its_round():
    a = seat(req(4, 4, met=_met_at([[0, 1, 2, 3]], 1)))
    repeats = [w for w in a["reasons"][0] if w["code"] == "repeat"]
    assert len(repeats) == 6 and all(w["params"]["rounds"] == [1] for w in repeats)
    assert seat(req(4, 4))["reasons"] == [[]]


def test_a_small_table_that_breaks_the_rule_names_the_repeats_that_forced_it():
    # 7 players at tables of 3 and 4: round 1 had {0,1,2,3} and the small
    # table {4,5,6}. The rule gives the small table to three of 0-3, who all
    # met: the rule gives way, and the reason says so
    players = [{"id": p, "score": 7 - p, "small_tables": int(p >= 4)} for p in range(7)]
    a = seat(
        req(7, 4, players=players, met=_met_at([[0, 1, 2, 3], [4, 5, 6]], 1), allowed_sizes=[3, 4])
    )
    small = [x for x, t in enumerate(a["tables"]) if len(t) == 3]
    assert len(small) == 1
    assert "small_table_forced" in [w["code"] for w in a["reasons"][small[0]]]


def test_byes_rotate_over_five_rounds_of_a_two_player_game():
    players = [{"id": p, "score": 0, "byes": 0} for p in range(5)]
    met, had_bye = [], []
    for round_no in range(1, 6):
        a = seat(req(5, 2, players=players, met=met, byes=True, seed=round_no, round=round_no))
        assert len(a["byes"]) == 1 and all(len(t) == 2 for t in a["tables"])
        assert [w["params"]["player"] for w in a["bye_reasons"]] == a["byes"]
        had_bye += a["byes"]
        for p in players:
            p["byes"] += p["id"] in a["byes"]
        met += _met_at(a["tables"], round_no)
        # the winners of each table move up
        for t in a["tables"]:
            next(p for p in players if p["id"] == min(t))["score"] += 1
        players.sort(key=lambda e: -e["score"])
    assert sorted(had_bye) == [0, 1, 2, 3, 4]


def test_four_clubs_of_four_sit_apart():
    players = [
        {"id": p, "score": 0, "club": ["nord", "süd", "ost", "west"][p // 4]} for p in range(16)
    ]
    a = seat(req(16, 4, players=players, teams="apart", allowed_sizes=[3, 4, 5]))
    for t in a["tables"]:
        assert len({p // 4 for p in t}) == 4
    assert a["stats"]["apart_violations"] == 0


def test_players_moved_out_of_their_score_group_are_named():
    # round 1: table 1 tied (1.5 each), the others ranked 3-2-1-0. The top
    # group {3, 3, 3, 2} of round 2 would hold two players who met: someone moves
    round_one = [list(range(k, k + 4)) for k in range(0, 16, 4)]
    request = _round_two(16, 4, lambda t, k: 1.5 if t[0] == 0 else 3 - k, round_one)
    a = seat(request)
    assert a["stats"]["repeat_pairs"] == 0
    codes = [w["code"] for why in a["reasons"] for w in why]
    assert "moved_up" in codes and "moved_down" in codes


def test_team_partners_get_the_seats_the_game_gives_one_team():
    from tournaments.seating.order import team_seat_order

    team_of = {1: "a", 2: "b", 3: "a", 4: "b", 5: None}
    assert team_seat_order([1, 3, 2, 4], team_of, [[0, 2], [1, 3]]) == [1, 2, 3, 4]
    assert team_seat_order([1, 3, 2, 4], team_of, []) == [1, 3, 2, 4]
