"""Players registering on the club's hosted site: ``python tests/bench/bench_registrations.py``.

The production configuration — the web server as ``docker/Dockerfile``
starts it, PostgreSQL, Redis (cache), DEBUG off, behind the TLS proxy — on a
loopback port of 18500-18599, in a database of its own
(``tl_bench_registrations``, dropped at the end) and Redis database 5
(flushed at the start and the end).

500 players register within one minute (arrivals at random moments of the
minute, each on its own connections like a phone): open the public page,
send the form, open the personal link they are sent to. The announcement has
400 places, so the last 100 join the waitlist. Printed: p50/p95/max of the
public page, of the registration POST and of the personal link; checked: the
POST's p95 ≤ 500 ms and the page's ≤ 300 ms, every registration answered
with its link, exactly 400 confirmed and the rest waiting in order.

All requests come from 127.0.0.1, so the server runs with
``REGISTRATION_LIMIT=100000`` (the limit per address would otherwise stop
the bench after 20) and ``REGISTRATION_MIN_SECONDS=0`` (the bench's
"players" send the form at once). ``BENCH_POSTGRES`` (default
postgres://postgres@127.0.0.1:5432/postgres), ``BENCH_REDIS`` (default
redis://127.0.0.1:6379/5), ``BENCH_PLAYERS``, ``BENCH_SECONDS``.
"""

from __future__ import annotations

import http.client
import os
import random
import re
import statistics
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlencode, urlparse

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.bench.prodserver import Production  # noqa: E402
from tests.serverproc import docker_web_command, free_port  # noqa: E402

PORTS = range(18500, 18600)
PLAYERS = int(os.environ.get("BENCH_PLAYERS", "500"))
SECONDS = float(os.environ.get("BENCH_SECONDS", "60"))
CAP = int(PLAYERS * 0.8)
POST_P95_MS, PAGE_P95_MS = 500, 300
_CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
_STAMP = re.compile(r'name="stamp" value="([^"]+)"')


class Phone:
    """One player's phone: its cookies, a new connection per request."""

    def __init__(self, port: int):
        self.port, self.cookies = port, {}
        self.origin = f"https://127.0.0.1:{port}"

    def request(self, method: str, path: str, body: str | None = None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {
            "Host": f"127.0.0.1:{self.port}",
            "X-Forwarded-Proto": "https",
            "Accept-Language": "de",
        }
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
            headers["Origin"] = self.origin
            headers["Referer"] = self.origin + path
        t0 = time.perf_counter()
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        text = response.read().decode("utf-8", "replace")
        ms = (time.perf_counter() - t0) * 1000
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key.strip()] = rest.split(";", 1)[0]
        location = response.getheader("Location")
        conn.close()
        return response.status, text, location, ms


def one_player(port: int, tournament_id: int, n: int, times: dict, lock) -> str | None:
    """Open the page, register, open the link; None when all went well."""
    phone = Phone(port)
    page = f"/t/{tournament_id}/register/"
    status, html, _, ms = phone.request("GET", page)
    with lock:
        times["page"].append(ms)
    if status != 200:
        return f"page {status}"
    form = {
        "csrfmiddlewaretoken": _CSRF_FIELD.search(html).group(1),
        "stamp": _STAMP.search(html).group(1),
        "name": f"Spielerin {n:04d}",
        "club": random.choice(["SC Bonn", "TV Köln", "SV Aachen", ""]),
        "birth_year": str(random.randint(1950, 2012)),
        "consent_public": "on",
    }
    status, html, location, ms = phone.request("POST", page, urlencode(form))
    with lock:
        times["post"].append(ms)
    if status != 302 or not location or "/r/" not in location:
        return f"post {status}: {html[:200]}"
    status, html, _, ms = phone.request("GET", urlparse(location).path)
    with lock:
        times["link"].append(ms)
    return None if status == 200 else f"link {status}"


def summary(name: str, values: list[float]) -> dict:
    ordered = sorted(values)
    p95 = ordered[max(0, int(round(0.95 * len(ordered))) - 1)] if ordered else 0.0
    out = {
        "n": len(ordered),
        "p50": statistics.median(ordered) if ordered else 0.0,
        "p95": p95,
        "max": ordered[-1] if ordered else 0.0,
    }
    print(
        f"   {name:<22} n={out['n']:4d}  p50 {out['p50']:6.1f} ms  "
        f"p95 {out['p95']:6.1f} ms  max {out['max']:6.1f} ms"
    )
    return out


def main() -> int:
    prod = Production(
        "bench_registrations",
        redis_url="redis://127.0.0.1:6379/5",
        env={"REGISTRATION_LIMIT": "100000", "REGISTRATION_MIN_SECONDS": "0"},
    )
    if not prod.setup():
        return 0
    ok = True
    try:
        from django.contrib.auth.models import User
        from django.db import connection

        from tournaments import services
        from tournaments.registrations import services as registrations
        from tournaments.registrations.models import Registration

        owner = User.objects.create_user("bench-orga", password="bench-orga-pw-12345")
        tournament = services.tournament_create(owner=owner, name="Clubturnier", game="quartett")
        registrations.announcement_save(
            tournament=tournament, by=owner, cap=CAP, public_names=True, venue="Vereinsheim"
        )
        connection.close()
        port = free_port(PORTS)
        prod.start(docker_web_command(port), port)
        load_before = os.getloadavg()
        random.seed(24)
        arrivals = sorted(random.uniform(0, SECONDS) for _ in range(PLAYERS))
        times = {"page": [], "post": [], "link": []}
        lock = threading.Lock()
        errors: list[str] = []
        start = time.perf_counter()

        def arrive(n: int) -> None:
            delay = arrivals[n] - (time.perf_counter() - start)
            if delay > 0:
                time.sleep(delay)
            try:
                problem = one_player(port, tournament.pk, n, times, lock)
            except Exception as exc:  # a refused connection counts as an error
                problem = repr(exc)
            if problem:
                with lock:
                    errors.append(problem)

        with ThreadPoolExecutor(max_workers=64) as pool:
            list(pool.map(arrive, range(PLAYERS)))
        took = time.perf_counter() - start
        print(
            f"{PLAYERS} players registered within {SECONDS:.0f} s "
            f"(all answered after {took:.1f} s), {len(errors)} errors"
        )
        print(
            "   machine load (1/5/15 min) before: {:.1f} {:.1f} {:.1f}, after: {:.1f} {:.1f} {:.1f}"
            " on {} cores".format(*load_before, *os.getloadavg(), os.cpu_count())
        )
        page = summary("public page (GET)", times["page"])
        post = summary("registration (POST)", times["post"])
        summary("personal link (GET)", times["link"])
        statuses = list(
            Registration.objects.filter(tournament=tournament)
            .order_by("position")
            .values_list("status", flat=True)
        )
        in_order = statuses == ["confirmed"] * CAP + ["waitlisted"] * (PLAYERS - CAP)
        checks = [
            ("every registration answered with its link", not errors),
            (f"registration p95 ≤ {POST_P95_MS} ms", post["p95"] <= POST_P95_MS),
            (f"public page p95 ≤ {PAGE_P95_MS} ms", page["p95"] <= PAGE_P95_MS),
            (f"exactly {CAP} confirmed, the rest waiting in order", in_order),
        ]
        for message in errors[:5]:
            print("   error:", message)
        for name, good in checks:
            ok = ok and good
            print(f"   {name}: {'ok' if good else 'NOT MET'}")
    finally:
        prod.stop()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
