"""Players page benchmark: ``python tests/bench/bench_players_page.py``.

A tournament of 1,200 players (names with "Ş", "Ł", umlauts; clubs; ratings;
a third checked in, a few dropped) in a fresh SQLite database of its own.
Renders the organizer's players page through Django's test client 15 times
(the first, warming the template cache, is not counted) and prints the
median and max wall-clock time in ms and the page size. Target: ≤ 150 ms.
"""

from __future__ import annotations

import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

PLAYERS = 1200
RUNS = 15
TARGET_MS = 150

FIRST = ["Anna", "Bernd", "Clara", "Łukasz", "Şahin", "Ümit", "Jörg", "Zoë", "Ida", "Uwe"]
LAST = ["Müller", "Özdemir", "Łapiński", "Schmidt", "Ährens", "Yılmaz", "Weiß", "Nowak"]


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="bench_players_") as tmp:
        run(tmp)


def run(tmp: str) -> None:
    os.environ["DATABASE_URL"] = f"sqlite:///{tmp}/bench.sqlite3"
    os.environ["DEBUG"] = "0"
    os.environ.setdefault("SECRET_KEY", "bench-players-page-not-secret")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournaments.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command
    from django.test import Client

    # no collectstatic here: plain static URLs instead of the manifest
    settings.STORAGES = settings.STORAGES | {
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}
    }
    call_command("migrate", verbosity=0)
    from django.contrib.auth import get_user_model

    from tournaments.models import Player, Tournament

    rng = random.Random(7)
    user = get_user_model().objects.create_user("bench", password="x")
    t = Tournament.objects.create(name="Bench", owner=user, game="quartett")
    Player.objects.bulk_create(
        Player(
            tournament=t,
            name=f"{rng.choice(FIRST)} {rng.choice(LAST)} {i:04d}",
            club=f"Club {i % 40}",
            rating=rng.randint(1000, 2000),
            checked_in=i % 3 == 0,
            dropped=i % 50 == 7,
        )
        for i in range(PLAYERS)
    )
    client = Client(HTTP_HOST="127.0.0.1")
    client.force_login(user)
    url = f"/tournaments/{t.pk}/players/"
    response = client.get(url, secure=True)
    assert response.status_code == 200, response.status_code
    times = []
    for _ in range(RUNS):
        t0 = time.perf_counter()
        response = client.get(url, secure=True)
        times.append((time.perf_counter() - t0) * 1000)
    size = len(response.content)
    med, worst = statistics.median(times), max(times)
    ok = "ok" if med <= TARGET_MS else "OVER TARGET"
    print(
        f"players page, {PLAYERS} players: median {med:.0f} ms, max {worst:.0f} ms, "
        f"{size / 1024:.0f} KB (target median <= {TARGET_MS} ms: {ok})"
    )


if __name__ == "__main__":
    main()
