"""A number players type themselves decides nothing until the organizer has
confirmed it (issue 33, point 5).

The registration form's rating ("Spielstärke") breaks no tie and seeds no
round while it is the player's own word: it counts once the organizer has
confirmed it (one player, or all in one press) — a rating the organizer
entered or imported counts at once. The standings show every tiebreak of
the order with the value that decided (pages, PDF, CSV), and the form says
what the number is for without naming a chess rating."""

from __future__ import annotations

import io
import re

import pdfplumber
import pytest
from django.test import Client
from django.urls import reverse

from scoring import services as results
from scoring.standings.selectors import standings
from tests.factories import TournamentFactory, seated_round
from tournaments import seating_selectors
from tournaments.registrations import services as registrations
from tournaments.registrations.services import Entry
from tournaments.services import players as player_services

pytestmark = pytest.mark.django_db

DE = {"HTTP_ACCEPT_LANGUAGE": "de"}
UNCONFIRMED_ONE = (
    "1 Spielstärke, die ein Spieler selbst eingetragen hat, ist noch nicht bestätigt: "
    "Bis Sie sie bestätigen, entscheidet sie keinen Gleichstand und bestimmt keine Sitzplätze."
)


def registered(tournament, name, rating=None):
    """A player who registered through the public form (the rating is theirs)."""
    player = registrations.register(tournament=tournament, entry=Entry(name, rating=rating))
    player = player.registration.player
    return player_services.player_set_checked_in(player=player, checked_in=True, by=None)


@pytest.fixture
def staff(organizer):
    c = Client()
    c.force_login(organizer)
    return c


@pytest.fixture
def level(organizer):
    """Two tables of two; Anna and Cleo each win 20:12 — level on points,
    figures, opponents, wins, and they never met. Cleo typed 99999."""
    t = TournamentFactory(owner=organizer, allowed_sizes=[2], table_size=2, public=True)
    registrations.announcement_save(tournament=t, by=organizer, cap=10)
    anna, bert = registered(t, "Anna"), registered(t, "Bert")
    cleo, dora = registered(t, "Cleo", 99999), registered(t, "Dora")
    rnd = seated_round(t, order=[[anna, bert], [cleo, dora]], time_called=True)
    for table in rnd.tables.order_by("number"):
        results.result_submit(
            table=table, sheet={"s0_cards": 20, "s1_cards": 12}, by=organizer, expected_version=None
        )
    return t, cleo


def row_of(page: str, player) -> str:
    return re.search(rf'<tr id="standing-{player.pk}".*?</tr>', page, re.S).group(0)


def test_a_self_typed_rating_breaks_no_tie_until_the_organizer_confirms_it(level, staff):
    t, cleo = level
    top = standings(t)[:2]
    assert {(r.name, r.place, r.shared, r.rating) for r in top} == {
        ("Anna", 1, True, None),
        ("Cleo", 1, True, None),
    }
    page = staff.get(reverse("standings", args=[t.pk]), **DE).content.decode()
    assert UNCONFIRMED_ONE in page
    players = staff.get(reverse("player_list", args=[t.pk]), **DE).content.decode()
    assert "nicht bestätigt" in row_of_player(players, cleo)
    # the organizer confirms Cleo's rating on the players page
    response = staff.post(reverse("player_rating_confirm", args=[t.pk, cleo.pk]), follow=True, **DE)
    assert response.status_code == 200
    rows = standings(t)
    assert [(r.name, r.place, r.shared) for r in rows[:2]] == [
        ("Cleo", 1, False),
        ("Anna", 2, False),
    ]
    assert rows[0].rating == 99999 and "rating" in rows[0].applied
    page = staff.get(reverse("standings", args=[t.pk]), **DE).content.decode()
    assert UNCONFIRMED_ONE not in page


def row_of_player(page: str, player) -> str:
    return re.search(rf'<tr id="p{player.pk}".*?</tr>', page, re.S).group(0)


def test_every_standings_shows_each_tiebreak_of_the_order_with_the_value_that_decided(
    level, staff, organizer
):
    t, cleo = level
    # the organizer ticks "rating confirmed" on Cleo's page
    staff.post(
        reverse("player_edit", args=[t.pk, cleo.pk]),
        {"name": "Cleo", "club": "", "rating": "99999", "rating_confirmed": "on"},
    )
    anna = t.players.get(name="Anna")
    for url, client in (
        (reverse("standings", args=[t.pk]), staff),
        (reverse("standings_public", args=[t.pk]), Client()),
    ):
        page = client.get(url, **DE).content.decode()
        head = page.split("<thead>")[1].split("</thead>")[0]
        for label in (
            "Punkte",
            "Spielwerte",
            "Gegn.-Schnitt",
            "Siege",
            "Direkter Vergleich",
            "Spielstärke",
        ):
            assert label in head, (url, label)
        assert '<td class="num">99999</td>' in row_of(page, cleo)
        assert "99999" not in row_of(page, anna)
    # the projector: the tiebreak that set a player apart, with its value
    projector = (
        Client()
        .get(reverse("round_projector", args=[t.pk, 1]) + "?show=standings", **DE)
        .content.decode()
    )
    assert re.search(r"Cleo</span><span class=\"tiebreak\">Spielstärke 99999</span>", projector)
    text = pdf_text(staff.get(reverse("print_standings", args=[t.pk]), **DE).content)
    assert "Spielstärke" in text and "99999" in text
    csv = staff.get(reverse("export", args=[t.pk, "standings", "csv"]), **DE).content.decode()
    assert "99999" in csv


