"""Against a real gunicorn (the production server): a request announcing a
100 MB body gets its 413 after the first 64 KB were sent — the server never
waits for the rest — and the connection is closed."""

import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PORTS = range(8120, 8130)


def free_port() -> int:
    for port in PORTS:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    pytest.fail("no free port in 8120-8129")


@pytest.fixture
def server(tmp_path):
    port = free_port()
    env = {**os.environ, "TURNIERLEITER_VAR": str(tmp_path), "DEBUG": "1"}
    env.pop("DATABASE_URL", None)
    proc = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "tournaments.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "1",
            "--timeout",
            "30",
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
                break
            except OSError:
                time.sleep(0.2)
        else:
            pytest.fail("gunicorn did not start")
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=10)


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
        sent = 65536
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
    assert sent < announced
    assert b"too large" in answer + rest
