"""Steps of the two-instance test of "follow from home"
(``tests/mirror/test_mirror_e2e.py``), each run in its instance's
environment as ``python -m tests.mirror_e2e <step> [args]``; each prints
one JSON line.

Online (PostgreSQL + Redis): ``online-setup`` (migrate, an organizer with a
publishing key, a tournament with its entries), ``online-state``.
Laptop (SQLite, filesystem broker): ``laptop-setup`` (migrate, pair with
the online site, fetch the registrations into the import, publish),
``round`` (seat, publish, start; results and the end with ``--results``),
``clock`` (pause and extend the running round), ``results`` (the sheets of
some tables), ``laptop-state``.
"""

from __future__ import annotations

import json
import sys


def _setup():
    import django

    django.setup()


def _migrate():
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def online_setup(players: int) -> dict:
    _migrate()
    from django.contrib.auth import get_user_model

    from tournaments import services
    from tournaments.mirror import keys

    user = get_user_model().objects.create_user("verein", password="pw-verein-online-1")
    keys.approve(user=user)  # the site admin confirms the organizer
    _row, key = keys.key_create(user=user, name="Laptop")
    t = services.tournament_create(owner=user, name="Anmeldung Herbstturnier", game="quartett")
    for i in range(players):
        services.player_add(tournament=t, by=user, name=f"Spielerin {i:02d}", club=f"SK {i % 3}")
    dropped = t.players.order_by("pk").last()
    services.player_drop(player=dropped, by=user)
    return {"key": key, "tournament": t.pk, "withdrawn": dropped.name}


def _public(tournament) -> dict:
    from scoring.exchange.export import export_tournament
    from scoring.standings import selectors as standings_selectors
    from tournaments.mirror import snapshot

    sections = snapshot.public_sections(export_tournament(tournament))
    return {
        "hashes": snapshot.hashes(sections),
        "standings": [
            [r.place, str(r.name), str(r.points), str(r.opponents)]
            for r in standings_selectors.standings(tournament)
        ],
        "deadlines": {
            str(r.number): r.deadline.isoformat() if r.deadline else None
            for r in tournament.round_set.order_by("number")
        },
        "statuses": {str(r.number): r.status for r in tournament.round_set.all()},
        "seated": sorted(
            [s.table.round.number, s.table.number, s.position, s.player.name]
            for s in __import__("tournaments.models", fromlist=["Seat"])
            .Seat.objects.filter(table__round__tournament=tournament)
            .select_related("table__round", "player")
        ),
    }


def online_state() -> dict:
    from tournaments.mirror.models import MirroredTournament

    mirror = MirroredTournament.objects.select_related("tournament").first()
    if mirror is None:
        return {"mirrored": False}
    return {
        "mirrored": True,
        "tournament": mirror.tournament_id,
        "version": mirror.version,
        "publications": mirror.publications,
        **_public(mirror.tournament),
    }


def laptop_setup(site_url: str, key: str, online_id: int) -> dict:
    _migrate()
    from django.contrib.auth import get_user_model

    from tournaments import roster as _roster  # noqa: F401
    from tournaments import services
    from tournaments.mirror import services as mirror
    from tournaments.player_import import parse_players

    user = get_user_model().objects.create_user("leitung", password="pw-leitung-laptop-1")
    t = services.tournament_create(
        owner=user, name="Herbstturnier", game="quartett", rounds=2, public=True
    )
    link, _hello = mirror.link_save(user=user, site_url=site_url, key=key)
    found = mirror.entries_fetch(tournament=t, link=link, online_id=online_id)
    rows, errors = parse_players(found["text"])
    assert not errors, errors
    created = services.players_import(tournament=t, rows=rows, by=user)
    for p in created:
        services.player_set_checked_in(player=p, checked_in=True, by=user)
    again = mirror.entries_fetch(tournament=t, link=link, online_id=online_id)
    mirror.publication_start(tournament=t, link=link)
    return {
        "tournament": t.pk,
        "imported": len(created),
        "new_on_second_fetch": len(again["new"]),
        "known_on_second_fetch": len(again["known"]),
    }


def _tournament():
    from tournaments.models import Tournament

    return Tournament.objects.get()


def round_step(results: bool) -> dict:
    from tests.mirror.mirror_helpers import play_round

    t = _tournament()
    rnd = play_round(t, results_in=results, shift=t.round_set.count())
    return {"round": rnd.number, "status": rnd.status}


def clock_step() -> dict:
    from tournaments.services import round_life

    t = _tournament()
    rnd = t.round_set.order_by("-number").first()
    rnd = round_life.round_pause(round=rnd, by=t.owner)
    rnd = round_life.round_extend(round=rnd, by=t.owner, minutes=5)
    rnd = round_life.round_resume(round=rnd, by=t.owner)
    return {"deadline": rnd.deadline.isoformat()}


def results_step(tables: int, end: bool) -> dict:
    from scoring import services as results
    from scoring.models import Submission
    from tests.mirror.mirror_helpers import sheet
    from tournaments.services import round_life

    t = _tournament()
    rnd = t.round_set.order_by("-number").first()
    done = 0
    for table in rnd.tables.order_by("number"):
        if done >= tables:
            break
        if Submission.objects.filter(table=table, status=Submission.CONFIRMED).exists():
            continue
        results.result_submit(
            table=table,
            sheet=sheet(table.seats.count(), table.number),
            by=t.owner,
            expected_version=None,
        )
        done += 1
    if end:
        round_life.round_end_when_done(round_id=rnd.pk, by=t.owner)
    return {"entered": done}


def laptop_state() -> dict:
    from tournaments.mirror import selectors

    t = _tournament()
    status = selectors.status(t)
    return {
        "tournament": t.pk,
        "version": status["publication"].version,
        "published_version": status["publication"].published_version,
        "state": status["state"],
        "waiting": status["waiting"],
        "last_error": status["last_error"],
        **_public(t),
    }


def main(argv: list[str]) -> None:
    _setup()
    step, args = argv[0], argv[1:]
    if step == "online-setup":
        out = online_setup(int(args[0]))
    elif step == "online-state":
        out = online_state()
    elif step == "laptop-setup":
        out = laptop_setup(args[0], args[1], int(args[2]))
    elif step == "round":
        out = round_step("--results" in args)
    elif step == "clock":
        out = clock_step()
    elif step == "results":
        out = results_step(int(args[0]), "--end" in args)
    elif step == "laptop-state":
        out = laptop_state()
    else:
        raise SystemExit(f"unknown step {step}")
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1:])
