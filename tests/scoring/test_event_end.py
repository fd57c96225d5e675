"""The beginning and end of an event: date and venue, the
overview's next step, "finish tournament", the final standings PDF and the
certificates, read back from the PDFs."""

from __future__ import annotations

import datetime as dt
import html
import io
import re

import pdfplumber
import pytest
from django.urls import reverse
from django.utils import timezone

from scoring import services
from scoring.models import Submission
from scoring.printing import documents
from tests.scoring import handmade
from tests.scoring.test_result_entry import make_tables, post_data
from tournaments.models import Round, Tournament
from tournaments.services import event

pytestmark = pytest.mark.django_db


@pytest.fixture
def made(tournament, organizer):
    tournament.event_date = dt.date(2026, 11, 21)
    tournament.venue = "Vereinsheim Köln-Deutz"
    tournament.rounds = 3
    tournament.save()
    return handmade.build(tournament, organizer)


def pdf_text(content: bytes) -> list[str]:
    with pdfplumber.open(io.BytesIO(content)) as pdf:
        return [page.extract_text() or "" for page in pdf.pages]


def overview(client, tournament) -> str:
    page = client.get(reverse("tournament_detail", args=[tournament.pk]))
    assert page.status_code == 200
    content = html.unescape(page.content.decode())
    return content[content.index('id="next-step"') :]


# -- date and venue ---------------------------------------------------------------


