"""The web process keeps answering while heavy files come through its doors:
``python tests/bench/bench_heavy_doors.py`` (``--pages 40``).

The production web server (``tournaments.serve``, one process) on a SQLite
database in a temporary folder, as the online site's web box: an organizer
with a publishing key, a public tournament with a running round, a
player's live stream open (``p/<token>/stream/``). Then at once:

- a publication of 40 MB of ``{}`` (41 KB gzip) sent with the key;
- a 21 MB tournament import of ``{}`` uploaded on the import page;
- ``--pages`` page requests (the public round page and standings), one
  after the other, while those two are in the server;

and it prints the pages' p50/p95/max, how many answered, whether the stream
stayed open (bytes read after the heavy requests), the two heavy requests'
answers and times, and the load average. No worker runs: what the server
accepted waits for one (the point is the web process, not the worker).
Runs on any checkout of the code (the code before the issue parsed both in
the request).
"""

from __future__ import annotations

import gzip
import json
import os
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

SETUP = r"""
import json, django
django.setup()
from django.core.management import call_command
call_command("migrate", verbosity=0)
from django.contrib.auth import get_user_model
from tests.factories import seated_round
from tournaments import services
from tournaments.mirror import keys
from tournaments.play.links import seat_token
from tournaments.models import Seat
user = get_user_model().objects.create_user("verein", password="pw-verein-bench-1")
if hasattr(keys, "approve"):
    keys.approve(user=user)
_row, key = keys.key_create(user=user)
t = services.tournament_create(owner=user, name="Bench", game="quartett", rounds=3)
t.public = True
t.save()
rnd = seated_round(t, players=12, start=True)
seat = Seat.objects.filter(table__round=rnd).first()
print(json.dumps({"key": key, "t": t.pk, "round": rnd.number, "token": seat_token(seat)}))
"""


def request(port, method, path, *, body=b"", headers=None, timeout=300.0):
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    started = time.perf_counter()
    conn.request(method, path, body=body, headers=headers or {})
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response.status, time.perf_counter() - started, data, response


def login(port) -> dict:
    """The organizer's session cookie and a CSRF token for the import page."""
    import http.cookies
    import re

    status, _t, page, resp = request(port, "GET", "/accounts/login/")
    jar = http.cookies.SimpleCookie()
    for header in resp.msg.get_all("Set-Cookie") or []:
        jar.load(header)
    csrf = jar["csrftoken"].value
    token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1).decode()
    body = f"username=verein&password=pw-verein-bench-1&csrfmiddlewaretoken={token}".encode()
    status, _t, _page, resp = request(
        port,
        "POST",
        "/accounts/login/",
        body=body,
        headers={
            "Content-Type": "application/x-www-form-urlencoded",
            "Cookie": f"csrftoken={csrf}",
            "Referer": f"http://127.0.0.1:{port}/accounts/login/",
        },
    )
    for header in resp.msg.get_all("Set-Cookie") or []:
        jar.load(header)
    assert status == 302, status
    return {
        "cookie": "; ".join(f"{k}={v.value}" for k, v in jar.items()),
        "csrf": jar["csrftoken"].value,
    }


