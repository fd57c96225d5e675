"""The roster and the door: people listed in German alphabetical order
everywhere (Ö, Ł, Ş with O, L, S — not after Z, as a database sorts them),
"add all" players the roster does not know in one press, a sheet's QR code
scanned without an account says what it is for, and a player checked in
while the next round is a draft is offered to the draft."""

from __future__ import annotations

import csv
import io
import re

import pytest
from django.db import transaction
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.season.standings import Event, Placing, season_standings
from scoring.sheet_links import table_token
from tests import concurrency
from tests.examples import examples
from tests.factories import PlayerFactory, seated_round
from tournaments import selectors, services
from tournaments.models import Bye, Player, Seat
from tournaments.roster import NEW
from tournaments.roster_models import Person
from tournaments.services import roster
from tournaments.services.scorekeepers import scorekeeper_add

#: as typed, out of order; German order puts each accented initial with its base letter
NAMES = ["Zoe Zander", "Ömer Öztürk", "Anna Albers", "Łukasz Nowak", "Şahin Ayşe", "Peter Paul"]
GERMAN = ["Anna Albers", "Łukasz Nowak", "Ömer Öztürk", "Peter Paul", "Şahin Ayşe", "Zoe Zander"]

pytestmark = pytest.mark.django_db


def order_in(html: str, names: list[str]) -> list[str]:
    """``names`` in the order they first appear in ``html``."""
    return sorted(names, key=html.index)


@pytest.fixture
def field(tournament):
    return [PlayerFactory(tournament=tournament, name=n) for n in NAMES]


# -- German collation ------------------------------------------------------------


def test_the_roster_page_lists_people_in_german_order(client, organizer):
    for name in NAMES:
        roster.person_create(owner=organizer, name=name)
    client.force_login(organizer)
    html = client.get(reverse("roster")).content.decode()
    table = html[html.index("<tbody>") : html.index("</tbody>")]
    assert order_in(table, NAMES) == GERMAN
    # the merge form's selects too
    select = html[html.index('name="kept"') :]
    select = select[: select.index("</select>")]
    assert order_in(select, NAMES) == GERMAN


def test_the_tournament_roster_tab_lists_players_in_german_order(client, organizer, field):
    client.force_login(organizer)
    html = client.get(reverse("roster_people", args=[field[0].tournament_id])).content.decode()
    table = html[html.index("<tbody>") : html.index("</tbody>")]
    assert order_in(table, NAMES) == GERMAN


def test_the_players_csv_lists_players_in_german_order(client, organizer, field):
    client.force_login(organizer)
    url = reverse("export", args=[field[0].tournament_id, "players", "csv"])
    text = client.get(url).content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text), delimiter=";" if ";" in text else ","))
    assert [r[1] for r in rows[1:]] == GERMAN


def test_late_arrivals_for_a_draft_come_in_german_order(tournament):
    seated_round(tournament, players=4, publish=False)
    for name in NAMES:
        PlayerFactory(tournament=tournament, name=name)
    rnd = tournament.round_set.get(number=1)
    assert [p.name for p in selectors.late_candidates(rnd)] == GERMAN


def test_season_ties_are_listed_in_german_order():
    """Equal on every tiebreak (each played alone): the names decide the order."""
    events = [Event(k, [Placing(name, 1, 3)]) for k, name in enumerate(NAMES)]
    rows = season_standings(events, scheme="points")
    assert [r.person for r in rows] == GERMAN
    assert all(r.place == 1 and r.shared for r in rows)


@given(st.permutations(NAMES))
@settings(max_examples=examples(30), deadline=None)
def test_the_order_does_not_depend_on_the_order_people_were_added(names):
    events = [Event(k, [Placing(name, 1, 3)]) for k, name in enumerate(names)]
    assert [r.person for r in season_standings(events, scheme="points")] == GERMAN


# -- add all -----------------------------------------------------------------------


def test_add_all_adds_only_players_the_roster_does_not_know(client, organizer, tournament):
    known = roster.person_create(owner=organizer, name="Jürgen Groß", club="SK Nord")
    exact = roster.person_create(owner=organizer, name="Iris Täubner", club="")
    for name in ["Juergen Gross", "Iris Täubner", *NAMES]:
        PlayerFactory(tournament=tournament, name=name, club="SK Nord")
    client.force_login(organizer)
    url = reverse("roster_people", args=[tournament.pk])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    # the preview: how many the press adds, and the near match left to choose
    assert "Alle 6 Spieler ohne Karteieintrag in die Kartei aufnehmen" in page
    assert "1 Spieler hat einen ähnlichen Namen in der Kartei" in page
    response = client.post(url, {"action": "add_all"}, HTTP_ACCEPT_LANGUAGE="de", follow=True)
    assert "6 Spieler in die Spielerkartei aufgenommen." in response.content.decode()
    linked = dict(Player.objects.filter(tournament=tournament).values_list("name", "person__name"))
    assert {n: linked[n] for n in NAMES} == {n: n for n in NAMES}
    # the near and the exact match wait for a press each, as on the single link
    assert linked["Juergen Gross"] is None and linked["Iris Täubner"] is None
    assert Person.objects.filter(owner=organizer).count() == 8
    assert known.entries.count() == 0 and exact.entries.count() == 0


