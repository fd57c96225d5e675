"""The server ``make run`` starts, as it starts it: runall's web command with
runall's environment (DEBUG off, the laptop's settings), on the embedded
default (SQLite), loopback only.

- Idle and slow connections cost it no thread: with 100 connections open
  that send nothing (or dribble a header byte now and then), a page answers
  within its usual time plus 50 ms.
- A connection that never sends a whole request head is closed.
- A request announcing a 100 MB body gets its 413 after the first 64 KB were
  sent, without the server waiting for the rest; a chunked body without a
  length is cut off at the limit; too many header fields, an over-long
  request line and an over-long head are refused before Django.
- Without DEBUG: a wrong URL answers the site's 404 page (no list of URL
  patterns, no ``admin/``), static files are served under hashed names and
  compressed for a browser that accepts it, ``/favicon.ico`` answers, phones
  reach it by the laptop's LAN address, a foreign host name is refused.
"""

from __future__ import annotations

import gzip
import http.client
import socket
import statistics
import subprocess
import sys
import time

import pytest

from tests import serverproc
from tournaments.management.commands.runall import laptop_env, prepare, web_command

HEAD_TIMEOUT = 4  # seconds (the default is 20; the test waits for it once)


@pytest.fixture(scope="module")
def laptop(tmp_path_factory):
    """A migrated embedded default with its static files collected: (folder, env)."""
    tmp = tmp_path_factory.mktemp("make-run")
    env = laptop_env(serverproc.base_env(tmp, TURNIERLEITER_HEAD_TIMEOUT=str(HEAD_TIMEOUT)))
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=serverproc.ROOT,
        env=env,
        check=True,
    )
    prepare(env)
    return tmp, env


@pytest.fixture(scope="module")
def server(laptop):
    tmp, env = laptop
    port = serverproc.free_port()
    with serverproc.running(web_command(f"127.0.0.1:{port}"), env, port, tmp / "web.log"):
        yield port


@pytest.fixture(scope="module")
def test_only_server(laptop):
    """The same server with a budget of 2 s and the test-only pages
    (tests/slowserver): the runaways and a push stream."""
    tmp, env = laptop
    env = env | {
        "REQUEST_TIME_BUDGET": "2",
        "DJANGO_SETTINGS_MODULE": "tests.slowserver.settings",
    }
    port = serverproc.free_port()
    with serverproc.running(web_command(f"127.0.0.1:{port}"), env, port, tmp / "slow.log"):
        yield port


def test_on_sqlite_a_runaway_request_fails_alone(test_only_server):
    """SQLite's progress handler stops the endless query."""
    from tests.tournaments.test_request_budget import assert_fails_alone, runaway_alongside_others

    usual = serverproc.page_time(test_only_server, "/", times=5)
    assert_fails_alone(runaway_alongside_others(test_only_server, 2.0), 2.0, usual)


