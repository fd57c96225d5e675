"""Real server processes for tests and benches: start one, time a page, and
hold connections open the way a bad phone or a script does.

Everything here talks to 127.0.0.1 only, and every loop is bounded in count
and time.
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: ports the project's own server tests and benches use (loopback only); each
#: pytest-xdist worker has ten of its own, so two never pick the same one
#: (TURNIERLEITER_TEST_PORTS="18800-18899" moves the whole range, for a
#: machine shared by several checkouts)
_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")
_FIRST = int(os.environ.get("TURNIERLEITER_TEST_PORTS", "18400-").split("-")[0])
PORTS = (
    range(_FIRST + 10 * (int(_WORKER[2:]) % 10), _FIRST + 10 + 10 * (int(_WORKER[2:]) % 10))
    if _WORKER.startswith("gw") and _WORKER[2:].isdigit()
    else range(_FIRST, _FIRST + 100)
)


def free_port(ports: range = PORTS) -> int:
    for port in ports:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {ports.start}-{ports.stop - 1}")


def get(port: int, path: str = "/", *, host: str | None = None, timeout: float = 60.0):
    """One GET on a new connection (as a phone opening a page): (status,
    body, seconds). Status 0 when nothing came back within ``timeout``."""
    head = (
        f"GET {path} HTTP/1.1\r\nHost: {host or f'127.0.0.1:{port}'}\r\n"
        "Accept-Language: en\r\nConnection: close\r\n\r\n"
    ).encode()
    t0 = time.perf_counter()
    data = b""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
            s.settimeout(max(0.01, timeout - (time.perf_counter() - t0)))
            s.sendall(head)
            while chunk := s.recv(65536):
                data += chunk
    except OSError:
        if not data:
            return 0, b"", time.perf_counter() - t0
    seconds = time.perf_counter() - t0
    try:
        status = int(data.split(b" ", 2)[1])
    except (IndexError, ValueError):
        status = 0
    return status, data.partition(b"\r\n\r\n")[2], seconds


def wait_until_up(
    port: int,
    proc: subprocess.Popen,
    *,
    path: str = "/",
    seconds: float = 60,
    log: Path | None = None,
):
    """Until ``path`` answers on ``port``; a server that stops or doesn't
    answer in ``seconds`` raises, with the end of its ``log`` when given."""

    def tail() -> str:
        return ":\n" + log.read_text(errors="replace")[-3000:] if log is not None else ""

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the server stopped at its start (exit {proc.returncode}){tail()}")
        status, _, _ = get(port, path, timeout=5)
        if status:
            return
        time.sleep(0.2)
    raise RuntimeError(f"the server did not answer in {seconds:g} s{tail()}")


def start(cmd: list[str], env: dict, log: Path, *, mode: str = "w") -> subprocess.Popen:
    """Start ``cmd`` in the checkout with its output into ``log`` (opened
    with ``mode``: "ab" keeps what an earlier run of it wrote)."""
    out = open(log, mode)  # noqa: SIM115 - the process writes to it until it stops
    return subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
    )


def stop(proc: subprocess.Popen) -> None:
    """Stop a process started here: terminate, then kill after 15 s."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


@contextlib.contextmanager
def running(cmd: list[str], env: dict, port: int, log: Path, *, path: str = "/"):
    """Start ``cmd`` (a server on ``port``), wait until it answers, stop it after."""
    proc = start(cmd, env, log)
    try:
        wait_until_up(port, proc, path=path)
        yield proc
    finally:
        stop(proc)


def run_step(module: str, env: dict, *args: str, stdin: str = "", timeout: float = 120) -> dict:
    """``python -m module args`` in the checkout with ``env`` (a test's step
    in a process of its own, e.g. with the settings of another site): the
    JSON its last printed line holds. A step that fails raises with the end
    of its error output."""
    done = subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=ROOT,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if done.returncode:
        raise RuntimeError(f"{module} {args[0]} failed:\n{done.stderr[-3000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def page_time(port: int, path: str = "/", *, times: int = 15, timeout: float = 60.0) -> float:
    """The page's usual time: the median of ``times`` requests one after the
    other, each on a new connection (seconds). A failed one counts as
    ``timeout``."""
    seconds = []
    for _ in range(times):
        status, _, took = get(port, path, timeout=timeout)
        seconds.append(took if status == 200 else timeout)
    return statistics.median(seconds)


@contextlib.contextmanager
def idle_connections(port: int, count: int) -> Iterator[list[socket.socket]]:
    """``count`` connections that are opened and then send nothing."""
    socks = []
    try:
        for _ in range(count):
            socks.append(socket.create_connection(("127.0.0.1", port), timeout=5))
        # let the server accept them all (a thousand arriving at once take it
        # a moment under load: that is the storm, not what idle ones cost)
        time.sleep(0.5 + count / 1000)
        yield socks
    finally:
        for s in socks:
            s.close()


@contextlib.contextmanager
def slow_connections(port: int, count: int, *, every: float = 2.0, seconds: float = 120.0):
    """``count`` slow-loris connections: each starts a request and then sends
    one more header byte every ``every`` seconds, never finishing it
    (stops after ``seconds`` at the latest)."""
    socks = []
    stop = threading.Event()

    def drip():
        deadline = time.monotonic() + seconds
        while not stop.wait(every) and time.monotonic() < deadline:
            for s in socks:
                with contextlib.suppress(OSError):
                    s.send(b"x")

    try:
        for _ in range(count):
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            socks.append(s)
        thread = threading.Thread(target=drip, daemon=True)
        thread.start()
        time.sleep(0.5)
        yield socks
    finally:
        stop.set()
        for s in socks:
            s.close()


def base_env(tmp: Path, **extra: str) -> dict:
    """The environment of a server on the embedded default (SQLite, the file
    cache, the filesystem broker) in ``tmp``."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL", "CACHE_URL", "CELERY_BROKER_URL", "DEBUG")
    }
    env.update(
        {
            "TURNIERLEITER_VAR": str(tmp),
            "DJANGO_SETTINGS_MODULE": "tournaments.settings",
            "STATIC_ROOT": str(tmp / "static"),
        }
    )
    env.update(extra)
    return env


def dockerfile_command() -> list[str]:
    """The web server's command line in docker/Dockerfile (its CMD)."""
    import json

    for line in (ROOT / "docker" / "Dockerfile").read_text().splitlines():
        if line.startswith("CMD "):
            return json.loads(line[4:])
    raise RuntimeError("docker/Dockerfile has no CMD")


def docker_web_command(port: int, *, workers: str | None = None) -> list[str]:
    """docker/Dockerfile's web server, on 127.0.0.1:``port`` with this venv's
    Python (``workers`` overrides its processes)."""
    cmd = dockerfile_command()
    if cmd[0] == "python":
        cmd = [sys.executable, *cmd[1:]]
    values = {"--host": "127.0.0.1", "--port": str(port)}
    if workers:
        values["--workers"] = workers
    out = []
    for arg in cmd:
        if out and out[-1] in values:
            out.append(values[out[-1]])
        else:
            out.append(arg)
    return out
