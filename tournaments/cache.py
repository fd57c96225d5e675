"""The file cache of the embedded default (one laptop, several processes).

Django's file cache lists its whole folder on every write to decide whether
to cull; with the clock's and the seats' entries written every second that
listing costs more than the answers it caches. This one culls at most once a
minute per process (between two culls the folder grows by at most a
minute's writes, far below ``MAX_ENTRIES``).

Django's ``add`` (look, then write) and ``incr`` (read, then write with the
default timeout) are neither atomic nor, for ``incr``, faithful to the
entry's expiry: two processes could both ``add`` the same key, and two
``incr`` could count one. Here both hold a lock file of the folder (an OS
file lock: across gunicorn's processes, the worker and their threads) and
``incr`` keeps the entry's expiry, as Redis and the local-memory cache do.
Counters (the signup limit) rely on it. Everything else is Django's.
"""

from __future__ import annotations

import os
import pickle
import threading
import time
import zlib
from contextlib import contextmanager
from functools import cached_property

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.filebased import FileBasedCache
from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from django.core.files import locks

CULL_EVERY = 60.0
LOCK_FILE = "counters.lock"


class FileCache(FileBasedCache):
    _culled_at = 0.0

    def _cull(self):
        now = time.monotonic()
        if now - self._culled_at < CULL_EVERY:
            return
        self._culled_at = now
        super()._cull()

    @contextmanager
    def _locked(self):
        self._createdir()  # the folder can be deleted at any time
        with open(os.path.join(self._dir, LOCK_FILE), "ab") as f:
            locks.lock(f, locks.LOCK_EX)
            try:
                yield
            finally:
                locks.unlock(f)

    def add(self, key, value, timeout=DEFAULT_TIMEOUT, version=None):
        with self._locked():
            return super().add(key, value, timeout, version)

    def incr(self, key, delta=1, version=None):
        with self._locked():
            fname = self._key_to_file(key, version)
            try:
                with open(fname, "rb") as f:
                    expiry = pickle.load(f)  # None: it never expires
                    value = pickle.loads(zlib.decompress(f.read()))
            except FileNotFoundError:
                raise ValueError(f"Key '{key}' not found.") from None
            left = None if expiry is None else expiry - time.time()
            if left is not None and left <= 0:
                raise ValueError(f"Key '{key}' not found.")
            value += delta
            self.set(key, value, left, version)
            return value


# -- Redis: one client per process ------------------------------------------------------

_redis_clients: dict = {}
_redis_lock = threading.Lock()


class _ClientPerPool(RedisCacheClient):
    """Django's Redis cache client, which builds a new ``redis.Redis`` for
    every command (its table of about 170 reply handlers included: about a
    tenth of a move's CPU went there); here one per pool, built once. A
    ``redis.Redis`` on a pool is thread-safe."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients: dict = {}

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            with _redis_lock:
                client = self._clients.get(index)
                if client is None:
                    pool = self._get_connection_pool(write)
                    client = self._clients[index] = self._client(connection_pool=pool)
        return client


class SharedRedisCache(RedisCache):
    """Django's Redis cache with one client (and so one connection pool) per
    process for each location and options.

    Django keeps a cache object per thread and per asynchronous context, and
    each builds its own client with its own pool: under the ASGI server every
    request runs in a new context, so every request that touched the cache
    opened a new connection to Redis (1.00 per seat poll, 16 % of a web
    process's samples in ``connect``). redis-py's pools are thread-safe; one
    per process is what it is made for."""

    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = _ClientPerPool

    @cached_property
    def _cache(self):
        key = (tuple(self._servers), repr(sorted(self._options.items())))
        with _redis_lock:
            client = _redis_clients.get(key)
            if client is None:
                client = _redis_clients[key] = self._class(self._servers, **self._options)
        return client
