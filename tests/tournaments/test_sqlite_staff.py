"""Staff at work at the same time on the embedded default: the web
server ``make run`` starts (``runall.web_command``), on a fresh SQLite file
migrated first, with four scorekeepers writing at once for 20 s — check-ins
and their undo, first results, corrections — answers no page 5xx, and every
write it acknowledged is stored exactly once. (CI sets DATABASE_URL to
PostgreSQL; the server runs without it, as ``make run`` does.)
``tests/bench/bench_sqlite_staff.py`` is the long version: eight sessions
beside ten digital tables of bots, for two minutes."""

import sqlite3
import subprocess
from pathlib import Path

from tests import serverproc, staff_load
from tournaments.management.commands.runall import web_command

ROOT = Path(__file__).resolve().parents[2]
PORTS = range(18540, 18550)
SESSIONS = 4
SECONDS = 20


def free_port() -> int:
    return serverproc.free_port(PORTS)


def test_four_scorekeepers_writing_at_once_on_sqlite_get_no_error_and_lose_nothing(tmp_path):
    env = staff_load.sqlite_env(tmp_path)
    plan = staff_load.prepare(env, sessions=SESSIONS)  # migrates the fresh file first
    port = free_port()
    log = tmp_path / "web.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            web_command(f"127.0.0.1:{port}"),
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        try:
            serverproc.wait_until_up(port, proc, path="/accounts/login/", seconds=30, log=log)
            staff = staff_load.run_staff(port, plan, SECONDS)
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
    result = staff_load.compare(staff, staff_load.verify(env, plan))
    seen = "\n".join(result["samples"] + result["fatal"]) + "\n" + log.read_text()[-2000:]

    assert not result["fatal"], seen
    assert result["errors_5xx"] == 0, seen
    assert result["unexpected"] == 0, seen
    assert result["lost"] == 0 and result["duplicated"] == 0, result
    # everyone got work done: check-ins and results from every session
    for s in staff:
        assert s.checkins.acked and s.results.acked, (s.me["username"], result)
    # the fresh file was migrated into the WAL journal
    db = sqlite3.connect(tmp_path / "turnierleiter.sqlite3")
    try:
        assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    finally:
        db.close()