def test_push_streams_hold_no_thread(test_only_server):
    """The push channel's ground: 40 open event streams (more than the server's
    2 × 8 request threads) while pages still answer promptly."""
    port = test_only_server
    usual = serverproc.page_time(port, "/", times=5)
    streams = []
    try:
        for _ in range(40):
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            s.sendall(b"GET /test-only/stream/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            streams.append([s, b""])

        def read_until(marker: bytes):
            for stream in streams:
                while marker not in stream[1]:
                    chunk = stream[0].recv(4096)
                    assert chunk, "the stream ended early"
                    stream[1] += chunk

        read_until(b"data: 0")
        answers = [serverproc.get(port, "/", timeout=10) for _ in range(5)]
        read_until(b"data: 2")  # still streaming
    finally:
        for s, _ in streams:
            s.close()
    assert all(status == 200 for status, _, _ in answers)
    assert b"text/event-stream" in streams[0][1]
    assert statistics.median(t for _, _, t in answers) <= usual + 0.1


def test_a_server_that_stops_ends_its_push_streams_at_once(laptop):
    """A push stream never ends by itself: the stopping server closes it
    (its browser reconnects to the next one) instead of waiting the whole
    graceful timeout (10 s) for it."""
    tmp, env = laptop
    env = env | {"DJANGO_SETTINGS_MODULE": "tests.slowserver.settings"}
    port = serverproc.free_port()
    with serverproc.running(web_command(f"127.0.0.1:{port}"), env, port, tmp / "stop.log") as proc:
        streams = []
        for _ in range(3):
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            s.sendall(b"GET /test-only/stream/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            streams.append(s)
        for s in streams:
            seen = b""
            while b"data: 0" not in seen:
                seen += s.recv(4096)
        start = time.monotonic()
        proc.terminate()
        proc.wait(timeout=30)
        stopped = time.monotonic() - start
        for s in streams:
            s.close()
    # the test stream alone would run 4.5 s more, the graceful timeout 10 s
    assert stopped < 3.0


def test_make_run_has_debug_off_and_a_key_of_its_own(tmp_path):
    env = laptop_env({"PATH": "/usr/bin"})
    assert env["DEBUG"] == "0"
    assert laptop_env({"DEBUG": "1"})["DEBUG"] == "1"  # a developer turns it on
    from tournaments.settings import laptop_secret_key

    key = laptop_secret_key(tmp_path / "secret_key")
    assert len(key) >= 50
    assert laptop_secret_key(tmp_path / "secret_key") == key  # kept, not made anew


def test_idle_connections_cost_no_thread(server):
    usual = serverproc.page_time(server, "/", times=15)
    for opened in (serverproc.idle_connections, serverproc.slow_connections):
        with opened(server, 100):
            answers = [serverproc.get(server, "/", timeout=10) for _ in range(5)]
        assert all(status == 200 for status, _, _ in answers), opened.__name__
        # every one promptly (gunicorn's threads: the first took 4.5 s with 8
        # idle connections, none came within 60 s with 100) ...
        assert max(seconds for _, _, seconds in answers) <= usual + 1.0, opened.__name__
        # ... and as fast as without them, give or take 50 ms
        took = statistics.median(seconds for _, _, seconds in answers)
        assert took <= usual + 0.050, (opened.__name__, usual, took)


def test_a_connection_that_sends_no_whole_request_head_is_closed(server):
    with socket.create_connection(("127.0.0.1", server), timeout=HEAD_TIMEOUT + 10) as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        t0 = time.monotonic()
        assert s.recv(1024) == b""  # closed, nothing answered
        assert HEAD_TIMEOUT - 1 <= time.monotonic() - t0 <= HEAD_TIMEOUT + 5


def test_oversized_upload_is_answered_before_the_body_is_sent(server):
    announced = 100 * 1024 * 1024
    head = (
        "POST /tournaments/import/ HTTP/1.1\r\n"
        f"Host: 127.0.0.1:{server}\r\n"
        "Content-Type: multipart/form-data; boundary=xyz\r\n"
        f"Content-Length: {announced}\r\n\r\n"
    ).encode()
    with socket.create_connection(("127.0.0.1", server), timeout=10) as s:
        s.sendall(head + b"x" * 65536)
        answer = b""
        while b"\r\n\r\n" not in answer:
            chunk = s.recv(65536)
            if not chunk:
                break
            answer += chunk
        status = answer.split(b"\r\n", 1)[0]
        assert b" 413 " in status, answer[:300]
        assert b"connection: close" in answer.lower()
        # the server closes: the rest of the 100 MB is never read
        s.settimeout(5)
        rest = b""
        while chunk := s.recv(65536):
            rest += chunk
    assert b"too large" in (answer + rest).lower()


def test_a_chunked_body_is_cut_off_at_the_limit(server):
    chunk = b"x" * 65536
    head = (
        "POST /tournaments/import/ HTTP/1.1\r\n"
        f"Host: 127.0.0.1:{server}\r\n"
        "Content-Type: application/x-www-form-urlencoded\r\n"
        "Transfer-Encoding: chunked\r\n\r\n"
    ).encode()
    framed = f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
    with socket.create_connection(("127.0.0.1", server), timeout=10) as s:
        s.sendall(head)
        answer = b""
        s.settimeout(0.05)
        for _ in range(200):  # up to 12.5 MB, far above the 2 MB of a form
            try:
                s.sendall(framed)
                answer += s.recv(65536)
            except TimeoutError:
                continue
            except OSError:
                break
            if b"\r\n\r\n" in answer:
                break
        s.settimeout(5)
        try:
            while b"\r\n\r\n" not in answer and (chunk := s.recv(65536)):
                answer += chunk
        except OSError:
            pass
    assert b" 413 " in answer.split(b"\r\n", 1)[0], answer[:200]


@pytest.mark.parametrize(
    ("extra", "status"),
    [
        ("".join(f"X-Field-{i}: {i}\r\n" for i in range(70)), 431),
        (f"X-Big: {'y' * 20000}\r\n", 431),  # the whole head is bounded (16 KB)
    ],
)
def test_oversized_heads_are_refused_before_django(server, extra, status):
    head = f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{server}\r\n{extra}Connection: close\r\n\r\n"
    with socket.create_connection(("127.0.0.1", server), timeout=10) as s:
        s.sendall(head.encode())
        answer = s.recv(4096)
    assert answer.startswith(f"HTTP/1.1 {status} ".encode()), answer[:100]


def test_an_overlong_request_line_is_refused(server):
    status, _, _ = serverproc.get(server, "/?" + "q" * 5000, timeout=10)
    assert status == 414


def test_a_wrong_url_answers_the_sites_404_page_not_the_url_list(server):
    status, body, _ = serverproc.get(server, "/no-such-page/", timeout=10)
    assert status == 404
    assert b"Page not found" in body
    assert b"<html" in body and b"/static/css/site." in body  # the site's own layout
    for revealing in (b"admin/", b"URLconf", b"DEBUG = True", b"urlpatterns"):
        assert revealing not in body


def test_static_files_are_served_without_debug(server):
    status, body, _ = serverproc.get(server, "/no-such-page/", timeout=10)
    css = body.split(b'href="', 2)[1].split(b'"', 1)[0].decode()
    assert css.startswith("/static/css/site.") and css.endswith(".css")  # a hashed name
    status, body, _ = serverproc.get(server, css, timeout=10)
    assert status == 200 and b"{" in body


def _get(port: int, path: str, **headers) -> http.client.HTTPResponse:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path, headers=headers)
    response = conn.getresponse()
    response.body = response.read()
    conn.close()
    return response


def test_static_files_are_compressed_for_a_browser_that_accepts_it(server):
    page = _get(server, "/accounts/login/")
    css = page.body.split(b'rel="stylesheet" href="', 1)[1].split(b'"', 1)[0].decode()
    assert css.startswith("/static/css/site.") and css != "/static/css/site.css"  # hashed
    plain = _get(server, css)
    packed = _get(server, css, **{"Accept-Encoding": "gzip, deflate, br"})
    assert plain.status == packed.status == 200
    assert plain.getheader("Content-Encoding") is None
    assert packed.getheader("Content-Encoding") in ("gzip", "br")
    assert len(packed.body) < len(plain.body) / 2
    if packed.getheader("Content-Encoding") == "gzip":
        assert gzip.decompress(packed.body) == plain.body
    # a hashed name never changes: the browser keeps it
    assert "immutable" in packed.getheader("Cache-Control", "")


def test_the_favicon_answers_and_every_page_names_it(server):
    icon = _get(server, "/favicon.ico")
    assert icon.status == 200 and icon.getheader("Content-Type") == "image/x-icon"
    assert icon.body[:4] == b"\x00\x00\x01\x00"  # an icon file
    page = _get(server, "/accounts/login/")
    assert b'rel="icon" href="/favicon.ico"' in page.body
    svg = page.body.split(b'rel="icon" href="/static/', 1)[1].split(b'"', 1)[0].decode()
    assert svg.startswith("img/favicon.") and svg.endswith(".svg")
    assert _get(server, f"/static/{svg}").status == 200


@pytest.mark.parametrize(
    ("host", "status"),
    [
        ("192.168.1.20:8000", 200),  # a phone on the venue's Wi-Fi
        ("10.0.0.5", 200),
        ("[fe80::1]:8000", 200),
        ("localhost:8000", 200),
        ("evil.example.com", 400),  # what a DNS-rebinding page would send
        ("192.168.1.20.nip.io", 400),
    ],
)
def test_phones_reach_it_by_the_lan_address_and_no_other_name(server, host, status):
    got, _, _ = serverproc.get(server, "/", host=host, timeout=10)
    assert got == status


def test_back_to_back_answers_on_a_kept_alive_connection_wait_for_no_delayed_ack(server):
    """A phone on keep-alive asks again and again: the answer's body follows
    its head at once. Written separately without TCP_NODELAY, the body waited
    for the client's delayed acknowledgement of the head (about 40 ms on
    Linux) on nearly every request after the first."""
    with socket.create_connection(("127.0.0.1", server), timeout=30) as conn:
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        gaps = []
        for _ in range(12):
            conn.sendall(b"GET /accounts/login/ HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            data = b""
            while b"\r\n\r\n" not in data:
                data += conn.recv(65536)
            head_at = time.perf_counter()
            head, _sep, body = data.partition(b"\r\n\r\n")
            length = int(
                next(
                    line.split(b":", 1)[1]
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length:")
                )
            )
            while len(body) < length:
                body += conn.recv(65536)
            gaps.append(time.perf_counter() - head_at)
    # a delayed acknowledgement is 40 ms; a loaded machine's scheduling is far less
    assert sorted(gaps)[len(gaps) // 2] < 0.02, [round(g * 1000, 1) for g in gaps]
