"""The projector page: the slides the organizer picks, per-table extra time,
"5 minutes left" (counted down to 1) only in rounds that had more, the join QR, the tables still
playing and the sheets missing — and bad parameters never break it."""

import re

import pytest
from django.urls import reverse

from scoring.standings.views.projector import join_qr_svg
from tests.factories import PlayerFactory, TournamentFactory, seated_round
from tests.timetravel import past_deadline, travel
from tournaments.models import Round, Table
from tournaments.services import deadlines, round_life, seating

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_worker(monkeypatch):
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)


@pytest.fixture
def tournament(organizer):
    """A public Quartett tournament at tables of two, rounds of 45 minutes."""
    return TournamentFactory(
        owner=organizer,
        name="Herbstturnier",
        public=True,
        allowed_sizes=[2],
        table_size=2,
        round_minutes=45,
    )


@pytest.fixture
def rnd(tournament):
    """Round 1 seated through the services, a draft: Uwe Berg and Łukasz
    Nowak at table 1, Şahin Yılmaz and Anna Ährens at table 2."""
    order = [
        [PlayerFactory(tournament=tournament, name=name) for name in names]
        for names in [["Uwe Berg", "Łukasz Nowak"], ["Şahin Yılmaz", "Anna Ährens"]]
    ]
    return seated_round(tournament, order=order, publish=False)


def url(rnd, **params):
    base = reverse("round_projector", args=[rnd.tournament_id, rnd.number])
    return base + ("?" + "&".join(f"{k}={v}" for k, v in params.items()) if params else "")


def test_find_your_table_lists_every_player_in_german_order(client, rnd, organizer):
    round_life.round_start(round=rnd, by=organizer)
    html = client.get(url(rnd)).content.decode()
    names = re.findall(r'<li><span class="who">([^<]+)', html)
    assert names == ["Anna Ährens", "Łukasz Nowak", "Şahin Yılmaz", "Uwe Berg"]
    tables = re.findall(r'<span class="where"[^>]*>(\d+)</span>', html)
    assert tables == ["2", "1", "2", "1"]
    # no inline script (CSP): every script has a src
    assert all("src=" in tag for tag in re.findall(r"<script[^>]*>", html))


def test_slides_are_picked_by_the_organizer_and_bad_parameters_are_ignored(client, rnd, organizer):
    round_life.round_start(round=rnd, by=organizer)
    html = client.get(url(rnd, show="standings,tables", seconds=20)).content.decode()
    assert re.findall(r'data-slide="(\w+)"', html) == ["standings", "tables"]
    assert 'data-seconds="20"' in html
    for bad in ({"show": "<script>"}, {"seconds": "x"}, {"seconds": "-5"}, {"seconds": "1e9"}):
        response = client.get(url(rnd, **bad))
        assert response.status_code == 200
        html = response.content.decode()
        assert re.findall(r'data-slide="(\w+)"', html) == ["clock", "seating"]
        assert re.search(r'data-seconds="(\d+)"', html).group(1) in {"12", "3", "120"}


def test_extra_time_of_a_table_is_shown(client, rnd, organizer):
    round_life.round_start(round=rnd, by=organizer)
    round_life.table_extend(table=rnd.tables.get(number=2), by=organizer, minutes=5)
    html = client.get(url(rnd)).content.decode()
    assert "Table 2: +5:00" in html
    tables = client.get(reverse("round_projector_tables", args=[rnd.tournament_id, 1]))
    assert "2 tables still playing" in tables.content.decode()
    assert "Table 2: +5:00" in tables.content.decode()


def test_five_minutes_left_only_in_a_round_that_had_more(client, rnd, organizer):
    status_url = reverse("round_public_status", args=[rnd.tournament_id, 1])
    round_life.round_start(round=rnd, by=organizer)
    travel(rnd, 45 * 60 - 200)
    html = client.get(status_url).content.decode()
    # 3:20 left: the minutes as the time shows them, rounded up
    assert re.search(r"data-clock-signal[^>]*>4 minutes left<", html)
    assert (
        'data-text-minutes="1 minute left|2 minutes left|3 minutes left|4 minutes left|5 minutes left"'
        in html
    )
    # a tournament of five-minute rounds
    five = TournamentFactory(
        owner=organizer, public=True, allowed_sizes=[2], table_size=2, round_minutes=5
    )
    short = seated_round(five, players=2, start=True)
    travel(short, 100)
    html = client.get(reverse("round_public_status", args=[five.pk, 1])).content.decode()
    assert "minutes left" not in html and 'data-text-minutes=""' in html


def test_after_time_the_tables_slide_lists_missing_sheets_and_stops_polling(client, rnd, organizer):
    tables_url = reverse("round_projector_tables", args=[rnd.tournament_id, 1])
    seating.seating_publish(round=rnd, by=organizer)
    assert "not started yet" in client.get(tables_url).content.decode()
    round_life.round_start(round=rnd, by=organizer)
    past_deadline(rnd)
    round_life.round_time_up(rnd.pk, via="test")
    html = client.get(tables_url).content.decode()
    assert "Score sheets missing from 2 tables" in html and "hx-trigger" in html
    Round.objects.filter(pk=rnd.pk).update(status=Round.COMPLETE)
    Table.objects.filter(round=rnd).update(status=Table.DONE)
    html = client.get(tables_url).content.decode()
    assert "All results are in." in html and "hx-trigger" not in html


def test_join_qr_is_inline_svg_of_the_public_page_address(client, rnd, organizer):
    round_life.round_start(round=rnd, by=organizer)
    html = client.get(url(rnd), HTTP_HOST="192.168.1.20:8000").content.decode()
    join = "http://192.168.1.20:8000" + reverse("tournament_public", args=[rnd.tournament_id])
    assert f'<strong class="join-url">{join}</strong>' in html
    assert html.count("<svg") == 2  # small in the corner, large on the clock slide
    svg = join_qr_svg("http://192.168.1.20:8000/t/1/")
    assert svg.startswith("<svg") and "<path" in svg and "<script" not in svg


def test_find_your_table_on_the_phone_page_ignores_accents(client, rnd, organizer):
    round_life.round_start(round=rnd, by=organizer)
    html = client.get(reverse("round_public", args=[rnd.tournament_id, 1])).content.decode()
    names = re.search(r'data-name="([^"]*şahin[^"]*)"', html).group(1)
    assert "sahin yilmaz" in names and "anna ahrens" in names
