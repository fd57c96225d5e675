"""Players sign up themselves: the announcement, registration with a cap and
a waitlist, the personal link (which acts for its own registration only),
the organizer's list and actions with their log, self check-in and no-shows
at the door, leaving between rounds, and every bad input refused with a
clear message and nothing changed."""

from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from tests.examples import examples
from tests.factories import seated_round
from tournaments.models import Player, PlayerEvent, Round
from tournaments.registrations import rules, selectors, services
from tournaments.registrations.forms import form_stamp
from tournaments.registrations.models import Registration, RegistrationEvent
from tournaments.registrations.services import Entry
from tournaments.roster_models import Person
from tournaments.services.errors import ServiceError

pytestmark = pytest.mark.django_db

DE = {"HTTP_ACCEPT_LANGUAGE": "de"}


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


def form(name, club="", **extra):
    return {"name": name, "club": club, "stamp": form_stamp(), **extra}


def register_post(client, tournament, data, **headers):
    return client.post(
        reverse("announcement_public", args=[tournament.pk]), data, **{**DE, **headers}
    )


def token_of(response) -> str:
    assert response.status_code == 302, response.content.decode()[:2000]
    return re.search(r"/r/([^/]+)/", response["Location"]).group(1)


def status_of(name):
    return Registration.objects.get(name=name).status


def test_the_public_page_shows_places_left_and_registering_takes_one(client, announced):
    page = client.get(reverse("announcement_public", args=[announced.pk]), **DE)
    assert "Noch 3 Plätze frei (von 3)" in page.content.decode()
    token = token_of(register_post(client, announced, form("Anna Ahrens", "SC Bonn")))
    page = client.get(reverse("announcement_public", args=[announced.pk]), **DE)
    assert "Noch 2 Plätze frei (von 3)" in page.content.decode()
    me = client.get(reverse("registration_link", args=[token]), **DE).content.decode()
    assert "Dein Platz ist bestätigt" in me and "<svg" in me  # the QR code to keep
    reg = Registration.objects.get()
    # the player is in the tournament; only the hash of the link is stored
    assert reg.player.name == "Anna Ahrens" and reg.player.club == "SC Bonn"
    assert token not in reg.token_hash and reg.token_hash != token


def test_beyond_the_cap_players_wait_in_order_and_a_withdrawal_moves_the_first_up(
    announced, organizer
):
    made = [services.register(tournament=announced, entry=Entry(f"Spieler {n}")) for n in range(6)]
    assert [s.registration.status for s in made] == ["confirmed"] * 3 + ["waitlisted"] * 3
    assert Player.objects.filter(tournament=announced).count() == 3
    assert [selectors.waiting_place(s.registration) for s in made[3:]] == [1, 2, 3]
    services.registration_withdraw(registration=made[1].registration)
    assert status_of("Spieler 1") == "withdrawn"
    assert status_of("Spieler 3") == "confirmed"  # the first waiting, exactly once
    assert [status_of(f"Spieler {n}") for n in (4, 5)] == ["waitlisted", "waitlisted"]
    assert selectors.waiting_place(Registration.objects.get(name="Spieler 4")) == 1
    assert set(Player.objects.filter(tournament=announced).values_list("name", flat=True)) == {
        "Spieler 0",
        "Spieler 2",
        "Spieler 3",
    }
    kinds = list(
        RegistrationEvent.objects.filter(registration__name="Spieler 3").values_list(
            "kind", flat=True
        )
    )
    assert kinds == ["registered", "waitlisted", "promoted"]
    # withdrawing again changes nothing
    with pytest.raises(ServiceError):
        services.registration_withdraw(registration=made[1].registration)
    assert Registration.objects.filter(status="confirmed").count() == 3


def test_a_raised_cap_moves_the_first_waiting_up(announced, organizer):
    for n in range(5):
        services.register(tournament=announced, entry=Entry(f"Spieler {n}"))
    services.announcement_save(tournament=announced, by=organizer, cap=4)
    assert [status_of(f"Spieler {n}") for n in range(5)] == ["confirmed"] * 4 + ["waitlisted"]


