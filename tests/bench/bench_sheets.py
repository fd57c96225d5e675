"""Score-sheet benchmark: a 250-table round with QR codes, sheets per
second (best of 3): the machine-readable A4 sheets (with their sheet code)
and the compact A5 sheets, two per page. Run
``python tests/bench/bench_sheets.py``; target >= 100 sheets/s."""

from __future__ import annotations

import os
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

    for machine_readable in (True, False):
        best = None
        for _ in range(3):
            t0 = time.perf_counter()
            pdf = render_score_sheets(
                {"name": "Herbstturnier 2025", "id": 42},
                3,
                tables,
                engine_id=game,
                base_url_for_table=url,
                machine_readable=machine_readable,
            )
            dt = time.perf_counter() - t0
            best = dt if best is None else min(best, dt)
        kind = "A4, machine-readable" if machine_readable else "A5, two per page"
        print(
            f"score sheets ({kind}), {game}, {TABLES} tables x 4 players with QR: "
            f"{best:.3f} s, {TABLES / best:.0f} sheets/s, {len(pdf) / 1024:.0f} KiB "
            f"(target >= 100 sheets/s; load {os.getloadavg()[0]:.1f})"
        )


if __name__ == "__main__":
    main()
