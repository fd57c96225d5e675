"""The embedded broker alone: ``python tests/bench/bench_broker.py [--each 600]``.

Four producer processes trickle messages (a pause of 0–2 ms) into one queue
while one consumer takes them as fast as it can, first through kombu's own
filesystem transport (before), then through ``tournaments/broker.py``
(after). A read that fails (kombu: the ``JSONDecodeError`` that stopped the
worker) is counted and the consumer goes on. Prints per transport: reads
that failed, messages lost, messages delivered twice, seconds.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import kombu

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.tournaments.test_broker import PRODUCER, folders  # noqa: E402

TRANSPORTS = {
    "kombu's filesystem transport": "kombu.transport.filesystem:Transport",
    "tournaments.broker": "tournaments.broker:Transport",
}


def run(transport: str, producers: int, each: int) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="tl-bench-broker-"))
    options, name = folders(tmp), f"work-{uuid.uuid4().hex[:8]}"
    producer = PRODUCER.replace("tournaments.broker:Transport", transport)
    ids, failed = [], 0
    start = time.monotonic()
    with kombu.Connection("filesystem://", transport=transport, transport_options=options) as c:
        channel = c.default_channel
        queue = c.SimpleQueue(name, channel=channel)
        procs = [
            subprocess.Popen(
                [sys.executable, "-c", producer, json.dumps(options), str(i), str(each), name],
                cwd=ROOT,
            )
            for i in range(producers)
        ]
        quiet_since = None
        while True:
            try:
                message = queue.get(timeout=0.2)
            except queue.Empty:
                if all(p.poll() is not None for p in procs):
                    quiet_since = quiet_since or time.monotonic()
                    if time.monotonic() - quiet_since > 1:
                        break
                continue
            except ValueError:  # the message file read before it was written
                failed += 1
                continue
            ids.append(message.payload["id"])
            message.ack()
        queue.close()
    sent = {f"{i}-{n}" for i in range(producers) for n in range(each)}
    return {
        "failed": failed,
        "lost": len(sent - set(ids)),
        "twice": len(ids) - len(set(ids)),
        "seconds": time.monotonic() - start,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--producers", type=int, default=4)
    parser.add_argument("--each", type=int, default=600)
    args = parser.parse_args()
    total = args.producers * args.each
    bad = False
    for label, transport in TRANSPORTS.items():
        r = run(transport, args.producers, args.each)
        print(
            f"{label}: {args.producers} producers, {total} messages: reads failed "
            f"{r['failed']}, lost {r['lost']}, twice {r['twice']} ({r['seconds']:.1f} s)"
        )
        bad = bad or (
            transport.startswith("tournaments") and any(r[k] for k in r if k != "seconds")
        )
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
