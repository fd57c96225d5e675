"""The laptop's embedded broker (``tournaments/broker.py``) alone, without
Django or Celery: what kombu hands the worker.

- Four producer processes trickle messages into one queue while one consumer
  takes them as fast as it can: every message arrives once, none is lost,
  none is unreadable (kombu's own filesystem transport hands out a message
  file before its producer has written it: an empty read, and the worker
  stops with ``JSONDecodeError``).
- A file in the queue that isn't a message (empty, garbage, JSON of
  something else) is logged and set aside in ``unreadable/``; the messages
  around it are delivered.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import time
import uuid
from pathlib import Path

import kombu

from tournaments import broker

ROOT = Path(__file__).resolve().parents[2]
PRODUCERS = 4
EACH = 300

#: one producer: its messages, each with its id, a pause of 0-2 ms between them
PRODUCER = """
import json, random, sys, time
import kombu
folders, name = json.loads(sys.argv[1]), sys.argv[4]
index, count = int(sys.argv[2]), int(sys.argv[3])
rng = random.Random(index)
with kombu.Connection("filesystem://", transport="tournaments.broker:Transport",
                      transport_options=folders) as conn:
    queue = conn.SimpleQueue(name)
    for n in range(count):
        queue.put({"id": f"{index}-{n}"})
        time.sleep(rng.random() * 0.002)
    queue.close()
"""


def queue_name() -> str:
    """A queue of its own per test (kombu keeps declared queues per process)."""
    return f"work-{uuid.uuid4().hex[:8]}"


def folders(tmp_path: Path) -> dict:
    for name in ("out", "processed", "control", "unreadable"):
        (tmp_path / name).mkdir()
    return {
        "data_folder_in": str(tmp_path / "out"),
        "data_folder_out": str(tmp_path / "out"),
        "processed_folder": str(tmp_path / "processed"),
        "control_folder": str(tmp_path / "control"),
        "unreadable_folder": str(tmp_path / "unreadable"),
        "store_processed": False,
        "polling_interval": 0.001,
    }


def connection(options: dict) -> kombu.Connection:
    return kombu.Connection(
        "filesystem://", transport="tournaments.broker:Transport", transport_options=options
    )


def consume(queue, expected: int, seconds: float) -> list[str]:
    """Every message's id, until ``expected`` arrived or the time is up."""
    ids = []
    until = time.monotonic() + seconds
    while len(ids) < expected and time.monotonic() < until:
        try:
            message = queue.get(timeout=0.2)
        except queue.Empty:
            continue
        ids.append(message.payload["id"])
        message.ack()
    return ids


def test_four_producers_one_consumer_every_message_once(tmp_path):
    options, name = folders(tmp_path), queue_name()
    with connection(options) as conn:
        queue = conn.SimpleQueue(name)
        producers = [
            subprocess.Popen(
                [sys.executable, "-c", PRODUCER, json.dumps(options), str(i), str(EACH), name],
                cwd=ROOT,
            )
            for i in range(PRODUCERS)
        ]
        try:
            ids = consume(queue, PRODUCERS * EACH, seconds=60)
            # anything beyond the expected count would be a message twice
            ids += consume(queue, 1, seconds=0.5)
        finally:
            for p in producers:
                p.wait(timeout=60)
        queue.close()
    sent = {f"{i}-{n}" for i in range(PRODUCERS) for n in range(EACH)}
    assert [p.returncode for p in producers] == [0] * PRODUCERS
    assert sorted(sent - set(ids)) == []  # lost
    assert len(ids) == len(set(ids))  # none twice
    assert list((tmp_path / "unreadable").iterdir()) == []  # none unreadable
    assert not list((tmp_path / "out").glob("*" + broker.PART))  # nothing half-written left


def test_an_unreadable_file_is_set_aside_and_the_consumer_goes_on(tmp_path, caplog):
    options, name = folders(tmp_path), queue_name()
    out = tmp_path / "out"
    with connection(options) as conn:
        queue = conn.SimpleQueue(name)
        queue.put({"id": "before"})
        time.sleep(0.005)
        bad = {
            "empty": b"",
            "garbage": b"\x00\xffnot json",
            "half": b'{"body": "eyJpZCI6',
            "other": json.dumps([1, 2, 3]).encode(),
        }
        for content in bad.values():
            (out / broker.message_name(name)).write_bytes(content)
            time.sleep(0.005)
        queue.put({"id": "after"})
        with caplog.at_level(logging.ERROR, logger="tournaments.broker"):
            ids = consume(queue, 2, seconds=10)
        queue.close()
    assert ids == ["before", "after"]
    aside = sorted(p.read_bytes() for p in (tmp_path / "unreadable").iterdir())
    assert aside == sorted(bad.values())
    assert len([r for r in caplog.records if "could not be read" in r.getMessage()]) == 4
    assert list(out.iterdir()) == []
