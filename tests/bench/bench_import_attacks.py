"""Import attacks, counted: ``python tests/bench/bench_import_attacks.py``.

In a fresh SQLite database under a temporary folder: an organizer runs a
club (two Quartett tournaments played through the services, a roster with a
merge, a public series: ``tests/scoring/played.py``); other organizers
import edited copies of its exports through the import pages, link the
imported players to their roster and put the tournaments into a series, as
a club would, and then open the pages:

- ``targeted tournament``: the four edits the issue names (``tiebreaks
  ["points","points"]``, ``ranks [1,4,3,"x"]``, ``figures []``, a seating
  ``why ["x"]``); every page of the imported tournament, its organizer's
  roster people and season;
- ``targeted club``: 14 edited club exports (lists and objects where keys,
  texts and games belong, a merge cycle, a dangling merge); the import page,
  then the roster, people, series and season pages and each imported
  tournament's standings;
- ``fuzzed``: ``--tournaments`` / ``--clubs`` files (40 / 100; the attack's
  note: 100 / 250, about 20 minutes on the project's machine) broken
  anywhere by ``tests/scoring/mutate.py`` (the same files every run:
  derandomized), the same pages (the tournament's lighter sweep).

Each page is given ``--timeout`` seconds (in a thread: a request that never
ends, the merge cycle's, is counted as a hang and left running; that file's
other pages are not asked, and the groups after it run slower). Prints per
group: files, refused, accepted, import answers ≥ 500, pages asked, pages
≥ 500, hangs. The merge cycle comes last.
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


class Tally(Counter):
    def line(self, label: str) -> str:
        return (
            f"{label:22} files {self['files']:4}  refused {self['refused']:4}  "
            f"accepted {self['accepted']:4}  import 5xx {self['import_5xx']:3}  "
            f"pages {self['pages']:6}  pages 5xx {self['pages_5xx']:4}  hangs {self['hangs']:3}"
        )


def get(client, url: str, timeout: float):
    """The status of ``url``, or None when it did not answer in time."""
    box = {}

    def run():
        try:
            box["status"] = client.get(url, follow=True).status_code
        except Exception:  # the test client re-raises what a view raised
            box["status"] = 500

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(timeout)
    return box.get("status")


def count_pages(tally: Tally, user, urls, timeout: float) -> None:
    from django.test import Client

    client = Client(raise_request_exception=False)
    client.force_login(user)
    anonymous = Client(raise_request_exception=False)
    asks = [(client, u) for u in urls] + [
        (anonymous, u) for u in urls if u.startswith(("/t/", "/season/"))
    ]
    for who, url in asks:
        status = get(who, url, timeout)
        tally["pages"] += 1
        if status is None:  # it spins on: ask this file's pages no more
            tally["hangs"] += 1
            break
        if status >= 500:
            tally["pages_5xx"] += 1


def new_user():
    from django.contrib.auth import get_user_model

    n = get_user_model().objects.count()
    return get_user_model().objects.create_user(f"importer-{n}", password="bench-pass-12345")


def upload(user, view: str, doc) -> int:
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client
    from django.urls import reverse

    client = Client(raise_request_exception=False)
    client.force_login(user)
    data = json.dumps(doc, ensure_ascii=False).encode()
    response = client.post(reverse(view), {"file": SimpleUploadedFile("x.json", data)})
    if view == "tournament_import" and response.status_code == 302:
        # the file waits for the worker: run its job as the worker would
        from scoring.exchange import jobs
        from scoring.exchange.models import ImportJob

        jobs.run(ImportJob.objects.filter(owner=user).latest("pk").pk)
        response = client.get(response.url)
    return response.status_code


def link_and_series(user) -> None:
    """What the club does next: the imported players linked to the roster,
    the Quartett tournaments in a public series."""
    from scoring.season import services as series_services
    from scoring.season.models import Series
    from tournaments.models import Tournament
    from tournaments.roster_models import Person
    from tournaments.services import ServiceError, roster

    series = Series.objects.filter(owner=user).first() or series_services.series_save(
        series=Series(owner=user, name="Saison", game="quartett", public=True)
    )
    for t in Tournament.objects.filter(owner=user):
        for player in t.players.filter(person__isnull=True):
            person = Person.objects.filter(
                owner=user, name=player.name, club=player.club, merged_into=None
            ).first()
            try:
                if person is None:
                    roster.person_from_player(player=player, by=user)
                else:
                    roster.player_attach_person(player=player, person=person, by=user)
            except ServiceError:
                pass
        if t.game == series.game:
            series_services.series_add_tournament(series=series, tournament=t, by=user)
        Series.objects.filter(pk=series.pk).update(public=True)


def try_tournament(tally: Tally, doc, timeout: float, *, every_page: bool) -> None:
    from tests.scoring import played
    from tournaments.models import Tournament

    user = new_user()
    tally["files"] += 1
    status = upload(user, "tournament_import", doc)
    if status >= 500:
        tally["import_5xx"] += 1
    new = Tournament.objects.filter(owner=user).first()
    if new is None:
        tally["refused"] += 1
        return
    tally["accepted"] += 1
    link_and_series(user)
    urls = played.tournament_urls(new, None if every_page else [1]) + played.owner_urls(user)
    count_pages(tally, user, urls, timeout)


def try_club(tally: Tally, doc, timeout: float) -> None:
    from django.urls import reverse

    from tests.scoring import played
    from tournaments.models import Tournament

    user = new_user()
    tally["files"] += 1
    status = upload(user, "club_import", doc)
    if status >= 500:
        tally["import_5xx"] += 1
    if status != 302:
        tally["refused"] += 1
        return
    tally["accepted"] += 1
    urls = played.owner_urls(user)
    for t in Tournament.objects.filter(owner=user):
        urls += [
            reverse(name, args=[t.pk])
            for name in ("standings", "standings_public", "player_list", "tournament_detail")
        ]
    count_pages(tally, user, urls, timeout)


def targeted_tournament(doc) -> list:
    """The issue's four edits."""

    def first_confirmed(d):
        for r in d["rounds"]:
            for t in r["tables"]:
                for s in t["submissions"]:
                    if s["status"] == "confirmed":
                        return s
        raise AssertionError("no confirmed result")

    out = []
    d = copy.deepcopy(doc)
    d["tournament"]["tiebreaks"] = ["points", "points"]
    out.append(d)
    d = copy.deepcopy(doc)
    s = first_confirmed(d)
    s["ranks"] = [*s["ranks"][:-1], "x"]
    out.append(d)
    d = copy.deepcopy(doc)
    first_confirmed(d)["figures"] = []
    out.append(d)
    d = copy.deepcopy(doc)
    d["rounds"][0]["tables"][0]["why"] = ["x"]
    out.append(d)
    return out


