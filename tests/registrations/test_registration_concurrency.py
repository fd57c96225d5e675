"""The cap holds when players register at the same moment, and a freed place
goes to the first waiting player exactly once, also when withdrawals come
together (PostgreSQL: every thread its own connection)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.concurrency import at_once
from tournaments.models import Player
from tournaments.registrations import services
from tournaments.registrations.forms import form_stamp
from tournaments.registrations.models import Registration, RegistrationEvent
from tournaments.registrations.services import Entry
from tournaments.registrations.views._shared import BROWSER_COOKIE

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

CAP = 20


@pytest.fixture
def announced(require_postgres, tournament, organizer, settings):
    settings.REGISTRATION_MIN_SECONDS = 0
    settings.REGISTRATION_LIMIT = 1000
    services.announcement_save(tournament=tournament, by=organizer, cap=CAP)
    return tournament


def register(tournament, n):
    def call():
        return (
            Client()
            .post(
                reverse("announcement_public", args=[tournament.pk]),
                {"name": f"Spieler {n:02d}", "club": "SC", "stamp": form_stamp()},
                REMOTE_ADDR=f"198.51.100.{n}",
            )
            .status_code
        )

    return call


def statuses_in_order(tournament):
    return list(
        Registration.objects.filter(tournament=tournament)
        .order_by("position")
        .values_list("status", flat=True)
    )


def test_fifty_registrations_at_once_confirm_exactly_the_cap_and_the_rest_wait_in_order(
    announced,
):
    answers = at_once([register(announced, n) for n in range(50)])
    assert answers == [302] * 50
    assert statuses_in_order(announced) == ["confirmed"] * CAP + ["waitlisted"] * (50 - CAP)
    positions = list(
        Registration.objects.filter(tournament=announced)
        .order_by("position")
        .values_list("position", flat=True)
    )
    assert positions == list(range(1, 51))
    assert Player.objects.filter(tournament=announced).count() == CAP
    assert set(
        Player.objects.filter(tournament=announced).values_list("registration__status", flat=True)
    ) == {"confirmed"}


def test_withdrawals_at_once_each_give_their_place_to_the_next_waiting_exactly_once(announced):
    for n in range(30):
        services.register(tournament=announced, entry=Entry(f"Spieler {n:02d}"))
    leaving = list(
        Registration.objects.filter(tournament=announced, status="confirmed").order_by("position")[
            :8
        ]
    )
    # each withdrawal twice, all at the same moment
    calls = [
        (lambda reg=reg: services.registration_withdraw(registration=reg))
        for reg in leaving + leaving
    ]
    answers = at_once(calls)
    refused = [a for a in answers if isinstance(a, Exception)]
    assert len(refused) == 8  # the second withdrawal of each is refused
    assert statuses_in_order(announced) == (
        ["withdrawn"] * 8 + ["confirmed"] * (CAP - 8) + ["confirmed"] * 8 + ["waitlisted"] * 2
    )
    promoted = RegistrationEvent.objects.filter(registration__tournament=announced, kind="promoted")
    assert promoted.count() == 8
    assert sorted(promoted.values_list("registration__position", flat=True)) == list(
        range(CAP + 1, CAP + 9)
    )
    assert Player.objects.filter(tournament=announced).count() == CAP


def test_the_same_form_sent_twice_at_once_is_one_registration_with_one_link(announced):
    stamp = form_stamp()
    # a double click: one browser (the cookie its form came with) sends twice
    page = Client().get(reverse("announcement_public", args=[announced.pk]))
    browser = page.cookies[BROWSER_COOKIE].value

    def send():
        client = Client()
        client.cookies[BROWSER_COOKIE] = browser
        response = client.post(
            reverse("announcement_public", args=[announced.pk]),
            {"name": "Doppelt", "club": "SC", "stamp": stamp},
        )
        return response.status_code, response.get("Location")

    first, second = at_once([send, send])
    assert first[0] == second[0] == 302 and first[1] == second[1]
    assert Registration.objects.filter(tournament=announced).count() == 1
    assert Player.objects.filter(tournament=announced).count() == 1
