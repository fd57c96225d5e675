"""Standings, public standings, a player's history and a round's results, on
the hand-made tournament of ``handmade.py`` (ties, a drop, byes)."""

import re
from decimal import Decimal

import pytest
from django.urls import reverse

from scoring.standings import listings
from tests.scoring import handmade

pytestmark = pytest.mark.django_db


@pytest.fixture
def made(tournament, organizer):
    return handmade.build(tournament, organizer)


def order_on_page(html: str, made) -> list[str]:
    by_id = {p.pk: k for k, p in made["players"].items()}
    return [by_id[int(pid)] for pid in re.findall(r'id="standing-(\d+)"', html)]


def row_html(html: str, player) -> str:
    m = re.search(rf'<tr id="standing-{player.pk}"[^>]*>(.*?)</tr>', html, re.S)
    assert m, player
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", m.group(1))).strip()


def test_standings_order_ties_drop_and_byes(client, organizer, tournament, made):
    client.force_login(organizer)
    response = client.get(reverse("standings", args=[tournament.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    order = order_on_page(html, made)
    assert order[:9] == handmade.ORDER
    assert order[9:] == []  # no game yet: not ranked as if they had lost
    p = made["players"]
    # place, name, points, figures, opponents' average, wins, h2h, games, byes
    assert row_html(html, p["A"]) == "1 Ayşe Şahin (SC Köln) 6 19 2.583 2 2 0"
    # Bernd and Clara: equal points and figures, opponents' average decides
    assert row_html(html, p["B"]) == "3 Bernd Ćosić (SC Köln) 4.5 13 2.333 0 2 0"
    assert row_html(html, p["C"]) == "4 Clara Dupont 4.5 13 2.25 0 2 0"
    assert row_html(html, p["F"]).startswith("5 Fritz Falk 2.5 4 ")
    assert row_html(html, p["F"]).endswith(" 1 1")  # one game, one bye
    assert row_html(html, p["N"]).startswith("7 Anna Berg 1.5 1 ")
    assert "dropped" in row_html(html, p["D"])
    assert row_html(html, p["D"]).startswith("8 Dora Quist dropped 1 3 ")
    # never played: listed apart, without a place or points
    assert 'id="no-game"' in html
    no_game = html[html.index('id="no-game"') :]
    assert "Zoë Ødegaard" in no_game and "Ömer Kaya" in no_game
    # links to every player's history
    assert reverse("player_history", args=[tournament.pk, p["B"].pk]) in html


def test_standings_after_a_round(client, organizer, tournament, made):
    client.force_login(organizer)
    url = reverse("standings", args=[tournament.pk])
    html = client.get(url, {"round": 1}).content.decode()
    assert "Standings after round 1" in html
    p = made["players"]
    assert row_html(html, p["A"]).startswith("1 Ayşe Şahin (SC Köln) 3 10 ")
    # Bernd and Clara shared first at their table: equal on every tiebreak
    assert row_html(html, p["B"]).startswith("2= Bernd Ćosić (SC Köln) 2.5 8 ")
    assert row_html(html, p["C"]).startswith("2= Clara Dupont 2.5 8 ")
    assert row_html(html, p["F"]).startswith("5 Fritz Falk 1.5 0 ")
    assert client.get(url, {"round": 9}).status_code == 404
    assert client.get(url, {"round": "x"}).status_code == 404


def test_public_standings_only_for_a_public_tournament(client, tournament, made):
    url = reverse("standings_public", args=[tournament.pk])
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assert order_on_page(html, made)[:9] == handmade.ORDER
    assert "/history/" not in html  # no organizer links for the public
    public_page = client.get(reverse("tournament_public", args=[tournament.pk])).content.decode()
    assert url in public_page
    tournament.public = False
    tournament.save()
    assert client.get(url).status_code == 404


def test_player_history(client, organizer, tournament, made):
    client.force_login(organizer)
    p = made["players"]
    rows = listings.player_history(tournament, p["F"])
    assert [(r["round"], r["bye"], r["table"], r["seat"]) for r in rows] == [
        (1, True, None, None),
        (2, False, 1, 3),
        (3, False, 2, 1),
    ]
    assert rows[0]["points"] == Decimal("1.5")
    assert (rows[1]["rank"], rows[1]["figure"], rows[1]["points"]) == (3, 4, 1)
    assert [m["name"] for m in rows[1]["mates"]] == ["Ayşe Şahin", "Bernd Ćosić", "Emil Roth"]
    assert rows[2]["result"] is False and rows[2]["points"] is None
    html = client.get(reverse("player_history", args=[tournament.pk, p["F"].pk])).content.decode()
    assert "Bye" in html and "no result yet" in html
    assert "Place 5 with 2.5 points" in html
    for name in ("Ayşe Şahin", "Bernd Ćosić", "Emil Roth", "Jürgen Weiß", "Anna Berg"):
        assert name in html
    other = client.get(reverse("player_history", args=[tournament.pk, 999999]))
    assert other.status_code == 404


def test_round_results_list_missing_tables(client, organizer, tournament, made):
    client.force_login(organizer)
    html = client.get(reverse("round_results", args=[tournament.pk, 2])).content.decode()
    assert "Every table has a confirmed result." in html
    text = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))
    assert "1 1 Ayşe Şahin 1 9 3" in text
    assert "2 Bernd Ćosić 2 5 2" in text  # version 2, not the corrected version 1
    assert "Anna Berg · 1.5 points" in text
    html3 = client.get(reverse("round_results", args=[tournament.pk, 3])).content.decode()
    assert "2 tables without a result: 1, 2" in html3
    assert html3.count("missing") >= 2
    # each table links to its result entry
    entry = reverse("result_entry", args=[tournament.pk, 3, 2])
    assert f'href="{entry}"' in html3
    assert client.get(reverse("round_results", args=[tournament.pk, 7])).status_code == 404


def test_standings_queries_do_not_grow_with_the_tournament(
    client, organizer, tournament, made, django_assert_max_num_queries
):
    client.force_login(organizer)
    with django_assert_max_num_queries(15):
        client.get(reverse("standings", args=[tournament.pk]))
