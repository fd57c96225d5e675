"""Bot tables (request ``bots``, digital tables): the players the allowed sizes
leave over sit at one table whose empty seats the game's bot plays. Without a
database: planning, who sits there, the answer, drafts, bad requests."""

import itertools
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.examples import examples
from tournaments.seating import (
    SeatingError,
    add_late_arrival,
    bot_seats,
    plan_bot_table,
    plan_sizes,
    reseat_after_drop,
    seat,
)

ROOT = Path(__file__).resolve().parents[2]


def request(n, allowed, preferred=None, **kw):
    players = kw.pop("players", None) or [{"id": p, "score": n - p} for p in range(n)]
    return {
        "players": players,
        "met": kw.pop("met", []),
        "table_size": preferred or allowed[0],
        "allowed_sizes": allowed,
        "bots": True,
        "mode": "swiss",
        "seed": 1,
        **kw,
    }


def everyone(answer):
    bot = answer["bot_table"]["players"] if answer["bot_table"] else []
    return sorted([p for t in answer["tables"] for p in t] + bot + answer["byes"])


def bot_reason(answer):
    (r,) = [r for r in answer["bot_table"]["reasons"] if r["code"] == "bot_table"]
    return r["params"]


# ---------------------------------------------------------------- planning


def test_bot_seats_fill_up_to_the_next_allowed_size():
    assert bot_seats(4, [4]) == 0
    assert bot_seats(2, [4]) == 2
    assert bot_seats(1, [4]) == 3
    assert bot_seats(3, [4, 5]) == 1
    assert bot_seats(4, [3, 5]) == 1
    assert bot_seats(1, [2, 3]) == 1
    assert bot_seats(6, [4, 5]) is None
    assert bot_seats(0, [3]) == 3


@pytest.mark.parametrize(
    ("n", "allowed", "preferred", "sizes", "at_bot", "seats"),
    [
        (70, [4], 4, [4] * 17, 2, 4),  # 17 tables of 4, 2 players + 2 bots
        (11, [4, 5], 4, [4, 4], 3, 4),  # 3 players + 1 bot
        (7, [2], 2, [2, 2, 2], 1, 2),  # three pairs, 1 player + 1 bot
        (2, [4], 4, [], 2, 4),  # only the bot table
        (7, [3, 4, 5], 4, [4, 3], 0, 0),  # fits: no bot table
        (1, [4], 4, [], 1, 4),  # one player against three bots
    ],
)
def test_the_plan_leaves_the_fewest_bot_seats(n, allowed, preferred, sizes, at_bot, seats):
    assert plan_bot_table(n, allowed, preferred) == (sizes, at_bot, seats)
    answer = seat(request(n, allowed, preferred))
    assert sorted(len(t) for t in answer["tables"]) == sorted(sizes)
    assert answer["stats"]["bot_seats"] == seats - at_bot
    assert answer["byes"] == [] and everyone(answer) == list(range(n))
    if at_bot:
        bot = answer["bot_table"]
        assert len(bot["players"]) == at_bot and bot["seats"] == seats
        assert bot_reason(answer)["bots"] == seats - at_bot
    else:
        assert answer["bot_table"] is None


def test_without_bots_the_answer_has_no_bot_table():
    answer = seat({**request(8, [4]), "bots": False})
    assert answer["bot_table"] is None and answer["stats"]["bot_seats"] == 0


# ---------------------------------------------------------------- who sits there


def test_swiss_the_lowest_among_those_with_the_fewest_bot_tables():
    players = [{"id": p, "score": 70 - p, "bot_tables": int(p >= 68)} for p in range(70)]
    answer = seat(request(70, [4], players=players))
    bot = answer["bot_table"]
    assert sorted(bot["players"]) == [66, 67]
    params = bot_reason(answer)
    assert params == {"players": bot["players"], "bots": 2, "had": 0, "rule": "standings"}
    # the same ids in the same seat order in the reason and the table
    assert set(bot["players"]).isdisjoint(p for t in answer["tables"] for p in t)


def _play(tables, scores, rng):
    for t in tables:
        for place, p in enumerate(sorted(t, key=lambda p: rng.random())):
            scores[p] += len(t) - 1 - place