def targeted_club(doc) -> list:
    """14 edits: lists and objects where keys, texts and games belong, a
    merge cycle and a dangling merge."""
    keys = [p["key"] for p in doc["roster"]]

    def edit(fn):
        d = copy.deepcopy(doc)
        fn(d)
        return d

    def cycle(d):
        d["roster"][0]["merged_into"] = keys[1]
        d["roster"][1]["merged_into"] = keys[0]

    player = ("tournaments", 0, "players", 0)

    def at(d, path):
        for k in path:
            d = d[k]
        return d

    return [
        edit(lambda d: d["roster"][0].update(merged_into=[keys[1]])),
        edit(lambda d: d["roster"][0].update(merged_into={"key": keys[1]})),
        edit(lambda d: at(d, player).update(person=[keys[0]])),
        edit(lambda d: at(d, player).update(person={"key": keys[0]})),
        edit(lambda d: d["series"][0].update(game=["quartett"])),
        edit(lambda d: d["series"][0].update(game={"id": "quartett"})),
        edit(lambda d: d["roster"][0].update(merged_into=10_000)),
        edit(lambda d: d["roster"][0].update(key=[1])),
        edit(lambda d: d["roster"][0].update(name={"first": "A"})),
        edit(lambda d: d["roster"][0].update(birth_year="1980")),
        edit(lambda d: d["series"][0].update(scheme=["table"])),
        edit(lambda d: d["series"][0].update(table=[{"x": 1}], scheme="table")),
        edit(lambda d: d["series"][0].update(public=["yes"])),
        edit(cycle),  # last: its pages never answer
    ]


def fuzzed(doc, n: int, seed_doc_label: str):
    """``n`` broken copies of ``doc``, the same every run."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from tests.scoring import mutate

    out = []

    @settings(
        max_examples=n,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(st.data())
    def draw(data):
        out.append(data.draw(mutate.mutated(doc), label=seed_doc_label)[0])

    draw()
    return out[:n]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tournaments", type=int, default=40)
    parser.add_argument("--clubs", type=int, default=100)
    parser.add_argument("--timeout", type=float, default=10.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-imports-") as tmp:
        os.environ["TURNIERLEITER_VAR"] = tmp
        os.environ.pop("DATABASE_URL", None)
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournaments.settings")
        os.environ["DEBUG"] = "1"  # static files without collectstatic
        import django

        django.setup()
        import logging

        from django.core.management import call_command
        from django.test.utils import setup_test_environment

        logging.disable(logging.CRITICAL)  # the refused requests' log lines
        setup_test_environment()
        call_command("migrate", verbosity=0)
        from scoring.exchange.export import export_tournament
        from scoring.season.exchange import export_club
        from tests.scoring import played

        started = time.perf_counter()
        orga = new_user()
        series = played.club(orga)
        club_doc = json.loads(json.dumps(export_club(orga)))
        first = series.tournaments.order_by("created_at").first()
        doc = json.loads(json.dumps(export_tournament(first)))
        print(f"club built in {time.perf_counter() - started:.1f} s")

        groups = [
            ("targeted tournament", [(d, "t") for d in targeted_tournament(doc)]),
            ("fuzzed tournament", [(d, "t") for d in fuzzed(doc, args.tournaments, "t")]),
            ("fuzzed club", [(d, "c") for d in fuzzed(club_doc, args.clubs, "c")]),
            ("targeted club", [(d, "c") for d in targeted_club(club_doc)]),
        ]
        for label, files in groups:
            tally = Tally()
            started = time.perf_counter()
            for d, kind in files:
                if kind == "t":
                    try_tournament(tally, d, args.timeout, every_page=label.startswith("targeted"))
                else:
                    try_club(tally, d, args.timeout)
            print(tally.line(label), f" ({time.perf_counter() - started:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