def test_a_link_acts_only_for_its_own_registration(client, announced):
    a = token_of(register_post(client, announced, form("Anna")))
    b = token_of(register_post(client, announced, form("Bernd")))
    client.post(reverse("registration_withdraw", args=[a]), {"sure": "1"}, **DE)
    assert status_of("Anna") == "withdrawn" and status_of("Bernd") == "confirmed"
    client.post(
        reverse("registration_change", args=[b]),
        {"name": "Bernd B.", "club": "X"},
        **DE,
    )
    assert Registration.objects.filter(name="Bernd B.", club="X").count() == 1
    assert status_of("Anna") == "withdrawn"
    # the link's page names only its own registration
    page = client.get(reverse("registration_link", args=[b]), **DE).content.decode()
    assert "Bernd B." in page and "Anna" not in page


@hsettings(max_examples=examples(40), deadline=None, suppress_health_check=list(HealthCheck))
@given(forged=st.text(min_size=0, max_size=80))
def test_a_forged_link_is_refused_and_changes_nothing(client, announced, forged):
    if not Registration.objects.exists():
        services.register(tournament=announced, entry=Entry("Anna"))
    token = forged.replace("/", "x").replace("\x00", "") or "x"
    for name in ("registration_withdraw", "registration_check_in", "registration_leave"):
        try:
            url = reverse(name, args=[token])
        except Exception:
            continue
        response = client.post(url, {"sure": "1"}, **DE)
        assert response.status_code == 404
        assert "Dieser Link ist nicht gültig" in response.content.decode()
    assert status_of("Anna") == "confirmed"
    assert RegistrationEvent.objects.count() == 1


@hsettings(max_examples=examples(60), deadline=None, suppress_health_check=list(HealthCheck))
@given(
    name=st.one_of(st.text(max_size=300), st.just("x" * 10_000), st.just("  ")),
    club=st.one_of(st.text(max_size=300), st.just("y" * 10_000)),
    birth_year=st.one_of(st.none(), st.integers(-(10**6), 10**6).map(str), st.text(max_size=8)),
    rating=st.one_of(st.none(), st.integers(-(10**7), 10**7).map(str), st.text(max_size=8)),
)
def test_any_form_input_is_registered_or_refused_with_a_message(
    client, announced, name, club, birth_year, rating
):
    before = Registration.objects.count()
    data = form(name, club)
    if birth_year is not None:
        data["birth_year"] = birth_year
    if rating is not None:
        data["rating"] = rating
    response = register_post(client, announced, data)
    assert response.status_code in (302, 400)
    if response.status_code == 400:
        html = response.content.decode()
        assert 'class="error' in html or "errors-box" in html
        assert Registration.objects.count() == before
    else:
        reg = Registration.objects.order_by("-pk").first()
        assert reg.name == " ".join(name.split()) and len(reg.name) <= 200
        assert reg.birth_year is None or 1900 <= reg.birth_year <= timezone.localdate().year


def test_the_same_form_sent_twice_makes_one_registration_with_one_link(client, announced):
    data = form("Anna")
    first = token_of(register_post(client, announced, data))
    second = token_of(register_post(client, announced, data))
    assert first == second
    assert Registration.objects.count() == 1 and Player.objects.count() == 1


def test_bots_and_bad_stamps_are_refused_with_a_message(client, announced, settings):
    response = register_post(client, announced, form("Bot", website="http://spam.example"))
    assert response.status_code == 400
    assert "Dieses Formular konnte nicht gesendet werden" in response.content.decode()
    response = register_post(client, announced, {"name": "Forged", "stamp": "abc:def"})
    assert "Dieses Formular ist abgelaufen" in response.content.decode()
    settings.REGISTRATION_MIN_SECONDS = 3
    response = register_post(client, announced, form("Quick"))
    assert "Das ging sehr schnell" in response.content.decode()
    ok = {"name": "Human", "stamp": form_stamp(at=time.time() - 5)}
    assert register_post(client, announced, ok).status_code == 302
    assert list(Registration.objects.values_list("name", flat=True)) == ["Human"]


