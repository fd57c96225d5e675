"""German CSV files write German words (issue 36): the standings' stage is
"Halbfinale"/"Finale" (an English file keeps "semi"/"final", as the JSON
does) and registrations.csv has German headers ("Name;Verein;…")."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from tests.printing.test_final_prints import _semis_and_final
from tournaments.registrations import services
from tournaments.registrations.services import Entry

pytestmark = pytest.mark.django_db


def read(content: bytes, delimiter: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(content.decode("utf-8-sig")), delimiter=delimiter))


def test_the_german_standings_csv_names_the_stage_in_german(client, organizer):
    t = _semis_and_final(organizer)
    client.force_login(organizer)
    url = reverse("export", args=[t.pk, "standings", "csv"])
    client.cookies["django_language"] = "de"
    german = read(client.get(url).content, ";")
    client.cookies["django_language"] = "en"
    english = read(client.get(url).content, ",")
    assert [r["Turnierphase"] for r in german[:8]] == ["Finale"] * 4 + ["Halbfinale"] * 4
    assert {r["Turnierphase"] for r in german[8:]} == {""}
    assert [r["stage"] for r in english[:8]] == ["final"] * 4 + ["semi"] * 4
    # the JSON stays the machine format in every language
    client.cookies["django_language"] = "de"
    rows = client.get(reverse("export", args=[t.pk, "standings", "json"])).json()
    assert [r["stage"] for r in rows[:8]] == ["final"] * 4 + ["semi"] * 4


def test_registrations_csv_has_german_headers_in_a_german_file(client, tournament, organizer):
    services.announcement_save(tournament=tournament, by=organizer, cap=3)
    services.register(tournament=tournament, entry=Entry("Jürgen Groß", "SC Köln", 1970, 1650))
    client.force_login(organizer)
    url = reverse("registrations_csv", args=[tournament.pk])
    client.cookies["django_language"] = "de"
    text = client.get(url).content.decode("utf-8-sig")
    assert text.splitlines()[0] == "Name;Verein;Spielstärke;Geburtsjahr"
    assert text.splitlines()[1] == "Jürgen Groß;SC Köln;1650;1970"
    client.cookies["django_language"] = "en"
    text = client.get(url).content.decode("utf-8-sig")
    assert text.splitlines()[0] == "name,club,rating,birth_year"
