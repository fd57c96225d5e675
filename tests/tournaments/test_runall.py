"""``make run`` (the ``runall`` command): the port is checked before anything
is printed or started, and the port can be chosen (``make run PORT=8001``).

- Another program on the port: runall says so in the user's terms (which
  port, stop it or run ``make run PORT=<a free one>``), exits non-zero, and
  prints no address or login, creates no demo, starts no server or worker.
- ``make run PORT=8123`` hands the port to runall; the web server's command
  line and the printed addresses use it; a real start listens there.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from tests import serverproc
from tournaments.management.commands import runall


@pytest.fixture
def held_port():
    """A port another program listens on (loopback)."""
    port = serverproc.free_port()
    with socket.socket() as other:
        other.bind(("127.0.0.1", port))
        other.listen(1)
        yield port


@pytest.fixture
def started(monkeypatch):
    """What runall would start (its processes and its collectstatic)."""
    calls = []

    def record(*args, **kwargs):
        calls.append(args)
        raise AssertionError("runall started a process on a busy port")

    monkeypatch.setattr(runall.subprocess, "Popen", record)
    monkeypatch.setattr(runall.subprocess, "run", record)
    return calls


@pytest.mark.django_db
def test_a_busy_port_is_refused_before_anything_is_printed_or_started(
    held_port, started, monkeypatch
):
    monkeypatch.setenv("MAKELEVEL", "1")
    out, err = StringIO(), StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command(
            "runall", f"127.0.0.1:{held_port}", "--demo-first-start", stdout=out, stderr=err
        )
    assert exit_.value.code == 1
    message = err.getvalue()
    assert f"Port {held_port} is in use by another program." in message
    suggested = int(re.search(r"`make run PORT=(\d+)`", message).group(1))
    assert suggested != held_port
    assert runall.port_free("127.0.0.1", suggested)
    assert out.getvalue() == ""  # no address, no login
    assert started == []
    assert not get_user_model().objects.exists()  # no demo account either


@pytest.mark.django_db
def test_a_busy_port_run_by_hand_suggests_the_command_typed(held_port, started, monkeypatch):
    monkeypatch.delenv("MAKELEVEL", raising=False)
    err = StringIO()
    with pytest.raises(SystemExit):
        call_command("runall", f"127.0.0.1:{held_port}", stdout=StringIO(), stderr=err)
    assert re.search(r"Stop it or run `python manage.py runall 127\.0\.0\.1:\d+`\.", err.getvalue())


def test_a_program_on_every_interface_makes_the_port_busy():
    port = serverproc.free_port()
    assert runall.port_free("127.0.0.1", port)
    with socket.socket() as other:
        other.bind(("0.0.0.0", port))
        other.listen(1)
        assert not runall.port_free("127.0.0.1", port)
        assert not runall.port_free("0.0.0.0", port)
    assert runall.port_free("0.0.0.0", port)


def test_make_run_passes_port_to_runall():
    """``make run PORT=8123``: the command make runs (dry run: nothing runs)."""
    dry = subprocess.run(
        ["make", "-n", "run", "PORT=8123"],
        cwd=serverproc.ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    line = next(x for x in dry.splitlines() if "runall" in x)
    assert line.split()[-1] == "0.0.0.0:8123"
    default = subprocess.run(
        ["make", "-n", "run"], cwd=serverproc.ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert next(x for x in default.splitlines() if "runall" in x).endswith("0.0.0.0:8000")


@pytest.mark.parametrize("server", runall.SERVERS)
def test_the_web_server_listens_on_the_port_given(server):
    cmd = runall.web_command("0.0.0.0:8123", server=server)
    assert "8123" in " ".join(cmd)
    assert "8000" not in " ".join(cmd)


def test_a_real_start_listens_and_prints_the_chosen_port(tmp_path):
    """runall started as make starts it, on a free port: the page answers
    there and the printed address carries that port; Ctrl-C stops it all."""
    env = serverproc.base_env(tmp_path, MAKELEVEL="1")
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=serverproc.ROOT,
        env=env,
        check=True,
    )
    port = serverproc.free_port()
    log = tmp_path / "runall.log"
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [sys.executable, "manage.py", "runall", f"127.0.0.1:{port}"],
            cwd=serverproc.ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        try:
            serverproc.wait_until_up(port, proc, path="/")
            status, _, _ = serverproc.get(port, "/")
            assert status == 200
        finally:
            os.killpg(proc.pid, signal.SIGINT)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:  # pragma: no cover - a stuck child
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=5)
    time.sleep(0.2)
    printed = log.read_text()
    assert f"Turnierleiter runs at http://127.0.0.1:{port}/" in printed
    assert "in use by another program" not in printed


def test_benches_and_tests_can_build_runalls_command_lines_before_django_is_set_up():
    """The benches (tests/bench/bench_heavy_doors.py and others) import runall's
    command-line builders in a process that has not set up Django: runall must
    not pull in models on import (it once did through the tasks module, and the
    bench failed with "settings are not configured")."""
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "from tournaments.management.commands.runall import web_command, laptop_env;"
            "print(web_command('127.0.0.1:1')[0])",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0, out.stderr[-2000:]
