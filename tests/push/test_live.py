"""Live pages at scale: every projector and phone polls the clock, every
digital player polls the seat. The answers that are the same for every viewer
come from the shared cache (no query), the seat's "nothing new" from the
table's version (two queries), and polls stop when nothing is left to wait for."""

import re

import pytest
from django.core.cache import cache
from django.urls import reverse

from games import get_engine
from scoring import services as scoring_services
from tests.factories import (
    PlayerFactory,
    TournamentFactory,
    digital_table,
    play_on,
    seated_round,
)
from tests.seat_tokens import token_for
from tests.timetravel import past_deadline, travel
from tournaments import live, services
from tournaments.models import Table
from tournaments.play import tables as digital
from tournaments.services import deadlines, round_life

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_broker(monkeypatch):
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)


@pytest.fixture
def tournament(organizer):
    """A Quartett tournament at tables of two."""
    return TournamentFactory(
        owner=organizer, name="Herbstturnier", allowed_sizes=[2], table_size=2, round_minutes=45
    )


@pytest.fixture
def rnd(tournament):
    """Round 1: two paper tables of two (P10, P11 at table 1; P20, P21 at
    table 2), seated and started through the services."""
    order = [
        [PlayerFactory(tournament=tournament, name=f"P{n}{pos}") for pos in range(2)]
        for n in (1, 2)
    ]
    return seated_round(tournament, order=order, start=True)


def public_status(rnd):
    return reverse("round_public_status", args=[rnd.tournament_id, rnd.number])


def data(response, name):
    return re.search(rf'data-{name}="([^"]*)"', response.content.decode()).group(1)


def test_every_projector_after_the_first_is_served_without_a_query(
    client, rnd, django_assert_num_queries
):
    first = client.get(public_status(rnd))
    assert first.status_code == 200
    with django_assert_num_queries(0):
        again = client.get(public_status(rnd))
    assert again.status_code == 200
    assert data(again, "status") == "running"
    assert "Tables done: 0 of 2" in again.content.decode()
    # the server's time comes with every answer, so each browser corrects its offset
    deadline_ms = int(data(again, "deadline-ms"))
    server_ms = int(data(again, "server-ms"))
    assert 45 * 60 * 1000 - 2000 < deadline_ms - server_ms <= 45 * 60 * 1000
    assert int(data(again, "server-ms")) >= int(data(first, "server-ms"))


def test_a_phone_polling_its_seat_clock_costs_no_query_after_the_first(
    client, rnd, django_assert_num_queries
):
    url = reverse("seat_clock", args=[token_for(rnd.tables.get(number=1), 0)])
    assert client.get(url).status_code == 200
    with django_assert_num_queries(0):
        response = client.get(url)
    assert data(response, "status") == "running"


def test_a_pause_shows_on_the_next_poll_and_the_stopped_clock_keeps_its_time(
    client, rnd, organizer
):
    client.get(public_status(rnd))
    round_life.round_pause(round=rnd, by=organizer)
    response = client.get(public_status(rnd))
    assert data(response, "status") == "paused"
    assert 44 * 60 < float(data(response, "left")) <= 45 * 60
    round_life.round_extend(round=rnd, by=organizer, minutes=5)
    assert float(data(client.get(public_status(rnd)), "left")) > 49 * 60


def test_hiding_the_tournament_hides_its_clock_at_once(client, rnd):
    assert client.get(public_status(rnd)).status_code == 200
    rnd.tournament.public = False
    rnd.tournament.save()
    assert client.get(public_status(rnd)).status_code == 404


def test_the_poll_runs_every_few_seconds_and_stops_when_every_table_is_done(client, rnd, organizer):
    running = client.get(public_status(rnd))
    assert 'hx-trigger="every 3s"' in running.content.decode()
    past_deadline(rnd)
    round_life.sweep()
    closed = client.get(public_status(rnd))
    # time called, sheets still missing: the clock says so and keeps asking, slower
    assert closed["HX-Trigger"] == "roundClosed" and closed.status_code == 200
    assert 'hx-trigger="every 10s"' in closed.content.decode()
    for table in rnd.tables.all():
        scoring_services.result_submit(
            table=table, by=organizer, sheet={"s0_cards": 20, "s1_cards": 12}, expected_version=None
        )
    done = client.get(public_status(rnd))
    assert done.status_code == 286  # htmx stops polling
    assert "hx-get" not in done.content.decode()
    assert "Tables done: 2 of 2" in done.content.decode()


