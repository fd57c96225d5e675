"""A big event in the database for the live benches, built in bulk:
``players`` players, ``rounds`` finished rounds of tables of 4 with confirmed
results, and one more round running with ``tables`` tables (the first
``digital`` of them digital, dealt). Call after ``django.setup()`` with the
database migrated.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field


@dataclass
class Event:
    tournament_id: int
    owner_username: str
    owner_password: str
    live_round: int
    status_urls: list[str] = field(default_factory=list)
    seat_clock_urls: list[str] = field(default_factory=list)
    seat_play_urls: list[str] = field(default_factory=list)


def build(*, players=1100, rounds=3, tables=250, digital=250, seed=1) -> Event:
    from django.contrib.auth import get_user_model
    from django.urls import reverse

    from scoring.models import Submission
    from tournaments import services
    from tournaments.models import Player, Round, Seat, Table
    from tournaments.play.links import seat_keys
    from tournaments.services import clock, round_life

    rng = random.Random(seed)
    password = "bench-organizer-pw"
    owner = get_user_model().objects.create_user("bench-orga", password=password)
    t = services.tournament_create(
        owner=owner, name="Großes Turnier", game="quartett", digital_tables=digital > 0
    )
    t.public = True
    t.rounds = rounds + 1
    t.save()
    people = Player.objects.bulk_create(
        Player(
            tournament=t,
            name=f"Spieler {i:04d} {rng.choice(['Şahin', 'Wróbel', 'Weiß', 'Berg'])}",
            club=f"Club {i % 40}",
            checked_in=True,
        )
        for i in range(players)
    )
    ids = [p.pk for p in people]
    for number in range(1, rounds + 1):
        rnd = Round.objects.create(
            tournament=t, number=number, minutes=45, published=True, status=Round.COMPLETE
        )
        rng.shuffle(ids)
        made = Table.objects.bulk_create(
            Table(round=rnd, number=n + 1, status=Table.DONE) for n in range(len(ids) // 4)
        )
        Seat.objects.bulk_create(
            Seat(table=made[i // 4], player_id=pid, position=i % 4)
            for i, pid in enumerate(ids[: len(made) * 4])
        )
        subs = []
        for table in made:
            figures = [rng.randint(0, 20) for _ in range(4)]
            ranks = [1 + sum(1 for o in figures if o > f) for f in figures]
            subs.append(
                Submission(
                    table=table,
                    version=1,
                    status=Submission.CONFIRMED,
                    ranks=ranks,
                    figures=figures,
                    source="form",
                    by=owner,
                )
            )
        Submission.objects.bulk_create(subs)
    live = Round.objects.create(tournament=t, number=rounds + 1, minutes=45, published=True)
    rng.shuffle(ids)
    made = Table.objects.bulk_create(
        Table(round=live, number=n + 1, digital=n < digital, secret=f"{1 + n:064x}")
        for n in range(tables)
    )
    seats = Seat.objects.bulk_create(
        Seat(table=made[i // 4], player_id=pid, position=i % 4)
        for i, pid in enumerate(ids[: tables * 4])
    )
    _no_broker(clock)
    round_life.round_start(round=live, by=owner)
    event = Event(t.pk, owner.username, password, live.number)
    event.status_urls = [reverse("round_public_status", args=[t.pk, live.number])]
    keys = seat_keys(live.pk, [seat.player_id for seat in seats])
    for seat in seats:
        token = keys[seat.player_id]
        event.seat_clock_urls.append(reverse("seat_clock", args=[token]))
        if seat.table.digital:
            event.seat_play_urls.append(reverse("seat_play", args=[token]))
    return event


def _no_broker(clock) -> None:
    """The bench starts rounds without a Celery worker listening."""
    clock.deadlines.schedule = lambda *a, **k: None
