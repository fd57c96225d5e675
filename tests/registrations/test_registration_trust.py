"""What a registration may touch and what its form and link give away
(issue 33, points 3 and 4).

- A public registration never takes over a player the organizer entered by
  hand: one of the same name and club (after the roster's folding) waits as
  "possibly the same person" until the organizer joins them or keeps them
  apart (logged); a personal link changes and withdraws only what its
  registration created.
- A form's signed stamp is no bearer credential: sent again from another
  browser it gets no link (a double submit from the same browser still gets
  its own), and every page that shows a personal link is ``no-store``.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tournaments.models import Player
from tournaments.registrations import services
from tournaments.registrations.forms import form_stamp
from tournaments.registrations.models import Registration, RegistrationEvent
from tournaments.registrations.services import Entry
from tournaments.services import players as player_services

pytestmark = pytest.mark.django_db

DE = {"HTTP_ACCEPT_LANGUAGE": "de"}
STAMP = re.compile(r'name="stamp" value="([^"]+)"')


@pytest.fixture(autouse=True)
def quick_forms(settings):
    settings.REGISTRATION_MIN_SECONDS = 0
    settings.REGISTRATION_LIMIT = 1000
    from django.core.cache import cache

    cache.clear()


@pytest.fixture
def announced(tournament, organizer):
    services.announcement_save(tournament=tournament, by=organizer, cap=3)
    return tournament


@pytest.fixture
def staff(organizer):
    c = Client()
    c.force_login(organizer)
    return c


def form(name, club="", **extra):
    return {"name": name, "club": club, "stamp": form_stamp(), **extra}


def register_post(client, tournament, data):
    return client.post(reverse("announcement_public", args=[tournament.pk]), data, **DE)


def token_of(response) -> str:
    assert response.status_code == 302, response.content.decode()[:2000]
    return re.search(r"/r/([^/]+)/", response["Location"]).group(1)


def action(staff, tournament, reg, what, **extra):
    return staff.post(
        reverse("registration_action", args=[tournament.pk, reg.pk, what]),
        follow=True,
        **DE,
        **extra,
    )


def change(client, token, **fields):
    data = {"name": "Anna Ahrens", "club": "SC Bonn", **fields}
    return client.post(reverse("registration_change", args=[token]), data, **DE)


def withdraw(client, token):
    return client.post(reverse("registration_withdraw", args=[token]), {"sure": "1"}, **DE)


def kinds(reg) -> list[str]:
    return list(
        RegistrationEvent.objects.filter(registration=reg)
        .order_by("at", "pk")
        .values_list("kind", flat=True)
    )


# -- point 3: the organizer's player is the organizer's --------------------------


def test_a_registration_of_the_same_name_and_club_leaves_the_organizers_player_alone(
    client, staff, announced, organizer
):
    added = player_services.player_add(
        tournament=announced,
        by=organizer,
        name="Anna Ahrens",
        club="SC Bonn",
        rating=1700,
        birth_year=1980,
    )
    token = token_of(
        register_post(
            client,
            announced,
            form("Anna Ahrens", "SC Bonn", rating="99999", birth_year="2010"),
        )
    )
    reg = Registration.objects.get()
    assert reg.status == Registration.CONFIRMED  # the place is held
    assert reg.player is None and reg.twin == added  # bound to nobody yet
    # the organizer sees it and is asked
    page = staff.get(reverse("registration_list", args=[announced.pk]), **DE).content.decode()
    assert "Vielleicht dieselbe Person wie Anna Ahrens (SC Bonn)" in page
    assert "Dieselbe Person: verbinden" in page and "Verschiedene Personen" in page
    # the link changes its own registration, never the organizer's entry
    assert change(client, token, rating="5", birth_year="2011").status_code == 302
    added.refresh_from_db()
    assert (added.rating, added.birth_year) == (1700, 1980)
    assert Registration.objects.get().rating == 5
    # withdrawing leaves the organizer's entry on the players page
    withdraw(client, token)
    assert Registration.objects.get().status == Registration.WITHDRAWN
    assert Player.objects.filter(pk=added.pk).exists()
    assert kinds(reg) == ["registered", "twin", "changed", "withdrawn"]


def test_joined_by_the_organizer_the_link_still_changes_and_removes_only_its_own(
    client, staff, announced, organizer
):
    added = player_services.player_add(
        tournament=announced, by=organizer, name="Anna Ahrens", club="SC Bonn", rating=1700
    )
    token = token_of(register_post(client, announced, form("Anna Ahrens", "SC Bonn")))
    reg = Registration.objects.get()
    page = action(staff, announced, reg, "join").content.decode()
    assert "Anna Ahrens ist mit dem Eintrag Anna Ahrens (SC Bonn) verbunden." in page
    reg.refresh_from_db()
    assert reg.player == added and reg.twin is None and not reg.owns_player
    # the log says who decided
    assert "mit dem Eintrag der Turnierleitung verbunden" in page
    assert RegistrationEvent.objects.filter(registration=reg, kind="joined", by=organizer).exists()
    # the link's rating and birth year stay the registration's
    change(client, token, rating="99999", birth_year="2010")
    added.refresh_from_db()
    assert (added.rating, added.birth_year) == (1700, None)
    # withdrawing unlinks: the organizer's entry stays
    withdraw(client, token)
    assert Player.objects.filter(pk=added.pk).exists()
    assert Registration.objects.get().player is None
    # nothing is left to decide
    page = action(staff, announced, reg, "join").content.decode()
    assert "Diese Anmeldung wartet auf keine Entscheidung." in page


def test_keeping_apart_the_very_same_name_and_club_is_refused_until_one_is_renamed(
    client, staff, announced, organizer
):
    added = player_services.player_add(
        tournament=announced, by=organizer, name="Anna Ahrens", club="SC Bonn"
    )
    token = token_of(register_post(client, announced, form("Anna Ahrens", "SC Bonn")))
    reg = Registration.objects.get()
    page = action(staff, announced, reg, "separate").content.decode()
    assert (
        "Anna Ahrens (SC Bonn) steht mit diesem Namen und Verein schon in der Spielerliste: "
        "Ändern Sie zuerst Name oder Verein bei einem der beiden."
    ) in page
    assert Player.objects.count() == 1 and Registration.objects.get().player is None
    Player.objects.filter(pk=added.pk).update(name="Anna Ahrens (Senior)")
    page = action(staff, announced, reg, "separate").content.decode()
    assert "Anna Ahrens steht jetzt als eigener Eintrag in der Spielerliste." in page
    reg.refresh_from_db()
    own = reg.player
    assert own is not None and own != added and reg.owns_player
    assert kinds(reg)[-1] == "kept_apart"
    # what the registration created, its link changes and withdraws
    change(client, token, rating="1500")
    own.refresh_from_db()
    assert own.rating == 1500
    withdraw(client, token)
    assert not Player.objects.filter(pk=own.pk).exists()
    assert Player.objects.filter(pk=added.pk).exists()


def test_a_folded_spelling_is_possibly_the_same_person_too(client, staff, announced, organizer):
    added = player_services.player_add(
        tournament=announced, by=organizer, name="Jürgen Groß", club="SC Köln"
    )
    register_post(client, announced, form("Juergen Gross", "SC Koeln"))
    reg = Registration.objects.get()
    assert reg.player is None and reg.twin == added
    # kept apart: two entries, each its own
    action(staff, announced, reg, "separate")
    reg.refresh_from_db()
    assert reg.player is not None and reg.player != added
    assert Player.objects.count() == 2


def test_a_waiting_registration_moved_up_or_confirmed_waits_for_the_decision_too(
    staff, announced, organizer
):
    for n in range(3):
        services.register(tournament=announced, entry=Entry(f"S{n}"))
    added = player_services.player_add(tournament=announced, by=organizer, name="Anna", club="SC")
    waiting = services.register(tournament=announced, entry=Entry("Anna", "SC")).registration
    assert waiting.status == Registration.WAITLISTED
    page = action(staff, announced, waiting, "confirm").content.decode()
    assert "Vielleicht dieselbe Person wie Anna (SC): Entscheiden Sie unten." in page
    waiting.refresh_from_db()
    assert waiting.status == Registration.CONFIRMED and waiting.player is None
    assert waiting.twin == added
    # moved up by a withdrawal: the same
    services.registration_reject(registration=waiting, by=organizer)
    bert = player_services.player_add(tournament=announced, by=organizer, name="Bert")
    second = services.register(tournament=announced, entry=Entry("Bert")).registration
    assert second.status == Registration.WAITLISTED
    services.registration_withdraw(registration=Registration.objects.get(name="S0"))
    second.refresh_from_db()
    assert second.status == Registration.CONFIRMED and second.player is None
    assert second.twin == bert and kinds(second)[-2:] == ["promoted", "twin"]


def test_a_registration_waiting_for_the_decision_checks_in_at_the_desk(
    client, announced, organizer
):
    player_services.player_add(tournament=announced, by=organizer, name="Anna", club="SC")
    token = token_of(register_post(client, announced, form("Anna", "SC")))
    services.check_in_open(tournament=announced, open=True, by=organizer)
    response = client.post(reverse("registration_check_in", args=[token]), follow=True, **DE)
    assert "Deine Anmeldung wartet noch auf die Turnierleitung. Frag am Empfang." in (
        response.content.decode()
    )
    assert not Player.objects.filter(checked_in=True).exists()


def test_the_organizer_adding_by_hand_also_decides_and_a_taken_entry_is_refused(
    announced, organizer
):
    added = player_services.player_add(tournament=announced, by=organizer, name="Anna", club="SC")
    first = services.register(tournament=announced, entry=Entry("Anna", "SC"), by=organizer)
    assert first.registration.player is None and first.registration.twin == added
    services.registration_join(registration=first.registration, by=organizer)
    # another registration waiting on the same entry (a race, a stale page)
    second = services.register(tournament=announced, entry=Entry("Anna B.", "SC"), by=organizer)
    Player.objects.filter(pk=second.registration.player_id).delete()
    Registration.objects.filter(pk=second.registration.pk).update(player=None, twin=added)
    with translation.override("de"), pytest.raises(services.ServiceError) as refused:
        services.registration_join(registration=second.registration, by=organizer)
    assert str(refused.value) == "Anna (SC) gehört schon zu einer anderen Anmeldung."
    assert Registration.objects.get(pk=first.registration.pk).player == added
    assert Registration.objects.get(pk=second.registration.pk).player is None


# -- point 4: a stamp is no credential, a link page is never stored --------------


def test_someone_elses_form_stamp_gets_no_link_and_registers_nobody(client, announced):
    page = client.get(reverse("announcement_public", args=[announced.pk]), **DE).content.decode()
    stamp = STAMP.search(page).group(1)
    data = {"name": "Anna", "club": "SC", "stamp": stamp}
    token = token_of(register_post(client, announced, data))
    other = Client()
    for sent in ({"name": "Mallory", "stamp": stamp}, data):
        response = register_post(other, announced, sent)
        body = response.content.decode()
        assert response.status_code == 400
        assert "Dieses Formular wurde schon gesendet. Bitte prüf deine Angaben" in body
        assert token not in body and "/r/" not in body
    assert Registration.objects.count() == 1
    # the browser that sent it (a double click) gets its own link again
    assert token_of(register_post(client, announced, data)) == token
    # the refused one got a fresh form: sending it registers its own entry
    fresh = STAMP.search(body).group(1)
    assert fresh != stamp
    assert token_of(register_post(other, announced, {"name": "Mallory", "stamp": fresh})) != token
    assert Registration.objects.count() == 2


def test_every_page_that_shows_a_personal_link_is_never_stored(client, staff, announced):
    def no_store(response):
        assert "no-store" in response.get("Cache-Control", ""), (
            response.status_code,
            response.get("Cache-Control"),
        )
        return response

    public = reverse("announcement_public", args=[announced.pk])
    no_store(client.get(public))  # the form carries its stamp
    assert no_store(register_post(client, announced, form(""))).status_code == 400
    sent = no_store(register_post(client, announced, form("Anna Ahrens", "SC Bonn")))
    token = token_of(sent)
    link = reverse("registration_link", args=[token])
    assert no_store(client.get(link + "?new=1")).status_code == 200
    assert no_store(change(client, token, club="TV Bonn")).status_code == 302
    assert no_store(change(client, token, name="")).status_code == 400
    assert no_store(client.post(reverse("registration_withdraw", args=[token]))).status_code == 200
    no_store(client.post(reverse("registration_check_in", args=[token])))
    assert no_store(client.post(reverse("registration_leave", args=[token]))).status_code == 200
    door = no_store(client.get(reverse("registration_door", args=[announced.pk])))
    assert door.status_code == 302 and door["Location"] == link
    no_store(client.get(reverse("registration_link", args=["x" * 22])))
    # the organizer's list shows a link added by hand or replaced
    added = staff.post(
        reverse("registration_add", args=[announced.pk]), {"name": "Bernd"}, follow=True, **DE
    )
    assert "/r/" in no_store(added).content.decode()
    reg = Registration.objects.get(name="Bernd")
    assert "/r/" in no_store(action(staff, announced, reg, "link")).content.decode()