def test_over_rounds_nobody_gets_a_second_bot_table_while_somebody_has_none():
    # 10 players at tables of 4: two at the bot table each round; after five
    # rounds each of them had exactly one
    rng = random.Random(10)
    n = 10
    scores = dict.fromkeys(range(n), 0)
    had = dict.fromkeys(range(n), 0)
    met = []
    for rnd in range(1, 6):
        order = sorted(range(n), key=lambda p: (-scores[p], p))
        players = [{"id": p, "score": scores[p], "bot_tables": had[p]} for p in order]
        mode = "random" if rnd == 1 else "swiss"
        answer = seat(request(n, [4], players=players, met=met, mode=mode, seed=rnd))
        at_bot = answer["bot_table"]["players"]
        assert len(at_bot) == 2 and answer["byes"] == []
        others = [p for t in answer["tables"] for p in t]
        assert max(had[p] for p in at_bot) <= min(had[p] for p in others)
        if mode == "swiss":  # among equals, the lowest in the standings
            pos = {p: k for k, p in enumerate(order)}
            for p in at_bot:
                for q in others:
                    assert had[q] > had[p] or pos[q] < pos[p]
        for p in at_bot:
            had[p] += 1
        for t in [*answer["tables"], at_bot]:
            met += [[a, b, rnd] for a, b in itertools.combinations(t, 2)]
        _play(answer["tables"], scores, rng)
    assert set(had.values()) == {1}


def test_random_mode_draws_among_those_with_the_fewest_bot_tables():
    fresh = {0, 3, 7, 10}
    players = [{"id": p, "score": 0, "bot_tables": 0 if p in fresh else 1} for p in range(11)]
    picks = set()
    for seed in range(12):
        answer = seat(request(11, [4], players=players, mode="random", seed=seed))
        at_bot = answer["bot_table"]["players"]
        assert len(at_bot) == 3 and set(at_bot) <= fresh
        assert bot_reason(answer)["rule"] == "drawn"
        picks.add(frozenset(at_bot))
    assert len(picks) > 1  # drawn by the seed, not always the same three


@pytest.mark.parametrize("mode", ["rating_swiss", "rating_spread"])
def test_rating_modes_the_lowest_rated_among_the_fewest(mode):
    players = [
        {"id": p, "score": 0, "rating": 1000 - 10 * p, "bot_tables": int(p == 5)} for p in range(6)
    ]
    answer = seat(request(6, [4], players=players, mode=mode))
    assert sorted(answer["bot_table"]["players"]) == [3, 4]
    assert sorted(answer["tables"][0]) == [0, 1, 2, 5]
    assert bot_reason(answer)["rule"] == "rating"
    assert answer["stats"]["bot_seats"] == 2


@pytest.mark.parametrize("mode", ["swiss", "random", "mixing", "rating_spread", "rating_swiss"])
def test_everyone_once_and_no_byes_even_when_byes_are_asked_for(mode):
    for n in range(1, 26):
        for allowed in ([2], [4], [3, 4], [4, 5], [5, 6]):
            r = request(n, allowed, byes=True, mode=mode, rounds=4, round=2)
            answer = seat(r)
            assert answer["byes"] == [] and answer["bye_reasons"] == []
            assert everyone(answer) == list(range(n)), (n, allowed)
            assert all(len(t) in allowed for t in answer["tables"])


def test_planned_mixing_plans_the_players_outside_the_bot_table():
    r = request(18, [4], mode="mixing", rounds=3, round=1, seed=5)
    answer = seat(r)
    assert answer["stats"]["planned"] and len(answer["bot_table"]["players"]) == 2
    assert everyone(answer) == list(range(18))


def test_team_partners_split_by_the_bot_table_say_so():
    # 5 players at tables of 4 with partners 3 and 4: the lowest goes to the
    # bot table (fewest bot tables, lowest in the standings), its partner not
    players = [{"id": p, "score": 5 - p} for p in range(5)]
    players[3]["team"] = players[4]["team"] = "T"
    players[4]["bot_tables"] = 1
    players[2]["bot_tables"] = 1
    players[1]["bot_tables"] = 1
    players[0]["bot_tables"] = 1
    answer = seat(request(5, [4], players=players, teams="together"))
    assert answer["bot_table"]["players"] == [3]
    assert "team_split" in {r["code"] for r in answer["reasons"][0]}
    assert "team_split" in {r["code"] for r in answer["bot_table"]["reasons"]}


# ---------------------------------------------------------------- property


