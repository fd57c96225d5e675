"""Standings page benchmark: ``python tests/bench/bench_standings_page.py``.

A 1,000-player event after 3 rounds of tables of 4 (confirmed results) in a
temporary SQLite database, DEBUG off. Renders the organizer's standings page
and the public one through Django's test client (middleware, template,
everything but the network) 15 times each and prints the median and p90 in
ms, with the SQL time. Target: ≤ 100 ms. Cleans up after itself.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

TARGET_MS = 100
RUNS = 15


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="tl-bench-standings-") as tmp:
        os.environ.update(
            TURNIERLEITER_VAR=tmp,
            DJANGO_SETTINGS_MODULE="tournaments.settings",
            DEBUG="0",
            SECRET_KEY="bench-standings",
            SECURE_SSL_REDIRECT="0",
            CACHE_URL="locmem://",
            LOG_LEVEL="WARNING",
            STATIC_ROOT=str(Path(tmp) / "static"),
        )
        os.environ.pop("DATABASE_URL", None)
        os.chdir(ROOT)
        import django

        django.setup()
        from django.conf import settings
        from django.core.management import call_command
        from django.db import connection, reset_queries
        from django.test import Client
        from django.test.utils import override_settings
        from django.urls import reverse

        from tests.bench.event import build

        call_command("migrate", "--noinput", verbosity=0)
        call_command("collectstatic", "--noinput", verbosity=0)
        event = build(players=1000, rounds=3, tables=250, digital=0)
        client = Client()
        client.login(username=event.owner_username, password=event.owner_password)
        ok = True
        with override_settings(ALLOWED_HOSTS=["testserver"], DEBUG=False):
            for name, url in (
                ("organizer", reverse("standings", args=[event.tournament_id])),
                ("public", reverse("standings_public", args=[event.tournament_id])),
            ):
                for language in ("en", "de"):
                    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
                    assert client.get(url).status_code == 200  # warm
                    times, sql = [], []
                    for _ in range(RUNS):
                        connection.force_debug_cursor = True
                        reset_queries()
                        t0 = time.perf_counter()
                        response = client.get(url)
                        times.append((time.perf_counter() - t0) * 1000)
                        sql.append(sum(float(q["time"]) for q in connection.queries) * 1000)
                        connection.force_debug_cursor = False
                        assert response.status_code == 200
                    rows = response.content.count(b"<tr id=")
                    med = statistics.median(times)
                    p90 = statistics.quantiles(times, n=10)[-1]
                    verdict = "ok" if med <= TARGET_MS else "OVER TARGET"
                    ok = ok and med <= TARGET_MS
                    print(
                        f"standings page {name:9s} {language}: {rows} rows, "
                        f"{len(response.content) // 1024} KB; median {med:6.1f} ms, "
                        f"p90 {p90:6.1f} ms, SQL {statistics.median(sql):5.1f} ms "
                        f"(target ≤ {TARGET_MS} ms) {verdict}"
                    )
        connection.close()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
