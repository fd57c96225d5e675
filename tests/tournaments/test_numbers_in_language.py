"""Numbers follow the reader's language everywhere, with one formatter per
kind of number, and the clock's words never contradict its time.

- A standings number (points, tiebreak figures, a seating's scores) is
  written by the standings' formatter: "1,5" in German, "1.5" in English,
  never "1,50".
- The rating chart writes its values as the person page writes the rating
  ("15,8" beside "15,8 ± 7,8").
- In the last five minutes the clock says how many are left, rounded up as
  its time shows them: "Noch 3 Minuten" at 2:54, never "Noch 5 Minuten".
"""

from __future__ import annotations

import math
import re
from decimal import Decimal
from fractions import Fraction

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation
from hypothesis import given
from hypothesis import strategies as st

from scoring.season.chart import rating_svg
from tests.factories import PlayerFactory, TournamentFactory, seated_round
from tests.timetravel import travel
from tournaments import live
from tournaments.services import deadlines, round_life

NUMBER = Template("{% load words %}{{ value|number }}")


def number(value, language: str) -> str:
    with translation.override(language):
        return NUMBER.render(Context({"value": value}))


@pytest.mark.parametrize(
    ("value", "english", "german"),
    [
        (1.5, "1.5", "1,5"),
        (4.0, "4", "4"),
        (0, "0", "0"),
        (Decimal("2.333"), "2.333", "2,333"),
        (Fraction(7, 3), "2.333", "2,333"),
        (13.5, "13.5", "13,5"),
        (-0.5, "-0.5", "-0,5"),
        (None, "", ""),
    ],
)
def test_a_standings_number_is_written_in_the_readers_language(value, english, german):
    from tournaments.seating_messages import _number as seating_reason_number

    assert number(value, "en") == english
    assert number(value, "de") == german
    # the seating's reasons ("a player moved up from 4,5 points") say it alike
    if value is not None:
        with translation.override("de"):
            assert seating_reason_number(value) == german


@given(st.fractions(min_value=-1000, max_value=1000, max_denominator=8))
def test_pages_and_prints_write_a_number_alike(value):
    """The page filter and the prints' formatter give the same text."""
    from scoring.printing.documents import format_value
    from tournaments.points import as_number

    for language in ("de", "en"):
        with translation.override(language):
            assert number(value, language) == format_value(as_number(value))


@pytest.mark.django_db
def test_the_seating_shows_scores_as_the_standings_do(client, organizer, tournament):
    from tests.scoring import handmade

    handmade.build(tournament, organizer)
    client.force_login(organizer)
    url = reverse("round_seating", args=[tournament.pk, 3])
    client.cookies["django_language"] = "de"
    german = client.get(url).content.decode()
    scores = re.findall(r'<span class="score">([^<]*)</span>', german)
    # round 3 is seated by the standings after round 2: Bernd and Clara 4.5
    assert scores.count("4,5") == 2 and "6" in scores and "5" in scores
    assert not [s for s in scores if re.search(r"[.,]\d*0$", s)], scores  # never "4,50"
    client.cookies["django_language"] = "en"
    english = client.get(url).content.decode()
    assert re.findall(r'<span class="score">([^<]*)</span>', english).count("4.5") == 2


def test_the_rating_chart_writes_values_with_the_pages_formatter():
    svg = rating_svg([3.0, 9.25, 15.8], number=lambda v: f"{v:.1f}".replace(".", ","))
    assert re.findall(r"<text[^>]*>([^<]*)</text>", svg) == ["3,0", "15,8"]
    # alone (pure), it writes plain numbers
    assert re.findall(r"<text[^>]*>([^<]*)</text>", rating_svg([3.0, 15.8])) == ["3.0", "15.8"]
    # whatever the formatter returns, only a number's characters reach the markup
    svg = rating_svg([1.0, 2.0], number=lambda v: '<script>"1"</script>')
    assert "<script" not in svg and re.findall(r"<text[^>]*>([^<]*)</text>", svg) == ["1", "1"]


