"""The cross-process signal: "table 12 changed", "round 5 changed", "these
seat links were revoked" — sent by whoever commits the change (a web
process, the Celery worker's bots, the clock's close), received by every web
process that holds live screens (:mod:`tournaments.push.hub`).

A message is a short text (``t:<table id>``, ``r:<round id>``,
``k:<token>``) and carries nothing else: the web process reads what changed
from the database, the truth, and a lost message costs at most a poll's
delay (the browser falls back to polling when its stream fails, and every
stream asks for the current version when it (re)connects).

Two wires, chosen by the settings:

- **Redis pub/sub** when ``REDIS_URL`` (or ``PUSH_URL``) is set: production
  and every web box behind a proxy; one channel per Redis database number,
  so two sites (or CI) on one Redis server never hear each other.
- **Datagrams on the loopback** on the embedded default (no server): each
  web process listens on a UDP port of 127.0.0.1 chosen by the system and
  leaves it in a file ``var/push/<pid>.port``, refreshed every
  :data:`HEARTBEAT` seconds; a publisher sends its datagram to every port
  whose file is fresh. No broker, no file watched, works the same on Linux,
  macOS and Windows, and a datagram costs the sender microseconds whether
  anyone listens or not.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction

log = logging.getLogger(__name__)

#: seconds between a listener's touches of its port file; a file older than
#: STALE seconds belongs to a process that ended without removing it
HEARTBEAT = 20.0
STALE = 3 * HEARTBEAT
#: a datagram carries at most this many bytes of messages
DATAGRAM = 1200


def channel(url: str) -> str:
    """The pub/sub channel: one per Redis database number (pub/sub itself
    ignores the database)."""
    db = (urlsplit(url).path or "/0").strip("/") or "0"
    return f"turnierleiter:push:{db}"


# -- sending -------------------------------------------------------------------------

_redis = None
_udp: socket.socket | None = None


def _send_redis(messages: list[str]) -> None:
    global _redis
    import redis

    url = settings.PUSH_REDIS_URL
    if _redis is None:
        _redis = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
    _redis.publish(channel(url), "\n".join(messages))


def listener_ports(folder: Path | None = None) -> list[int]:
    """The ports of the web processes of this machine that listen (files
    fresher than STALE seconds)."""
    folder = folder or Path(settings.PUSH_DIR)
    now = time.time()
    ports = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return []
    for entry in entries:
        if not entry.name.endswith(".port"):
            continue
        try:
            if now - entry.stat().st_mtime > STALE:
                continue
            ports.append(int(Path(entry.path).read_text().strip()))
        except (OSError, ValueError):
            continue
    return ports


def _send_udp(messages: list[str]) -> None:
    global _udp
    if _udp is None:
        _udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    ports = listener_ports()
    chunk: list[str] = []
    size = 0
    for message in [*messages, None]:
        if message is None or size + len(message) + 1 > DATAGRAM:
            if chunk:
                data = "\n".join(chunk).encode()
                for port in ports:
                    with contextlib.suppress(OSError):
                        _udp.sendto(data, ("127.0.0.1", port))
            chunk, size = [], 0
        if message is not None:
            chunk.append(message)
            size += len(message) + 1


def publish_now(messages: Iterable[str]) -> None:
    """Send the messages at once (outside a transaction, or after its commit).
    A failure is logged, never raised: the screens' polls still show it."""
    messages = [m for m in messages if m]
    if not messages:
        return
    try:
        if settings.PUSH_REDIS_URL:
            _send_redis(messages)
        else:
            _send_udp(messages)
    except Exception:  # the push is best-effort; polling is the truth's fallback
        log.warning("push: could not publish %s", messages[:3], exc_info=True)


class _Pending:
    """The messages of one transaction, sent together after its commit (a
    move saves its table more than once; a close touches many tables)."""

    def __init__(self):
        self.messages: dict[str, None] = {}

    def flush(self) -> None:
        publish_now(list(self.messages))


def publish(*messages: str) -> None:
    """Send the messages once the current transaction commits (at once
    outside one): a screen redrawn on a message reads the committed change.
    Nothing is sent for a transaction rolled back."""
    conn = transaction.get_connection()
    if not conn.in_atomic_block:
        publish_now(messages)
        return
    pending = getattr(conn, "_push_pending", None)
    if pending is None or not any(entry[1] == pending.flush for entry in conn.run_on_commit):
        pending = _Pending()
        conn._push_pending = pending
        transaction.on_commit(pending.flush)
    pending.messages.update(dict.fromkeys(messages))


def table_changed(table_id: int) -> None:
    publish(f"t:{table_id}")


def round_changed(round_id: int) -> None:
    publish(f"r:{round_id}")


def links_revoked(tokens: Iterable[str]) -> None:
    publish(*(f"k:{token}" for token in tokens))


# -- receiving (a web process's event loop) ------------------------------------------


async def listen(on_messages: Callable[[list[str]], None], on_resync: Callable[[], None]) -> None:
    """Receive messages for ever, calling ``on_messages`` with each batch in
    the event loop. ``on_resync`` is called whenever messages may have been
    missed (the subscription was re-established): every screen is checked."""
    if settings.PUSH_REDIS_URL:
        await _listen_redis(on_messages, on_resync)
    else:
        await _listen_udp(on_messages, on_resync)


async def _listen_redis(on_messages, on_resync) -> None:
    import redis.asyncio as aredis

    url = settings.PUSH_REDIS_URL
    pause = 0.5
    first = True
    while True:
        client = aredis.Redis.from_url(url, socket_connect_timeout=2)
        try:
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            await pubsub.subscribe(channel(url))
            if not first:
                on_resync()
            first, pause = False, 0.5
            async for message in pubsub.listen():
                if message and message.get("type") == "message":
                    on_messages(message["data"].decode().split("\n"))
        except asyncio.CancelledError:
            raise
        except Exception:  # Redis restarted or unreachable: try again
            log.warning("push: Redis subscription lost; retrying in %.1f s", pause)
        finally:
            with contextlib.suppress(Exception):
                await client.aclose()
        await asyncio.sleep(pause)
        pause = min(pause * 2, 10.0)


class _Datagrams(asyncio.DatagramProtocol):
    def __init__(self, on_messages):
        self.on_messages = on_messages

    def datagram_received(self, data, addr):
        if addr[0] != "127.0.0.1":
            return
        with contextlib.suppress(UnicodeDecodeError):
            self.on_messages(data.decode().split("\n"))


async def _listen_udp(on_messages, on_resync) -> None:
    loop = asyncio.get_running_loop()
    transport, _protocol = await loop.create_datagram_endpoint(
        lambda: _Datagrams(on_messages), local_addr=("127.0.0.1", 0)
    )
    port = transport.get_extra_info("sockname")[1]
    folder = Path(settings.PUSH_DIR)
    folder.mkdir(parents=True, exist_ok=True)
    mine = folder / f"{os.getpid()}-{port}.port"
    try:
        while True:
            # written anew each beat: a file removed by a cleanup comes back
            mine.write_text(str(port))
            _remove_stale(folder)
            await asyncio.sleep(HEARTBEAT)
    finally:
        transport.close()
        with contextlib.suppress(OSError):
            mine.unlink()


def _remove_stale(folder: Path) -> None:
    now = time.time()
    for entry in list(os.scandir(folder)):
        with contextlib.suppress(OSError):
            if entry.name.endswith(".port") and now - entry.stat().st_mtime > STALE:
                os.unlink(entry.path)
