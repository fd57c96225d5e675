"""The laptop's processes kept running (``make run``, runall): the web server,
the Celery workers and beat as child processes.

- The web server is *essential*: its end (or Ctrl-C / SIGTERM to runall)
  stops everything. Nothing else stops it.
- A background process (a worker, beat) that exits after a stable run
  (:attr:`Supervisor.stable_after` seconds) is started again at once; one
  that dies again sooner waits 1, 2, 4 … up to 60 s (deaths in a row: a
  crash loop doesn't eat the laptop). Each death and restart is logged.
- A background process with a heartbeat file (a worker: runall has it touched
  by a task on the worker's own queue, :func:`touch_heartbeat`) whose file
  is older than its limit is alive but stuck: it is killed (SIGKILL) and
  started again the same way.
- Every change, and every few seconds, the state of each process is written
  to a small JSON file (atomically) that the organizer's overview reads
  (:func:`read_status`): ``starting`` (first start), ``running``, ``down``
  (dead, waiting for its restart), ``restarting`` (started again, not yet
  confirmed by a heartbeat or by :attr:`Supervisor.confirm_after` seconds up).
- A process with a spare command (a worker) has a spare waiting once it
  runs: a copy that loaded everything and waits for "go"
  (:mod:`tournaments.standby`). A restart hands over to the spare, which
  takes tasks within a second instead of the many a start takes on a busy
  laptop; the next spare starts once the new process runs.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

STARTING, RUNNING, DOWN, RESTARTING = "starting", "running", "down", "restarting"
#: why a process was restarted
EXITED, STUCK = "exited", "stuck"
#: a status file not refreshed for this long is from a supervisor gone
STATUS_FRESH_SECONDS = 60


@dataclass
class Spec:
    """One child process."""

    name: str
    command: list[str]
    #: its end stops everything (the web server)
    essential: bool = False
    #: a file the process (or a task it runs) touches while it works
    heartbeat: Path | None = None
    #: a heartbeat older than this (seconds) means stuck
    stale_after: float = 0.0
    #: the command of a spare, started ahead and waiting for "go" on its
    #: standard input to become the process (tournaments/standby.py)
    spare: list[str] | None = None


@dataclass
class Child:
    spec: Spec
    proc: subprocess.Popen | None = None
    state: str = STARTING
    started: float = 0.0  # monotonic
    started_wall: float = 0.0
    restarts: int = 0
    failures: int = 0  # deaths in a row (each within stable_after)
    restart_at: float = 0.0  # monotonic, while down
    reason: str = ""
    exit_code: int | None = None
    stuck_seconds: int = 0
    spare: subprocess.Popen | None = None
    spare_started: float = -1e9  # monotonic


def heartbeat_path(run_dir: Path, name: str) -> Path | None:
    """Where the heartbeat of the worker ``name`` ("clock", "tasks") is kept
    in ``run_dir``; ``None`` for a name that is not a plain worker name."""
    if not re.fullmatch(r"[a-z][a-z0-9-]{0,30}", name or ""):
        return None
    return Path(run_dir) / f"heartbeat-{name}"


def touch_heartbeat(path: Path) -> None:
    """The heartbeat: the file's time is now."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"{time.time():.3f}\n")


def heartbeat_age(path: Path, since_wall: float, now_wall: float) -> float:
    """Seconds since the last heartbeat, counting the process's start as one."""
    try:
        last = max(path.stat().st_mtime, since_wall)
    except OSError:
        last = since_wall
    return now_wall - last


