"""Pages that speak the organizer's language: the seating page leads with
tables and keeps the algorithm's figures under "details", "Seat round N" is
gone once every round is seated, and tables of a round that has not started
are not "playing"."""

import re

import pytest
from django.urls import reverse

from tournaments.models import Player
from tournaments.services import seating as seating_services

pytestmark = pytest.mark.django_db


def players(tournament, n):
    for k in range(n):
        Player.objects.create(tournament=tournament, name=f"Spieler {k:02d}", checked_in=True)


def test_seating_figures_are_under_details(client, organizer, tournament):
    players(tournament, 8)
    seating_services.round_seat(tournament=tournament, by=organizer, seed=123456789012345678)
    client.force_login(organizer)
    html = client.get(reverse("round_seating", args=[tournament.pk, 1])).content.decode()
    summary = re.search(r'<p class="seating-summary">(.*?)</p>', html, re.S).group(1)
    assert "8 players" in summary and "at 2 tables" in summary
    details = re.search(r"<details class=\"seating-stats\">(.*?)</details>", html, re.S).group(1)
    assert "123456789012345678" in details
    before_details = html[: html.index('<details class="seating-stats">')]
    assert "123456789012345678" not in before_details
    assert " s</dd>" in details  # the seconds the algorithm took, only there


def test_seat_round_n_disappears_once_every_round_is_seated(client, organizer, tournament):
    tournament.rounds = 1
    tournament.save()
    players(tournament, 8)
    client.force_login(organizer)
    url = reverse("round_list", args=[tournament.pk])
    assert "Seat round 1" in client.get(url).content.decode()
    seating_services.round_seat(tournament=tournament, by=organizer)
    html = client.get(url).content.decode()
    assert "Seat round" not in html
    assert "1 round has been seated" in html


def test_tables_of_a_round_not_started_are_not_playing(client, organizer, tournament):
    players(tournament, 8)
    seating_services.round_seat(tournament=tournament, by=organizer)
    client.force_login(organizer)
    html = client.get(reverse("round_detail", args=[tournament.pk, 1])).content.decode()
    tables = re.search(r'<section id="round-tables".*?</section>', html, re.S).group(0)
    assert "playing" not in re.sub(r"<[^>]+>", " ", tables)  # the words shown
    assert "2 tables, the round has not started yet" in tables
    assert tables.count(">not started<") == 2
