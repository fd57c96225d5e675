"""Follow from home with two real instances on this machine: the online site
(uvicorn and a Celery worker, PostgreSQL ``turnierleiter_mirror_online`` or ``MIRROR_ONLINE_DB``, Redis db 14
or ``MIRROR_ONLINE_REDIS``) and the laptop as ``make run`` runs it (uvicorn,
a Celery worker and beat on SQLite and the filesystem broker). The laptop
fetches the registrations, plays two rounds through its services, and the
online public pages follow; the online site is stopped for part of round 2
and everything arrives, in order and once, when it is back."""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from tests import serverproc, staff_load
from tests.conftest import missing_service
from tournaments.management.commands.runall import web_command

ROOT = Path(__file__).resolve().parents[2]
PORTS = range(18600, 18700)
PLAYERS = 12
CATCH_UP = 30.0


def _online_urls() -> tuple[str, str]:
    base = os.environ.get("DATABASE_URL", "")
    redis = os.environ.get("REDIS_URL", "")
    if not base.startswith("postgres") or not redis:
        missing_service("PostgreSQL and Redis for the online instance (DATABASE_URL, REDIS_URL)")
    db = os.environ.get("MIRROR_ONLINE_DB", "turnierleiter_mirror_online")
    server = base.rsplit("/", 1)[0]
    return f"{server}/{db}", os.environ.get("MIRROR_ONLINE_REDIS", redis.rsplit("/", 1)[0] + "/14")


def _fresh_database(url: str) -> None:
    import psycopg

    server, name = url.rsplit("/", 1)
    with psycopg.connect(server + "/postgres", autocommit=True) as conn:
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", [name]
        )
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')


def _step(env: dict, *args: str) -> dict:
    return serverproc.run_step("tests.mirror_e2e", env, *args)


def _start(cmd: list[str], env: dict, log: Path) -> subprocess.Popen:
    return serverproc.start(cmd, env, log, mode="ab")


def _versions(laptop_db: Path, online_url: str) -> tuple[tuple, tuple]:
    """(laptop version, published version), (online version, publications)."""
    import psycopg

    with sqlite3.connect(laptop_db, timeout=20) as db:
        laptop = db.execute(
            "SELECT version, published_version FROM tournaments_mirrorpublication"
        ).fetchone()
    with psycopg.connect(online_url) as conn:
        online = conn.execute(
            "SELECT version, publications FROM tournaments_mirroredtournament"
        ).fetchone()
    return laptop or (0, 0), online or (0, 0)


