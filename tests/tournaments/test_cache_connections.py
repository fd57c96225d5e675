"""A web process keeps one connection pool to Redis: a request that reads the
shared cache (a seat's poll, the clock) opens no connection of its own.

Django keeps a cache object per thread and per asynchronous context; under the
ASGI server each request runs in a context of its own, so with Django's own
Redis backend every such request built a new client and connected anew."""

from __future__ import annotations

import threading
import uuid

import redis.connection
from django.core.cache import caches


def test_requests_in_new_contexts_reuse_the_processs_redis_connections(
    settings, require_redis, monkeypatch
):
    settings.CACHES = {
        "default": {
            "BACKEND": settings.CACHES_REDIS_BACKEND,
            "LOCATION": require_redis,
            "KEY_PREFIX": f"test-{uuid.uuid4().hex}",  # never clear: others share the db
        }
    }
    connects = []
    real = redis.connection.Connection._connect

    def counting(self, *args, **kwargs):  # a new socket to Redis
        connects.append(self)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(redis.connection.Connection, "_connect", counting)

    caches["default"].set("poll", "the seat's screen", 30)

    def one_request():  # a request's own context: its own cache object
        assert caches["default"].get("poll") == "the seat's screen"

    for _ in range(20):
        thread = threading.Thread(target=one_request)
        thread.start()
        thread.join()
    # the first request connected; the twenty after it took the pool's connection
    assert len(connects) == 1


def test_a_command_does_not_build_a_new_redis_client(settings, require_redis, monkeypatch):
    """Django's client built a ``redis.Redis`` (and its table of reply
    handlers) for every command: about a tenth of a move's CPU. One client
    per pool serves every command after the first."""
    settings.CACHES = {
        "default": {
            "BACKEND": settings.CACHES_REDIS_BACKEND,
            "LOCATION": require_redis,
            "KEY_PREFIX": f"test-{uuid.uuid4().hex}",
        }
    }
    built = []
    real = redis.Redis.__init__

    def counting(self, *args, **kwargs):
        built.append(self)
        real(self, *args, **kwargs)

    monkeypatch.setattr(redis.Redis, "__init__", counting)
    cache = caches["default"]
    cache.set("poll", "the seat's screen", 30)
    for _ in range(20):
        assert cache.get("poll") == "the seat's screen"
        cache.delete("gone")
    assert len(built) <= 1  # none when an earlier test of this process built it
