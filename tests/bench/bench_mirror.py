"""Follow from home: what a publication costs. ``python tests/bench/bench_mirror.py``
(``--sizes 70:7,500:10,2000:30`` players:rounds, ``--at 1,2,5,10,20,30``
the rounds measured for the largest size; ``DATABASE_URL`` a scratch
PostgreSQL database, else a SQLite file in a temporary folder).

A public Quartett tournament of tables of 4 is built in bulk round by round
(published seatings, the clock's start, every table's sheet checked by the
game and confirmed). After each round measured (the largest size: at the
rounds ``--at``), as the laptop and the online site do it:

- laptop: the public snapshot built as the laptop's sender builds it
  (``publish.build_hashed``: the completed rounds' sections kept while their
  content version is unchanged; CPU ms), the publication of what changed since the last one (the round's and
  its clock's sections) — raw JSON and gzip bytes, gzip ms — and, for
  comparison, the whole snapshot's bytes;
- online: the publication applied (unpacked, checked by the tournament
  import, the mirrored tournament rebuilt in one transaction: CPU and wall
  ms);
- a clock change alone (a pause): its bytes;
- after round 10 (or the last but one): a late entry and a renamed player
  published: bytes, and CPU on both sides;

and the catch-up after 30 minutes offline (simulated): in the last round
the clock's pause, every table's result (one change each) and the round's
end wait while the site is unreachable, then one publication carries the
newest state: its bytes and its time on both sides. A snapshot replaces the state, so the catch-up costs one publication
whatever the number of changes waiting.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import random
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def setup() -> None:
    if not os.environ.get("DATABASE_URL"):
        os.environ["TURNIERLEITER_VAR"] = tempfile.mkdtemp(prefix="bench-mirror-")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournaments.settings")
    os.environ.setdefault("CACHE_URL", "locmem://")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def cpu_ms(fn):
    c0, w0 = time.process_time(), time.perf_counter()
    out = fn()
    return out, (time.process_time() - c0) * 1000, (time.perf_counter() - w0) * 1000


class Laptop:
    """A tournament on the "laptop", played in bulk round by round."""

    def __init__(self, players: int, rounds: int, seed: int = 1):
        from django.contrib.auth import get_user_model

        from games import get_engine
        from tournaments import services
        from tournaments.models import Player

        self.rng = random.Random(seed)
        self.engine = get_engine("quartett")
        User = get_user_model()
        tag = uuid.uuid4().hex[:6]
        self.owner = User.objects.create_user(f"bench-laptop-{tag}", password="x" * 12)
        self.online = User.objects.create_user(f"bench-online-{tag}", password="x" * 12)
        self.t = services.tournament_create(
            owner=self.owner, name=f"Bench {players}", game="quartett", rounds=rounds, public=True
        )
        self.players = Player.objects.bulk_create(
            Player(
                tournament=self.t, name=f"Spieler {i:04d}", club=f"Club {i % 40}", checked_in=True
            )
            for i in range(players)
        )
        self.sheets = {}

    def sheet(self, shift: int):
        counts = [5, 7, 9, 11]
        sheet = {f"s{i}_cards": counts[(i + shift) % 4] for i in range(4)}
        key = shift % 4
        if key not in self.sheets:
            self.sheets[key] = self.engine.check_sheet(4, sheet, None)
        return sheet, self.sheets[key]

    def seat(self, number: int):
        from django.utils import timezone

        from tournaments.models import ClockActivation, Round, Seat, Table

        ids = [p.pk for p in self.players]
        self.rng.shuffle(ids)
        now = timezone.now()
        rnd = Round.objects.create(
            tournament=self.t,
            number=number,
            minutes=45,
            published=True,
            status=Round.RUNNING,
            deadline=now + timezone.timedelta(minutes=45),
        )
        tables = Table.objects.bulk_create(
            Table(round=rnd, number=n + 1) for n in range(len(ids) // 4)
        )
        Seat.objects.bulk_create(
            Seat(table=tables[i // 4], player_id=pid, position=i % 4)
            for i, pid in enumerate(ids[: len(tables) * 4])
        )
        start = ClockActivation.objects.create(
            round=rnd, kind=ClockActivation.START, seconds=45 * 60, by=self.owner, at=now
        )
        # the deadline as the clock derives it from its start (stamped when stored)
        rnd.deadline = start.at + timezone.timedelta(minutes=45)
        Round.objects.filter(pk=rnd.pk).update(deadline=rnd.deadline)
        return rnd, tables

    def results(self, rnd, tables):
        from django.utils import timezone

        from scoring.models import Submission
        from tournaments.models import ClockActivation, Round, Table

        subs = []
        for table in tables:
            sheet, result = self.sheet(table.number)
            subs.append(
                Submission(
                    table=table,
                    version=1,
                    status=Submission.CONFIRMED,
                    sheet=sheet,
                    ranks=list(result.ranks),
                    figures=list(result.figures),
                    details=json.loads(json.dumps(dict(result.details))),
                    source="form",
                    by=self.owner,
                )
            )
        Submission.objects.bulk_create(subs)
        Table.objects.filter(round=rnd).update(status=Table.DONE)
        # time called as the clock writes it (its log, the time left then)
        now = timezone.now()
        rnd.refresh_from_db()
        called = ClockActivation.objects.create(
            round=rnd, kind=ClockActivation.TIME_CALLED, seconds=0, at=now
        )
        now = called.at  # stamped when stored
        if rnd.deadline is not None:  # running: the time left then
            left = max(0.0, (rnd.deadline - now).total_seconds())
        else:  # paused: the time left at the pause
            left = rnd.remaining_seconds
        Round.objects.filter(pk=rnd.pk).update(
            status=Round.COMPLETE, time_called_at=now, completed_at=now, remaining_seconds=left
        )

    def roster_change(self, number: int):
        """A player renamed, and a late entry registered (at the player limit:
        another player moved to another club instead). Returns what changed."""
        from tournaments import limits
        from tournaments.models import Player

        if Player.objects.filter(tournament=self.t).count() < limits.MAX_PLAYERS:
            Player.objects.create(tournament=self.t, name=f"Nachzügler {number}", club="Club 99")
            what = "one added, one renamed"
        else:
            moved = self.players[number + 1]
            moved.club = "Club 99"
            moved.save()
            what = "one moved to another club, one renamed"
        renamed = self.players[number]
        renamed.name = f"{renamed.name} (umbenannt)"
        renamed.save()
        return what

    def pause(self, rnd):
        from django.utils import timezone

        from tournaments.models import ClockActivation, Round

        now = timezone.now()
        rnd.refresh_from_db()
        paused = ClockActivation.objects.create(
            round=rnd, kind=ClockActivation.PAUSE, by=self.owner, at=now
        )
        now = paused.at  # stamped when stored
        Round.objects.filter(pk=rnd.pk).update(
            status=Round.PAUSED,
            deadline=None,
            remaining_seconds=(rnd.deadline - now).total_seconds(),
        )


class Site:
    """The "online site": publications applied as the API applies them."""

    def __init__(self, laptop: Laptop):
        self.laptop, self.source, self.version = laptop, uuid.uuid4(), 0
        self.held: dict = {}

    def publish(self) -> dict:
        from tournaments.mirror import publish, receive

        (sections, hashes), build_cpu, _w = cpu_ms(lambda: publish.build_hashed(self.laptop.t))
        self.version += 1
        sent = {n: c for n, c in sections.items() if self.held.get(n) != hashes[n]}
        envelope = {
            "format": receive.FORMAT,
            "source": str(self.source),
            "version": self.version,
            "hashes": hashes,
            "sections": sent,
        }
        raw = json.dumps(envelope, ensure_ascii=False).encode()
        body, gzip_cpu, _w = cpu_ms(lambda: gzip.compress(raw, compresslevel=6))
        whole = len(gzip.compress(json.dumps(sections, ensure_ascii=False).encode(), 6))
        answer, apply_cpu, apply_wall = cpu_ms(
            lambda: receive.apply(owner=self.laptop.online, data=receive.unpack(body))
        )
        self.held = answer["hashes"]
        return {
            "sections": len(sent),
            "raw": len(raw),
            "gzip": len(body),
            "whole_gzip": whole,
            "build_ms": build_cpu,
            "gzip_ms": gzip_cpu,
            "apply_cpu_ms": apply_cpu,
            "apply_wall_ms": apply_wall,
        }


def kb(n: int) -> str:
    return f"{n / 1024:,.1f} KB"


def run(players: int, rounds: int, at: set[int] | None) -> None:
    laptop = Laptop(players, rounds)
    site = Site(laptop)
    first = site.publish()
    print(
        f"\n{players} players, {rounds} rounds — first publication (players): "
        f"{kb(first['gzip'])} gzip, build {first['build_ms']:.0f} ms, "
        f"apply {first['apply_cpu_ms']:.0f} ms CPU"
    )
    print(
        "| round | sections sent | raw | gzip | whole snapshot gzip | laptop build + gzip (CPU) "
        "| online apply CPU / wall | clock change alone: gzip, apply |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- |")
    for number in range(1, rounds + 1):
        rnd, tables = laptop.seat(number)
        last = number == rounds
        measure = at is None or number in at or last
        if measure or last:
            site.publish()  # the seating, so the round's result is a change of its own
            laptop.pause(rnd)
            clock = None if last else site.publish()
        laptop.results(rnd, tables)
        if last:
            # the site was unreachable for the last 30 minutes of the day: the
            # clock paused, every table's result (one change each) and the
            # round's end waited; one publication carries them all
            t0 = time.perf_counter()
            m = site.publish()
            took = time.perf_counter() - t0
            print(
                f"catch-up after 30 min offline (round {number}: {len(tables) + 2} changes "
                f"waiting, one publication): {kb(m['gzip'])} gzip, laptop "
                f"{m['build_ms'] + m['gzip_ms']:.0f} ms CPU, online {m['apply_cpu_ms']:.0f} ms "
                f"CPU, {took:.1f} s in all"
            )
            break
        m = site.publish()
        if number == min(10, rounds - 1):
            what = laptop.roster_change(number)
            r = site.publish()
            print(
                f"players changed after round {number} ({what}): "
                f"{kb(r['gzip'])} gzip, laptop {r['build_ms']:.0f} ms CPU, online "
                f"{r['apply_cpu_ms']:.0f} ms CPU / {r['apply_wall_ms']:.0f} ms wall"
            )
        if not measure:
            continue
        print(
            f"| {number} | {m['sections']} | {kb(m['raw'])} | {kb(m['gzip'])} | "
            f"{kb(m['whole_gzip'])} | {m['build_ms']:.0f} + {m['gzip_ms']:.0f} ms | "
            f"{m['apply_cpu_ms']:.0f} / {m['apply_wall_ms']:.0f} ms | "
            f"{kb(clock['gzip'])}, {clock['apply_cpu_ms']:.0f} ms |"
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="70:7,500:10,2000:30")
    parser.add_argument("--at", default="1,2,5,10,20,30")
    args = parser.parse_args()
    setup()
    sizes = [tuple(int(x) for x in s.split(":")) for s in args.sizes.split(",")]
    largest = max(p for p, _r in sizes)
    for players, rounds in sizes:
        at = {int(x) for x in args.at.split(",")} if players == largest else None
        run(players, rounds, at)


if __name__ == "__main__":
    main()
