"""The laptop's embedded broker: kombu's filesystem transport, made safe
between processes (settings.py names it when no broker URL is set).

kombu's own ``_put`` creates the message file, then locks and writes it; its
``_get`` moves and reads the file without taking the lock. A consumer that
lists the folder between the two reads an empty file, and the worker stops
with ``Unrecoverable error: JSONDecodeError``. Here:

- a producer writes the message under a name no consumer takes (``….part``)
  in the queue's own folder and renames it into place: a rename within one
  folder is atomic, so a consumer sees either no message or all of it;
- a consumer claims a message by renaming it into ``processed_folder`` (one
  consumer wins, the others skip it), then reads it there; a message that
  can't be read or decoded (a file written by something else, a disk error,
  a crash of an older version mid-write) is logged and moved to
  ``unreadable_folder`` — it never stops the worker;
- a ``.part`` file older than :data:`STALE_PART_SECONDS` (its producer died
  before the rename) is removed.

Why this and not another embedded broker (SQLite, a local Redis): the
filesystem transport needs no server and no schema, the messages are only
wake-up calls (the database is the truth, the sweeps redo a lost one), and
the only flaw was the half-written file — the rename removes it without
changing what is stored where.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
import uuid
from queue import Empty

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import bytes_to_str, str_to_bytes
from kombu.utils.json import dumps, loads
from kombu.utils.objects import cached_property

logger = logging.getLogger(__name__)

#: the suffix of a message being written (never taken by a consumer)
PART = ".part"
#: a message still being written after this long lost its producer
STALE_PART_SECONDS = 600


def message_name(queue: str) -> str:
    """A new message's file name: its time first (the folder is read in name
    order: first in, first out; zero-padded so the order holds as the
    numbers grow), then a unique id, then the queue (as kombu names it)."""
    return f"{int(time.monotonic() * 1000):015d}_{uuid.uuid4().hex}.{queue}.msg"


def is_message(payload) -> bool:
    """Whether a decoded file is a message the virtual transport can deliver."""
    if not isinstance(payload, dict):
        return False
    properties = payload.get("properties")
    return isinstance(properties, dict) and "delivery_tag" in properties


class Channel(filesystem.Channel):
    """The filesystem channel with atomic writes and unreadable files set aside."""

    _last_cleanup = 0.0

    def _put(self, queue, payload, **kwargs):
        """Put ``payload`` onto ``queue``: written in full, then renamed into place."""
        final = os.path.join(self.data_folder_out, message_name(queue))
        part = final + PART
        try:
            with open(part, "xb") as f:
                f.write(str_to_bytes(dumps(payload)))
            os.replace(part, final)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.unlink(part)
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc

    def _get(self, queue):
        """The next readable message of ``queue``; unreadable ones are set aside."""
        wanted = f"{queue}.msg"
        names = sorted(os.listdir(self.data_folder_in))
        self._remove_stale_parts(names)
        for name in names:
            # only this queue's messages (kombu's test: what follows the first dot)
            if name.partition(".")[2] != wanted:
                continue
            claimed = os.path.join(self.processed_folder, name)
            try:
                os.rename(os.path.join(self.data_folder_in, name), claimed)
            except OSError:
                continue  # another consumer took it meanwhile
            try:
                with open(claimed, "rb") as f:
                    payload = loads(bytes_to_str(f.read()))
                if not is_message(payload):
                    raise ValueError("not a message")
            except (OSError, ValueError) as exc:  # JSON and UTF-8 errors are ValueErrors
                self._set_aside(claimed, name, exc)
                continue
            if not self.store_processed:
                with contextlib.suppress(OSError):
                    os.remove(claimed)
            return payload
        raise Empty()

    def _set_aside(self, claimed: str, name: str, exc: Exception) -> None:
        target = os.path.join(self.unreadable_folder, name)
        try:
            os.makedirs(self.unreadable_folder, exist_ok=True)
            os.replace(claimed, target)
        except OSError:
            target = "(could not be moved)"
        logger.error(
            "Broker: message %s could not be read (%s: %s); set aside as %s",
            name,
            type(exc).__name__,
            exc,
            target,
        )

    def _remove_stale_parts(self, names: list[str]) -> None:
        """Remove what a producer that died mid-write left (once a minute)."""
        now = time.time()
        if now - self._last_cleanup < 60:
            return
        self._last_cleanup = now
        for name in names:
            if not name.endswith(PART):
                continue
            path = os.path.join(self.data_folder_in, name)
            try:
                if now - os.stat(path).st_mtime > STALE_PART_SECONDS:
                    os.remove(path)
            except OSError:
                pass

    @cached_property
    def unreadable_folder(self):
        default = os.path.join(os.path.dirname(self.processed_folder), "unreadable")
        return self.transport_options.get("unreadable_folder", default)


class Transport(filesystem.Transport):
    """The filesystem transport with :class:`Channel`."""

    Channel = Channel
