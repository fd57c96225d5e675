"""Check-in at the door: German alphabetical order everywhere (one helper),
search, "check in all", a selection, and an undo that does not look like a
check-in."""

import re
import unicodedata

import pytest
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from scoring.printing import lists
from tournaments import services
from tournaments.collation import fold, name_key, sort_by_name, surname_key
from tournaments.models import PlayerEvent

NAMES = ["Uwe Zander", "Łukasz Nowak", "Şahin Yılmaz", "anna Ährens", "Zoë Berg", "Jörg Weiß"]
GERMAN_ORDER = [
    "anna Ährens",
    "Jörg Weiß",
    "Łukasz Nowak",
    "Şahin Yılmaz",
    "Uwe Zander",
    "Zoë Berg",
]


def test_names_sort_in_german_order_with_marks_and_case_ignored():
    assert sort_by_name(NAMES, str) == GERMAN_ORDER
    assert sort_by_name(NAMES, str, by_surname=True) == [
        "anna Ährens",
        "Zoë Berg",
        "Łukasz Nowak",
        "Jörg Weiß",
        "Şahin Yılmaz",
        "Uwe Zander",
    ]


def test_the_pdfs_sort_with_the_same_helper():
    assert sorted(NAMES, key=lists.sort_key) == GERMAN_ORDER


@given(st.lists(st.text(max_size=12), max_size=20))
def test_folded_names_have_no_marks_and_sorting_is_total(names):
    for n in names:
        assert not any(unicodedata.combining(ch) for ch in fold(n))
        assert fold(n) == fold(n.upper()) or fold(n) == fold(n.upper().lower())
    once = sort_by_name(names, str)
    assert sort_by_name(list(reversed(names)), str) == once  # no order from input
    assert sorted(once, key=name_key) == once
    assert sorted(once, key=surname_key) == sort_by_name(names, str, by_surname=True)


@pytest.fixture
def door(tournament, organizer):
    players = {n: services.player_add(tournament=tournament, by=organizer, name=n) for n in NAMES}
    return players


def rows(html: str) -> list[str]:
    return re.findall(r'<tr id="p\d+"[^>]*><td>(?:<label>[^>]*> )?([^<]+)', html)


@pytest.mark.django_db
def test_players_page_lists_by_name_or_surname_in_german_order(client, organizer, tournament, door):
    client.force_login(organizer)
    url = reverse("player_list", args=[tournament.pk])
    assert rows(client.get(url).content.decode()) == GERMAN_ORDER
    by_surname = rows(client.get(url, {"sort": "surname"}).content.decode())
    assert by_surname[:3] == ["anna Ährens", "Zoë Berg", "Łukasz Nowak"]
    # a search without JavaScript: marks and case ignored
    assert rows(client.get(url, {"q": "LUKASZ"}).content.decode()) == ["Łukasz Nowak"]
    assert rows(client.get(url, {"q": "sahin"}).content.decode()) == ["Şahin Yılmaz"]
    # nonsense parameters are ignored, not an error
    assert client.get(url, {"sort": "<x>", "q": "x" * 500}).status_code == 200


@pytest.mark.django_db
def test_row_links_are_the_real_urls(client, organizer, tournament, door):
    client.force_login(organizer)
    html = client.get(reverse("player_list", args=[tournament.pk])).content.decode()
    p = door["Uwe Zander"]
    for name in ("player_check_in", "player_drop", "player_edit"):
        assert reverse(name, args=[tournament.pk, p.pk]) in html


@pytest.mark.django_db
def test_check_in_all_checks_in_everyone_waiting_but_not_the_dropped(
    client, organizer, tournament, door
):
    services.player_drop(player=door["Zoë Berg"], by=organizer)
    services.player_set_checked_in(player=door["Uwe Zander"], checked_in=True, by=organizer)
    client.force_login(organizer)
    response = client.post(
        reverse("players_check_in", args=[tournament.pk]), {"all": "1"}, follow=True
    )
    assert "4 players checked in." in response.content.decode()
    states = dict(tournament.players.values_list("name", "checked_in"))
    assert states == {n: n != "Zoë Berg" for n in NAMES}
    assert PlayerEvent.objects.filter(kind="check_in").count() == 5  # 1 + 4, each logged once
    # again: nobody left, nothing changes
    response = client.post(
        reverse("players_check_in", args=[tournament.pk]), {"all": "1"}, follow=True
    )
    assert "Nobody was left to check in." in response.content.decode()
    assert PlayerEvent.objects.filter(kind="check_in").count() == 5


@pytest.mark.django_db
def test_check_in_a_selection(client, organizer, tournament, door, other_user):
    client.force_login(organizer)
    url = reverse("players_check_in", args=[tournament.pk])
    chosen = [door["Jörg Weiß"].pk, door["Şahin Yılmaz"].pk]
    response = client.post(url, {"player": chosen}, follow=True)
    assert "2 players checked in." in response.content.decode()
    assert set(tournament.players.filter(checked_in=True).values_list("pk", flat=True)) == set(
        chosen
    )
    # bad input: a clear message, nothing changes
    for bad in ({}, {"player": ["x"]}, {"player": ["99999"]}):
        response = client.post(url, bad, follow=True)
        assert response.status_code == 200
        assert tournament.players.filter(checked_in=True).count() == 2
    # another tournament's player is not touched
    other = services.tournament_create(owner=other_user, name="Other", game="quartett")
    stranger = services.player_add(tournament=other, by=other_user, name="Fremd")
    client.post(url, {"player": [stranger.pk]})
    stranger.refresh_from_db()
    assert not stranger.checked_in
    # only staff
    client.force_login(other_user)
    assert client.post(url, {"all": "1"}).status_code in (403, 404)


@pytest.mark.django_db
def test_undo_check_in_does_not_look_like_check_in(client, organizer, tournament, door):
    services.player_set_checked_in(player=door["Uwe Zander"], checked_in=True, by=organizer)
    client.force_login(organizer)
    html = client.get(reverse("player_list", args=[tournament.pk])).content.decode()
    undo = re.findall(r'<button class="([^"]+)"[^>]*>Undo check-in<', html)
    check_in = re.findall(r'<button class="([^"]+)"[^>]*>Check in<', html)
    assert undo == ["undo"] and len(check_in) == 5 and set(check_in) == {"check-in"}
    row = re.search(rf'<tr id="p{door["Uwe Zander"].pk}"[^>]*>.*?</tr>', html).group(0)
    assert "✓ checked in" in row and 'class="in"' in row


def test_a_dropped_row_is_not_struck_through():
    from pathlib import Path

    css = (Path(__file__).parents[2] / "tournaments/static/css/site.css").read_text()
    assert "line-through" not in css


@pytest.mark.django_db
def test_names_and_clubs_are_escaped_in_the_rows(client, organizer, tournament):
    services.player_add(
        tournament=tournament, by=organizer, name='<img src=x onerror="x">', club="A & B"
    )
    client.force_login(organizer)
    html = client.get(reverse("player_list", args=[tournament.pk])).content.decode()
    assert "<img src=x" not in html
    assert "&lt;img src=x onerror=&quot;x&quot;&gt;" in html and "A &amp; B" in html