@st.composite
def bot_fields(draw):
    allowed = sorted(draw(st.sets(st.integers(2, 6), min_size=1, max_size=3)))
    preferred = draw(st.sampled_from(allowed))
    n = draw(st.integers(1, 80))
    seed = draw(st.integers(0, 10**6))
    rng = random.Random(seed)
    players = [
        {
            "id": p,
            "score": rng.choice([0, 1, 2, 3]),
            "bot_tables": rng.choice([0, 0, 1, 2]),
            "rating": 2000 - p,
        }
        for p in range(n)
    ]
    players.sort(key=lambda p: -p["score"])
    met = []
    pool = list(range(n))
    rng.shuffle(pool)
    for x in range(0, n - preferred + 1, preferred):
        met += [[a, b, 1] for a, b in itertools.combinations(pool[x : x + preferred], 2)]
    mode = draw(st.sampled_from(["swiss", "swiss", "random", "mixing", "rating_swiss"]))
    return request(n, allowed, preferred, players=players, met=met, mode=mode, seed=seed)


def _fits(m, allowed, preferred):
    if m == 0:
        return True
    try:
        plan_sizes(m, allowed, preferred, False)
    except SeatingError:
        return False
    return True


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bot_fields())
def test_bot_tables_seat_everyone_once_with_the_fewest_bot_seats(r):
    n, allowed, preferred = len(r["players"]), r["allowed_sizes"], r["table_size"]
    answer = seat(r)
    assert everyone(answer) == sorted(p["id"] for p in r["players"])
    assert answer["byes"] == []
    assert all(len(t) in allowed for t in answer["tables"])
    bot = answer["bot_table"]
    if _fits(n, allowed, preferred):
        assert bot is None and answer["stats"]["bot_seats"] == 0
        return
    assert bot is not None
    b, seats = len(bot["players"]), bot["seats"]
    assert seats in allowed and seats - b >= 1
    assert answer["stats"]["bot_seats"] == seats - b
    # brute force: every b that leaves the others seatable, and its bot seats
    valid = {
        k: min(s for s in allowed if s >= k) - k
        for k in range(1, n + 1)
        if any(s >= k for s in allowed) and _fits(n - k, allowed, preferred)
    }
    assert b in valid and seats - b == min(valid.values())
    others = sorted((len(t) for t in answer["tables"]), reverse=True)
    assert others == (plan_sizes(n - b, allowed, preferred)[0] if n > b else [])
    # the rule: fewest bot tables first, then (swiss) the lowest in the standings
    info = {p["id"]: p for p in r["players"]}
    pos = {p["id"]: k for k, p in enumerate(r["players"])}
    seated = [p for t in answer["tables"] for p in t]
    for p in bot["players"]:
        for q in seated:
            assert info[q]["bot_tables"] >= info[p]["bot_tables"]
            if r["mode"] == "swiss" and info[q]["bot_tables"] == info[p]["bot_tables"]:
                assert pos[q] < pos[p]
            if r["mode"] == "rating_swiss" and info[q]["bot_tables"] == info[p]["bot_tables"]:
                assert info[q]["rating"] > info[p]["rating"]
    params = bot_reason(answer)
    assert params["players"] == bot["players"] and params["bots"] == seats - b
    assert params["had"] == min(info[p]["bot_tables"] for p in bot["players"])
    # a repeat at the bot table is said, like at any table
    codes = {w["code"] for w in bot["reasons"]}
    met = {frozenset(m[:2]) for m in r["met"]}
    if any(frozenset(pq) in met for pq in itertools.combinations(bot["players"], 2)):
        assert "repeat" in codes


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(bot_fields(), st.data())
def test_a_drop_and_a_late_arrival_keep_everyone_seated_with_bots(r, data):
    assume(len(r["players"]) >= 2)  # the last player's drop leaves no round
    # the web side adds the bot table as the last table of the draft
    answer = seat(r)
    tables = {k + 1: t for k, t in enumerate(answer["tables"])}
    if answer["bot_table"]:
        tables[len(tables) + 1] = answer["bot_table"]["players"]
    ids = [p["id"] for p in r["players"]]
    dropped = data.draw(st.sampled_from(ids))
    left = {
        **r,
        "players": [p for p in r["players"] if p["id"] != dropped],
        "met": [m for m in r["met"] if dropped not in m[:2]],
    }
    after = reseat_after_drop(r, tables, [], dropped)
    _check_draft(left, after)
    # a drop never moves anybody with bots: the others sit where they sat
    new = dict(after["tables"])
    assert all(new.get(n) == t for n, t in tables.items() if dropped not in t)
    joined = {**left, "players": [*left["players"], {"id": 999, "score": 0}]}
    late = add_late_arrival(joined, new, [], 999)  # with bots there is always a place
    _check_draft(joined, late)