def _caught_up(laptop_db: Path, online_url: str, seconds: float) -> float | None:
    """Seconds until the online site holds the laptop's latest version (None:
    not within ``seconds``)."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < seconds:
        (version, published), (online, _count) = _versions(laptop_db, online_url)
        if version and version == published == online:
            return time.monotonic() - t0
        time.sleep(0.25)
    return None


def _standings_text(port: int, tournament: int) -> list[str]:
    status, body, _ = serverproc.get(port, f"/t/{tournament}/standings/")
    assert status == 200
    rows = re.findall(r"<tr[^>]*>(.*?)</tr>", body.decode(), re.S)
    cells = [re.sub(r"<[^>]+>", " ", r) for r in rows]
    return [" ".join(c.split()) for c in cells]


def _same_public_pages(laptop: dict, online: dict) -> None:
    assert online["hashes"] == laptop["hashes"]
    assert online["standings"] == laptop["standings"]
    assert online["deadlines"] == laptop["deadlines"]
    assert online["seated"] == laptop["seated"]


def test_the_laptop_publishes_live_and_catches_up_after_an_outage(tmp_path):
    online_url, online_redis = _online_urls()
    _fresh_database(online_url)
    import redis

    redis.Redis.from_url(online_redis).flushdb()
    online_env = staff_load.sqlite_env(tmp_path / "online") | {
        "DATABASE_URL": online_url,
        "REDIS_URL": online_redis,
        "DEBUG": "1",
        "LOG_LEVEL": "WARNING",
    }
    (tmp_path / "online").mkdir()
    laptop_var = tmp_path / "laptop"
    laptop_env = staff_load.sqlite_env(laptop_var) | {"DEBUG": "1", "TURNIERLEITER_LAPTOP": "1"}
    online_port = serverproc.free_port(PORTS)
    online_web = web_command(f"127.0.0.1:{online_port}")
    procs: list[subprocess.Popen] = []
    try:
        setup = _step(online_env, "online-setup", str(PLAYERS))
        web = _start(online_web, online_env, tmp_path / "online.log")
        procs.append(web)
        # the online site's worker: it applies the publications its web process accepts
        online_celery = [sys.executable, "-m", "celery", "-A", "tournaments.celery"]
        procs.append(
            _start(
                [*online_celery, "worker", "--loglevel=WARNING", "--concurrency=1", "-Q", "celery"],
                online_env,
                tmp_path / "online-worker.log",
            )
        )
        serverproc.wait_until_up(online_port, web, path="/accounts/login/")
        # down before the day: the registrations, fetched twice
        site = f"http://127.0.0.1:{online_port}"
        laptop = _step(laptop_env, "laptop-setup", site, setup["key"], str(setup["tournament"]))
        assert laptop["imported"] == PLAYERS - 1  # the withdrawn entry is not added
        assert laptop["new_on_second_fetch"] == 0
        assert laptop["known_on_second_fetch"] == PLAYERS - 1
        t = laptop["tournament"]
        # the laptop as make run runs it
        laptop_port = serverproc.free_port(range(online_port + 1, PORTS.stop))
        celery = [sys.executable, "-m", "celery", "-A", "tournaments.celery"]
        for cmd, log in [
            (web_command(f"127.0.0.1:{laptop_port}"), "laptop-web.log"),
            (
                [*celery, "worker", "--loglevel=WARNING", "--concurrency=2", "-Q", "celery,clock"],
                "worker.log",
            ),
            (
                [*celery, "beat", "--loglevel=WARNING", "--schedule", str(laptop_var / "beat")],
                "beat.log",
            ),
        ]:
            procs.append(_start(cmd, laptop_env, tmp_path / log))
        serverproc.wait_until_up(laptop_port, procs[-3], path="/accounts/login/")
        laptop_db = laptop_var / "turnierleiter.sqlite3"

        # round 1, played to the end: the online pages follow within seconds
        _step(laptop_env, "round", "--results")
        assert _caught_up(laptop_db, online_url, CATCH_UP) is not None, "round 1 not published"
        _same_public_pages(_step(laptop_env, "laptop-state"), _step(online_env, "online-state"))

        # round 2 starts; then the venue's internet fails for part of it
        _step(laptop_env, "round")
        assert _caught_up(laptop_db, online_url, CATCH_UP) is not None, "round 2 not published"
        online = _step(online_env, "online-state")
        _same_public_pages(_step(laptop_env, "laptop-state"), online)
        page = f"/t/{t}/rounds/2/"
        before = serverproc.page_time(laptop_port, page, times=10)
        serverproc.stop(web)
        _step(laptop_env, "clock")
        _step(laptop_env, "results", "2")
        offline = serverproc.page_time(laptop_port, page, times=10)
        time.sleep(3)  # the worker and the sweep try meanwhile
        state = _step(laptop_env, "laptop-state")
        assert state["state"] == "offline" and state["waiting"] >= 2, state
        assert "can't be reached" in state["last_error"]
        _step(laptop_env, "results", "99", "--end")
        waiting = _step(laptop_env, "laptop-state")["waiting"]

        # the internet is back
        web = _start(online_web, online_env, tmp_path / "online.log")
        procs.append(web)
        serverproc.wait_until_up(online_port, web, path="/accounts/login/")
        took = _caught_up(laptop_db, online_url, CATCH_UP)
        assert took is not None, f"not caught up within {CATCH_UP} s"
        final_laptop = _step(laptop_env, "laptop-state")
        final_online = _step(online_env, "online-state")
        _same_public_pages(final_laptop, final_online)
        assert (
            final_laptop["statuses"]
            == final_online["statuses"]
            == {
                "1": "complete",
                "2": "complete",
            }
        )
        assert final_laptop["state"] == "online" and final_laptop["waiting"] == 0
        # in order and once: every publication applied had a newer version
        assert final_online["version"] == final_laptop["version"]
        assert final_online["publications"] <= final_laptop["version"]
        names = [row[3] for row in final_online["seated"]]
        assert len(names) == 2 * len(set(names))  # each player once a round
        assert _standings_text(online_port, final_online["tournament"]) == _standings_text(
            laptop_port, t
        )
        # the laptop's pages answered as fast while the site was down
        assert offline <= max(2 * before, before + 0.25), (before, offline)
        print(
            f"\nmirror e2e: page {before * 1000:.0f} ms before, {offline * 1000:.0f} ms offline; "
            f"{waiting} changes waited; caught up {took:.1f} s after the site was back; "
            f"{final_online['publications']} publications applied for version "
            f"{final_online['version']}"
        )
    finally:
        for proc in reversed(procs):
            serverproc.stop(proc)