def pdf_text(pdf: bytes) -> str:
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        return "\n".join(page.extract_text() or "" for page in doc.pages)


def test_round_one_by_rating_seeds_only_confirmed_ratings(organizer, staff):
    t = TournamentFactory(
        owner=organizer, allowed_sizes=[4], table_size=4, round1_seating="rating_swiss"
    )
    registrations.announcement_save(tournament=t, by=organizer, cap=20)
    own = [registered(t, f"Selbst {k}", 90_000 + k) for k in range(4)]
    entered = [
        player_services.player_set_checked_in(
            player=player_services.player_add(
                tournament=t, by=organizer, name=f"Gemeldet {k}", rating=1000 + 100 * k
            ),
            checked_in=True,
            by=organizer,
        )
        for k in range(4)
    ]
    ratings = seating_selectors.round1_ratings(t)
    assert all(ratings[p.pk] is None for p in own)
    assert [ratings[p.pk] for p in entered] == [1000.0, 1100.0, 1200.0, 1300.0]
    response = staff.post(
        reverse("round_seat", args=[t.pk]), {"mode": "rating_swiss"}, follow=True, **DE
    )
    page = response.content.decode()
    assert "4 Spielstärken, die Spieler selbst eingetragen haben, sind noch nicht bestätigt" in page
    table1 = set(
        t.round_set.get(number=1).tables.get(number=1).seats.values_list("player_id", flat=True)
    )
    assert table1 == {p.pk for p in entered}  # the typed 90,000s are seated as unrated
    # confirmed in one press, they count
    staff.post(reverse("players_rating_confirm", args=[t.pk]), **DE)
    ratings = seating_selectors.round1_ratings(t)
    assert [ratings[p.pk] for p in own] == [90_000.0, 90_001.0, 90_002.0, 90_003.0]


def test_the_organizers_edit_confirms_and_the_players_change_unconfirms(client, organizer, staff):
    t = TournamentFactory(owner=organizer)
    registrations.announcement_save(tournament=t, by=organizer, cap=10)
    signed = registrations.register(tournament=t, entry=Entry("Anna", rating=1500))
    player = signed.registration.player
    assert not player.rating_confirmed
    edit = reverse("player_edit", args=[t.pk, player.pk])
    page = staff.get(edit, **DE).content.decode()
    assert "Spielstärke bestätigt" in page
    staff.post(edit, {"name": "Anna", "club": "", "rating": "1600"}, **DE)
    player.refresh_from_db()
    assert (player.rating, player.rating_confirmed) == (1600, True)  # typed by the organizer
    # the player changes it through the link: the player's word again
    link = reverse("registration_change", args=[signed.token])
    client.post(link, {"name": "Anna", "rating": "2400"}, **DE)
    player.refresh_from_db()
    assert (player.rating, player.rating_confirmed) == (2400, False)
    # the organizer ticks the box
    staff.post(edit, {"name": "Anna", "club": "", "rating": "2400", "rating_confirmed": "on"})
    player.refresh_from_db()
    assert player.rating_confirmed
    # added by hand on the registrations page: the organizer's number
    by_hand = registrations.register(tournament=t, entry=Entry("Bert", rating=1400), by=organizer)
    assert by_hand.registration.player.rating_confirmed


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("de", "Die Zahl zählt erst, wenn die Turnierleitung sie bestätigt hat"),
        ("en", "The number counts only once the organizer has confirmed it"),
    ],
)
def test_the_form_says_what_the_number_is_for_and_names_no_chess_rating(
    client, tournament, organizer, language, said
):
    registrations.announcement_save(tournament=tournament, by=organizer, cap=10)
    page = client.get(
        reverse("announcement_public", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    assert said in page
    # what a reader sees: the words outside the tags (a random CSRF token in
    # an attribute may hold the letters "Elo")
    words = set(re.findall(r"\w+", re.sub(r"<[^>]*>", " ", page)))
    assert not words & {"DWZ", "Elo"}


def test_a_tournament_moved_by_export_and_import_keeps_which_ratings_are_confirmed(
    organizer, other_user
):
    from scoring.exchange.export import export_json, export_tournament
    from scoring.exchange.importer import import_tournament

    t = TournamentFactory(owner=organizer)
    registrations.announcement_save(tournament=t, by=organizer, cap=10)
    registrations.register(tournament=t, entry=Entry("Selbst", rating=2500))
    player_services.player_add(tournament=t, by=organizer, name="Gemeldet", rating=1500)
    moved = import_tournament(data=export_json(t), owner=other_user)
    assert dict(moved.players.values_list("name", "rating_confirmed")) == {
        "Selbst": False,
        "Gemeldet": True,
    }
    # a file from before the mark: the organizer's list, confirmed
    doc = export_tournament(t)
    for p in doc["players"]:
        del p["rating_confirmed"]
    older = import_tournament(data=doc, owner=other_user)
    assert set(older.players.values_list("rating_confirmed", flat=True)) == {True}
