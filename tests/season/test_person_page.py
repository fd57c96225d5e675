"""A person's page (the club roster): each tournament with the place and
points its standings give the person, in the page's language."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.standings import selectors as standings_selectors
from tests.printing.test_final_prints import _semis_and_final
from tests.season.test_season import play
from tournaments import services
from tournaments.services import roster

pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Bert", "Cora", "Dirk"]


def _season(organizer, orders: list[list[str]], extra_empty: bool = False):
    """One Quartett tournament per order (two rounds, one table, finishing
    in that order), everybody linked to the roster; with ``extra_empty`` a
    last tournament where Anna is entered but has no game yet."""
    people, tournaments = {}, []
    for i, order in enumerate(orders):
        t = services.tournament_create(owner=organizer, name=f"Turnier {i + 1}", game="quartett")
        players, _tables = play(t, organizer, NAMES, [[order]] * 2)
        tournaments.append(t)
        for n in NAMES:
            if n in people:
                roster.player_attach_person(player=players[n], person=people[n], by=organizer)
            else:
                people[n] = roster.person_from_player(player=players[n], by=organizer)
    if extra_empty:
        t = services.tournament_create(owner=organizer, name="Noch offen", game="quartett")
        anna = services.player_add(tournament=t, by=organizer, name="Anna")
        roster.player_attach_person(player=anna, person=people["Anna"], by=organizer)
        tournaments.append(t)
    return people, tournaments


def _rows(html: str) -> list[list[str]]:
    table = re.search(r'<table class="list stack person-tournaments">.*?</table>', html, re.S)
    assert table, "no tournaments table on the person page"
    rows = []
    for tr in re.findall(r"<tr>(.*?)</tr>", table.group(0), re.S)[1:]:
        cells = re.findall(r"<td[^>]*>(.*?)</td>", tr, re.S)
        rows.append([" ".join(re.sub(r"<[^>]+>", " ", c).split()) for c in cells])
    return rows


def test_the_person_page_shows_each_tournaments_place_and_points(client, organizer):
    people, tournaments = _season(
        organizer,
        [NAMES, ["Bert", "Cora", "Dirk", "Anna"], ["Cora", "Anna", "Bert", "Dirk"]],
        extra_empty=True,
    )
    client.force_login(organizer)
    client.cookies["django_language"] = "de"
    html = client.get(reverse("person_detail", args=[people["Anna"].pk])).content.decode()
    assert '<th class="num">Platz</th>' in html
    rows = _rows(html)
    assert [r[0] for r in rows] == ["Turnier 1", "Turnier 2", "Turnier 3", "Noch offen"]
    assert [r[2] for r in rows[:3]] == ["1 von 4", "4 von 4", "2 von 4"]
    for row, t in zip(rows, tournaments[:3], strict=False):
        mine = next(r for r in standings_selectors.standings(t) if r.name == "Anna")
        # the same points as the tournament's own standings, written in German
        assert row[3] == str(mine.points).replace(".", ","), row
        assert row[4] == "2"
    assert rows[3][2] == "noch kein Spiel" and rows[3][3] == "" and rows[3][4] == "0"


def test_the_person_pages_queries_grow_with_its_tournaments_not_with_their_players(
    client, organizer
):
    people, _t = _season(organizer, [NAMES] * 6)
    client.force_login(organizer)
    url = reverse("person_detail", args=[people["Anna"].pk])
    client.get(url)
    with CaptureQueriesContext(connection) as six:
        assert client.get(url).status_code == 200
    # four more tournaments, each with twice the players
    for i in range(4):
        t = services.tournament_create(owner=organizer, name=f"Groß {i}", game="quartett")
        names = NAMES + [f"Gast {i}-{k}" for k in range(4)]
        players, _tables = play(t, organizer, names, [[names[:4], names[4:]]] * 2)
        roster.player_attach_person(player=players["Anna"], person=people["Anna"], by=organizer)
    with CaptureQueriesContext(connection) as ten:
        assert client.get(url).status_code == 200
    per_tournament = (len(ten) - len(six)) / 4
    assert per_tournament <= 8, f"{per_tournament} queries per tournament"


def test_save_and_add_another_comes_back_to_an_empty_form(client, organizer):
    t = services.tournament_create(owner=organizer, name="Vereinsabend", game="quartett")
    client.force_login(organizer)
    client.cookies["django_language"] = "de"
    url = reverse("player_add", args=[t.pk])
    page = client.get(url).content.decode()
    assert "Speichern und nächste Person" in page
    assert re.search(r'<input[^>]*name="name"[^>]*autofocus', page)
    answer = client.post(url, {"name": "Erika Mustermann", "then": "another"}, follow=True)
    assert answer.redirect_chain[-1][0] == url
    page = answer.content.decode()
    assert "Erika Mustermann" in page  # the message names the player just added
    assert not re.search(r'name="name"[^>]*value="Erika', page)  # the form is empty
    answer = client.post(url, {"name": "Max Muster"})
    assert answer["Location"] == reverse("player_list", args=[t.pk])
    assert sorted(t.players.values_list("name", flat=True)) == ["Erika Mustermann", "Max Muster"]


def test_save_and_add_another_with_a_bad_name_keeps_the_form_and_adds_nobody(client, organizer):
    t = services.tournament_create(owner=organizer, name="Vereinsabend", game="quartett")
    client.force_login(organizer)
    answer = client.post(reverse("player_add", args=[t.pk]), {"name": "", "then": "another"})
    assert answer.status_code == 200
    assert t.players.count() == 0


def test_the_person_page_reads_ten_tournaments_in_a_fixed_number_of_queries(
    client, organizer, django_assert_max_num_queries
):
    people, _t = _season(organizer, [NAMES] * 10)
    client.force_login(organizer)
    client.cookies["django_language"] = "de"
    url = reverse("person_detail", args=[people["Anna"].pk])
    client.get(url)
    # the page's own reads (session, person, ratings, series) and the
    # standings of all ten tournaments at once, not ten times over
    with django_assert_max_num_queries(QUERIES_FOR_ANY_NUMBER):
        html = client.get(url).content.decode()
    assert len(_rows(html)) == 10


#: the person page's queries whatever the number of tournaments (ten
#: tournaments: 61 before their standings were read at once, 16 after)
QUERIES_FOR_ANY_NUMBER = 16


def test_where_the_final_decides_the_person_page_shows_the_place_of_the_final(client, organizer):
    t = _semis_and_final(organizer)
    qualifying = {r.player_id: r.place for r in standings_selectors.standings(t, up_to_round=1)}
    final = standings_selectors.standings(t)
    # a finalist whom the final moved from the place the qualifying round gave
    moved = next(r for r in final if r.stage and r.place != qualifying[r.player_id])
    person = roster.person_from_player(player=t.players.get(pk=moved.player_id), by=organizer)
    client.force_login(organizer)
    client.cookies["django_language"] = "de"
    rows = _rows(client.get(reverse("person_detail", args=[person.pk])).content.decode())
    assert rows[0][2] == f"{moved.place} von {len(final)}", (rows, qualifying[moved.player_id])


def test_half_points_on_the_person_page_are_written_as_in_german(client, organizer):
    # a table of three gives the second one and a half points (placement points scaled)
    t = services.tournament_create(owner=organizer, name="Dreiertisch", game="quartett")
    players, _tables = play(t, organizer, NAMES, [[["Bert", "Anna", "Cora"]]])
    person = roster.person_from_player(player=players["Anna"], by=organizer)
    mine = next(r for r in standings_selectors.standings(t) if r.name == "Anna")
    assert mine.points != int(mine.points)  # a fraction of a point
    client.force_login(organizer)
    client.cookies["django_language"] = "de"
    rows = _rows(client.get(reverse("person_detail", args=[person.pk])).content.decode())
    assert rows[0][3] == "1,5", rows
    client.cookies["django_language"] = "en"
    rows = _rows(client.get(reverse("person_detail", args=[person.pk])).content.decode())
    assert rows[0][3] == "1.5", rows
