"""CSV/JSON exports and the full tournament export → import round trip."""

import copy
import csv
import io
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoring.exchange import jobs
from scoring.exchange.export import export_json, export_tournament
from scoring.exchange.format import ImportRefused
from scoring.exchange.importer import import_tournament
from scoring.exchange.models import ImportJob
from scoring.models import Confirmation, Submission
from scoring.standings import listings
from tests.scoring import handmade, played
from tournaments.models import Player, Round, Seat, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def made(tournament, organizer):
    return handmade.build(tournament, organizer)


def get(client, tournament, what, fmt):
    response = client.get(reverse("export", args=[tournament.pk, what, fmt]))
    assert response.status_code == 200
    return response


def read_csv(response):
    body = response.content
    assert body.startswith(b"\xef\xbb\xbf")  # BOM: Excel reads UTF-8
    assert b"\r\n" in body
    # English: "," between fields and a decimal point (German: tests/exchange/test_csv_safety.py)
    return list(csv.DictReader(io.StringIO(body.decode("utf-8-sig")), delimiter=","))


def test_standings_csv_and_json(client, organizer, tournament, made):
    client.force_login(organizer)
    response = get(client, tournament, "standings", "csv")
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    rows = read_csv(response)
    assert [r["name"] for r in rows[:4]] == [
        "Ayşe Şahin",
        "Łukasz Wróblewski",
        "Bernd Ćosić",
        "Clara Dupont",
    ]
    assert rows[2] == rows[2] | {"place": "3", "points": "4.5", "figures": "13"}
    assert rows[2]["opponents"] == "2.333"
    dora = next(r for r in rows if r["name"] == "Dora Quist")
    assert dora["dropped"] == "1" and dora["place"] == "8"
    data = json.loads(get(client, tournament, "standings", "json").content)
    assert data[2]["name"] == "Bernd Ćosić" and data[2]["points"] == 4.5
    assert data[0]["points"] == 6 and data[0]["club"] == "SC Köln"
    assert [r["player_id"] for r in data] == [int(r["player_id"]) for r in rows]


def test_players_seatings_results(client, organizer, tournament, made):
    client.force_login(organizer)
    players = read_csv(get(client, tournament, "players", "csv"))
    assert len(players) == 11
    assert {"name": "Jürgen Weiß", "dropped": "0", "first_round": "1"}.items() <= next(
        p for p in players if p["name"] == "Jürgen Weiß"
    ).items()
    seatings = read_csv(get(client, tournament, "seatings", "csv"))
    # 3 rounds x 2 tables x 4 seats + 2 byes
    assert len(seatings) == 26
    assert seatings[0] | {} == seatings[0] | {"round": "1", "table": "1", "seat": "1"}
    assert seatings[0]["name"] == "Ayşe Şahin"
    byes = [s for s in seatings if s["table"] == ""]
    assert [(s["round"], s["name"]) for s in byes] == [("1", "Fritz Falk"), ("2", "Anna Berg")]
    results = json.loads(get(client, tournament, "results", "json").content)
    # round 3 has no confirmed result: 4 tables x 4 seats + 2 byes
    assert len(results) == 18
    fritz = [r for r in results if r["name"] == "Fritz Falk"]
    assert [(r["round"], r["bye"], r["rank"], r["points"]) for r in fritz] == [
        (1, True, None, 1.5),
        (2, False, 3, 1),
    ]
    bernd_r2 = next(r for r in results if r["name"] == "Bernd Ćosić" and r["round"] == 2)
    assert (bernd_r2["rank"], bernd_r2["figure"], bernd_r2["version"]) == (2, 5, 2)
    assert client.get(reverse("export", args=[tournament.pk, "secrets", "csv"])).status_code == 404
    assert client.get(reverse("export", args=[tournament.pk, "players", "xml"])).status_code == 404


def without_export_time(doc):
    doc = copy.deepcopy(doc)
    doc.pop("exported_at")
    return doc


@pytest.fixture
def played_here(organizer):
    """A tournament played through the services: what an import takes."""
    return played.paper_tournament(organizer)


def test_full_export_import_export_round_trip(client, organizer, other_user, played_here):
    tournament = played_here
    client.force_login(organizer)
    response = client.get(reverse("tournament_export", args=[tournament.pk]))
    assert response.status_code == 200
    first = json.loads(response.content)
    # the document holds everything, not just the standings' inputs
    assert first["format"] == "turnierleiter.tournament"
    r2, r3 = first["rounds"][1], first["rounds"][2]
    t21 = r2["tables"][0]
    assert [s["status"] for s in t21["submissions"]] == ["superseded", "confirmed"]
    assert t21["submissions"][1]["replaces"] == 1
    assert t21["submissions"][1]["reason"] == "Seats 1 and 2 swapped on the sheet"
    report = r3["tables"][0]["submissions"][0]
    assert (report["source"], report["by_seat"], report["status"]) == ("player", 0, "pending")
    assert [c["by_seat"] for c in report["confirmations"]] == [0, 1]
    extend = next(a for a in r3["clock"] if a["kind"] == "extend")
    assert extend | {} == extend | {"table": 1, "seconds": 300, "reason": "Schiedsrichter"}
    by_name = {p["name"]: p for p in first["players"]}
    assert [e["kind"] for e in by_name["Spieler 0 Ø"]["events"]] == ["check_in", "drop"]
    assert all(len(r["byes"]) == 1 for r in first["rounds"])

    new = import_tournament(data=response.content, owner=other_user)
    assert new.pk != tournament.pk and new.owner == other_user
    assert not new.scorekeepers.exists()
    second = export_tournament(new)
    assert without_export_time(second) == without_export_time(first)
    # the imported tournament has the same standings
    assert [(r["name"], r["points"]) for r in listings.standings_rows(new)] == [
        (r["name"], r["points"]) for r in listings.standings_rows(tournament)
    ]