def test_date_and_venue_are_set_on_the_tournament_form(client, organizer, tournament):
    client.force_login(organizer)
    form = client.get(reverse("tournament_edit", args=[tournament.pk])).content.decode()
    assert 'name="event_date"' in form and 'type="date"' in form and 'name="venue"' in form
    data = {
        "name": "Herbstturnier",
        "event_date": "2026-11-21",
        "venue": "Vereinsheim Köln-Deutz",
        "game": "quartett",
        "rounds": 3,
        "round_minutes": 45,
        "points_scheme": "placement",
        "grace_seconds": 60,
        "public": "on",
    }
    response = client.post(reverse("tournament_edit", args=[tournament.pk]), data)
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.event_date == dt.date(2026, 11, 21)
    assert tournament.venue == "Vereinsheim Köln-Deutz"
    page = client.get(reverse("tournament_detail", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="de")
    content = html.unescape(page.content.decode())
    assert "21. November 2026" in content and "Vereinsheim Köln-Deutz" in content
    for name in ("tournament_public", "tournament_list"):
        args = [tournament.pk] if name == "tournament_public" else []
        shown = html.unescape(client.get(reverse(name, args=args)).content.decode())
        assert "Vereinsheim Köln-Deutz" in shown, name
    bad = client.post(
        reverse("tournament_edit", args=[tournament.pk]), {**data, "event_date": "21st"}
    )
    assert bad.status_code == 200 and "Enter a valid date." in bad.content.decode()
    tournament.refresh_from_db()
    assert tournament.event_date == dt.date(2026, 11, 21)


# -- the overview's next step -----------------------------------------------------


def test_overview_leads_from_players_to_seating_to_the_clock(client, organizer, tournament):
    client.force_login(organizer)
    assert "Add or import the players." in overview(client, tournament)
    from tournaments import services as tservices

    players = [
        tservices.player_add(tournament=tournament, by=organizer, name=f"Spieler {i}")
        for i in range(4)
    ]
    assert "Check the players in." in overview(client, tournament)
    for p in players:
        tservices.player_set_checked_in(player=p, checked_in=True, by=organizer)
    assert "Seat round 1." in overview(client, tournament)
    rnd = Round.objects.create(tournament=tournament, number=1)
    assert "Check and publish the seating of round 1." in overview(client, tournament)
    rnd.published = True
    rnd.save()
    text = overview(client, tournament)
    assert "start the clock of round 1" in text
    assert reverse("round_detail", args=[tournament.pk, 1]) in text


def test_overview_counts_missing_sheets_then_offers_the_next_round(client, organizer):
    table, t2 = make_tables(organizer, "quartett", count=2)
    tournament = table.round.tournament
    rnd = table.round
    rnd.published = True
    rnd.status = Round.RUNNING
    rnd.deadline = timezone.now() + dt.timedelta(minutes=20)
    rnd.save()
    client.force_login(organizer)
    text = overview(client, tournament)
    assert "Round 1 is being played: 2 sheets missing." in text
    assert reverse("result_find", args=[tournament.pk, 1]) in text
    Round.objects.filter(pk=rnd.pk).update(status=Round.TIME_CALLED)
    sheet = {"s0_cards": 12, "s1_cards": 10, "s2_cards": 8}
    services.result_submit(table=table, sheet=sheet, by=organizer, expected_version=None)
    assert "Time is up in round 1: enter the last sheet." in overview(client, tournament)
    services.result_submit(table=t2, sheet=sheet, by=organizer, expected_version=None)
    assert Round.objects.get(pk=rnd.pk).status == Round.COMPLETE
    assert "Seat round 2." in overview(client, tournament)


# -- finishing ----------------------------------------------------------------------


def test_finish_needs_every_seated_round_complete(client, organizer, tournament, made):
    # round 4 is not played either, but asking would not help: refused at once
    Tournament.objects.filter(pk=tournament.pk).update(rounds=4)
    client.force_login(organizer)
    response = client.post(reverse("tournament_finish", args=[tournament.pk]), follow=True)
    content = html.unescape(response.content.decode())
    assert "Round 3 is not complete yet" in content and "not been played" not in content
    tournament.refresh_from_db()
    assert tournament.finished_at is None


def test_after_finishing_only_the_organizer_changes_results_with_a_reason(
    client, organizer, other_user, tournament, made
):
    Round.objects.filter(tournament=tournament, number=3).delete()
    tournament.scorekeepers.add(other_user)
    client.force_login(organizer)
    text = overview(client, tournament)
    assert "Finish tournament" in text and "after 2 of 3 rounds" in text
    # round 3 is missing: the first press only asks, naming it (a plain form)
    asked = html.unescape(
        client.post(reverse("tournament_finish", args=[tournament.pk])).content.decode()
    )
    assert "Round 3 has not been played" in asked and "after 2 of 3 rounds" in asked
    assert 'name="sure" value="1"' in asked
    tournament.refresh_from_db()
    assert not tournament.finished
    response = client.post(
        reverse("tournament_finish", args=[tournament.pk]), {"sure": "1"}, follow=True
    )
    content = html.unescape(response.content.decode())
    assert "The tournament is finished." in content
    tournament.refresh_from_db()
    assert tournament.finished
    assert reverse("print_certificates", args=[tournament.pk]) in content
    table = made["tables"][1, 1]
    confirmed = Submission.objects.get(table=table, status=Submission.CONFIRMED)
    sheet = {"s0_cards": 10, "s1_cards": 9, "s2_cards": 7, "s3_cards": 6}  # 32 cards
    # a scorekeeper: refused, nothing saved
    with pytest.raises(services.ServiceError, match="only the organizer"):
        services.result_submit(
            table=table, sheet=sheet, by=other_user, expected_version=confirmed.version,
            reason="x",
        )  # fmt: skip
    # the organizer without a reason: refused
    with pytest.raises(services.ReasonRequired):
        services.result_submit(
            table=table, sheet=sheet, by=organizer, expected_version=confirmed.version
        )
    assert Submission.objects.filter(table=table).count() == 1
    sub = services.result_submit(
        table=table, sheet=sheet, by=organizer, expected_version=confirmed.version,
        reason="sheet misread",
    )  # fmt: skip
    assert sub.status == Submission.CONFIRMED
    # the scorekeeper's page says so, and a save through it changes nothing
    client.force_login(other_user)
    url = reverse("result_entry", args=[tournament.pk, 1, 1])
    assert "only the organizer can change its results now" in client.get(url).content.decode()
    first = client.post(url, post_data(sheet, version=sub.version, reason="x"))
    checked = re.search(r'name="checked" value="([^"]+)"', first.content.decode()).group(1)
    response = client.post(url, post_data(sheet, version=sub.version, reason="x", checked=checked))
    assert response.status_code == 200
    assert Submission.objects.filter(table=table).count() == 2


def test_finishing_after_every_planned_round_takes_one_press(client, organizer, tournament, made):
    Round.objects.filter(tournament=tournament, number=3).delete()
    Tournament.objects.filter(pk=tournament.pk).update(rounds=2)  # both planned rounds played
    client.force_login(organizer)
    response = client.post(reverse("tournament_finish", args=[tournament.pk]), follow=True)
    assert "The tournament is finished." in html.unescape(response.content.decode())
    tournament.refresh_from_db()
    assert tournament.finished


def test_a_finished_tournament_can_be_opened_again(organizer, tournament, made):
    Round.objects.filter(tournament=tournament, number=3).delete()
    event.tournament_finish(tournament=tournament)
    with pytest.raises(event.ServiceError):
        event.tournament_finish(tournament=tournament)
    event.tournament_reopen(tournament=tournament)
    assert Tournament.objects.get(pk=tournament.pk).finished_at is None


def test_only_the_organizer_finishes(client, other_user, tournament, made):
    tournament.scorekeepers.add(other_user)
    client.force_login(other_user)
    response = client.post(reverse("tournament_finish", args=[tournament.pk]))
    assert response.status_code == 403
    assert "Finish tournament" not in overview(client, tournament)


# -- final standings and certificates ---------------------------------------------------


def test_final_standings_pdf_after_the_last_complete_round_with_clubs(
    client, organizer, tournament, made
):
    client.force_login(organizer)
    response = client.get(reverse("print_final", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    (page,) = pdf_text(response.content)
    assert "Endstand nach Runde 2" in page
    assert "21. November 2026" in page and "Vereinsheim Köln-Deutz" in page
    assert "Ayşe Şahin SC Köln" in page
    assert "Łukasz Wróblewski" in page
    # players without a game are not ranked
    assert "Zoë Ødegaard" not in page and "Ömer Kaya" not in page
    lines = [line for line in page.splitlines() if line[:1].isdigit()]
    assert lines[0].startswith("1 Ayşe Şahin")


def test_certificates_for_the_top_places(client, organizer, tournament, made):
    client.force_login(organizer)
    response = client.get(reverse("print_certificates", args=[tournament.pk]))
    pages = pdf_text(response.content)
    assert len(pages) == 3  # places 1, 2, 3 after round 2
    assert "Certificate" in pages[0] and "Place 1" in pages[0]
    assert "Ayşe Şahin" in pages[0] and "SC Köln" in pages[0]
    assert "Łukasz Wróblewski" in pages[1]
    for page in pages:
        assert "Herbstturnier" in page
        assert "Vereinsheim Köln-Deutz, Nov. 21, 2026" in page
    five = client.get(reverse("print_certificates", args=[tournament.pk]) + "?places=5")
    assert len(pdf_text(five.content)) == 5
    german = client.get(
        reverse("print_certificates", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="de"
    )
    first = pdf_text(german.content)[0]
    assert "Urkunde" in first and "1. Platz" in first and "21. November 2026" in first


@pytest.mark.parametrize("places", ["0", "x", "51", "-1"])
def test_a_bad_number_of_certificates_is_a_clear_error(client, organizer, tournament, made, places):
    client.force_login(organizer)
    url = reverse("print_certificates", args=[tournament.pk])
    response = client.get(url + f"?places={places}", follow=True)
    assert response.status_code == 200
    assert "give a number of places from 1 to 50" in html.unescape(response.content.decode())


def test_no_final_standings_before_a_round_is_complete(client, organizer, tournament):
    client.force_login(organizer)
    response = client.get(reverse("print_final", args=[tournament.pk]), follow=True)
    assert "No round is complete yet" in html.unescape(response.content.decode())
    with pytest.raises(documents.PrintError):
        documents.render("certificates", tournament)


def test_overview_in_german_names_the_finished_state(client, organizer, tournament, made):
    Round.objects.filter(tournament=tournament, number=3).delete()
    event.tournament_finish(tournament=tournament)
    client.force_login(organizer)
    page = client.get(reverse("tournament_detail", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="de")
    content = html.unescape(page.content.decode())
    assert "Das Turnier ist beendet: Der Endstand steht fest." in content
    assert "Beendet am " in content and "Urkunden (PDF)" in content
