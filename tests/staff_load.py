"""Staff sessions writing at the same time, against a real server on the
embedded default (SQLite).

Shared by the CI test (``tests/tournaments/test_sqlite_staff.py``: 4 sessions,
~20 s) and the benchmark (``tests/bench/bench_sqlite_staff.py``: 8 sessions
beside 10 digital tables of bots, 2 minutes). Three steps:

1. :func:`prepare` — in a subprocess on the SQLite file (the calling process
   may be configured for PostgreSQL, as CI is): migrate, then a Quartett
   tournament whose round 1 has had time called, with scorekeepers, each of
   whom owns some players to check in and out and some tables to enter and
   correct (plus one table nobody enters, so the round never completes);
   optionally a second tournament whose digital tables only bots play, its
   round running. Answers the plan as JSON.
2. :class:`Staff` — one thread per scorekeeper, logged in on its own session,
   writing as fast as the server answers until the time is up: check in /
   undo the check-in (the htmx row, as the players page does), enter a
   table's first result, correct it (preview, then save with a reason). It
   notes every write the server acknowledged, every answer 5xx or
   unexpected, and the time of each storing request.
3. :func:`verify` — in a subprocess again: what the database holds (check-in
   events per player, result versions per table, bot moves), compared with
   what the sessions were told: a write acknowledged but missing is lost; a
   row beyond the acknowledged and the ambiguous (5xx) writes is a duplicate.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlencode

from tests import serverproc

ROOT = Path(__file__).resolve().parents[1]
PASSWORD = "staff-load-pass-1234"
SEATS = 4
IN_PLAY = 32  # Quartett for four with the default deck: every card in play
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
CHECKED = re.compile(r'name="checked" value="([^"]+)"')
EXPECTED = re.compile(r'name="expected_version"(?: value="(\d*)")?')


# -- the subprocess side ------------------------------------------------------------


def sqlite_env(var_dir: Path, **extra: str) -> dict[str, str]:
    """The environment ``make run`` gives its processes: no DATABASE_URL,
    REDIS_URL or CACHE_URL (CI sets them), so SQLite, the filesystem broker and
    the file cache, all in ``var_dir``."""
    drop = {"DATABASE_URL", "REDIS_URL", "CACHE_URL", "CELERY_BROKER_URL", "CONN_MAX_AGE"}
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env |= {
        "TURNIERLEITER_VAR": str(var_dir),
        "DJANGO_SETTINGS_MODULE": "tournaments.settings",
        "PYTHONPATH": str(ROOT),
        "LOG_LEVEL": env.get("LOG_LEVEL", "WARNING"),
    }
    return env | extra


def _run_step(env: dict, *args: str, stdin: str = "", timeout: float = 120) -> dict:
    return serverproc.run_step("tests.staff_load", env, *args, stdin=stdin, timeout=timeout)


def prepare(
    env: dict,
    *,
    sessions: int,
    players: int = 12,
    tables: int = 3,
    bot_tables: int = 0,
    bot_game: str = "trumpet",
) -> dict:
    """Migrate the SQLite file of ``env`` and build the event (see the module)."""
    return _run_step(
        env,
        "prepare",
        f"--sessions={sessions}",
        f"--players={players}",
        f"--tables={tables}",
        f"--bot-tables={bot_tables}",
        f"--bot-game={bot_game}",
    )


def verify(env: dict, plan: dict) -> dict:
    """What the database holds for the plan's players, tables and bots."""
    return _run_step(env, "verify", stdin=json.dumps(plan))


def _prepare(args) -> dict:
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from tests.factories import time_called_round
    from tournaments import services
    from tournaments.models import Player

    call_command("migrate", "--noinput", verbosity=0)
    User = get_user_model()
    owner = User.objects.create_user("load-orga", password=PASSWORD)
    tournament = services.tournament_create(owner=owner, name="Staff load", game="quartett")
    n_tables = args.sessions * args.tables + 1  # the last one is never entered
    time_called_round(tournament, n_tables, SEATS, published=True)
    plan = {"tournament": tournament.pk, "round": 1, "sessions": [], "bots": None}
    for s in range(args.sessions):
        user = User.objects.create_user(f"staff{s:02d}", password=PASSWORD)
        tournament.scorekeepers.add(user)
        door = Player.objects.bulk_create(
            Player(tournament=tournament, name=f"Nachzügler {s:02d}-{i:03d}")
            for i in range(args.players)
        )
        plan["sessions"].append(
            {
                "username": user.username,
                "players": [p.pk for p in door],
                "tables": [s * args.tables + k + 1 for k in range(args.tables)],
            }
        )
    if args.bot_tables:
        plan["bots"] = _bot_tournament(owner, args.bot_tables, args.bot_game)
    return plan