def test_import_view_creates_a_tournament_for_the_uploader(client, other_user, played_here):
    text = export_json(played_here)
    client.force_login(other_user)
    assert client.get(reverse("tournament_import")).status_code == 200
    upload = SimpleUploadedFile("t.json", text.encode(), content_type="application/json")
    response = client.post(reverse("tournament_import"), {"file": upload})
    assert response.status_code == 302  # the worker reads it
    jobs.run(ImportJob.objects.get(owner=other_user).pk)
    new = Tournament.objects.get(owner=other_user, name=played_here.name)
    page = client.get(response.url).content.decode()
    assert reverse("tournament_detail", args=[new.pk]) in page
    assert new.players.count() == 10


def broken(doc):
    """Variants of a good document, each broken in one place, with the message."""
    a = copy.deepcopy(doc)
    a["rounds"][0]["tables"][1]["seats"][2]["player"] = 99
    yield a, "rounds[0].tables[1].seats[2].player: no player with key 99"
    b = copy.deepcopy(doc)
    b["rounds"][1]["tables"][0]["submissions"][0]["status"] = "confirmed"
    yield b, "rounds[1].tables[0]: more than one confirmed result"
    c = copy.deepcopy(doc)
    c["tournament"]["game"] = "schach"
    yield c, "tournament.game: unknown game schach"
    d = copy.deepcopy(doc)
    d["players"][5]["rating"] = "stark"
    yield d, "players[5].rating"
    e = copy.deepcopy(doc)
    e["rounds"][2]["clock"][0]["at"] = "yesterday"
    yield e, "rounds[2].clock[0].at: not a date and time"
    f = copy.deepcopy(doc)
    f["rounds"][1]["tables"][0]["submissions"][1]["replaces"] = 7
    yield f, "rounds[1].tables[0].submissions[1].replaces: no version 7"


def counts():
    return (
        Tournament.objects.count(),
        Player.objects.count(),
        Round.objects.count(),
        Seat.objects.count(),
        Submission.objects.count(),
        Confirmation.objects.count(),
    )


def test_import_refuses_a_broken_file_and_creates_nothing(other_user, played_here):
    doc = export_tournament(played_here)
    before = counts()
    for bad, message in broken(doc):
        with pytest.raises(ImportRefused) as info:
            import_tournament(data=bad, owner=other_user)
        assert any(e.startswith(message) for e in info.value.errors), (message, info.value.errors)
        assert counts() == before
    for data, message in [
        (b"{not json", "The file is not valid JSON (line 1, column 2)."),
        (b'{"format": "something else"}', "This is not a Turnierleiter tournament export."),
        (b"\xff\xfe", "The file is not UTF-8 text."),
    ]:
        with pytest.raises(ImportRefused) as info:
            import_tournament(data=data, owner=other_user)
        assert info.value.errors == [message]
    assert counts() == before


def test_import_view_shows_the_problems(client, other_user, played_here):
    doc = export_tournament(played_here)
    doc["players"][0]["name"] = ""
    before = counts()
    client.force_login(other_user)
    upload = SimpleUploadedFile("t.json", json.dumps(doc).encode())
    response = client.post(reverse("tournament_import"), {"file": upload})
    assert response.status_code == 302
    jobs.run(ImportJob.objects.get(owner=other_user).pk)
    html = client.get(response.url).content.decode()
    assert "nothing was imported" in html
    assert "players[0].name" in html
    assert counts() == before


def test_a_scorekeeper_gets_no_whole_tournament_export(client, organizer, tournament, made):
    """The machine format carries every hand and every deal's secret: the
    organizer's alone; a scorekeeper keeps the CSV/JSON lists."""
    from tournaments import services

    keeper = type(organizer).objects.create_user("keeper", password="pw-keeper-12345")
    services.scorekeeper_add(tournament=tournament, username="keeper")
    client.force_login(keeper)
    assert client.get(reverse("tournament_export", args=[tournament.pk])).status_code == 403
    page = client.get(reverse("export_center", args=[tournament.pk]))
    assert page.status_code == 200
    assert reverse("tournament_export", args=[tournament.pk]).encode() not in page.content
    assert client.get(reverse("export", args=[tournament.pk, "results", "csv"])).status_code == 200
