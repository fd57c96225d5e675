"""A step of ``bench_scan_upload.py`` in its own process (the laptop's
settings): how many pages of the tournament's round were stored from the
scan, and how many of its tables have a confirmed result (JSON)."""

from __future__ import annotations

import json
import sys


def main(tournament: int, round_no: int) -> dict:
    import django

    django.setup()
    from scoring.models import Submission
    from scoring.scans.models import ScanPage

    pages = ScanPage.objects.filter(
        pile__round__tournament_id=tournament, pile__round__number=round_no
    )
    return {
        "pages": pages.count(),
        "stored": pages.filter(outcome__in=["stored", "same", "fixed"]).count(),
        "confirmed": Submission.objects.filter(
            table__round__tournament_id=tournament,
            table__round__number=round_no,
            status="confirmed",
        ).count(),
    }


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]), int(sys.argv[2]))))