def _bot_tournament(owner, n_tables: int, game: str) -> dict:
    """Digital tables that only bots play, the round on the clock for an hour:
    the bots are woken through the broker, as a real round start does."""
    from tournaments import services
    from tournaments.models import Round, Seat, Table
    from tournaments.services import round_life

    tournament = services.tournament_create(
        owner=owner, name="Bots", game=game, digital_tables=True
    )
    rnd = Round.objects.create(tournament=tournament, number=1, minutes=60, published=True)
    tables = Table.objects.bulk_create(
        Table(round=rnd, number=n, digital=True, seed=7000 + n) for n in range(1, n_tables + 1)
    )
    players = [
        services.player_add(tournament=tournament, by=owner, name=f"Bot-Spieler {i:03d}")
        for i in range(n_tables * SEATS)
    ]
    Seat.objects.bulk_create(
        Seat(table=t, player=players[i * SEATS + pos], position=pos, bot=True)
        for i, t in enumerate(tables)
        for pos in range(SEATS)
    )
    round_life.round_start(round=rnd, by=owner)  # deals; wakes every table's first bot
    return {"tournament": tournament.pk, "tables": [t.pk for t in tables]}


def _verify(plan: dict) -> dict:
    import django

    django.setup()
    from django.db.models import Count

    from scoring.models import Submission
    from tournaments.models import Player, PlayerEvent, Table, TableAction

    ids = [p for s in plan["sessions"] for p in s["players"]]
    events = dict.fromkeys(map(str, ids), 0)
    for pid, n in (
        PlayerEvent.objects.filter(
            player_id__in=ids, kind__in=[PlayerEvent.CHECK_IN, PlayerEvent.CHECK_OUT]
        )
        .values_list("player_id")
        .order_by()
        .annotate(n=Count("pk"))
    ):
        events[str(pid)] = n
    checked_in = {
        str(pk): c for pk, c in Player.objects.filter(pk__in=ids).values_list("pk", "checked_in")
    }
    versions: dict[str, list[int]] = {}
    for number, version in Submission.objects.filter(
        table__round__tournament_id=plan["tournament"], table__round__number=plan["round"]
    ).values_list("table__number", "version"):
        versions.setdefault(str(number), []).append(version)
    confirmed = {
        str(number): n
        for number, n in Submission.objects.filter(
            table__round__tournament_id=plan["tournament"], status=Submission.CONFIRMED
        )
        .values_list("table__number")
        .order_by()
        .annotate(n=Count("pk"))
    }
    out = {
        "events": events,
        "checked_in": checked_in,
        "versions": {k: sorted(v) for k, v in versions.items()},
        "confirmed": confirmed,
        "bots": None,
    }
    if plan.get("bots"):
        tables = plan["bots"]["tables"]
        numbers: dict[int, list[int]] = {}
        for tid, number in TableAction.objects.filter(table_id__in=tables).values_list(
            "table_id", "number"
        ):
            numbers.setdefault(tid, []).append(number)
        out["bots"] = {
            "moves": sum(len(v) for v in numbers.values()),
            "tables_moving": len(numbers),
            # every move number once, no gap: each bot move stored exactly once
            "gapless": all(
                sorted(v) == list(range(min(v), min(v) + len(v))) for v in numbers.values()
            ),
            "done": Table.objects.filter(pk__in=tables, status=Table.DONE).count(),
        }
    return out


# -- the client side -------------------------------------------------------------------


