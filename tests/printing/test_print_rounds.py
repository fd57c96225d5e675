"""Every standings print says which rounds it counts, and the final standings
count every complete round: a round whose every table has its result,
whether or not its clock ran out (the final standings printed
"Endstand nach Runde 1" while every sheet of round 4 was in and the pages
showed round 4)."""

from __future__ import annotations

import io

import pdfplumber
import pytest
from django.urls import reverse

from scoring.models import Submission
from scoring.printing import documents
from tournaments import services
from tournaments.models import Round, Seat, Table

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Bernd", "Clara", "Dora", "Emil", "Fritz", "Gerda", "Hans"]


def pdf_text(pdf: bytes) -> str:
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        return "\n".join(page.extract_text() or "" for page in doc.pages)


@pytest.fixture
def event(tournament, organizer):
    """Four planned rounds of two tables; ``play(n, tables, status)`` seats
    round n and confirms the results of its first ``tables`` tables."""
    tournament.rounds = 4
    tournament.save()
    players = [services.player_add(tournament=tournament, by=organizer, name=n) for n in NAMES]

    def play(number, tables, status):
        rnd = Round.objects.create(tournament=tournament, number=number, status=status)
        for t in range(2):
            table = Table.objects.create(round=rnd, number=t + 1)
            seated = players[4 * t : 4 * t + 4]
            seated = seated[number % 4 :] + seated[: number % 4]
            for pos, player in enumerate(seated):
                Seat.objects.create(table=table, player=player, position=pos)
            if t < tables:
                Submission.objects.create(
                    table=table,
                    version=1,
                    status=Submission.CONFIRMED,
                    ranks=[1, 2, 3, 4],
                    figures=[0, 0, 0, 0],
                    by=organizer,
                )

    return play


def german(client, organizer, url) -> str:
    client.force_login(organizer)
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    return pdf_text(response.content)


def test_the_final_standings_count_rounds_whose_sheets_are_all_in(
    client, organizer, tournament, event
):
    """Round 1's clock closed it; rounds 2 to 4 still "run" (their clocks never
    ran out, round 3 started beside round 2), but all their sheets are in."""
    event(1, 2, Round.COMPLETE)
    for number in (2, 3, 4):
        event(number, 2, Round.RUNNING)
    final = german(client, organizer, reverse("print_final", args=[tournament.pk]))
    assert "Endstand nach Runde 4 von 4" in final
    assert "Gezählt: Runden 1–4." in final
    assert "nach Runde 1 " not in final
    certificates = german(client, organizer, reverse("print_certificates", args=[tournament.pk]))
    assert "Endstand nach Runde 4 von 4" in certificates


def test_an_incomplete_round_ends_what_the_final_standings_count(
    client, organizer, tournament, event
):
    event(1, 2, Round.COMPLETE)
    event(2, 2, Round.COMPLETE)
    event(3, 1, Round.RUNNING)  # one sheet missing
    event(4, 2, Round.RUNNING)  # played beside round 3, all in
    counts = documents.final_counts(tournament)
    assert [r["number"] for r in counts["rounds"]] == [1, 2]
    final = german(client, organizer, reverse("print_final", args=[tournament.pk]))
    assert "Endstand nach Runde 2 von 4" in final
    assert "Gezählt: Runden 1–2." in final
    assert "Nicht gezählt: Runde 3 (Tische mit Ergebnis: 1 von 2); Runde 4" in final


def test_the_standings_now_name_the_round_in_progress(client, organizer, tournament, event):
    event(1, 2, Round.COMPLETE)
    event(2, 2, Round.COMPLETE)
    event(3, 1, Round.RUNNING)
    now = german(client, organizer, reverse("print_standings", args=[tournament.pk]))
    assert "Tabelle während Runde 3 von 4" in now
    assert "Gezählt: Runden 1–2; 1 von 2 Tischen der Runde 3." in now
    after2 = german(
        client, organizer, reverse("print_standings", args=[tournament.pk]) + "?round=2"
    )
    assert "Tabelle nach Runde 2 von 4" in after2 and "Gezählt: Runden 1–2." in after2
    client.force_login(organizer)
    english = pdf_text(
        client.get(reverse("print_standings", args=[tournament.pk]) + "?round=1").content
    )
    assert "Standings after round 1 of 4" in english and "Counts round 1." in english


def test_a_round_of_byes_only_that_the_clock_closed_is_complete(tournament, event):
    event(1, 2, Round.COMPLETE)
    Round.objects.create(tournament=tournament, number=2, status=Round.COMPLETE)  # no table
    event(3, 0, Round.SEATED)  # seated, nothing played
    counts = documents.final_counts(tournament)
    assert [r["number"] for r in counts["rounds"]] == [1, 2]
    assert [r["number"] for r in counts["left_out"]] == [3]
