"""``python -m tournaments.seating``: a request as JSON on stdin, the answer on stdout."""

from __future__ import annotations

import json
import sys

from tournaments.seating.errors import SeatingError
from tournaments.seating.seat_round import seat


def main(argv=None) -> int:
    try:
        request = json.load(sys.stdin)
    except json.JSONDecodeError as exc:
        msg = f"request is not valid JSON: {exc}"
        print(msg, file=sys.stderr)
        print(json.dumps({"error": msg, "code": "bad_json"}))
        return 2
    try:
        answer = seat(request)
    except SeatingError as exc:
        print(f"bad request: {exc}", file=sys.stderr)
        print(json.dumps({"error": str(exc), "code": exc.code, "params": exc.params}))
        return 2
    json.dump(answer, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