class Client:
    """One browser: a keep-alive connection, its cookies, the CSRF header."""

    def __init__(self, port: int):
        self.port = port
        self.cookies: dict[str, str] = {}
        self.conn = self._connect()

    def _connect(self):
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)

    def request(self, method: str, path: str, data: dict | None = None, htmx: bool = False):
        headers = {"Host": f"127.0.0.1:{self.port}"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if "csrftoken" in self.cookies:
            headers["X-CSRFToken"] = self.cookies["csrftoken"]
            headers["Referer"] = f"http://127.0.0.1:{self.port}/"
        if htmx:
            headers["HX-Request"] = "true"
        body = None
        if data is not None:
            body = urlencode(data)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        for attempt in range(2):
            try:
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
                text = response.read().decode("utf-8", "replace")
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # a keep-alive connection the server closed meanwhile: a new
                # one (the request never reached a view)
                self.conn.close()
                self.conn = self._connect()
                if attempt:
                    raise
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key.strip()] = rest.split(";", 1)[0]
        return response.status, response.getheader("Location") or "", text

    def login(self, username: str) -> None:
        status, _, page = self.request("GET", "/accounts/login/")
        match = CSRF.search(page)
        if status != 200 or not match:
            raise RuntimeError(f"login page: {status}")
        data = {"username": username, "password": PASSWORD, "csrfmiddlewaretoken": match[1]}
        status, _, _ = self.request("POST", "/accounts/login/", data)
        if status != 302:
            raise RuntimeError(f"login of {username}: {status}")

    def close(self):
        self.conn.close()


def quartett_sheet(rng: random.Random) -> dict[str, str]:
    """A valid Quartett sheet for four: distinct card counts adding up to 32."""
    while True:
        cuts = sorted(rng.sample(range(1, IN_PLAY), SEATS - 1))
        counts = [b - a for a, b in zip([0, *cuts], [*cuts, IN_PLAY], strict=True)]
        if len(set(counts)) == SEATS:
            return {f"sheet-s{i}_cards": str(c) for i, c in enumerate(counts)}


@dataclass
class Tally:
    """What one session was told, per player and per table."""

    acked: dict[str, int] = field(default_factory=dict)  # writes answered as done
    ambiguous: dict[str, int] = field(default_factory=dict)  # 5xx / no answer

    def add(self, key, ok: bool):
        bucket = self.acked if ok else self.ambiguous
        bucket[str(key)] = bucket.get(str(key), 0) + 1


class Staff(threading.Thread):
    """One scorekeeper at work until ``until`` (time.monotonic)."""

    def __init__(self, port: int, plan: dict, index: int, until: float, seed: int = 0):
        super().__init__(daemon=True)
        self.port, self.until = port, until
        self.me = plan["sessions"][index]
        self.base = f"/tournaments/{plan['tournament']}"
        self.round = plan["round"]
        self.rng = random.Random(seed * 1000 + index)
        self.checkins, self.results = Tally(), Tally()
        self.write_seconds: list[float] = []
        self.requests = 0
        self.failures: list[str] = []  # 5xx and connection errors
        self.unexpected: list[str] = []  # any other answer a working site doesn't give
        self.fatal: str | None = None
        self.state = dict.fromkeys(self.me["players"], False)  # checked in?
        self.version = dict.fromkeys(self.me["tables"], None)  # latest version
        self.retired: set[int] = set()  # players whose state a 5xx left unknown

    def run(self):
        client = Client(self.port)
        try:
            client.login(self.me["username"])
            while time.monotonic() < self.until:
                if self.rng.random() < 0.5:
                    self.check_in(client)
                else:
                    self.result(client)
        except Exception as exc:  # reported by the caller
            self.fatal = f"{type(exc).__name__}: {exc}"
        finally:
            client.close()

    def _send(self, client, method, path, data=None, htmx=False):
        self.requests += 1
        try:
            return client.request(method, path, data, htmx=htmx)
        except (OSError, http.client.HTTPException) as exc:
            return 599, "", f"{type(exc).__name__}: {exc}"

    def _bad(self, method, path, status, page) -> None:
        line = f"{method} {path} -> {status}: {_gist(page)}"
        (self.failures if status >= 500 else self.unexpected).append(line)

    def check_in(self, client):
        free = [p for p in self.me["players"] if p not in self.retired]
        if not free:
            return
        pid = self.rng.choice(free)
        verb = "check-out" if self.state[pid] else "check-in"
        path = f"{self.base}/players/{pid}/{verb}/"
        start = time.perf_counter()
        status, _, page = self._send(client, "POST", path, {}, htmx=True)
        self.write_seconds.append(time.perf_counter() - start)
        if status == 200:
            self.state[pid] = not self.state[pid]
            self.checkins.add(pid, True)
        else:
            self._bad("POST", path, status, page)
            if status >= 500:
                self.checkins.add(pid, False)
                self.retired.add(pid)

    def result(self, client):
        number = self.rng.choice(self.me["tables"])
        path = f"{self.base}/rounds/{self.round}/tables/{number}/result/"
        version = self.version[number]
        data = {
            **quartett_sheet(self.rng),
            "expected_version": "" if version is None else str(version),
            "via": "form",
            "action": "save",
        }
        if version is not None:  # a correction: its preview first, then save with a reason
            status, _, page = self._send(client, "POST", path, data)
            token = CHECKED.search(page) if status == 200 else None
            if token is None:
                self._bad("POST", path + " (preview)", status, page)
                self._resync(client, path, number)
                return
            data |= {"checked": token[1], "reason": "Zahlendreher auf dem Bogen"}
        start = time.perf_counter()
        status, location, page = self._send(client, "POST", path, data)
        self.write_seconds.append(time.perf_counter() - start)
        if status == 302:
            self.results.add(number, True)
            self.version[number] = (version or 0) + 1
            status, _, page = self._send(client, "GET", location)  # the page after a save
            if status != 200:
                self._bad("GET", location, status, page)
            return
        self._bad("POST", path, status, page)
        if status >= 500:
            self.results.add(number, False)
        self._resync(client, path, number)

    def _resync(self, client, path, number) -> None:
        """After a failure: the latest version as the form shows it now."""
        status, _, page = self._send(client, "GET", path)
        match = EXPECTED.search(page) if status == 200 else None
        if match is None:
            self._bad("GET", path, status, page)
            return
        self.version[number] = int(match[1]) if match[1] else None