def write_json_atomic(path: Path, data: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(f".{path.name}.{os.getpid()}.part")
    part.write_text(json.dumps(data, indent=1, sort_keys=True))
    os.replace(part, path)


def read_status(path: Path, *, now: float | None = None) -> dict | None:
    """The supervisor's status file: None when there is none (no runall: a
    production setup), it can't be read, or it is stale (runall is gone)."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("processes"), dict):
        return None
    now = time.time() if now is None else now
    updated = data.get("updated")
    if not isinstance(updated, int | float) or now - updated > STATUS_FRESH_SECONDS:
        return None
    return data


class Supervisor:
    """Start the children, watch them, restart the background ones."""

    def __init__(
        self,
        specs: list[Spec],
        *,
        env: dict | None = None,
        cwd: str | Path | None = None,
        status_file: Path | None = None,
        log: Callable[[str], None] = print,
        backoff_first: float = 1.0,
        backoff_max: float = 60.0,
        stable_after: float = 60.0,
        confirm_after: float = 10.0,
        status_every: float = 5.0,
        spare_every: float = 30.0,
        on_tick: Callable[[Supervisor], None] | None = None,
    ):
        self.children = {s.name: Child(s) for s in specs}
        self.env, self.cwd = env, cwd
        self.status_file = status_file
        self.log = log
        self.backoff_first, self.backoff_max = backoff_first, backoff_max
        self.stable_after, self.confirm_after = stable_after, confirm_after
        self.status_every = status_every
        self.spare_every = spare_every
        self.on_tick = on_tick
        self._status_written = 0.0

    # -- the children -------------------------------------------------------------

    def _spawn(self, child: Child) -> None:
        spare, child.spare = child.spare, None
        if spare is not None and spare.poll() is None and self._promote(spare):
            child.proc = spare
            self.log(f"{child.spec.name}: the spare (pid {spare.pid}) takes over.")
        else:
            child.proc = subprocess.Popen(child.spec.command, env=self.env, cwd=self.cwd)
        child.started = time.monotonic()
        child.started_wall = time.time()

    @staticmethod
    def _promote(spare: subprocess.Popen) -> bool:
        try:
            spare.stdin.write(b"go\n")
            spare.stdin.close()
        except OSError:
            spare.kill()
            return False
        return True

    def _keep_spare(self, child: Child) -> None:
        """A running process with a spare command has a spare waiting (a new
        one at most every :attr:`spare_every` seconds, not while it starts)."""
        spare = child.spare
        if spare is not None and spare.poll() is not None:
            child.spare = spare = None
        if (
            spare is None
            and child.spec.spare
            and child.state == RUNNING
            and time.monotonic() - child.spare_started >= self.spare_every
        ):
            child.spare = subprocess.Popen(
                child.spec.spare, env=self.env, cwd=self.cwd, stdin=subprocess.PIPE
            )
            child.spare_started = time.monotonic()

    def start(self) -> None:
        for child in self.children.values():
            self._spawn(child)
        self.write_status()

    def backoff(self, failures: int) -> float:
        """The wait before the ``failures``-th restart in a row (1, 2, 4 … max)."""
        return min(self.backoff_max, self.backoff_first * 2 ** max(0, failures - 1))

    def _down(self, child: Child, reason: str) -> None:
        now = time.monotonic()
        lived = now - child.started
        # a death after a stable run is started again at once; deaths in a row wait
        child.failures = 0 if lived >= self.stable_after else child.failures + 1
        wait = self.backoff(child.failures) if child.failures else 0.0
        child.state, child.reason, child.restart_at = DOWN, reason, now + wait
        if reason == EXITED:
            what = f"stopped (exit {child.exit_code})"
        else:
            what = f"did not answer for {child.stuck_seconds} s (stuck): killed"
        self.log(f"{child.spec.name} {what}; starting it again in {wait:g} s.")
        self.write_status()

    def _kill(self, child: Child) -> None:
        proc = child.proc
        if proc is None or proc.poll() is not None:
            return
        proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=10)

    def poll(self) -> str | None:
        """One look at every child; the reason to stop everything, if any."""
        now, now_wall = time.monotonic(), time.time()
        changed = False
        for child in self.children.values():
            spec, proc = child.spec, child.proc
            if child.state == DOWN:
                if now >= child.restart_at:
                    child.restarts += 1
                    self.log(f"{spec.name}: starting again (restart {child.restarts}).")
                    self._spawn(child)
                    child.state = RESTARTING
                    changed = True
                continue
            code = proc.poll() if proc is not None else None
            if code is not None:
                child.exit_code = code
                if spec.essential:
                    return f"{spec.name} stopped (exit {code})"
                self._down(child, EXITED)
                continue
            if spec.heartbeat is not None and spec.stale_after:
                age = heartbeat_age(spec.heartbeat, child.started_wall, now_wall)
                if age > spec.stale_after:
                    child.stuck_seconds = int(age)
                    self._kill(child)
                    child.exit_code = proc.returncode
                    self._down(child, STUCK)
                    continue
                confirmed = (
                    spec.heartbeat.exists() and spec.heartbeat.stat().st_mtime > child.started_wall
                )
            else:
                confirmed = now - child.started >= self.confirm_after
            if child.state in (STARTING, RESTARTING) and confirmed:
                child.state = RUNNING
                changed = True
            self._keep_spare(child)
        if changed or time.monotonic() - self._status_written >= self.status_every:
            self.write_status()
        if self.on_tick is not None:
            self.on_tick(self)
        return None

    def run(self, stop: Callable[[], bool], *, interval: float = 0.5) -> str:
        """Watch until ``stop()`` or an essential child's end; the reason."""
        while not stop():
            reason = self.poll()
            if reason:
                return reason
            time.sleep(interval)
        return "stopped"

    def stop(self, *, timeout: float = 10.0) -> None:
        """End every child (SIGTERM, then SIGKILL after ``timeout``)."""
        procs = [p for c in self.children.values() for p in (c.proc, c.spare) if p is not None]
        for p in procs:
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in procs:
            try:
                p.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        if self.status_file is not None:
            with contextlib.suppress(OSError):
                self.status_file.unlink()

    def running(self, name: str) -> bool:
        child = self.children[name]
        return child.state != DOWN and child.proc is not None and child.proc.poll() is None

    # -- the status file ---------------------------------------------------------------

    def status(self) -> dict:
        now = time.monotonic()
        out = {}
        for name, c in self.children.items():
            out[name] = {
                "state": c.state,
                "reason": c.reason,
                "exit_code": c.exit_code,
                "stuck_seconds": c.stuck_seconds,
                "restarts": c.restarts,
                "pid": c.proc.pid if c.proc is not None else None,
                "restart_in": max(0, round(c.restart_at - now)) if c.state == DOWN else None,
            }
        return {"supervisor": os.getpid(), "updated": time.time(), "processes": out}

    def write_status(self) -> None:
        self._status_written = time.monotonic()
        if self.status_file is None:
            return
        try:
            write_json_atomic(self.status_file, self.status())
        except OSError as exc:
            self.log(f"process status not written: {exc}")
