"""A scanner's 40-page PDF through the laptop: ``python
tests/bench/bench_scan_upload.py [--tables 40] [--limit 20]``.

What ``make run`` runs — ``manage.py runall``: its web server, a Celery
worker and beat on SQLite and the filesystem broker — in a temporary
``var/`` on 127.0.0.1 (ports 8120–8129). A Quartett round of ``--tables``
tables of four is printed as the print page prints it, every sheet is
filled by the simulated pen of ``tests/scans/corpus.py`` and scanned at
200 dpi into one PDF. A staff member logs in, uploads the PDF from the
round's results page and waits on the pile's page (as its progress bar
does, once a second) until every page is read; then presses the pile's
confirm button and opens the results page.

Prints the seconds from the upload to every result shown on the pile's
page (target ≤ ``--limit``, issue 35), to the results page showing every
table's confirmed result, and how many pages were stored. Exit 1 over the
limit or when a page was not stored.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests import serverproc, staff_load  # noqa: E402

PORTS = range(8120, 8130)
PASSWORD = staff_load.PASSWORD
SEATS = 4


def _prepare(tables: int, out: Path) -> dict:
    """In the bench's own process with the laptop's settings: migrate, seat
    a round, print and fill its sheets into ``out`` (a PDF)."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from tests.factories import time_called_round
    from tests.scans.filled import filled_pages, pdf, valid_values
    from tournaments import services

    call_command("migrate", "--noinput", verbosity=0)
    owner = get_user_model().objects.create_user("scan-orga", password=PASSWORD)
    tournament = services.tournament_create(owner=owner, name="Scan bench", game="quartett")
    time_called_round(tournament, tables, SEATS, published=True)
    fill = {n: valid_values("quartett", SEATS, start=n * 3) for n in range(1, tables + 1)}
    out.write_bytes(pdf(filled_pages(tournament, 1, fill)))
    return {"tournament": tournament.pk, "round": 1, "username": owner.username}


def _multipart(field: str, name: str, data: bytes, csrf: str) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="csrfmiddlewaretoken"\r\n\r\n'
        f"{csrf}\r\n".encode(),
        f'--{boundary}\r\nContent-Disposition: form-data; name="{field}"; filename="{name}"\r\n'
        "Content-Type: application/pdf\r\n\r\n".encode()
        + data
        + b"\r\n",
        f"--{boundary}--\r\n".encode(),
    ]
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def _upload(client: staff_load.Client, path: str, field: str, data: bytes) -> tuple[int, str]:
    body, ctype = _multipart(field, "scan.pdf", data, client.cookies.get("csrftoken", ""))
    headers = {
        "Host": f"127.0.0.1:{client.port}",
        "Cookie": "; ".join(f"{k}={v}" for k, v in client.cookies.items()),
        "X-CSRFToken": client.cookies.get("csrftoken", ""),
        "Referer": f"http://127.0.0.1:{client.port}/",
        "Content-Type": ctype,
        "Accept-Language": "en",
    }
    client.conn.request("POST", path, body=body, headers=headers)
    response = client.conn.getresponse()
    response.read()
    return response.status, response.getheader("Location") or ""


FORM = re.compile(r'<form[^>]*action="([^"]+)"[^>]*enctype="multipart/form-data"', re.S)
FORM2 = re.compile(r'<form[^>]*enctype="multipart/form-data"[^>]*action="([^"]+)"', re.S)
FILE_INPUT = re.compile(
    r'<input[^>]*type="file"[^>]*name="([^"]+)"|<input[^>]*name="([^"]+)"[^>]*type="file"'
)
CONFIRM = re.compile(r'<form[^>]*method="post"[^>]*action="([^"]*scans/[^"]*confirm/)"')


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--limit", type=float, default=20.0)
    parser.add_argument("--step", help=argparse.SUPPRESS)
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.step == "prepare":
        print(json.dumps(_prepare(args.tables, Path(args.out))))
        return 0
    tmp = Path(tempfile.mkdtemp(prefix="tl-bench-scan-"))
    env = staff_load.sqlite_env(tmp)
    scan = tmp / "scan.pdf"
    started = time.monotonic()
    done = subprocess.run(
        [sys.executable, __file__, "--step", "prepare", f"--tables={args.tables}", f"--out={scan}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    if done.returncode:
        print(done.stderr[-3000:])
        return 1
    plan = json.loads(done.stdout.strip().splitlines()[-1])
    data = scan.read_bytes()
    print(
        f"prepared {args.tables} filled sheets, {len(data) // 1024} KiB PDF "
        f"in {time.monotonic() - started:.1f} s"
    )
    port = serverproc.free_port(PORTS)
    log = tmp / "runall.log"
    t, r = plan["tournament"], plan["round"]
    results = f"/tournaments/{t}/rounds/{r}/results/"
    runall = [sys.executable, "manage.py", "runall", f"127.0.0.1:{port}"]
    with serverproc.running(runall, env, port, log, path="/accounts/login/"):
        client = staff_load.Client(port)
        client.login(plan["username"])
        status, _, page = client.request("GET", results)
        match = FORM.search(page) or FORM2.search(page)
        field = FILE_INPUT.search(page)
        if status != 200 or not match or not field:
            print(f"no upload form on the results page ({status})")
            return 1
        action = match[1].replace("&amp;", "&")
        name = field[1] or field[2]
        t0 = time.monotonic()
        status, pile = _upload(client, action, name, data)
        if status != 302 or "/scans/" not in pile:
            print(f"upload answered {status} → {pile!r}")
            return 1
        page, read_at = "", None
        while time.monotonic() - t0 < 300:
            status, _, page = client.request("GET", pile)
            if status == 200 and "<progress" not in page:
                read_at = time.monotonic() - t0
                break
            time.sleep(1.0)
        if read_at is None:
            print("the pile was not read within 300 s")
            return 1
        confirm = CONFIRM.search(page)
        if confirm:
            client.request("POST", confirm[1], {})
        shown_at = None
        while time.monotonic() - t0 < 300:
            status, _, page = client.request("GET", results)
            if "Every table has a confirmed result." in page or (
                "Jede" in page and "no-result" not in page
            ):
                shown_at = time.monotonic() - t0
                break
            time.sleep(0.5)
    stored = serverproc.run_step(
        "tests.bench.bench_scan_upload_count", env, str(t), str(r), timeout=120
    )
    print(f"upload → every page read and shown on the pile's page: {read_at:.1f} s")
    print(
        "upload → every result confirmed on the results page: "
        + (f"{shown_at:.1f} s" if shown_at is not None else "not reached")
    )
    print(f"pages stored: {stored['stored']} of {args.tables}; confirmed: {stored['confirmed']}")
    ok = read_at <= args.limit and stored["stored"] == args.tables
    print(f"target ≤ {args.limit:.0f} s: {'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
