"""Sheets read by machine: the corpus of ``tests/scans/corpus.py`` (every
game at every table size; scans at 300/200/150 dpi and phone photos, filled
with simulated pen marks), read back by ``scoring.scans.reader``.

Prints: silent misreads (a field read as another value than was marked,
without being flagged unsure; counted on every read field, and on the sheets
the game's engine accepted — ``engine.check_sheet`` runs on every completely
read sheet), the share of sheets read completely (no flag) among the clean
sheets (no crossed-out correction, no stray mark: those must be flagged) for
scans and for photos, that every correction came back unsure, and the speed
of reading 200 dpi scans on one core (reading only; one process, OpenCV and
BLAS threads 1), with the load average.

    python tests/bench/bench_scan.py [--sheets 2000] [--workers 2] [--speed 100]
        [--start 1] [--blotted 0]

``--blotted N``: N sheets whose code is inked over, read once staff name
their table (``read_as``), and named as another game's or size's table
(refused, never read).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
# one core: no thread pools under OpenCV or numpy (set before they load)
os.environ.update(OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")

import cv2

from games import ENGINES, SheetError
from scoring.scans.reader import read_as, read_image
from tests.scans.corpus import layout_of, make_case

cv2.setNumThreads(1)

COMBOS = [
    (game, n)
    for game, engine in sorted(ENGINES.items())
    for n in range(engine.min_players, engine.max_players + 1)
]
KINDS = ("scan300", "scan200", "scan150", "photo", "photo")


def one(seed: int) -> dict:
    cv2.setNumThreads(1)
    game, n = COMBOS[seed % len(COMBOS)]
    kind = KINDS[(seed // len(COMBOS)) % len(KINDS)]
    case = make_case(seed, game, n, kind)
    page = read_image(case.image, lambda code: layout_of(game, n))
    out = {
        "seed": seed,
        "game": game,
        "players": n,
        "kind": kind,
        "status": page.status,
        "reason": page.reason,
        "complete": page.complete,
        "unsure": page.unsure,
        "clean": not case.corrected and not case.stray,
        "corrected": sorted(case.corrected),
        "seconds": page.seconds,
        "cpu": page.cpu_seconds,
        "misreads": [],
        "engine": None,
    }
    if page.status != "read":
        return out
    if page.code != case.code:
        out["misreads"].append(["<code>", case.code, page.code])
    for name, reading in page.fields.items():
        if reading.status == "unsure":
            continue
        if reading.value != case.truth.get(name):
            out["misreads"].append([name, case.truth.get(name), reading.value])
    if page.complete:
        try:
            ENGINES[game].check_sheet(n, page.values(), ENGINES[game].default_options())
            out["engine"] = "accepted"
        except SheetError:
            out["engine"] = "refused"
    return out


def blotted(seed: int) -> dict:
    """A sheet whose code is inked over, read once staff name its table
    (``read_as``: the layout of its game and size), and named as another
    table size or game (it must be refused, never read)."""
    cv2.setNumThreads(1)
    game, n = COMBOS[seed % len(COMBOS)]
    kind = KINDS[(seed // len(COMBOS)) % len(KINDS)]
    case = make_case(seed, game, n, kind, blotted=True)
    first = read_image(case.image, lambda code: layout_of(game, n))
    page = read_as(case.image, case.layout)
    misreads = [
        name
        for name, r in page.fields.items()
        if r.status != "unsure" and r.value != case.truth.get(name)
    ]
    wrong = COMBOS[(seed * 7 + 3) % len(COMBOS)]
    if wrong == (game, n):
        wrong = COMBOS[(seed * 7 + 4) % len(COMBOS)]
    other = read_as(case.image, layout_of(*wrong))
    return {
        "kind": kind,
        "code_unreadable": first.reason == "code_unreadable",
        "status": page.status,
        "reason": page.reason,
        "complete": page.complete,
        "clean": not case.corrected and not case.stray,
        "misreads": misreads,
        "wrong_read": other.status == "read",
        "wrong_reason": other.reason,
        "seconds": page.seconds,
    }


def blotted_summary(count: int, start: int, workers: int) -> dict:
    seeds = range(start, start + count)
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            rs = list(pool.map(blotted, seeds, chunksize=8))
    else:
        rs = [blotted(s) for s in seeds]
    out = {"sheets": len(rs), "code_unreadable": sum(r["code_unreadable"] for r in rs)}
    for family in ("scan", "photo"):
        clean = [r for r in rs if r["kind"].startswith(family) and r["clean"]]
        out[f"{family}_clean_complete"] = round(
            sum(r["complete"] for r in clean) / max(len(clean), 1), 4
        )
        out[f"{family}_refused"] = dict(
            Counter(r["reason"] for r in rs if r["kind"].startswith(family) and r["reason"])
        )
    out["silent_misreads_fields"] = sum(len(r["misreads"]) for r in rs)
    out["named_wrong_table_read"] = sum(r["wrong_read"] for r in rs)
    out["named_wrong_table_refused"] = dict(Counter(r["wrong_reason"] for r in rs))
    out["seconds_per_sheet"] = round(sum(r["seconds"] for r in rs) / max(len(rs), 1), 3)
    return out


def speed(count: int) -> dict:
    """Reading 200 dpi scans in this process (threads 1): wall and CPU per sheet."""
    cases = [make_case(10_000 + s, *COMBOS[s % len(COMBOS)], "scan200") for s in range(count)]
    wall = cpu = 0.0
    for case in cases:
        t, c = time.perf_counter(), time.process_time()
        read_image(case.image, lambda code, case=case: layout_of(case.game, case.players))
        wall += time.perf_counter() - t
        cpu += time.process_time() - c
    return {"sheets": count, "wall_per_sheet": wall / count, "cpu_per_sheet": cpu / count}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sheets", type=int, default=2000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--speed", type=int, default=100)
    ap.add_argument("--start", type=int, default=1)
    ap.add_argument("--blotted", type=int, default=0, help="sheets with the code inked over")
    args = ap.parse_args()
    load0 = os.getloadavg()
    t0 = time.perf_counter()
    seeds = range(args.start, args.start + args.sheets)
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            results = list(pool.map(one, seeds, chunksize=8))
    else:
        results = [one(s) for s in seeds]
    elapsed = time.perf_counter() - t0
    misread_fields = [(r["seed"], r["kind"], m) for r in results for m in r["misreads"]]
    engine_misreads = [
        (r["seed"], m) for r in results if r["engine"] == "accepted" for m in r["misreads"]
    ]
    summary = {"sheets": len(results), "corpus_and_read_seconds": round(elapsed, 1)}
    for family in ("scan", "photo"):
        rs = [r for r in results if r["kind"].startswith(family)]
        clean = [r for r in rs if r["clean"]]
        summary[family] = {
            "sheets": len(rs),
            "clean": len(clean),
            "complete_clean": round(sum(r["complete"] for r in clean) / max(len(clean), 1), 4),
            "refused": dict(Counter(r["reason"] for r in rs if r["status"] != "read")),
            "unsure_reasons_clean": dict(Counter(v for r in clean for v in r["unsure"].values())),
            "incomplete_clean": [
                [r["seed"], r["kind"], r["game"], r["players"], r["reason"] or r["unsure"]]
                for r in clean
                if not r["complete"]
            ][:40],
        }
    for kind in ("scan300", "scan200", "scan150", "photo"):
        clean = [r for r in results if r["kind"] == kind and r["clean"]]
        summary[f"complete_{kind}"] = round(
            sum(r["complete"] for r in clean) / max(len(clean), 1), 4
        )
    corrections = [r for r in results if r["corrected"]]
    summary["corrections"] = len(corrections)
    summary["corrections_flagged"] = sum(
        all(name in r["unsure"] for name in r["corrected"]) or r["status"] != "read"
        for r in corrections
    )
    summary["engine"] = dict(Counter(r["engine"] for r in results if r["engine"]))
    summary["silent_misreads_fields"] = len(misread_fields)
    summary["silent_misreads_engine_accepted"] = len(engine_misreads)
    summary["misread_examples"] = misread_fields[:10]
    if args.blotted:
        summary["blotted"] = blotted_summary(args.blotted, args.start, args.workers)
    if args.speed:
        summary["speed_200dpi"] = speed(args.speed)
        s = summary["speed_200dpi"]
        s["sheets_per_second_wall"] = round(1 / s["wall_per_sheet"], 2)
        s["sheets_per_second_cpu"] = round(1 / s["cpu_per_sheet"], 2)
    summary["load_average_before"] = [round(x, 2) for x in load0]
    summary["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(summary, indent=1, default=str))


if __name__ == "__main__":
    main()