def _check_draft(r, change):
    allowed = r["allowed_sizes"]
    seated = sorted(p for _n, t in change["tables"] for p in t)
    assert seated == sorted(p["id"] for p in r["players"]) and change["byes"] == []
    for n, t in change["tables"]:
        found = {w["code"] for w in change["reasons"][n]}
        if len(t) in allowed:
            assert not found & {"bot_table", "bot_table_changed", "short_table"}
        else:
            assert bot_seats(len(t), allowed) and found & {"bot_table", "bot_table_changed"}
            assert "short_table" not in found


# ---------------------------------------------------------------- drafts


def draft_request(n, allowed, bots=True, **kw):
    return {**request(n, allowed, **kw), "bots": bots}


def codes(change, number):
    return [r["code"] for r in change["reasons"][number]]


def test_a_late_arrival_takes_a_bot_seat():
    tables = {1: [0, 1, 2, 3], 2: [4, 5, 6, 7], 3: [8, 9]}
    out = add_late_arrival(draft_request(11, [4]), tables, [], 10)
    new = dict(out["tables"])
    assert new == {1: [0, 1, 2, 3], 2: [4, 5, 6, 7], 3: [8, 9, 10]}
    assert out["changed"] == [3] and out["detail"]["bots"] == 1
    assert out["reasons"][3] == [{"code": "bot_table_changed", "params": {"bots": 1}}]


def test_a_late_arrival_goes_to_the_table_with_the_most_bot_seats():
    # tables of 4 or 6: table 1 (5 players, 1 bot) is nearest in score, but
    # table 3 (2 players, 2 bots) has the most bot seats
    tables = {1: [0, 1, 2, 3, 4], 2: [5, 6, 7, 8], 3: [9, 10]}
    r = draft_request(12, [4, 6], preferred=4)
    r["players"][11]["score"] = 100
    out = add_late_arrival(r, tables, [], 11)
    assert dict(out["tables"])[3] == [9, 10, 11] and out["changed"] == [3]


def test_a_late_arrival_among_equal_bot_tables_avoids_a_repeat():
    tables = {1: [0, 1], 2: [2, 3], 3: [4, 5, 6, 7]}
    r = draft_request(9, [4], met=[(8, 0)])
    out = add_late_arrival(r, tables, [], 8)
    assert dict(out["tables"])[2] == [2, 3, 8] and out["changed"] == [2]


def test_a_late_arrival_with_no_bot_seat_free_uses_the_old_rules_then_a_table_of_their_own():
    tables = {1: [0, 1, 2, 3], 2: [4, 5, 6]}
    out = add_late_arrival(draft_request(8, [3, 4], preferred=4), tables, [], 7)
    assert dict(out["tables"])[2] == [4, 5, 6, 7]  # a small table grows, as without bots
    full = {1: [0, 1, 2, 3], 2: [4, 5, 6, 7]}
    with pytest.raises(SeatingError) as exc:
        add_late_arrival(draft_request(9, [4], bots=False), full, [], 8)
    assert exc.value.code == "no_place"
    out = add_late_arrival(draft_request(9, [4]), full, [], 8)
    assert dict(out["tables"]) == {**full, 3: [8]} and out["detail"]["bots"] == 3
    assert codes(out, 3) == ["bot_table_changed"]


def test_with_bots_a_late_arrival_in_a_two_player_game_gets_no_bye():
    out = add_late_arrival(draft_request(5, [2], byes=True), {1: [0, 1], 2: [2, 3]}, [], 4)
    assert out["byes"] == [] and dict(out["tables"])[3] == [4]


