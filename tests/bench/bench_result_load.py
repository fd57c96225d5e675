"""Result entry under load: ``python tests/bench/bench_result_load.py``.

What it does:

1. (Re-)creates the PostgreSQL database ``bench_results`` (server from
   ``BENCH_PG``, default ``postgres://postgres@127.0.0.1:5432/postgres``) and
   migrates it.
2. Seats a Quartett tournament directly in the database: one round (time
   called) with ``--tables`` tables of four (default 120) and ten scorekeepers.
3. Starts gunicorn (gthread workers) against that database.
4. Logs the scorekeepers in (CSRF token from the login form, session cookie),
   loads every table's result form (its CSRF cookie and version), then fires:
   - phase A: 100 submissions for 100 different tables at the same moment
     (threads released by one barrier);
   - phase B: the remaining tables, each saved by two scorekeepers at the
     same moment from the same starting version (one must win, the other
     get the conflict page).
5. Reports p50/p95/max latency of the POSTs and checks the database: every
   accepted submission stored and confirmed exactly once (zero lost), no
   table with two confirmed results or more rows than accepted saves (zero
   duplicated), every refused save answered with the conflict (409), and the
   round completed once every table had its result.

Exit code 0 when nothing was lost or duplicated. ``--keep`` leaves the
database for inspection.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode, urlparse

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
VENV_BIN = ROOT / ".venv" / "bin"
DB_NAME = "bench_results"
PASSWORD = "bench-pass-12345"
PLAYERS = 4
IN_PLAY = 32  # Quartett, space deck, four players: no card set aside


# -- database and server ------------------------------------------------------


def recreate_database(server_url: str) -> str:
    import psycopg

    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {DB_NAME}")
    u = urlparse(server_url)
    return u._replace(path=f"/{DB_NAME}").geturl()


def drop_database(server_url: str) -> None:
    import psycopg

    with psycopg.connect(server_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB_NAME} WITH (FORCE)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_gunicorn(env: dict, port: int, workers: int, threads: int, log: Path):
    cmd = [
        str(VENV_BIN / "gunicorn"),
        "tournaments.wsgi:application",
        "--bind",
        f"127.0.0.1:{port}",
        "--worker-class",
        "gthread",
        "--workers",
        str(workers),
        "--threads",
        str(threads),
        "--backlog",
        "512",
        "--log-level",
        "warning",
    ]
    out = open(log, "w")  # noqa: SIM115 - lives as long as the server
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/accounts/login/")
            if conn.getresponse().status == 200:
                return proc
        except OSError:
            time.sleep(0.2)
        if proc.poll() is not None:
            break
    proc.terminate()
    raise SystemExit(f"gunicorn did not start; see {log}")


# -- seating ------------------------------------------------------------------


def seat_tournament(tables: int, keepers: int):
    """Users, a Quartett tournament and one round of ``tables`` tables (time
    called, so the last result completes the round)."""
    from django.contrib.auth import get_user_model

    from tests.factories import time_called_round
    from tournaments import services

    User = get_user_model()
    owner = User.objects.create_user("bench-orga", password=PASSWORD)
    tournament = services.tournament_create(owner=owner, name="Lasttest", game="quartett")
    names = []
    for i in range(keepers):
        user = User.objects.create_user(f"keeper{i:02d}", password=PASSWORD)
        tournament.scorekeepers.add(user)
        names.append(user.username)
    rnd = time_called_round(tournament, tables, PLAYERS)
    return tournament, rnd, names


def random_sheet(rng: random.Random) -> dict:
    """A valid Quartett sheet for four: distinct card counts adding up to 32."""
    while True:
        cuts = sorted(rng.sample(range(1, IN_PLAY), PLAYERS - 1))
        counts = [b - a for a, b in zip([0, *cuts], [*cuts, IN_PLAY], strict=True)]
        if len(set(counts)) == PLAYERS:
            return {f"s{i}_cards": c for i, c in enumerate(counts)}


# -- a tiny HTTP client (stdlib only) -------------------------------------------


class Session:
    def __init__(self, port: int):
        self.port = port
        self.cookies: dict[str, str] = {}
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def clone(self) -> Session:
        other = Session(self.port)
        other.cookies = dict(self.cookies)
        return other

    def request(self, method: str, path: str, data: dict | None = None):
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if data is not None:
            body = urlencode(data)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        for attempt in range(2):
            try:
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
                content = response.read().decode()
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
                if attempt:
                    raise
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name.strip()] = rest.split(";", 1)[0]
        return response.status, response.getheader("Location"), content

    def login(self, username: str) -> None:
        status, _, page = self.request("GET", "/accounts/login/")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        status, location, _ = self.request(
            "POST",
            "/accounts/login/",
            {"username": username, "password": PASSWORD, "csrfmiddlewaretoken": token},
        )
        if status != 302:
            raise SystemExit(f"login of {username} failed ({status})")


class Job:
    """One submission: load the form (not timed), then POST it (timed)."""

    def __init__(self, session: Session, path: str, sheet: dict, table: int):
        self.session, self.path, self.sheet, self.table = session, path, sheet, table
        self.status = None
        self.seconds = None
        self.error = None
        self.data = None
        self.page = None

    def prepare(self) -> None:
        status, _, page = self.session.request("GET", self.path)
        if status != 200:
            raise RuntimeError(f"GET {self.path}: {status}")
        token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
        version = re.search(r'name="expected_version"(?: value="(\d*)")?', page).group(1) or ""
        self.data = {
            "csrfmiddlewaretoken": token,
            "expected_version": version,
            "via": "form",
            "action": "save",
            **{f"sheet-{k}": str(v) for k, v in self.sheet.items()},
        }

    def fire(self) -> None:
        start = time.perf_counter()
        try:
            self.status, _, self.page = self.session.request("POST", self.path, self.data)
        except Exception as exc:  # a failed request is a reported outcome
            self.error = repr(exc)
        self.seconds = time.perf_counter() - start


def run_phase(jobs: list[Job]) -> float:
    """Prepare every job, then release all POSTs together; wall time of the POSTs."""
    for job in jobs:
        job.prepare()
    barrier = threading.Barrier(len(jobs) + 1)

    def worker(job):
        barrier.wait()
        job.fire()

    threads = [threading.Thread(target=worker, args=(j,)) for j in jobs]
    for t in threads:
        t.start()
    barrier.wait()
    start = time.perf_counter()
    for t in threads:
        t.join()
    return time.perf_counter() - start


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[k]


def summary(jobs: list[Job], wall: float) -> dict:
    ms = [j.seconds * 1000 for j in jobs if j.seconds is not None]
    counts: dict[str, int] = {}
    for j in jobs:
        key = str(j.status) if j.error is None else "error"
        counts[key] = counts.get(key, 0) + 1
    return {
        "requests": len(jobs),
        "statuses": counts,
        "p50_ms": round(statistics.median(ms), 1),
        "p95_ms": round(percentile(ms, 95), 1),
        "max_ms": round(max(ms), 1),
        "wall_s": round(wall, 2),
        "per_second": round(len(jobs) / wall, 1),
    }


# -- checking the database -----------------------------------------------------


def verify(rnd, jobs: list[Job]) -> dict:
    from scoring.models import Submission

    by_table: dict[int, list[Job]] = {}
    for job in jobs:
        by_table.setdefault(job.table, []).append(job)
    rows: dict[int, list] = {}
    for number, status, sheet in Submission.objects.filter(table__round=rnd).values_list(
        "table__number", "status", "sheet"
    ):
        rows.setdefault(number, []).append((status, sheet))
    lost, duplicated, wrong = [], [], []
    for number, table_jobs in by_table.items():
        accepted = [j for j in table_jobs if j.status == 302]
        stored = rows.get(number, [])
        confirmed = [sheet for status, sheet in stored if status == Submission.CONFIRMED]
        if len(confirmed) > 1 or len(stored) > len(accepted):
            duplicated.append(number)
        if any(j.sheet not in [sheet for _s, sheet in stored] for j in accepted):
            lost.append(number)
        if not accepted or len(confirmed) != 1 or len(stored) != len(accepted):
            wrong.append(number)
        refused = [j for j in table_jobs if j.status != 302]
        if any(
            j.status != 409 or "saved version 1 of this table" not in (j.page or "")
            for j in refused
        ):
            wrong.append(number)
    rnd.refresh_from_db()
    return {
        "tables": len(by_table),
        "lost": lost,
        "duplicated": duplicated,
        "unexpected": sorted(set(wrong)),
        "round_status": rnd.status,
    }


# -- main ----------------------------------------------------------------------


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=120)
    parser.add_argument("--concurrent", type=int, default=100)
    parser.add_argument("--keepers", type=int, default=10)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--solo", type=int, default=20, help="sequential baseline requests")
    parser.add_argument("--keep", action="store_true", help="keep the bench database")
    args = parser.parse_args()
    if args.tables <= args.concurrent:
        parser.error("--tables must exceed --concurrent (phase B uses the rest)")

    server = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432/postgres")
    db_url = recreate_database(server)
    env = {
        **os.environ,
        "DATABASE_URL": db_url,
        "DJANGO_SETTINGS_MODULE": "tournaments.settings",
        "DEBUG": "1",
        "CONN_MAX_AGE": "60",
        "LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(ROOT),
    }
    subprocess.run(
        [str(VENV_BIN / "python"), "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    os.environ.update(env)
    import django

    django.setup()
    _tournament, rnd, keepers = seat_tournament(args.tables, args.keepers)
    base = f"/tournaments/{rnd.tournament_id}/rounds/1/tables/"

    port = free_port()
    log = Path(tempfile.gettempdir()) / "bench_result_load.gunicorn.log"
    server_proc = start_gunicorn(env, port, args.workers, args.threads, log)
    rng = random.Random(args.seed)
    try:
        sessions = []
        for name in keepers:
            s = Session(port)
            s.login(name)
            sessions.append(s)
        # phase A: one submission per table, all at once
        jobs_a = [
            Job(sessions[i % len(sessions)].clone(), f"{base}{n}/result/", random_sheet(rng), n)
            for i, n in enumerate(range(1, args.concurrent + 1))
        ]
        wall_a = run_phase(jobs_a)
        # baseline: the same kind of request one at a time (a correction of a
        # table from phase A, checked and saved), for the service time alone
        solo = []
        for job in jobs_a[: args.solo]:
            again = Job(job.session, job.path, job.sheet, job.table)
            again.prepare()
            again.data["action"] = "check"
            again.fire()
            again.data["checked"] = re.search(r'name="checked" value="([^"]+)"', again.page).group(
                1
            )
            again.data["action"] = "save"
            again.data["reason"] = "bench"
            again.fire()
            solo.append(again)
        # phase B: two scorekeepers save each remaining table at the same moment
        jobs_b = []
        for i, n in enumerate(range(args.concurrent + 1, args.tables + 1)):
            for k in range(2):
                session = sessions[(2 * i + k) % len(sessions)].clone()
                jobs_b.append(Job(session, f"{base}{n}/result/", random_sheet(rng), n))
        wall_b = run_phase(jobs_b)

        from django.db import connection

        connection.close()
        report = {
            "server": f"gunicorn gthread {args.workers} workers x {args.threads} threads, "
            f"PostgreSQL, {os.cpu_count()} CPUs",
            "phase_a_one_per_table": summary(jobs_a, wall_a),
            "phase_b_two_per_table": summary(jobs_b, wall_b),
            "one_at_a_time_correction_save": summary(solo, sum(j.seconds for j in solo)),
            "check": verify(rnd, jobs_a + jobs_b + solo),
        }
    finally:
        server_proc.terminate()
        server_proc.wait(timeout=30)
    print(json.dumps(report, indent=2))
    check = report["check"]
    ok = not check["lost"] and not check["duplicated"] and not check["unexpected"]
    ok = ok and check["round_status"] == "complete"
    print(
        f"p95 {report['phase_a_one_per_table']['p95_ms']} ms for {args.concurrent} concurrent "
        f"submissions; lost {len(check['lost'])}, duplicated {len(check['duplicated'])}, "
        f"unexpected {len(check['unexpected'])}; round {check['round_status']}"
        f" -> {'OK' if ok else 'FAILED'}"
    )
    if not args.keep:
        from django.db import connections

        connections.close_all()
        drop_database(server)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