def test_a_closed_deadline_and_a_closed_registration_change_nothing(client, announced, organizer):
    services.announcement_save(
        tournament=announced, by=organizer, deadline=timezone.now() - timedelta(minutes=1)
    )
    response = register_post(client, announced, form("Late"))
    assert response.status_code == 400
    assert "Der Meldeschluss ist vorbei." in response.content.decode()
    services.announcement_save(tournament=announced, by=organizer, deadline=None, open=False)
    response = register_post(client, announced, form("Late"))
    assert "Die Anmeldung ist geschlossen." in response.content.decode()
    assert not Registration.objects.exists()
    # the organizer still adds by hand
    services.register(tournament=announced, entry=Entry("Late"), by=organizer)
    assert status_of("Late") == "confirmed"


def test_a_near_duplicate_of_name_and_club_is_recognised(client, announced):
    token_of(register_post(client, announced, form("Jürgen Groß", "SC Köln")))
    response = register_post(client, announced, form("Juergen Gross", "SC Koeln"))
    assert response.status_code == 400
    assert "Jürgen Groß (SC Köln) ist schon gemeldet." in response.content.decode()
    # the same name in another club is someone else
    token_of(register_post(client, announced, form("Juergen Gross", "TV Bonn")))
    assert Registration.objects.count() == 2


def test_a_registration_links_to_its_roster_person(announced, organizer):
    person = Person.objects.create(owner=organizer, name="Anna Ahrens", club="SC Bonn")
    Person.objects.create(owner=organizer, name="Jürgen Groß", club="TV Köln")
    a = services.register(tournament=announced, entry=Entry("anna  ahrens", "SC Bonn"))
    assert a.registration.person == person and a.registration.player.person == person
    b = services.register(tournament=announced, entry=Entry("Juergen Gross", "TV Koeln"))
    assert b.registration.person is None  # a near match is only a hint
    row = next(r for r in selectors.organizer_list(announced) if r["reg"].name == "Juergen Gross")
    assert row["near"] == ["Jürgen Groß (TV Köln)"]


def test_registrations_per_address_are_limited(client, announced, settings):
    settings.REGISTRATION_LIMIT = 2
    token_of(register_post(client, announced, form("A")))
    token_of(register_post(client, announced, form("B")))
    response = register_post(client, announced, form("C"))
    assert response.status_code == 429
    assert "Von dieser Adresse wurden zu viele Anmeldungen" in response.content.decode()
    # another address may still register
    token_of(register_post(client, announced, form("C"), REMOTE_ADDR="203.0.113.9"))
    assert Registration.objects.count() == 3


def test_the_link_is_mailed_where_the_site_sends_mail(
    client, announced, settings, monkeypatch, django_capture_on_commit_callbacks
):
    settings.REGISTRATION_MAIL = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    from tournaments.registrations import mail as registration_mail
    from tournaments.registrations import tasks

    # the worker runs the task at once
    monkeypatch.setattr(
        registration_mail, "send_to_worker", lambda **kw: tasks.registration_mail(**kw)
    )
    with django_capture_on_commit_callbacks(execute=True):
        token = token_of(register_post(client, announced, form("Anna", email="anna@example.org")))
    assert len(mail.outbox) == 1 and token in mail.outbox[0].body
    assert mail.outbox[0].to == ["anna@example.org"]
    # the address is not stored anywhere in the registration
    assert "anna@example.org" not in str(Registration.objects.values().get())


def test_without_mail_the_form_asks_no_address(client, announced):
    page = client.get(reverse("announcement_public", args=[announced.pk]), **DE).content.decode()
    assert 'name="email"' not in page


def test_public_names_only_with_the_setting_and_consent(client, announced, organizer):
    services.register(tournament=announced, entry=Entry("Anna", consent_public=True))
    services.register(tournament=announced, entry=Entry("Bernd", consent_public=False))
    page = client.get(reverse("announcement_public", args=[announced.pk]), **DE).content.decode()
    assert "Anna" not in page and "Bernd" not in page
    services.announcement_save(tournament=announced, by=organizer, public_names=True)
    page = client.get(reverse("announcement_public", args=[announced.pk]), **DE).content.decode()
    assert "Anna" in page and "Bernd" not in page


