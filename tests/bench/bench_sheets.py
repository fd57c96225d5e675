"""Score-sheet benchmark: a 250-table round with QR codes, A5 sheets
per second (best of 3). Run ``python tests/bench/bench_sheets.py``; target
>= 100 sheets/s."""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from games import ENGINES
from scoring.printing.sheets import render_score_sheets

TABLES = 250
FIRST = ["Ayşe", "Łukasz", "Jürgen", "Zoë", "Anna", "Bernd", "Chloé", "Dariusz"]
LAST = ["Şahin", "Weiß", "Wróblewski", "Ødegaard", "Müller", "Nowak", "Schmidt"]


def main():
    game = "quartett" if "quartett" in ENGINES else next(iter(ENGINES))
    tables = [
        {
            "number": t + 1,
            "players": [
                {"name": f"{FIRST[(t + s) % 8]} {LAST[(t * 4 + s) % 7]} {t * 4 + s}"}
                for s in range(4)
            ],
        }
        for t in range(TABLES)
    ]

    def url(table):
        return f"https://turnier.example.org/t/42/r/3/table/{table['number']}/?sig=k3Jd9aQx0Zb7TfLmW2yNc"

    best = None
    for _ in range(3):
        t0 = time.perf_counter()
        pdf = render_score_sheets(
            {"name": "Herbstturnier 2025"}, 3, tables, engine_id=game, base_url_for_table=url
        )
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    print(
        f"score sheets, {game}, {TABLES} tables x 4 players with QR: {best:.3f} s, "
        f"{TABLES / best:.0f} sheets/s (A5), {TABLES / 2 / best:.0f} A4 pages/s, "
        f"{len(pdf) / 1024:.0f} KiB (target >= 100 sheets/s)"
    )


if __name__ == "__main__":
    main()