def _gist(page: str) -> str:
    """The exception line of an error page, else its start."""
    for pattern in (r"<title>([^<]*)</title>", r'exception_value">([^<]*)<'):
        found = re.search(pattern, page)
        if found and found[1].strip():
            return " ".join(found[1].split())[:160]
    return " ".join(page.split())[:160]


def run_staff(port: int, plan: dict, seconds: float, seed: int = 0) -> list[Staff]:
    until = time.monotonic() + seconds
    staff = [Staff(port, plan, i, until, seed) for i in range(len(plan["sessions"]))]
    for s in staff:
        s.start()
    for s in staff:
        s.join(seconds + 120)
    return staff


def compare(staff: list[Staff], stored: dict) -> dict:
    """The sessions' account against the database's."""
    lost = duplicated = ambiguous_stored = acked = 0
    stored_rows = {
        "checkins": stored["events"],
        "results": {k: len(v) for k, v in stored["versions"].items()},
    }
    for tally, rows in stored_rows.items():
        tallies: list[Tally] = [getattr(s, tally) for s in staff]
        for key in {k for t in tallies for k in (*t.acked, *t.ambiguous)}:
            ok = sum(t.acked.get(key, 0) for t in tallies)
            unsure = sum(t.ambiguous.get(key, 0) for t in tallies)
            have = rows.get(key, 0)
            acked += ok
            lost += max(0, ok - have)
            duplicated += max(0, have - ok - unsure)
            ambiguous_stored += min(unsure, max(0, have - ok))
    # a table counts one confirmed version at most
    duplicated += sum(max(0, n - 1) for n in stored["confirmed"].values())
    seconds = sorted(x for s in staff for x in s.write_seconds)

    def pct(q):
        return seconds[min(len(seconds) - 1, int(q * len(seconds)))] * 1000 if seconds else 0.0

    return {
        "sessions": len(staff),
        "requests": sum(s.requests for s in staff),
        "writes": len(seconds),
        "acked": acked,
        "errors_5xx": sum(len(s.failures) for s in staff),
        "unexpected": sum(len(s.unexpected) for s in staff),
        "fatal": [s.fatal for s in staff if s.fatal],
        "lost": lost,
        "duplicated": duplicated,
        "failed_but_stored": ambiguous_stored,
        "p50_ms": pct(0.50),
        "p95_ms": pct(0.95),
        "max_ms": seconds[-1] * 1000 if seconds else 0.0,
        "samples": [line for s in staff for line in (s.failures + s.unexpected)][:8],
    }


def main(argv: list[str]) -> None:
    import argparse

    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="step", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("--sessions", type=int, required=True)
    p.add_argument("--players", type=int, default=12)
    p.add_argument("--tables", type=int, default=3)
    p.add_argument("--bot-tables", type=int, default=0)
    p.add_argument("--bot-game", default="trumpet")
    sub.add_parser("verify")
    args = parser.parse_args(argv)
    out = _prepare(args) if args.step == "prepare" else _verify(json.load(sys.stdin))
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1:])