def test_the_organizer_confirms_moves_rejects_and_replaces_a_link(client, announced, organizer):
    signed = [services.register(tournament=announced, entry=Entry(f"S{n}")) for n in range(6)]
    client.force_login(organizer)
    url = lambda reg, action: reverse(  # noqa: E731
        "registration_action", args=[announced.pk, reg.pk, action]
    )
    s5 = signed[5].registration
    client.post(url(s5, "up"))
    client.post(url(s5, "up"))
    assert selectors.waiting_place(Registration.objects.get(pk=s5.pk)) == 1
    client.post(url(signed[0].registration, "reject"))
    assert status_of("S0") == "rejected" and status_of("S5") == "confirmed"
    client.post(url(signed[3].registration, "confirm"))  # beyond the cap, by hand
    assert status_of("S3") == "confirmed"
    response = client.post(url(signed[1].registration, "link"), follow=True)
    new = re.search(r"/r/([A-Za-z0-9_-]+)/", response.content.decode()).group(1)
    assert client.get(reverse("registration_link", args=[signed[1].token])).status_code == 404
    assert client.get(reverse("registration_link", args=[new])).status_code == 200
    page = client.get(reverse("registration_list", args=[announced.pk]), **DE).content.decode()
    for text in ("auf der Warteliste verschoben", "abgelehnt", "von Hand bestätigt", "orga"):
        assert text in page
    # a registration of another tournament is not found through this one
    assert (
        client.post(
            reverse("registration_action", args=[announced.pk + 999, s5.pk, "reject"])
        ).status_code
        == 404
    )


def test_self_check_in_only_while_open_and_no_shows_make_room_for_those_waiting_here(
    client, announced, organizer
):
    tokens = [token_of(register_post(client, announced, form(f"S{n}"))) for n in range(5)]
    response = client.post(reverse("registration_check_in", args=[tokens[0]]), follow=True, **DE)
    assert "Der Check-in ist nicht geöffnet" in response.content.decode()
    assert not Player.objects.filter(checked_in=True).exists()
    services.check_in_open(tournament=announced, open=True, by=organizer)
    client.post(reverse("registration_check_in", args=[tokens[0]]), **DE)
    client.post(reverse("registration_check_in", args=[tokens[4]]), **DE)  # waiting, here
    assert Player.objects.get(name="S0").checked_in
    assert Registration.objects.get(name="S4").present_at is not None
    dropped, moved = services.drop_no_shows(tournament=announced, by=organizer)
    assert sorted(p.name for p in dropped) == ["S1", "S2"]
    assert [r.name for r in moved] == ["S4"]  # S3 waits first but is not here
    assert status_of("S1") == "no_show" and status_of("S3") == "waitlisted"
    s4 = Player.objects.get(name="S4")
    assert s4.checked_in and not s4.dropped
    assert PlayerEvent.objects.filter(player__name="S1", kind="drop", by=organizer).exists()


def test_closing_check_in_asks_once_naming_who_is_dropped_and_closes_registration(
    client, announced, organizer
):
    for n in range(3):
        token_of(register_post(client, announced, form(f"S{n}")))
    Player.objects.filter(name="S0").update(checked_in=True)
    client.force_login(organizer)
    url = reverse("no_shows_drop", args=[announced.pk])
    # the first press only asks, naming the two who will be dropped
    page = client.post(url).content.decode()
    assert "2 players have not checked in and will be dropped" in page
    # the list's names (not the page's: a random form token may hold "S0")
    listed = page.split('<ul class="no-shows">')[1].split("</ul>")[0]
    assert sorted(re.findall(r"<li>([^<]*)</li>", listed)) == ["S1", "S2"]
    assert not Player.objects.filter(dropped=True).exists()
    assert selectors.announcement_of(announced).open
    response = client.post(url, {"sure": "1"}, follow=True)
    assert "Check-in and registration are closed: 2 players" in response.content.decode()
    assert sorted(Player.objects.filter(dropped=True).values_list("name", flat=True)) == [
        "S1",
        "S2",
    ]
    announcement = selectors.announcement_of(announced)
    assert not announcement.open and not announcement.check_in_open
    # registration is closed: the public page takes nobody more
    register_post(client, announced, form("Late"))
    assert not Registration.objects.filter(name="Late").exists()


