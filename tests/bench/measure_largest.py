"""The largest tournament the limits allow, measured: ``python
tests/bench/measure_largest.py`` (``--players 2000 --rounds 30``). Built in
bulk as ``bench_mirror`` builds it (tables of 4, every sheet confirmed), in a
SQLite file in a temporary folder; prints the sizes of its full export (a
tournament import's file) and of its whole public snapshot (the largest
publication, unpacked and gzip), and their element counts as
``tournaments.safejson`` counts them."""

from __future__ import annotations

import argparse
import gzip
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args()
    from tests.bench import bench_mirror

    bench_mirror.setup()
    from scoring.exchange.export import export_tournament
    from tournaments import safejson
    from tournaments.mirror import publish, receive

    started = time.monotonic()
    laptop = bench_mirror.Laptop(args.players, args.rounds)
    for number in range(1, args.rounds + 1):
        rnd, tables = laptop.seat(number)
        laptop.results(rnd, tables)
    built = time.monotonic() - started
    export = json.dumps(export_tournament(laptop.t), ensure_ascii=False).encode()
    sections, hashes = publish.build_hashed(laptop.t)
    whole = json.dumps(
        {
            "format": receive.FORMAT,
            "source": "x",
            "version": 1,
            "hashes": hashes,
            "sections": sections,
        },
        ensure_ascii=False,
    ).encode()
    print(
        json.dumps(
            {
                "players": args.players,
                "rounds": args.rounds,
                "built_s": round(built, 1),
                "export_bytes": len(export),
                "export_elements": safejson.elements(export),
                "publication_bytes": len(whole),
                "publication_gzip_bytes": len(gzip.compress(whole, 6)),
                "publication_elements": safejson.elements(whole),
                "load": os.getloadavg(),
            }
        )
    )


if __name__ == "__main__":
    main()