def test_a_digital_seat_poll_with_nothing_new_costs_at_most_two_queries(
    client, organizer, django_assert_max_num_queries
):
    table = digital_table(
        organizer, "quartett", 2, start=False, name="Digital", names=["D0", "D1"], round_minutes=30
    )
    rnd = table.round
    # a big event's round: its seating figures must not be decoded by the poll
    rnd.seating_scores = {str(k): float(k) for k in range(2000)}
    rnd.save()
    round_life.round_start(round=rnd, by=organizer)
    url = reverse("seat_play", args=[token_for(table, 1)])
    first = client.get(url)
    version = data(first, "version")
    cache.clear()  # a poll that finds nothing cached: the version from the database
    live.forget_local()
    shown = {"v": version, "s": f"{table.pk}.1"}  # the version and the seat the page shows
    with django_assert_max_num_queries(2):
        assert client.get(url, shown).status_code == 204
    with django_assert_max_num_queries(0):  # the next ones: from the shared cache
        assert client.get(url, shown).status_code == 204
    table.refresh_from_db()
    engine = get_engine("quartett")
    state = engine.load(table.state)
    digital.table_move(table=table, seat=0, action=engine.legal_actions(state, 0)[0])
    # the move is seen on the very next poll
    changed = client.get(url, {"v": version})
    assert changed.status_code == 200 and data(changed, "version") != version
    assert client.get(url, {"v": data(changed, "version")}).status_code == 204


def test_the_cache_entry_follows_the_round_number_it_was_asked_for(client, rnd, organizer):
    client.get(public_status(rnd))
    assert live.round_id_of(rnd.tournament_id, 1) == rnd.pk
    other = services.tournament_create(owner=organizer, name="Anderes", game="quartett")
    # another tournament's round 1 is not answered from this one's entry
    assert client.get(reverse("round_public_status", args=[other.pk, 1])).status_code == 404


def test_each_phone_polls_its_own_link_and_gets_the_time_of_its_request(client, rnd):
    urls = [reverse("seat_clock", args=[token_for(table, 0)]) for table in rnd.tables.all()]
    answers = [client.get(url) for url in urls]
    for url, answer in zip(urls, answers, strict=True):
        assert f'hx-get="{url}"' in answer.content.decode()
    first, second = (int(data(a, "server-ms")) for a in answers)
    assert second >= first
    big = client.get(public_status(rnd), {"big": "1"})
    assert "clock--big" in big.content.decode()
    assert "clock--big" not in client.get(public_status(rnd)).content.decode()


def test_web_processes_share_the_clock_through_redis(
    client, rnd, organizer, settings, require_redis, django_assert_num_queries
):
    """Production: every web process (and box) reads the same entry from
    Redis; a change made by one is seen by the others."""
    import uuid

    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": require_redis,
            "KEY_PREFIX": f"test-{uuid.uuid4().hex}",  # never clear: others share the db
        }
    }
    assert data(client.get(public_status(rnd)), "status") == "running"
    live.forget_local()  # another process: nothing of its own yet
    with django_assert_num_queries(0):
        assert data(client.get(public_status(rnd)), "status") == "running"
    round_life.round_pause(round=rnd, by=organizer)
    live.forget_local()
    assert data(client.get(public_status(rnd)), "status") == "paused"


def test_a_finished_digital_game_stops_the_seat_poll(client, organizer):
    table = digital_table(
        organizer,
        "quartett",
        2,
        name="Digital Ende",
        names=["E0", "E1"],
        grace_seconds=30,
        round_minutes=30,
    )
    rnd = table.round
    url = reverse("seat_play", args=[token_for(table, 0)])
    version = data(client.get(url), "version")
    past_deadline(rnd)
    assert round_life.round_time_up(rnd.pk)
    travel(rnd, 31)  # the grace period is over: the bot plays out the rest
    digital.table_finish(table_id=table.pk)
    table.refresh_from_db()
    assert table.status == Table.DONE
    over = client.get(url, {"v": version})
    assert over.status_code == 286  # htmx stops polling
    assert "hx-get" not in over.content.decode().split(">", 1)[0]


def test_a_move_leaves_the_rounds_clock_cached_and_a_games_end_updates_it(
    client, organizer, django_assert_num_queries
):
    """A move changes no clock: the phones' clock polls stay free of queries
    while a round is played; the game's end shows on the clock at once."""
    table = digital_table(organizer, "quartett", 2, names=["M0", "M1"], round_minutes=30)
    url = reverse("seat_clock", args=[token_for(table, 0)])
    assert "Tables done: 0 of 1" in client.get(url).content.decode()
    for _ in range(3):
        play_on(table, 1)
        live.forget_local()  # as another web process: only the shared cache
        with django_assert_num_queries(0):
            assert client.get(url).status_code == 200
    play_on(table, 5000)  # to the game's end
    table.refresh_from_db()
    assert table.status == Table.DONE
    live.forget_local()
    assert "Tables done: 1 of 1" in client.get(url).content.decode()