def test_closing_check_in_with_everybody_here_says_so_and_just_closes(client, announced, organizer):
    token_of(register_post(client, announced, form("S0")))
    Player.objects.update(checked_in=True)
    client.force_login(organizer)
    response = client.post(reverse("no_shows_drop", args=[announced.pk]), follow=True)
    assert "Everybody has checked in: nobody is dropped" in response.content.decode()
    assert not selectors.announcement_of(announced).open


def test_leaving_between_rounds_from_the_personal_and_the_seat_link(client, announced, organizer):
    tokens = [token_of(register_post(client, announced, form(f"S{n}"))) for n in range(3)]
    Player.objects.update(checked_in=True)
    seated_round(announced, players=1, start=True, checked_in=True)
    page = client.get(reverse("registration_link", args=[tokens[0]]), **DE).content.decode()
    assert "Turnier verlassen" in page
    response = client.post(
        reverse("registration_leave", args=[tokens[0]]), {"sure": "1"}, follow=True, **DE
    )
    assert "Runde 1 wird gespielt" in response.content.decode()
    assert not Player.objects.get(name="S0").dropped
    Round.objects.filter(tournament=announced).update(status=Round.COMPLETE)
    # asked once: the first press only asks
    response = client.post(reverse("registration_leave", args=[tokens[0]]), **DE)
    assert "Turnier verlassen?" in response.content.decode()
    assert not Player.objects.get(name="S0").dropped
    client.post(reverse("registration_leave", args=[tokens[0]]), {"sure": "1"}, **DE)
    assert Player.objects.get(name="S0").dropped
    assert PlayerEvent.objects.filter(player__name="S0", kind="drop", by=None).exists()
    # the organizer's overview names who left
    client.force_login(organizer)
    overview = client.get(reverse("tournament_detail", args=[announced.pk]), **DE).content.decode()
    assert "S0" in overview.split('id="left-themselves"')[1]
    # from a seat link
    from tournaments.play.links import seat_keys

    rnd = Round.objects.get(tournament=announced, number=1)
    s1 = Player.objects.get(name="S1")
    key = seat_keys(rnd.pk, [s1.pk])[s1.pk]
    seat_page = client.get(reverse("seat_link", args=[key]), **DE).content.decode()
    assert reverse("seat_leave", args=[key]) in seat_page
    client.post(reverse("seat_leave", args=[key]), {"sure": "1"}, **DE)
    assert Player.objects.get(name="S1").dropped
    assert not Player.objects.get(name="S2").dropped


def test_entries_for_the_laptop_are_plain_data_in_order(announced, organizer):
    services.register(tournament=announced, entry=Entry("Anna", "SC", 1990, 1500))
    for n in range(3):
        services.register(tournament=announced, entry=Entry(f"S{n}"))
    services.registration_withdraw(registration=Registration.objects.get(name="S0"))
    import json

    entries = selectors.entries_for_laptop(announced)
    assert json.loads(json.dumps(entries)) == entries
    assert [(e["name"], e["status"], e["position"]) for e in entries] == [
        ("Anna", "confirmed", 1),
        ("S0", "withdrawn", 2),
        ("S1", "confirmed", 3),
        ("S2", "confirmed", 4),
    ]
    assert entries[0] | {"key": None} == {
        "key": None,
        "name": "Anna",
        "club": "SC",
        "birth_year": 1990,
        "rating": 1500,
        "status": "confirmed",
        "position": 1,
    }
    keys = {e["key"] for e in entries}
    assert len(keys) == 4 and all(re.fullmatch(r"[0-9a-f]{32}", k) for k in keys)
    assert not set(Registration.objects.values_list("token_hash", flat=True)) & keys


