"""Seating properties, without a database: every reason a table
carries is true of the data, small tables and byes are fair unless a named
constraint forces otherwise, and table numbers follow the standings. Random
fields with history, drops and late entries, tables of 2–6 and mixed sizes."""

import itertools
import random

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.examples import examples
from tournaments.seating import (
    SeatingError,
    add_late_arrival,
    move_player,
    reseat_after_drop,
    seat,
    swap_players,
)

# ---------------------------------------------------------------- the data


@st.composite
def fields(draw):
    """A request after some rounds: players who dropped appear only in the
    history, late entries have none."""
    preferred = draw(st.integers(2, 6))
    extra = draw(st.sets(st.integers(2, 6), max_size=2))
    allowed = sorted({preferred, *extra})
    n = draw(st.integers(max(min(allowed), 3), 36))
    seed = draw(st.integers(0, 10**6))
    rng = random.Random(seed)
    everyone = list(range(n + 4))  # 4 more who dropped
    late = set(rng.sample(range(n), k=min(3, n // 5)))
    met = []
    for rnd in range(1, draw(st.integers(0, 3)) + 1):
        pool = [p for p in everyone if p not in late]
        rng.shuffle(pool)
        k = preferred
        for x in range(0, len(pool) - k + 1, k):
            met += [[a, b, rnd] for a, b in itertools.combinations(pool[x : x + k], 2)]
    clubs = "ABC"
    players = []
    for p in range(n):
        players.append(
            {
                "id": p,
                "score": 0 if p in late else rng.choice([0, 0.5, 1, 2, 3, 3, 4]),
                "small_tables": 0 if p in late else rng.choice([0, 0, 1, 2]),
                "byes": 0 if p in late else rng.choice([0, 0, 1]),
                "club": rng.choice(clubs) if rng.random() < 0.5 else None,
                "seat_history": [],
            }
        )
    players.sort(key=lambda p: -p["score"])
    here = {p["id"] for p in players}
    teams = draw(st.sampled_from([None, "apart", "together"]))
    if teams is not None:
        for p in players:  # partners 0-1, 2-3, ... (some play alone)
            if p["id"] % 5 != 4:
                p["team"] = f"T{p['id'] // 2}"
    return {
        "players": players,
        "met": [m for m in met if m[0] in here and m[1] in here],
        "table_size": preferred,
        "allowed_sizes": allowed,
        "byes": 2 in allowed,
        "mode": draw(st.sampled_from(["swiss", "swiss", "random", "mixing"])),
        "teams": teams,
        "seed": seed,
    }


def _feasible(request):
    from tournaments.seating import SeatingError, plan_sizes

    try:
        plan_sizes(
            len(request["players"]),
            request["allowed_sizes"],
            request["table_size"],
            request["byes"],
        )
    except SeatingError:
        return False
    return True


# ---------------------------------------------------------------- the claims


class Field:
    def __init__(self, request, tables, byes):
        self.req = request
        self.pos = {p["id"]: k for k, p in enumerate(request["players"])}
        self.player = {p["id"]: p for p in request["players"]}
        self.tables = tables
        self.byes = byes
        self.met = {}
        for m in request["met"]:
            key = frozenset(m[:2])
            self.met.setdefault(key, []).append(m[2] if len(m) > 2 else None)
        self.preferred = request["table_size"]
        self.seated = [p for t in tables for p in t]

    def score(self, p):
        return self.player[p]["score"]

    def rule_pick(self, candidates, k, key):
        """The k candidates with the fewest ``key``, then the lowest in the standings."""
        ranked = sorted(candidates, key=lambda p: (self.player[p].get(key, 0), -self.pos[p]))
        return set(ranked[:k])

    def small_players(self):
        return [p for t in self.tables if len(t) < self.preferred for p in t]

    def groups(self):
        desc = sorted((self.score(p) for p in self.seated), reverse=True)
        out, x = [], 0
        for t in self.tables:
            out.append((desc[x], desc[x + len(t) - 1]))
            x += len(t)
        return out


def check_reason(f: Field, number: int, table: list, reason: dict):
    """Assert what the reason says of table ``number`` (0-based) is true."""
    code, p = reason["code"], reason["params"]
    here = set(table)
    if code in ("repeat", "repeat_manual"):
        assert {p["a"], p["b"]} <= here
        rounds = f.met.get(frozenset((p["a"], p["b"])))
        assert rounds and len(rounds) == p["times"]
        assert sorted({r for r in rounds if r is not None}) == p["rounds"]
    elif code == "mates_together":
        assert {p["a"], p["b"]} <= here and f.req["teams"] == "apart"
        key = "club" if p["kind"] == "club" else "team"
        assert f.player[p["a"]].get(key) == f.player[p["b"]].get(key) == p["value"]
    elif code in ("moved_up", "moved_down"):
        assert p["player"] in here and f.req["mode"] == "swiss"
        hi, lo = f.groups()[number]
        assert (p["high"], p["low"]) == (hi, lo) and p["score"] == f.score(p["player"])
        assert p["score"] < lo if code == "moved_up" else p["score"] > hi
    elif code in ("small_table", "small_table_forced", "small_table_changed"):
        assert len(table) == p["size"] < p["preferred"] == f.preferred
        assert sorted(p["had"]) == sorted([q, f.player[q].get("small_tables", 0)] for q in table)
        small = f.small_players()
        if f.req["mode"] == "swiss":
            pick = f.rule_pick(f.seated, len(small), "small_tables")
            outside = [q for q in table if q not in pick]
        else:  # drawn among those who had the fewest
            top = sorted(f.player[q].get("small_tables", 0) for q in f.seated)[len(small) - 1]
            outside = [q for q in table if f.player[q].get("small_tables", 0) > top]
        full = [q for t in f.tables if len(t) >= f.preferred for q in t]
        if full:  # who had more small tables than somebody at a full table
            fewest = min(f.player[q].get("small_tables", 0) for q in full)
            outside = [q for q in table if q in outside or f.player[q]["small_tables"] > fewest]
        if code == "small_table":
            assert outside == [] and p["rule"] == (
                "standings" if f.req["mode"] == "swiss" else "drawn"
            )
        else:
            assert sorted(p["players"]) == sorted(outside) and outside
        if code == "small_table_forced":
            assert p["constraints"] and set(p["constraints"]) <= {"repeats", "apart", "teams"}
            if "repeats" in p["constraints"]:
                assert f.met
            if "apart" in p["constraints"]:
                assert f.req["teams"] == "apart"
    elif code == "team_split":
        assert f.req["teams"] == "together"
        mates = [q for q in f.player if f.player[q].get("team") == p["team"]]
        assert sorted(p["players"]) == sorted(q for q in table if q in mates)
        assert any(q not in here for q in mates if q in f.seated)
    elif code == "large_table":
        assert len(table) == p["size"] > p["preferred"] == f.preferred
    elif code == "short_table":
        assert len(table) == p["size"] and p["size"] not in p["sizes"]
    else:
        raise AssertionError(f"unknown reason {code}")


def check_answer(request, answer):
    f = Field(request, answer["tables"], answer["byes"])
    ids = sorted(p["id"] for p in request["players"])
    assert sorted(f.seated + f.byes) == ids
    for x, (t, reasons) in enumerate(zip(answer["tables"], answer["reasons"], strict=True)):
        for r in reasons:
            check_reason(f, x, t, r)
        # a broken preference always has its reason
        codes = {r["code"] for r in reasons}
        for a, b in itertools.combinations(t, 2):
            if frozenset((a, b)) in f.met:
                assert codes & {"repeat", "repeat_manual"}
        if len(t) < f.preferred:
            assert codes & {
                "small_table",
                "small_table_forced",
                "small_table_changed",
                "short_table",
            }
    # table numbers follow the standings: the best player of table k is above
    # the best player of table k + 1
    best = [min(f.pos[p] for p in t) for t in answer["tables"]]
    assert best == sorted(best)
    return f


def check_fairness(request, answer):
    """No second small table or bye while an eligible player has fewer, and
    (swiss) among equals the lowest, unless the reason names a constraint."""
    f = Field(request, answer["tables"], answer["byes"])
    forced = {
        q
        for reasons in answer["reasons"]
        for r in reasons
        if r["code"] == "small_table_forced"
        for q in r["params"]["players"]
    }
    small = set(f.small_players())
    big = [q for t in f.tables if len(t) >= f.preferred for q in t]
    swiss = request["mode"] == "swiss"
    for p in small - forced:
        for q in big:
            had_p, had_q = f.player[p]["small_tables"], f.player[q]["small_tables"]
            assert had_q >= had_p, (p, q)
            if swiss and had_q == had_p and not forced:
                assert f.pos[q] < f.pos[p], (p, q)
    for p in f.byes:
        for q in f.seated:
            assert f.player[q]["byes"] >= f.player[p]["byes"]
            if swiss and f.player[q]["byes"] == f.player[p]["byes"]:
                assert f.pos[q] < f.pos[p]
    for r in answer["bye_reasons"]:
        assert r["params"]["player"] in f.byes
        assert r["params"]["count"] == f.player[r["params"]["player"]]["byes"]


# ---------------------------------------------------------------- the properties


@settings(max_examples=examples(120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fields())
def test_every_reason_is_true_and_small_tables_are_fair(request_):
    assume(_feasible(request_))
    answer = seat(request_)
    check_answer(request_, answer)
    check_fairness(request_, answer)


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fields(), st.data())
def test_reasons_stay_true_after_a_drop_and_a_late_arrival(request_, data):
    assume(_feasible(request_))
    assume(len(request_["players"]) >= 2 * max(request_["allowed_sizes"]))
    answer = seat(request_)
    tables = {k + 1: t for k, t in enumerate(answer["tables"])}
    everyone = [p["id"] for p in request_["players"]]
    dropped = data.draw(st.sampled_from(everyone))
    after = reseat_after_drop(request_, tables, answer["byes"], dropped)
    left = {
        **request_,
        "players": [p for p in request_["players"] if p["id"] != dropped],
        "met": [m for m in request_["met"] if dropped not in m[:2]],
    }
    _check_change(left, after)
    newcomer = {"id": 10_000, "score": 0, "small_tables": 0, "byes": 0, "seat_history": []}
    joined = {**left, "players": [*left["players"], newcomer]}
    try:
        late = add_late_arrival(joined, dict(after["tables"]), after["byes"], 10_000)
    except SeatingError as exc:
        assert exc.code == "no_place"
        return
    _check_change(joined, late)
    assert 10_000 in {p for _n, t in late["tables"] for p in t} | set(late["byes"])


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fields(), st.data())
def test_reasons_stay_true_after_a_swap_and_a_move_by_hand(request_, data):
    # a change by hand takes the same path as a drop or a late arrival: the
    # draft's reasons stay true, a repeat it makes is the organizer's
    assume(_feasible(request_))
    answer = seat(request_)
    tables = {k + 1: t for k, t in enumerate(answer["tables"])}
    everyone = [p["id"] for p in request_["players"]]
    a, b = data.draw(st.lists(st.sampled_from(everyone), min_size=2, max_size=2, unique=True))
    try:
        swapped = swap_players(request_, tables, answer["byes"], a, b)
    except SeatingError as exc:
        assert exc.code == "both_on_bye" and {a, b} <= set(answer["byes"])
        return
    _check_change(request_, swapped)
    made = [r for n in swapped["changed"] for r in swapped["reasons"][n] if r["code"] == "repeat"]
    assert not [r for r in made if {r["params"]["a"], r["params"]["b"]} & {a, b}]
    mover = data.draw(st.sampled_from(everyone))
    to = data.draw(st.sampled_from([n for n, _t in swapped["tables"]]))
    try:
        moved = move_player(request_, dict(swapped["tables"]), swapped["byes"], mover, to)
    except SeatingError as exc:
        assert exc.code in ("same_table", "size_not_allowed")
        return
    _check_change(request_, moved)
    assert dict(moved["tables"])[to][-1] == mover


def _check_change(request, change):
    tables = [t for _n, t in change["tables"]]
    f = Field(request, tables, change["byes"])
    assert sorted(f.seated + f.byes) == sorted(p["id"] for p in request["players"])
    allowed = request["allowed_sizes"]
    for x, (n, t) in enumerate(change["tables"]):
        reasons = change["reasons"][n]
        for r in reasons:
            check_reason(f, x, t, r)
        if len(t) not in allowed:
            assert "short_table" in {r["code"] for r in reasons}


# ---------------------------------------------------------------- a club's field


def _play(tables, scores, rng):
    for t in tables:
        order = sorted(t, key=lambda p: rng.random())
        for place, p in enumerate(order):
            scores[p] += len(t) - 1 - place


def test_seventy_players_at_tables_of_four_and_three_over_three_rounds():
    # a reported field: 70 players of Quartett at tables of 4 with some of 3; round 3
    # keeps club-mates apart. Round 2 once put the leader at a table of 3 while
    # its reason said "the lowest in the standings"; round 3 gave second small
    # tables while 14 players had none; table 6 held 1-point players below
    # tables of 0-point players.
    rng = random.Random(70)
    n = 70
    clubs = {p: f"Club {p % 9}" for p in range(n)}
    scores = dict.fromkeys(range(n), 0)
    small_had = dict.fromkeys(range(n), 0)
    met = []
    for rnd in (1, 2, 3):
        order = sorted(range(n), key=lambda p: (-scores[p], p))
        request = {
            "players": [
                {"id": p, "score": scores[p], "small_tables": small_had[p], "club": clubs[p]}
                for p in order
            ],
            "met": met,
            "table_size": 4,
            "allowed_sizes": [3, 4],
            "mode": "random" if rnd == 1 else "swiss",
            "teams": "apart" if rnd == 3 else None,
            "seed": rnd,
            "round": rnd,
        }
        answer = seat(request)
        check_answer(request, answer)
        check_fairness(request, answer)
        sizes = sorted(len(t) for t in answer["tables"])
        assert sizes == [3, 3] + [4] * 16
        small = [p for t in answer["tables"] if len(t) == 3 for p in t]
        if rnd == 2:
            assert order[0] not in small  # the leader plays at a full table
            assert set(small) == set(order[-6:])  # nobody had one: the bottom six
        if rnd == 3:
            none_yet = [p for p in range(n) if small_had[p] == 0]
            assert len(none_yet) == 58
            forced = [
                r for rs in answer["reasons"] for r in rs if r["code"] == "small_table_forced"
            ]
            assert all(small_had[p] == 0 for p in small) or forced
            assert answer["stats"]["repeat_pairs"] == 0
        # score groups: no table holds players who all score more than a table above
        tops = [max(scores[p] for p in t) for t in answer["tables"]]
        assert tops == sorted(tops, reverse=True)
        for t in answer["tables"]:
            met += [[a, b, rnd] for a, b in itertools.combinations(t, 2)]
            if len(t) == 3:
                for p in t:
                    small_had[p] += 1
        _play(answer["tables"], scores, rng)
