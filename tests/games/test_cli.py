"""``python -m games``: list, simulate and check-sheet, run as a subprocess.

The real engines are tested as they are registered; the toy engine of
``test_base.py`` (registered in the child process before ``games.__main__``
runs) covers every path independently of them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from games import ENGINES

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# ``python -m games`` with the toy engine registered first (same code path: runpy)
TOY_MAIN = (
    "import runpy, games; from tests.games.test_base import TOY; "
    "games.ENGINES[TOY.id] = TOY; "
    "runpy.run_module('games', run_name='__main__', alter_sys=True)"
)


def run(*args: str, stdin: str = "", toy: bool = False) -> subprocess.CompletedProcess:
    prefix = [sys.executable, "-c", TOY_MAIN] if toy else [sys.executable, "-m", "games"]
    return subprocess.run(
        [*prefix, *map(str, args)],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )


def one_json_line(proc: subprocess.CompletedProcess):
    lines = proc.stdout.splitlines()
    assert len(lines) == 1, proc.stdout + proc.stderr
    return json.loads(lines[0])


SIM_KEYS = {
    "game",
    "players",
    "games",
    "mean_actions",
    "win_share",
    "win_share_by_bot",
    "actions_per_second",
}


def check_simulation(out: dict, game: str, players: int, games: int, bots: set[str]):
    assert set(out) >= SIM_KEYS
    assert (out["game"], out["players"], out["games"]) == (game, players, games)
    assert out["mean_actions"] > 0
    assert out["actions_per_second"] > 0
    assert len(out["win_share"]) == players
    assert all(0 <= w <= 1 for w in out["win_share"])
    assert sum(out["win_share"]) == pytest.approx(1, abs=1e-3)  # ties are split
    assert set(out["win_share_by_bot"]) == bots
    assert sum(out["win_share_by_bot"].values()) == pytest.approx(1, abs=1e-3)


# -- list ------------------------------------------------------------------------------


def test_list_prints_the_registered_engines():
    proc = run("list")
    assert proc.returncode == 0, proc.stderr
    ids = [line.split()[0] for line in proc.stdout.splitlines()]
    assert ids == list(ENGINES)
    proc = run("list", "--json")
    assert proc.returncode == 0, proc.stderr
    rows = one_json_line(proc)
    assert [r["id"] for r in rows] == list(ENGINES)
    for r in rows:
        engine = ENGINES[r["id"]]
        assert (r["min_players"], r["max_players"]) == (engine.min_players, engine.max_players)
        assert {"random", "smart"} <= set(r["bots"])


def test_list_with_the_toy_engine():
    proc = run("list", toy=True)
    assert proc.returncode == 0, proc.stderr
    assert any(line.split()[:2] == ["toy", "Toy"] for line in proc.stdout.splitlines())
    assert "2-4 players" in proc.stdout and "random, smart" in proc.stdout


def test_no_command_is_a_usage_error():
    proc = run()
    assert proc.returncode == 2 and "usage" in proc.stderr


# -- simulate (toy) ----------------------------------------------------------------------


def test_simulate_prints_one_json_line():
    proc = run("simulate", "toy", "--players", 3, "--games", 20, "--seed", 5, toy=True)
    assert proc.returncode == 0, proc.stderr
    out = one_json_line(proc)
    check_simulation(out, "toy", 3, 20, {"random"})
    assert out["mean_actions"] == 9  # 3 tricks of 3 cards
    assert out["win_share_by_bot"] == {"random": pytest.approx(1, abs=1e-3)}


def test_simulate_is_deterministic_for_a_seed():
    args = ("simulate", "toy", "--players", 2, "--games", 30, "--seed", 9)
    a, b = one_json_line(run(*args, toy=True)), one_json_line(run(*args, toy=True))
    c = one_json_line(run(*args[:-1], 10, toy=True))
    for out in (a, b, c):
        del out["actions_per_second"]
    assert a == b
    assert a["win_share"] != c["win_share"] or a["seed"] != c["seed"]


def test_simulate_splits_shared_wins():
    # 4 players, 3 tricks: first place is often shared, yet the shares sum to 1
    proc = run("simulate", "toy", "--players", 4, "--games", 40, "--seed", 1, toy=True)
    out = one_json_line(proc)
    check_simulation(out, "toy", 4, 40, {"random"})
    quarters = {round(w * 40 * 6) % 6 for w in out["win_share"]}  # 1/2 and 1/3 wins occur
    assert quarters != {0}


def test_simulate_with_a_bot_per_seat():
    proc = run(
        "simulate", "toy", "--players", 3, "--games", 50, "--seed", 1,
        "--bot", "smart", "--bot", "random", "--bot", "random", toy=True,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    out = one_json_line(proc)
    check_simulation(out, "toy", 3, 50, {"smart", "random"})
    by_bot = out["win_share_by_bot"]
    assert out["win_share"][0] == pytest.approx(by_bot["smart"], abs=1e-3)
    assert sum(out["win_share"][1:]) == pytest.approx(by_bot["random"], abs=1e-3)
    assert out["bots"] == ["smart", "random", "random"]


def test_simulate_with_one_bot_for_every_seat():
    proc = run("simulate", "toy", "--players", 2, "--games", 10, "--bot", "smart", toy=True)
    out = one_json_line(proc)
    check_simulation(out, "toy", 2, 10, {"smart"})
    assert out["bots"] == ["smart", "smart"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("simulate", "nope", "--players", 2), "unknown game"),
        (("simulate", "toy", "--players", 7), "2 to 4 players"),
        (("simulate", "toy", "--players", 1), "2 to 4 players"),
        (("simulate", "toy", "--players", 2, "--bot", "genius"), "unknown bot"),
        (("simulate", "toy", "--players", 3, "--bot", "smart", "--bot", "random"), "once"),
        (("simulate", "toy", "--players", 2, "--games", 0), "--games"),
        (("simulate", "toy", "--players", 2, "--options", "{bad"), "not JSON"),
        (("simulate", "toy", "--players", 2, "--options", "[1]"), "JSON object"),
        (("simulate", "toy"), "--players"),
        (("simulate", "toy", "--players", "two"), "invalid int"),
    ],
)
def test_simulate_usage_errors_exit_2(args, message):
    proc = run(*args, toy=True)
    assert proc.returncode == 2
    assert message in proc.stderr
    assert proc.stdout == ""


# -- check-sheet (toy) -------------------------------------------------------------------


def test_check_sheet_prints_the_table_result():
    sheet = {"s0_tricks": 1, "s1_tricks": "2", "s2_tricks": 0}
    proc = run("check-sheet", "toy", "--players", 3, stdin=json.dumps(sheet), toy=True)
    assert proc.returncode == 0, proc.stderr
    assert one_json_line(proc) == {
        "ranks": [2, 1, 3],
        "figures": [1, 2, 0],
        "details": {"rank_keys": [1, 2, 0]},
    }


def test_check_sheet_prints_every_problem_and_exits_1():
    sheet = {"s0_tricks": 9, "s1_tricks": "x", "extra": 1}
    proc = run("check-sheet", "toy", "--players", 3, stdin=json.dumps(sheet), toy=True)
    assert proc.returncode == 1, proc.stderr
    out = one_json_line(proc)
    got = {(p["code"], tuple(p["fields"])) for p in out["problems"]}
    assert got == {
        ("unknown_field", ("extra",)),
        ("too_large", ("s0_tricks",)),
        ("invalid", ("s1_tricks",)),
        ("missing", ("s2_tricks",)),
    }
    assert all(p["message"] for p in out["problems"])
    assert "Must be at most 3." in [p["message"] for p in out["problems"]]


def test_check_sheet_cross_field_problem():
    sheet = {"s0_tricks": 3, "s1_tricks": 1}
    proc = run("check-sheet", "toy", "--players", 2, stdin=json.dumps(sheet), toy=True)
    assert proc.returncode == 1
    [problem] = one_json_line(proc)["problems"]
    assert problem["code"] == "too_many_tricks"
    assert problem["fields"] == ["s0_tricks", "s1_tricks"]
    assert problem["message"] == "The tricks add up to 4, more than the 3 played."


def test_check_sheet_that_is_not_an_object_is_a_problem():
    proc = run("check-sheet", "toy", "--players", 2, stdin="[1, 2]", toy=True)
    assert proc.returncode == 1
    assert [p["code"] for p in one_json_line(proc)["problems"]] == ["not_a_sheet"]


@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (("check-sheet", "toy", "--players", 2), "{not json", "not JSON"),
        (("check-sheet", "toy", "--players", 2), "", "not JSON"),
        (("check-sheet", "nope", "--players", 2), "{}", "unknown game"),
        (("check-sheet", "toy", "--players", 9), "{}", "2 to 4 players"),
        (("check-sheet", "toy", "--players", 2, "--options", "nope"), "{}", "not JSON"),
    ],
)
def test_check_sheet_usage_errors_exit_2(args, stdin, message):
    proc = run(*args, stdin=stdin, toy=True)
    assert proc.returncode == 2
    assert message in proc.stderr
    assert proc.stdout == ""


def test_unknown_game_with_the_real_registry():
    proc = run("check-sheet", "no_such_game", "--players", 2, stdin="{}")
    assert proc.returncode == 2 and "unknown game" in proc.stderr
    proc = run("simulate", "no_such_game", "--players", 2)
    assert proc.returncode == 2 and "unknown game" in proc.stderr


# -- the registered engines ---------------------------------------------------------------

REAL = sorted(ENGINES)


@pytest.mark.parametrize("game", REAL)
def test_simulate_every_engine(game):
    engine = ENGINES[game]
    n = engine.min_players
    proc = run("simulate", game, "--players", n, "--games", 5, "--seed", 3)
    assert proc.returncode == 0, proc.stderr
    check_simulation(one_json_line(proc), game, n, 5, {"random"})
    bots = ["smart"] + ["random"] * (n - 1)
    proc = run(
        "simulate", game, "--players", n, "--games", 3, *[a for b in bots for a in ("--bot", b)]
    )
    assert proc.returncode == 0, proc.stderr
    check_simulation(one_json_line(proc), game, n, 3, set(bots))


@pytest.mark.parametrize("game", REAL)
def test_check_sheet_every_engine(game):
    engine = ENGINES[game]
    n = engine.max_players
    proc = run("check-sheet", game, "--players", n, stdin="{}")
    assert proc.returncode in (0, 1), proc.stderr
    out = one_json_line(proc)
    if proc.returncode == 0:
        assert len(out["ranks"]) == n
    else:
        assert out["problems"]
        for p in out["problems"]:
            assert isinstance(p["code"], str) and p["message"] and isinstance(p["fields"], list)
    proc = run("check-sheet", game, "--players", n, stdin="[]")
    assert proc.returncode == 1, proc.stderr
    assert one_json_line(proc)["problems"]
    proc = run("check-sheet", game, "--players", n, stdin="{")
    assert proc.returncode == 2 and proc.stdout == ""


def test_an_engine_failure_exits_3():
    # an engine whose check_sheet crashes
    code = TOY_MAIN.replace(
        "games.ENGINES[TOY.id] = TOY; ",
        "games.ENGINES[TOY.id] = TOY; TOY.check_sheet = lambda *a: 1 / 0; ",
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, "check-sheet", "toy", "--players", "2"],
        input="{}",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert proc.returncode == 3
    assert "ZeroDivisionError" in proc.stderr and proc.stdout == ""