@given(
    cap=st.integers(0, 10),
    confirmed=st.integers(0, 10),
    waiting=st.lists(st.tuples(st.integers(1, 100), st.booleans()), unique_by=lambda t: t[0]),
)
def test_promotions_take_the_first_waiting_into_the_free_places(cap, confirmed, waiting):
    queue = [rules.Waiting(pos, pos, here) for pos, here in waiting]
    moved = rules.promotions(cap, confirmed, queue)
    assert len(moved) == min(max(0, cap - confirmed), len(queue))
    assert moved == sorted(p for p, _ in waiting)[: len(moved)]
    here = rules.promotions(cap, confirmed, queue, present_only=True)
    assert here == sorted(p for p, h in waiting if h)[: len(here)]


def test_the_confirmed_players_go_to_the_laptop_as_a_list_its_import_reads(
    client, announced, organizer
):
    from tournaments.player_import import parse_players

    services.register(tournament=announced, entry=Entry("Jürgen Groß", "SC Köln", 1970, 1650))
    services.register(tournament=announced, entry=Entry("-Minus", "=SUM(A1)"))
    services.register(tournament=announced, entry=Entry("Zoë Berg"))
    services.register(tournament=announced, entry=Entry("Waiting One"))  # beyond the cap
    client.force_login(organizer)
    response = client.get(reverse("registrations_csv", args=[announced.pk]), **DE)
    assert response.status_code == 200
    rows, errors = parse_players(response.content.decode("utf-8-sig"))
    assert errors == []
    assert [(r.name, r.club, r.birth_year, r.rating) for r in rows] == [
        ("Jürgen Groß", "SC Köln", 1970, 1650),
        ("'-Minus", "'=SUM(A1)", None, None),  # a spreadsheet never runs it as a formula
        ("Zoë Berg", "", None, None),
    ]


def test_the_announcement_form_refuses_bad_values_and_changes_nothing(client, announced, organizer):
    client.force_login(organizer)
    url = reverse("announcement_edit", args=[announced.pk])
    base = {"open": "on", "cap": "3", "note": "", "venue": "", "event_date": ""}
    for bad, message in (
        ({"cap": "0"}, "größer oder gleich 1"),
        ({"cap": "2001"}, "kleiner oder gleich 2000"),
        ({"note": "n" * 2001}, "höchstens 2000 Zeichen"),
        ({"venue": "v" * 201}, "höchstens 200 Zeichen"),
        ({"deadline": "gestern"}, "gültiges Datum und Uhrzeit"),
        ({"deadline": "0001-01-01T00:00"}, "zwischen den Jahren 2000 und 2999"),
    ):
        response = client.post(url, base | bad, **DE)
        assert response.status_code == 400
        assert message in response.content.decode(), bad
    announced.announcement.refresh_from_db()
    assert announced.announcement.cap == 3
    assert client.post(url, base | {"cap": "5"}, **DE).status_code == 302
    announced.announcement.refresh_from_db()
    assert announced.announcement.cap == 5


def test_the_door_sends_a_phone_back_to_its_link_and_the_poster_carries_the_code(
    client, announced, organizer
):
    door = reverse("registration_door", args=[announced.pk])
    assert "Kein persönlicher Link?" in client.get(door, **DE).content.decode()
    token = token_of(register_post(client, announced, form("Anna")))
    client.get(reverse("registration_link", args=[token]))
    response = client.get(door)
    assert response.status_code == 302 and response["Location"].endswith(f"/r/{token}/")
    staff = type(client)()
    staff.force_login(organizer)
    poster = staff.get(reverse("check_in_poster", args=[announced.pk]), **DE).content.decode()
    assert "<svg" in poster and door in poster
    # someone else's phone is not sent to Anna's link
    assert type(client)().get(door).status_code == 200
    # while self check-in is open the public page (the projector's join
    # code leads there) offers the check-in
    public = reverse("tournament_public", args=[announced.pk])
    assert door not in client.get(public).content.decode()
    services.check_in_open(tournament=announced, open=True, by=organizer)
    assert door in client.get(public).content.decode()