def stream(port, path, box):
    """Hold a live stream open, counting the bytes that arrive."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.sendall(
        f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".encode()
    )
    box["bytes"], box["open"] = 0, True
    sock.settimeout(1.0)
    while not box.get("stop"):
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            continue
        except OSError:
            break
        if not chunk:
            break
        box["bytes"] += len(chunk)
        box.setdefault("times", []).append(time.perf_counter())
    box["open"] = not box.get("closed_by_server", False) and box.get("stop", False)
    sock.close()


def main() -> int:
    import argparse

    from tests import serverproc, staff_load
    from tournaments.management.commands.runall import web_command

    parser = argparse.ArgumentParser()
    parser.add_argument("--pages", type=int, default=40)
    parser.add_argument("--port", type=int, default=18250)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-doors-") as tmp:
        env = staff_load.sqlite_env(Path(tmp)) | {"DEBUG": "1", "CACHE_URL": "locmem://"}
        env.pop("REDIS_URL", None)
        env.pop("DATABASE_URL", None)
        import subprocess

        out = subprocess.run(
            [sys.executable, "-c", SETUP],
            env=env,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=300,
        )
        if out.returncode:
            print(out.stderr[-3000:])
            return 1
        world = json.loads(out.stdout.strip().splitlines()[-1])
        port = args.port
        server = serverproc.start(web_command(f"127.0.0.1:{port}"), env, Path(tmp) / "web.log")
        try:
            serverproc.wait_until_up(port, server, path="/accounts/login/")
            session = login(port)
            pages = [f"/t/{world['t']}/rounds/{world['round']}/", f"/t/{world['t']}/standings/"]
            for p in pages:  # warm
                request(port, "GET", p)
            box: dict = {}
            watcher = threading.Thread(
                target=stream, args=(port, f"/p/{world['token']}/stream/", box), daemon=True
            )
            watcher.start()
            time.sleep(1.0)
            publication = gzip.compress(
                b'{"format": "turnierleiter.mirror", "x": [' + b"{}," * (40 * 2**20 // 3) + b"{}]}",
                9,
            )
            boundary = "benchboundary"
            content = (
                b'{"format": "turnierleiter.tournament", "x": [' + b"{}," * (7 * 2**20) + b"{}]}"
            )
            upload = (
                (
                    f'--{boundary}\r\nContent-Disposition: form-data; name="csrfmiddlewaretoken"\r\n\r\n'
                    f'{session["csrf"]}\r\n--{boundary}\r\nContent-Disposition: form-data; name="file"; '
                    f'filename="t.json"\r\nContent-Type: application/json\r\n\r\n'
                ).encode()
                + content
                + f"\r\n--{boundary}--\r\n".encode()
            )
            heavy = {}

            def publish():
                heavy["publication"] = request(
                    port,
                    "POST",
                    "/mirror/api/publish/",
                    body=publication,
                    headers={
                        "Authorization": f"Bearer {world['key']}",
                        "Content-Type": "application/gzip",
                    },
                )[:2]

            def import_file():
                heavy["import"] = request(
                    port,
                    "POST",
                    "/tournaments/import/",
                    body=upload,
                    headers={
                        "Content-Type": f"multipart/form-data; boundary={boundary}",
                        "Cookie": session["cookie"],
                        "Referer": f"http://127.0.0.1:{port}/tournaments/import/",
                    },
                )[:2]

            heavies = [threading.Thread(target=f) for f in (publish, import_file)]
            for h in heavies:
                h.start()
            time.sleep(0.2)
            times, failed = [], 0
            for i in range(args.pages):
                try:
                    status, took, _d, _r = request(port, "GET", pages[i % 2], timeout=120)
                    times.append(took)
                    failed += status != 200
                except Exception:
                    failed += 1
            for h in heavies:
                h.join(600)
            stream_bytes_before = box.get("bytes", 0)
            alive = server.poll() is None
            box["stop"] = True
            watcher.join(5)
            times.sort()
            p95 = times[max(0, int(len(times) * 0.95) - 1)] if times else float("nan")
            print(
                json.dumps(
                    {
                        "pages": len(times),
                        "failed": failed,
                        "p50_ms": round(statistics.median(times) * 1000) if times else None,
                        "p95_ms": round(p95 * 1000),
                        "max_ms": round(times[-1] * 1000) if times else None,
                        "publication": [
                            heavy.get("publication", ["none"])[0],
                            round(heavy.get("publication", [0, 0])[1], 2),
                        ],
                        "import": [
                            heavy.get("import", ["none"])[0],
                            round(heavy.get("import", [0, 0])[1], 2),
                        ],
                        "stream_bytes": stream_bytes_before,
                        "server_alive": alive,
                        "load": [round(x, 1) for x in os.getloadavg()],
                    }
                )
            )
        finally:
            serverproc.stop(server)
    return 0


if __name__ == "__main__":
    sys.exit(main())
