"""The largest allowed tournament: ``python tests/bench/bench_limits.py``.

Builds, in a fresh SQLite database under a temporary folder, a tournament at
the limits of :mod:`tournaments.limits` — ``MAX_PLAYERS`` players seated at
tables of four for ``--rounds`` rounds (default: ``MAX_ROUNDS``), every table
with a confirmed result — straight through the ORM (bulk inserts), then asks
every long page of it through Django's test client: the public and the
organizer's standings, the player list, the last round's results and public
page, a player's history, the CSV/JSON exports and the whole-tournament export.

Prints per page the median time of ``--runs`` requests (ms) and the size of the
answer (KB). The point: nothing answers with megabytes or takes seconds,
because the limits keep every list bounded (the 125,000-player file of the
issue is refused at import). Exit code 1 when a page is over its size budget.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

#: no page of the largest tournament may be larger than this
SIZE_BUDGET_KB = 4096


def build(rounds: int, seed: int = 1):
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from scoring.models import Submission
    from tournaments import limits, services
    from tournaments.models import Player, Round, Seat, Table

    rng = random.Random(seed)
    owner = get_user_model().objects.create_user("bench-orga", password="bench-pass-12345")
    t = services.tournament_create(owner=owner, name="Largest", game="quartett", rounds=rounds)
    Player.objects.bulk_create(
        Player(tournament=t, name=f"Player {i:04d}", club=f"Club {i % 97}", rating=1000 + i)
        for i in range(limits.MAX_PLAYERS)
    )
    players = list(t.players.values_list("pk", flat=True))
    now = timezone.now()
    for number in range(1, rounds + 1):
        rnd = Round.objects.create(
            tournament=t, number=number, published=True, status=Round.COMPLETE, minutes=45
        )
        order = players[:]
        rng.shuffle(order)
        tables = Table.objects.bulk_create(
            Table(round=rnd, number=n + 1) for n in range(len(order) // 4)
        )
        Seat.objects.bulk_create(
            Seat(table=table, player_id=order[4 * i + pos], position=pos)
            for i, table in enumerate(tables)
            for pos in range(4)
        )
        subs = []
        for table in tables:
            ranks = [1, 2, 3, 4]
            rng.shuffle(ranks)
            figures = [rng.randint(0, 12) for _ in range(4)]
            subs.append(
                Submission(
                    table=table,
                    version=1,
                    status=Submission.CONFIRMED,
                    ranks=ranks,
                    figures=figures,
                    sheet={"cards": figures},
                    by=owner,
                    at=now,
                )
            )
        Submission.objects.bulk_create(subs)
    return t, owner


def measure(client, url: str, runs: int) -> tuple[float, float, int]:
    times, size, status = [], 0, 0
    for _ in range(runs):
        start = time.perf_counter()
        response = client.get(url)
        body = b"".join(response) if response.streaming else response.content
        times.append((time.perf_counter() - start) * 1000)
        size, status = len(body), response.status_code
    return statistics.median(times), size / 1024, status


def main() -> int:
    from tournaments import limits

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=limits.MAX_ROUNDS)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="bench-limits-") as tmp:
        os.environ["TURNIERLEITER_VAR"] = tmp
        os.environ.pop("DATABASE_URL", None)
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournaments.settings")
        os.environ["DEBUG"] = "1"  # static files without collectstatic
        import django

        django.setup()
        from django.core.management import call_command
        from django.test import Client
        from django.test.utils import setup_test_environment

        setup_test_environment()
        call_command("migrate", verbosity=0)
        started = time.perf_counter()
        t, owner = build(args.rounds)
        print(
            f"built: {limits.MAX_PLAYERS} players, {args.rounds} rounds of "
            f"{limits.MAX_PLAYERS // 4} tables in {time.perf_counter() - started:.1f} s"
        )
        anonymous, organizer = Client(), Client()
        organizer.force_login(owner)
        last = args.rounds
        first_player = t.players.order_by("pk").first().pk
        pages = [
            ("public standings", anonymous, f"/t/{t.pk}/standings/"),
            ("public standings after round 1", anonymous, f"/t/{t.pk}/standings/?round=1"),
            ("public round page", anonymous, f"/t/{t.pk}/rounds/{last}/"),
            ("standings", organizer, f"/tournaments/{t.pk}/standings/"),
            ("players", organizer, f"/tournaments/{t.pk}/players/"),
            ("round results", organizer, f"/tournaments/{t.pk}/rounds/{last}/results/"),
            ("player history", organizer, f"/tournaments/{t.pk}/players/{first_player}/history/"),
            ("standings CSV", organizer, f"/tournaments/{t.pk}/export/standings.csv"),
            ("results CSV", organizer, f"/tournaments/{t.pk}/export/results.csv"),
            ("tournament export", organizer, f"/tournaments/{t.pk}/export/tournament.json"),
        ]
        over = []
        print(f"{'page':34} {'status':>6} {'median ms':>10} {'KB':>9}")
        for label, client, url in pages:
            ms, kb, status = measure(client, url, args.runs)
            print(f"{label:34} {status:>6} {ms:>10.0f} {kb:>9.0f}")
            if kb > SIZE_BUDGET_KB and "export" not in label and "CSV" not in label:
                over.append(label)
        if over:
            print("over the size budget:", ", ".join(over))
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