def test_a_tournament_without_announcement_has_no_registration_page(client, tournament):
    assert client.get(reverse("announcement_public", args=[tournament.pk])).status_code == 404
    assert client.get(reverse("registration_door", args=[tournament.pk])).status_code == 404


ACTIONS = ["registration_withdraw", "registration_check_in", "registration_change", "leave"]


@hsettings(max_examples=examples(25), deadline=None, suppress_health_check=list(HealthCheck))
@given(
    steps=st.lists(
        st.tuples(st.integers(0, 3), st.sampled_from(ACTIONS), st.booleans()), max_size=8
    )
)
def test_whatever_a_link_does_it_changes_only_its_own_registration(
    client, tournament, organizer, steps
):
    """Any sequence of actions through four players' links: each changes
    only its own registration; the one effect on another is the first
    waiting player moving up into a freed place."""
    from tournaments.registrations.models import Announcement

    Registration.objects.all().delete()
    Player.objects.all().delete()
    Announcement.objects.filter(tournament=tournament).delete()
    services.announcement_save(tournament=tournament, by=organizer, cap=2)
    signed = [services.register(tournament=tournament, entry=Entry(f"S{n}")) for n in range(4)]
    services.check_in_open(tournament=tournament, open=True, by=organizer)

    def snapshot():
        return {
            r.pk: (r.name, r.club, r.status, r.present_at, r.token_hash)
            for r in Registration.objects.all()
        }

    for i, action, sure in steps:
        me = signed[i].registration.pk
        before, last_event = snapshot(), RegistrationEvent.objects.order_by("-pk").first().pk
        token = signed[i].token
        if action == "registration_change":
            client.post(reverse(action, args=[token]), {"name": f"Neu {i}", "club": "C"})
        elif action == "leave":
            client.post(reverse("registration_leave", args=[token]), {"sure": "1"})
        else:
            client.post(reverse(action, args=[token]), {"sure": "1" if sure else ""})
        after = snapshot()
        for pk, row in after.items():
            if pk == me:
                continue
            if row != before[pk]:  # another registration: only moved up
                assert before[pk][2] == "waitlisted" and row[2] == "confirmed"
                assert row[:2] == before[pk][:2] and row[3:] == before[pk][3:]
        foreign = RegistrationEvent.objects.filter(pk__gt=last_event).exclude(registration_id=me)
        assert set(foreign.values_list("kind", flat=True)) <= {"promoted"}
        assert Registration.objects.filter(status="confirmed").count() <= 2


def test_the_service_itself_refuses_overlong_names_and_ratings(announced, organizer):
    for entry in (Entry("x" * 10_000), Entry("Anna", "y" * 201), Entry("Anna", rating=10**6)):
        with pytest.raises(ServiceError):
            services.register(tournament=announced, entry=entry, by=organizer)
    assert not Registration.objects.exists() and not Player.objects.exists()


def test_a_player_the_organizer_added_is_joined_only_by_the_organizer(announced, organizer):
    """Issue 33: a registration never binds to the organizer's entry by
    itself (it waits as "possibly the same person"); the organizer joins."""
    from tournaments import services as tournament_services

    added = tournament_services.player_add(
        tournament=announced, by=organizer, name="Anna", club="SC"
    )
    reg = services.register(tournament=announced, entry=Entry("Anna", "SC")).registration
    assert reg.player is None and reg.twin == added and Player.objects.count() == 1
    reg = services.registration_join(registration=reg, by=organizer)
    assert reg.player == added and Player.objects.count() == 1
    # a second registration can't take the same player
    reg.status = Registration.WITHDRAWN
    reg.save()
    with pytest.raises(ServiceError, match="Anna"):
        services.register(tournament=announced, entry=Entry("Anna", "SC"))
    assert Player.objects.count() == 1
