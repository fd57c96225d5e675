"""A web process keeps its Redis connections: a seat poll that draws a new
screen, and a move that signals its table, open no new connection once the
process has one (issue 37 measured 1.00 new connection per poll: each
request's context built its own cache client under the ASGI server)."""

from __future__ import annotations

import contextvars

import pytest
import redis.connection
from django.core.cache import caches
from django.urls import reverse

from tests.factories import digital_table
from tournaments import bus, live
from tournaments.models import Seat
from tournaments.play import tables as digital
from tournaments.play.links import seat_token
from tournaments.services import deadlines

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def redis_everywhere(settings, require_redis, monkeypatch):
    """The production wiring: the cache and the push on Redis."""
    settings.CACHES = {
        "default": {
            "BACKEND": settings.CACHES_REDIS_BACKEND,
            "LOCATION": require_redis,
            "KEY_PREFIX": "tl-test-connections",
        }
    }
    settings.PUSH_REDIS_URL = require_redis
    monkeypatch.setattr(bus, "_redis", None)
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)
    opened = []
    open_socket = redis.connection.Connection._connect

    def counted(self):  # a new socket to Redis
        opened.append(self)
        return open_socket(self)

    monkeypatch.setattr(redis.connection.Connection, "_connect", counted)
    yield opened
    caches["default"].clear()
    live.forget_local()


def fresh_context(call, *args, **kwargs):
    """As the ASGI server runs each request: in a context of its own."""
    return contextvars.Context().run(call, *args, **kwargs)


def test_seat_polls_and_moves_open_no_redis_connection_after_the_first(
    client, organizer, redis_everywhere
):
    table = digital_table(organizer, "trumpet", 4, round_minutes=60)
    engine = table.round.tournament.engine
    url = reverse("seat_play", args=[seat_token(Seat.objects.get(table=table, position=0))])

    def move_and_poll():
        table.refresh_from_db()
        state = engine.load(table.state)
        seat = engine.to_act(state)[0]
        digital.table_move(table=table, seat=seat, action=engine.legal_actions(state, seat)[0])
        live.forget_local()  # another process's poll: the shared cache is asked
        answer = fresh_context(client.get, url, {"v": "old", "s": f"{table.pk}.0"})
        assert answer.status_code == 200  # a new screen drawn
        return answer

    move_and_poll()  # the process's first: its connections are opened
    assert redis_everywhere, "the poll and the move did not reach Redis"
    before = len(redis_everywhere)
    for _ in range(6):
        move_and_poll()
    assert len(redis_everywhere) == before