def test_a_drop_from_a_bot_table_changes_nothing_else():
    tables = {1: [0, 1, 2, 3], 2: [4, 5, 6, 7], 3: [8, 9]}
    earlier = {3: [{"code": "bot_table", "params": {}}]}
    out = reseat_after_drop(draft_request(10, [4]), tables, [], 9, earlier)
    assert dict(out["tables"]) == {1: [0, 1, 2, 3], 2: [4, 5, 6, 7], 3: [8]}
    assert out["changed"] == [3] and out["removed"] == []
    assert out["reasons"][3] == [{"code": "bot_table_changed", "params": {"bots": 3}}]
    # the last player of a bot table leaves: the table goes
    out = reseat_after_drop(draft_request(10, [4]), {**tables, 3: [9]}, [], 9)
    assert out["removed"] == [3] and dict(out["tables"]) == {1: tables[1], 2: tables[2]}


def test_a_drop_from_a_full_table_with_bots_leaves_the_seat_to_the_bot():
    # without bots a player of the table of 5 moves over; with bots nobody does
    tables = {1: [0, 1, 2, 3], 2: [4, 5, 6, 7], 3: [8, 9, 10, 11, 12]}
    old = reseat_after_drop(draft_request(13, [4, 5], bots=False), tables, [], 4, {3: []})
    assert old["detail"]["moved"] == {"player": 8, "from": 3} and old["changed"] == [2, 3]
    earlier = {1: [], 2: [], 3: [{"code": "bot_table", "params": {"bots": 1}}]}
    out = reseat_after_drop(draft_request(13, [4, 5]), tables, [], 4, earlier)
    assert dict(out["tables"]) == {1: tables[1], 2: [5, 6, 7], 3: tables[3]}
    assert out["changed"] == [2] and out["detail"]["bots"] == 1
    assert out["detail"]["resolved"] is True
    assert codes(out, 2) == ["bot_table_changed"] and codes(out, 1) == []


def test_an_unchanged_bot_table_keeps_its_reason():
    answer = seat(request(10, [4]))
    tables = {k + 1: t for k, t in enumerate(answer["tables"])}
    tables[3] = answer["bot_table"]["players"]
    earlier = {k + 1: w for k, w in enumerate(answer["reasons"])}
    earlier[3] = answer["bot_table"]["reasons"]
    dropped = tables[1][0]
    out = reseat_after_drop(draft_request(10, [4]), tables, [], dropped, earlier)
    assert dict(out["tables"])[3] == tables[3] and 3 not in out["changed"]
    assert out["reasons"][3] == answer["bot_table"]["reasons"]
    assert codes(out, 1) == ["bot_table_changed"]


def test_without_bots_a_short_table_stays_short():
    tables = {1: [0, 1, 2], 2: [3, 4, 5]}
    r = draft_request(6, [3], bots=False)
    out = reseat_after_drop(r, tables, [], 0)
    assert codes(out, 1) == ["short_table"] and out["detail"]["resolved"] is False
    out = reseat_after_drop({**r, "bots": True}, tables, [], 0)
    assert codes(out, 1) == ["bot_table_changed"] and out["detail"]["bots"] == 1


# ---------------------------------------------------------------- bad requests


@pytest.mark.parametrize("bots", ["yes", 1, 0, [], {}])
def test_bots_must_be_a_bool(bots):
    with pytest.raises(SeatingError) as exc:
        seat({**request(8, [4]), "bots": bots})
    assert exc.value.code == "bad_request"


@pytest.mark.parametrize("had", [-1, "2", 1.5, True])
def test_bot_tables_must_be_a_count(had):
    players = [{"id": p, "score": 0} for p in range(8)]
    players[3]["bot_tables"] = had
    with pytest.raises(SeatingError) as exc:
        seat(request(8, [4], players=players))
    assert exc.value.code == "bad_request"


def test_with_bots_one_player_is_enough_but_none_is_not():
    assert seat(request(1, [5]))["bot_table"]["seats"] == 5
    with pytest.raises(SeatingError) as exc:
        seat(request(0, [4]))
    assert exc.value.code == "too_few_players"
    assert exc.value.params == {"players": 0, "minimum": 1}
    with pytest.raises(SeatingError) as exc:
        seat({**request(1, [4]), "bots": False})
    assert exc.value.params == {"players": 1, "minimum": 4}


def test_the_command_line_seats_a_bots_request():
    p = subprocess.run(
        [sys.executable, "-m", "tournaments.seating"],
        input=json.dumps(request(11, [4, 5], preferred=4)),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert p.returncode == 0, p.stderr
    answer = json.loads(p.stdout)
    assert len(answer["bot_table"]["players"]) == 3 and answer["bot_table"]["seats"] == 4
    assert answer["stats"]["bot_seats"] == 1
