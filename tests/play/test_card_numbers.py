"""Digital cards write numbers in the page's language (issue 36): "1,9 g"
and "250.000 Lichtjahre" in German, "1.9 g" and "250,000 light years" in
English; a year keeps its digits together ("2150")."""

from __future__ import annotations

import re

import pytest
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from games import get_engine
from tests.play.test_deck_texts import quartett_table, seat_page
from tournaments.play.quartett import _value

DISTANCE = {"key": "distance", "unit": "light years", "direction": "higher"}
GRAVITY = {"key": "gravity", "unit": "g", "direction": "higher"}
YEAR = {"key": "first_contact", "unit": "year", "direction": "earlier"}


def in_language(language, attr, value):
    with translation.override(language):
        return _value(attr, value)


def test_german_and_english_cards_write_their_numbers():
    assert in_language("de", GRAVITY, 1.9) == "1,9 g"
    assert in_language("de", DISTANCE, 250000) == "250.000 Lichtjahre"
    assert in_language("de", GRAVITY, "0,8") == "0,8 g"
    assert in_language("en", GRAVITY, 1.9) == "1.9 g"
    assert in_language("en", DISTANCE, 250000) == "250,000 light years"
    assert in_language("de", YEAR, 2150) == "2150"
    assert in_language("de", YEAR, "2150 AD") == "2150 n. Chr."


@given(st.integers(min_value=0, max_value=10**7), st.integers(min_value=0, max_value=9))
def test_a_german_number_is_the_english_one_with_its_marks_swapped(whole, tenth):
    value = whole + tenth / 10
    german = in_language("de", GRAVITY, value)
    english = in_language("en", GRAVITY, value)
    assert german == english.translate(str.maketrans({".": ",", ",": "."}))
    assert not re.search(r"\d\.\d(?!\d\d)", german)  # never an English decimal point


@pytest.mark.django_db
def test_the_german_seat_page_shows_the_top_cards_numbers_in_german(client, organizer):
    table = quartett_table(organizer)
    with translation.override("de"):
        html = seat_page(client, table)
    top = get_engine("quartett").view(table.round.tournament.engine.load(table.state), 0)["top"]
    for key, value in top["values"].items():
        if isinstance(value, (int, float)) and key != "first_contact":
            with translation.override("de"):
                shown = _value({"unit": "", "direction": "higher"}, value)
            assert shown in html, (key, value)
            if isinstance(value, float) and not value.is_integer():
                assert "," in shown


@pytest.mark.parametrize(
    ("language", "score", "note"),
    [("de", "25.110", "in diesem Durchgang gesammelt: 39.290"), ("en", "25,110", "39,290")],
)
def test_a_digital_tables_scores_and_notes_write_numbers_in_the_pages_language(
    language, score, note
):
    """The players' table of a digital table (seat page and spectator view):
    Terra Trumpf's scores and this hand's collected values reach tens of
    thousands — "39.290" in German, never "39290"."""
    from tournaments.play.base import Ctx
    from tournaments.play.screen import presentation

    ctx = Ctx(
        engine=get_engine("terra_trumpf"),
        view={"scores": [25110, 0], "collected": [39290, 0], "hand_sizes": [3, 3]},
        legal=[],
        seat=0,
        names=["Anna", "Bert"],
        cards={},
    )
    with translation.override(language):
        rows = presentation("terra_trumpf").player_rows(ctx)
    assert rows[0]["score"] == score and rows[1]["score"] == "0"
    assert note in rows[0]["note"]
