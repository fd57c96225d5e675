"""The roster and the door in the browser, in German on a phone (390×844):
the roster and its tournament tab in German alphabetical order, "add all"
linking 70 new players in one press, a score sheet's QR code opened without
an account, and a late check-in while the next round is a draft."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.sheet_links import table_token
from tests.browser.sessions import logged_in_context
from tests.factories import seated_round
from tournaments import services
from tournaments.models import Bye, Player, Seat
from tournaments.roster_models import Person
from tournaments.services import roster

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
NAMES = ["Zoe Zander", "Ömer Öztürk", "Anna Albers", "Łukasz Nowak", "Şahin Ayşe", "Peter Paul"]
GERMAN = ["Anna Albers", "Łukasz Nowak", "Ömer Öztürk", "Peter Paul", "Şahin Ayşe", "Zoe Zander"]
SHOTS = "/tmp/doorstep"


@pytest.fixture
def phone(browser, live_server, organizer):
    context = logged_in_context(
        browser, live_server, organizer, locale="de-DE", viewport=PHONE, bypass_csp=True
    )
    page = context.new_page()
    page.set_default_timeout(20_000)
    yield page
    context.close()


def _fits(page):
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def _shot(page, name):
    page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


def test_roster_and_its_tournament_tab_in_german_order(phone, live_server, organizer):
    t = services.tournament_create(owner=organizer, name="Quartett-Abend", game="quartett")
    for name in NAMES:
        roster.person_create(owner=organizer, name=name, club="SK Nord")
        services.player_add(tournament=t, by=organizer, name=name, club="SK Nord")
    phone.goto(live_server.url + reverse("roster"))
    names = phone.locator("table.list tbody tr td:first-child a").all_inner_texts()
    assert names == GERMAN
    _fits(phone)
    _shot(phone, "roster")
    phone.goto(live_server.url + reverse("roster_people", args=[t.pk]))
    rows = phone.locator("table.roster-people tbody tr td:first-child").all_inner_texts()
    assert [r.split(" (")[0] for r in rows] == GERMAN
    _shot(phone, "roster-tab")


def test_add_all_links_seventy_new_players_in_one_press(phone, live_server, organizer):
    t = services.tournament_create(owner=organizer, name="Quartett-Abend", game="quartett")
    roster.person_create(owner=organizer, name="Jürgen Groß", club="SK Nord")
    services.player_add(tournament=t, by=organizer, name="Juergen Gross", club="SK Nord")
    for k in range(70):
        services.player_add(tournament=t, by=organizer, name=f"Neu Spieler {k:02d}", club="TV")
    phone.goto(live_server.url + reverse("roster_people", args=[t.pk]))
    phone.get_by_text("1 Spieler hat einen ähnlichen Namen in der Kartei").wait_for()
    button = phone.get_by_role(
        "button", name="Alle 70 Spieler ohne Karteieintrag in die Kartei aufnehmen"
    )
    button.click()
    phone.get_by_text("70 Spieler in die Spielerkartei aufgenommen.").wait_for()
    assert Player.objects.filter(tournament=t, person__isnull=False).count() == 70
    # the near match still waits for its own press
    assert Player.objects.get(tournament=t, name="Juergen Gross").person is None
    assert Person.objects.filter(owner=organizer).count() == 71
    assert phone.locator("form.roster-add-all").count() == 0
    _fits(phone)
    _shot(phone, "roster-add-all")


def test_a_sheet_qr_code_without_an_account(browser, live_server, organizer):
    t = services.tournament_create(owner=organizer, name="Quartett-Abend", game="quartett")
    rnd = seated_round(t, players=4, names=["Anna", "Bernd", "Clara", "Dora"])
    table = rnd.tables.get(number=1)
    url = live_server.url + reverse("sheet_link", args=[table_token(table.pk)])
    context = browser.new_context(locale="de-DE", viewport=PHONE, bypass_csp=True)
    page = context.new_page()
    try:
        page.goto(url)
        page.get_by_role("heading", name="Spielbericht von Tisch 1, Runde 1").wait_for()
        page.get_by_text("Gib das Blatt der Turnierleitung").wait_for()
        _fits(page)
        _shot(page, "sheet-landing")
        # with self-report the players are sent to their seat slips
        t.self_report = True
        t.save(update_fields=["self_report"])
        page.reload()
        page.get_by_text("Du meldest das Ergebnis deines Tisches selbst").wait_for()
        _shot(page, "sheet-landing-self-report")
        # staff log in from here and land on the table's result form
        page.get_by_role("link", name="Anmelden und Ergebnis eintragen").click()
        page.fill('input[name="username"]', "orga")
        page.fill('input[name="password"]', "pw-orga-12345")
        page.get_by_role("button", name="Anmelden").click()
        page.wait_for_url(f"**/rounds/{rnd.number}/tables/1/result/**")
    finally:
        context.close()


def test_a_late_check_in_joins_the_draft_from_the_door(phone, live_server, organizer):
    t = services.tournament_create(
        owner=organizer, name="Quartett-Abend", game="quartett", allowed_sizes=[3, 4, 5]
    )
    rnd = seated_round(t, players=4, names=["Anna", "Bernd", "Clara", "Dora"], publish=False)
    iris = services.player_add(tournament=t, by=organizer, name="Iris Täubner")
    phone.goto(live_server.url + reverse("player_list", args=[t.pk]))
    assert not phone.locator("#late-draft").is_visible()
    row = phone.locator("tr", has_text="Iris Täubner")
    row.get_by_role("button", name="Einchecken").click()
    notice = phone.locator("#late-draft")
    notice.get_by_text("Der Sitzplan der Runde 1 ist ein Entwurf").wait_for()
    _fits(phone)
    _shot(phone, "late-check-in")
    notice.scroll_into_view_if_needed()
    phone.screenshot(path=f"{SHOTS}/late-check-in-phone.png")
    notice.get_by_role("button", name="Iris Täubner zu Runde 1 hinzufügen").click()
    phone.get_by_text("Iris Täubner an Tisch").wait_for()
    assert phone.url.endswith(reverse("player_list", args=[t.pk]))
    assert (
        Seat.objects.filter(table__round=rnd, player=iris).exists()
        or Bye.objects.filter(round=rnd, player=iris).exists()
    )
    assert not phone.locator("#late-draft").is_visible()
    _shot(phone, "late-check-in-added")


def test_a_persons_page_lists_each_tournaments_place_and_points_on_a_phone(
    phone, live_server, organizer
):
    from tests.season.test_season import play

    names = ["Anna Albers", "Bert Brandt", "Cora Claußen", "Dirk Dörr"]
    people = {}
    for title, order in (
        ("Frühjahrsturnier des Skatclubs Lindenstraße", names),
        ("Sommer-Quartett", names[1:] + names[:1]),
    ):
        t = services.tournament_create(owner=organizer, name=title, game="quartett")
        players, _tables = play(t, organizer, names, [[order]] * 2)
        for n in names:
            if n in people:
                roster.player_attach_person(player=players[n], person=people[n], by=organizer)
            else:
                people[n] = roster.person_from_player(player=players[n], by=organizer)
    phone.goto(live_server.url + reverse("person_detail", args=[people["Anna Albers"].pk]))
    table = phone.locator("table.person-tournaments")
    table.wait_for()
    places = table.locator('td[data-label="Platz"]').all_inner_texts()
    assert [p.strip() for p in places] == ["1 von 4", "4 von 4"]
    _fits(phone)
    _shot(phone, "person-page")


def test_players_entered_one_after_another_with_save_and_add_another(phone, live_server, organizer):
    t = services.tournament_create(owner=organizer, name="Quartett-Abend", game="quartett")
    phone.goto(live_server.url + reverse("player_add", args=[t.pk]))
    for name in ("Zoe Zander", "Ömer Öztürk", "Anna Albers"):
        # the name field has the focus: type and press the second button
        phone.keyboard.type(name)
        phone.get_by_role("button", name="Speichern und nächste Person").click()
        phone.get_by_text(f"{name} gemeldet.").wait_for()
        assert phone.evaluate("document.activeElement.name") == "name"
        assert phone.locator('input[name="name"]').input_value() == ""
    _fits(phone)
    _shot(phone, "save-and-add-another")
    assert sorted(t.players.values_list("name", flat=True)) == [
        "Anna Albers",
        "Zoe Zander",
        "Ömer Öztürk",
    ]