#: spellings that meet in the roster's matching (exact, near, or someone else)
SPELLINGS = ["Jürgen Groß", "Juergen Gross", "Jurgen Gros", "Ömer Öztürk", "Omer Ozturk", "Łukasz"]


class _Rollback(Exception):
    pass


@given(
    known=st.lists(st.sampled_from(SPELLINGS), unique=True, max_size=4),
    entries=st.lists(
        st.tuples(st.sampled_from(SPELLINGS + NAMES), st.sampled_from(["", "SK Nord"])),
        unique=True,
        min_size=1,
        max_size=8,
    ),
)
@settings(
    max_examples=examples(25),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
def test_add_all_links_exactly_the_players_the_roster_does_not_know(organizer, known, entries):
    try:
        with transaction.atomic():
            t = services.tournament_create(owner=organizer, name="Probe", game="quartett")
            for name in known:
                roster.person_create(owner=organizer, name=name)
            players = [
                services.player_add(tournament=t, by=organizer, name=n, club=c) for n, c in entries
            ]
            found = selectors.roster_matches(organizer, [(p.name, p.club) for p in players])
            new = {p.pk for p, (kind, _people) in zip(players, found, strict=True) if kind == NEW}
            added = roster.players_add_to_roster(tournament=t, by=organizer)
            linked = set(
                Player.objects.filter(tournament=t, person__isnull=False).values_list(
                    "pk", flat=True
                )
            )
            assert linked == new and len(added) == len(new)
            assert Person.objects.filter(owner=organizer).count() == len(known) + len(new)
            raise _Rollback
    except _Rollback:
        pass


def test_add_all_twice_adds_nobody_twice(client, organizer, field):
    tournament = field[0].tournament
    first = roster.players_add_to_roster(tournament=tournament, by=organizer)
    again = roster.players_add_to_roster(tournament=tournament, by=organizer)
    assert len(first) == len(NAMES) and again == []
    assert Person.objects.filter(owner=organizer).count() == len(NAMES)
    client.force_login(organizer)
    url = reverse("roster_people", args=[tournament.pk])
    page = client.get(url).content.decode()
    assert "not in the roster</button>" not in page
    response = client.post(url, {"action": "add_all"}, follow=True)
    assert "Nobody to add" in response.content.decode()


def test_add_all_keeps_two_players_of_one_name_apart(organizer, tournament):
    """Two "Thomas Müller" of two clubs are two people."""
    PlayerFactory(tournament=tournament, name="Thomas Müller", club="SC Nord")
    PlayerFactory(tournament=tournament, name="Thomas Müller", club="TV Süd")
    added = roster.players_add_to_roster(tournament=tournament, by=organizer)
    assert sorted(p.club for p in added) == ["SC Nord", "TV Süd"]


def test_a_scorekeeper_cannot_add_all(client, organizer, tournament, other_user, field):
    scorekeeper_add(tournament=tournament, username=other_user.username)
    client.force_login(other_user)
    response = client.post(reverse("roster_people", args=[tournament.pk]), {"action": "add_all"})
    assert response.status_code == 403
    assert not Person.objects.exists()


# -- the sheet's QR code without an account -------------------------------------------


@pytest.fixture
def table(tournament):
    rnd = seated_round(tournament, players=4, names=["Anna", "Bernd", "Clara", "Dora"])
    return rnd.tables.get(number=1)


def test_a_sheet_scanned_without_an_account_says_hand_it_in(client, table):
    response = client.get(
        reverse("sheet_link", args=[table_token(table.pk)]), HTTP_ACCEPT_LANGUAGE="de"
    )
    assert response.status_code == 200
    page = response.content.decode()
    assert "Spielbericht von Tisch 1, Runde 1" in page
    assert "Gib das Blatt der Turnierleitung" in page
    assert "Sitzplatz-Zettel" not in page
    login = (
        re.search(r'class="staff-login">[^<]*<a href="([^"]+)"', page)
        .group(1)
        .replace("&amp;", "&")
    )
    assert f"next=%2Fs%2F{table_token(table.pk).replace(':', '%3A')}" in login


def test_with_self_report_the_sheet_points_players_to_their_seat_slip(client, tournament, table):
    tournament.self_report = True
    tournament.save(update_fields=["self_report"])
    page = client.get(
        reverse("sheet_link", args=[table_token(table.pk)]), HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()
    assert "Du meldest das Ergebnis deines Tisches selbst" in page
    assert "Gib das Blatt" not in page


def test_staff_after_login_land_on_the_result_form(client, organizer, tournament, table):
    url = reverse("sheet_link", args=[table_token(table.pk)])
    page = client.get(url).content.decode()
    login = (
        re.search(r'class="staff-login">[^<]*<a href="([^"]+)"', page)
        .group(1)
        .replace("&amp;", "&")
    )
    response = client.post(login, {"username": "orga", "password": "pw-orga-12345", "next": url})
    assert response.status_code == 302 and response.url == url
    response = client.get(url)
    assert response.status_code == 302
    assert response.url.startswith(reverse("result_entry", args=[tournament.pk, 1, 1]))


# -- late check-in while the next round is a draft --------------------------------


def late_draft(tournament):
    return seated_round(
        tournament, players=4, names=["Anna", "Bernd", "Clara", "Dora"], publish=False
    )


def test_checking_in_a_late_player_offers_the_draft(client, organizer, tournament):
    rnd = late_draft(tournament)
    iris = PlayerFactory(tournament=tournament, name="Iris Täubner", checked_in=False)
    client.force_login(organizer)
    response = client.post(
        reverse("player_check_in", args=[tournament.pk, iris.pk]),
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE="de",
    )
    html = response.content.decode()
    assert 'id="late-draft"' in html and 'hx-swap-oob="true"' in html
    assert "Der Sitzplan der Runde 1 ist ein Entwurf" in html
    assert "Iris Täubner zu Runde 1 hinzufügen" in html
    response = client.post(
        reverse("seating_add_player", args=[tournament.pk, rnd.number]),
        {"player": iris.pk, "back": "players"},
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert response.status_code == 302
    assert response.url == reverse("player_list", args=[tournament.pk])
    seated = Seat.objects.filter(table__round=rnd, player=iris).exists()
    assert seated or Bye.objects.filter(round=rnd, player=iris).exists()
    page = client.get(response.url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "ist ein Entwurf" not in page
    assert "zu Runde 1 hinzufügen" not in page


def test_no_draft_no_offer(client, organizer, tournament):
    seated_round(tournament, players=4)  # published
    iris = PlayerFactory(tournament=tournament, name="Iris Täubner")
    client.force_login(organizer)
    page = client.get(reverse("player_list", args=[tournament.pk])).content.decode()
    assert "Iris Täubner" in page
    assert "is a draft" not in page
    response = client.post(
        reverse("player_check_in", args=[tournament.pk, iris.pk]), HTTP_HX_REQUEST="true"
    )
    assert "is a draft" not in response.content.decode()


def test_a_scorekeeper_is_told_who_adds_the_late_player(client, tournament, other_user):
    late_draft(tournament)
    PlayerFactory(tournament=tournament, name="Iris Täubner")
    scorekeeper_add(tournament=tournament, username=other_user.username)
    client.force_login(other_user)
    page = client.get(
        reverse("player_list", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()
    assert "Der Sitzplan der Runde 1 ist ein Entwurf" in page
    assert "Nur die Turnierleitung fügt Spieler dem Entwurf hinzu" in page
    assert "hinzufügen</button>" not in page


def test_a_forged_add_from_the_check_in_page_changes_nothing(client, organizer, tournament):
    rnd = late_draft(tournament)
    seated = set(Seat.objects.filter(table__round=rnd).values_list("player_id", flat=True))
    client.force_login(organizer)
    for value in ["", "x", "99999", str(next(iter(seated)))]:
        response = client.post(
            reverse("seating_add_player", args=[tournament.pk, rnd.number]),
            {"player": value, "back": "players"},
        )
        assert response.status_code == 302
    assert set(Seat.objects.filter(table__round=rnd).values_list("player_id", flat=True)) == seated


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_two_add_all_presses_at_once_add_each_player_once(require_postgres, organizer):
    t = services.tournament_create(owner=organizer, name="Doppelt", game="quartett")
    for name in NAMES:
        services.player_add(tournament=t, by=organizer, name=name)
    press = lambda: roster.players_add_to_roster(tournament=t, by=organizer)  # noqa: E731
    first, second = concurrency.at_once([press, press], timeout=10)
    assert not isinstance(first, Exception) and not isinstance(second, Exception)
    assert sorted([len(first), len(second)]) == [0, len(NAMES)]
    assert Person.objects.filter(owner=organizer).count() == len(NAMES)
    assert Player.objects.filter(tournament=t, person__isnull=True).count() == 0