@pytest.mark.django_db
def test_the_person_page_chart_says_what_the_page_says(client, organizer):
    from tests.season.test_season import play
    from tournaments import services
    from tournaments.services import roster

    names = ["Anna", "Bert", "Cora", "Dirk"]
    people = {}
    for month in ("Jan", "Feb", "Mar"):
        t = services.tournament_create(owner=organizer, name=month, game="quartett")
        players, _tables = play(t, organizer, names, [[names]] * 2)
        for n in names:
            if n in people:
                roster.player_attach_person(player=players[n], person=people[n], by=organizer)
            else:
                people[n] = roster.person_from_player(player=players[n], by=organizer)
    person = people["Anna"]
    client.force_login(organizer)
    url = reverse("person_detail", args=[person.pk])
    for language, separator in (("de", ","), ("en", ".")):
        client.cookies["django_language"] = language
        html = client.get(url).content.decode()
        labels = re.findall(
            r"<text[^>]*>([^<]*)</text>", re.search(r"<svg.*?</svg>", html, re.S).group(0)
        )
        assert len(labels) == 2
        assert all(re.fullmatch(rf"-?\d+\{separator}\d", label) for label in labels), labels
        shown = re.search(r"<strong>([^<]*)</strong> ± ([^<\s]*)", html)
        assert separator in shown.group(1) and separator in shown.group(2)
        # the chart ends at the rating the page shows
        assert labels[-1] == shown.group(1)


# the clock


def entry(left: float, minutes: int = 45) -> dict:
    return {
        "status": "running",
        "number": 1,
        "closed": False,
        "deadline_ms": None,
        "offset_ms": 0,
        "left": left,
        "minutes": minutes,
        "tables_total": 2,
        "tables_done": 0,
        "open_tables": [1, 2],
    }


@given(st.floats(min_value=0.001, max_value=300))
def test_the_minutes_left_are_the_shown_time_rounded_up(left):
    context = live.clock_context(entry(left))
    shown_minutes, shown_seconds = map(int, context["left_text"].split(":"))
    assert context["five_minutes"]
    assert context["minutes_left"] == shown_minutes + (shown_seconds > 0)
    assert context["minutes_left"] == math.ceil(math.ceil(left) / 60)


def test_the_minutes_at_the_issues_moments():
    assert live.clock_context(entry(174))["minutes_left"] == 3  # 2:54
    assert live.clock_context(entry(300))["minutes_left"] == 5  # 5:00
    assert live.clock_context(entry(241))["minutes_left"] == 5  # 4:01
    assert live.clock_context(entry(240))["minutes_left"] == 4  # 4:00
    assert live.clock_context(entry(0.2))["minutes_left"] == 1  # 0:01


@pytest.mark.django_db
def test_the_clock_says_noch_3_minuten_at_2_54(client, organizer, monkeypatch):
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)
    t = TournamentFactory(
        owner=organizer, public=True, allowed_sizes=[2], table_size=2, round_minutes=45
    )
    order = [
        [PlayerFactory(tournament=t, name=n) for n in pair]
        for pair in (["Iris", "Ole"], ["Uwe", "Lena"])
    ]
    rnd = seated_round(t, order=order, publish=False)
    round_life.round_start(round=rnd, by=organizer)
    travel(rnd, 45 * 60 - 174)
    client.cookies["django_language"] = "de"
    html = client.get(reverse("round_public_status", args=[t.pk, 1])).content.decode()
    assert re.search(r"data-clock-time>2:5[34]<", html), html
    assert re.search(r"data-clock-signal[^>]*>Noch 3 Minuten<", html)
    assert "Noch 5 Minuten<" not in html
    # the browser counts the rest down itself, from the texts for 1 to 5
    texts = re.search(r'data-text-minutes="([^"]*)"', html).group(1).split("|")
    assert texts == [
        "Noch 1 Minute",
        "Noch 2 Minuten",
        "Noch 3 Minuten",
        "Noch 4 Minuten",
        "Noch 5 Minuten",
    ]
