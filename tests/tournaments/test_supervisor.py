"""``make run`` keeps the site up when a background process dies or hangs
(``tournaments/supervisor.py``, used by runall), with real short-lived
child processes standing in for the web server and the workers:

- a worker that exits is started again after a growing pause (back-off);
  the web server is never stopped because of it; the status file says
  ``down`` with the reason while it waits;
- a worker alive but stuck (its heartbeat file goes stale) is killed and
  started again; one whose heartbeat stays fresh is left alone;
- only the web server's end stops everything;
- the laptop's workers are solo processes, one per queue group, covering
  every queue the tasks are sent to (no prefork pool child whose death can
  hang the worker), each with a heartbeat that its own queue's task writes;
- the organizer's overview shows a notice while a background process is
  down or restarting, none when all run or without runall.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest
from django.urls import reverse

from tournaments import supervisor
from tournaments.management.commands import runall
from tournaments.supervisor import Spec, Supervisor

PY = sys.executable
#: a web server that runs until stopped
FOREVER = "import time\nwhile True: time.sleep(1)"
#: notes its start in argv[1], then exits 3
DYING = "import sys, time\nopen(sys.argv[1], 'a').write(f'{time.monotonic()}\\n')\nsys.exit(3)"
#: notes its start, touches its heartbeat argv[2] once, then hangs
HANGING = (
    "import pathlib, sys, time\n"
    "open(sys.argv[1], 'a').write(f'{time.monotonic()}\\n')\n"
    "pathlib.Path(sys.argv[2]).touch()\n"
    "while True: time.sleep(1)"
)
#: touches its heartbeat argv[1] every 0.2 s
HEALTHY = (
    "import pathlib, sys, time\n"
    "while True:\n"
    "    pathlib.Path(sys.argv[1]).touch()\n"
    "    time.sleep(0.2)"
)


def starts(path: Path) -> list[float]:
    return [float(x) for x in path.read_text().split()] if path.exists() else []


def watch(sup: Supervisor, until, seconds: float) -> str | None:
    """Poll as runall does (faster) until ``until()`` or the time is up."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not until():
        reason = sup.poll()
        if reason:
            return reason
        time.sleep(0.02)
    return None


def test_a_worker_that_exits_is_restarted_with_backoff_and_the_web_server_stays(tmp_path):
    log, status_file, started = [], tmp_path / "processes.json", tmp_path / "starts"
    sup = Supervisor(
        [
            Spec("web", [PY, "-c", FOREVER], essential=True),
            Spec("worker", [PY, "-c", DYING, str(started)]),
        ],
        status_file=status_file,
        log=log.append,
        backoff_first=0.2,
        backoff_max=0.8,
        stable_after=30,
    )
    sup.start()
    web = sup.children["web"].proc
    try:
        watch(sup, lambda: sup.children["worker"].state == supervisor.DOWN, 10)
        down = json.loads(status_file.read_text())["processes"]["worker"]
        assert (down["state"], down["reason"], down["exit_code"]) == ("down", "exited", 3)
        assert watch(sup, lambda: len(starts(started)) >= 5, 20) is None
        assert web.poll() is None and sup.children["web"].proc is web
    finally:
        sup.stop()
    gaps = [b - a for a, b in zip(starts(started), starts(started)[1:], strict=False)]
    # 0.2, 0.4, 0.8, 0.8 s (each plus a start of the interpreter)
    for gap, pause in zip(gaps, [0.2, 0.4, 0.8, 0.8], strict=False):
        assert pause <= gap < pause + 1.5
    assert "worker stopped (exit 3); starting it again in 0.2 s." in log
    assert "worker stopped (exit 3); starting it again in 0.8 s." in log
    assert sup.children["worker"].restarts >= 4
    assert web.returncode is not None  # stopped by stop(), not before
    assert not status_file.exists()


def test_a_worker_that_dies_after_a_stable_run_is_started_again_at_once(tmp_path):
    log = []
    sup = Supervisor(
        [
            Spec("web", [PY, "-c", FOREVER], essential=True),
            Spec("worker", [PY, "-c", "import time, sys; time.sleep(0.6); sys.exit(1)"]),
        ],
        log=log.append,
        backoff_first=5,
        stable_after=0.5,
    )
    sup.start()
    try:
        watch(sup, lambda: sup.children["worker"].restarts >= 1, 10)
    finally:
        sup.stop()
    assert log[:2] == [
        "worker stopped (exit 1); starting it again in 0 s.",
        "worker: starting again (restart 1).",
    ]


def test_a_stuck_worker_is_killed_and_restarted_a_healthy_one_is_left_alone(tmp_path):
    log, status_file, started = [], tmp_path / "processes.json", tmp_path / "starts"
    beat_stuck, beat_ok = tmp_path / "heartbeat-stuck", tmp_path / "heartbeat-ok"
    sup = Supervisor(
        [
            Spec("web", [PY, "-c", FOREVER], essential=True),
            Spec(
                "stuck",
                [PY, "-c", HANGING, str(started), str(beat_stuck)],
                heartbeat=beat_stuck,
                stale_after=1.0,
            ),
            Spec("ok", [PY, "-c", HEALTHY, str(beat_ok)], heartbeat=beat_ok, stale_after=1.0),
        ],
        status_file=status_file,
        log=log.append,
        backoff_first=0.2,
    )
    sup.start()
    first = sup.children["stuck"].proc
    try:
        watch(sup, lambda: sup.children["stuck"].state == supervisor.DOWN, 10)
        down = json.loads(status_file.read_text())["processes"]["stuck"]
        assert (down["state"], down["reason"]) == ("down", "stuck")
        assert first.returncode == -9  # killed: it could not have stopped by itself
        assert watch(sup, lambda: len(starts(started)) >= 2, 10) is None
        restarted = json.loads(status_file.read_text())["processes"]["stuck"]
        assert restarted["state"] in ("restarting", "running") and restarted["restarts"] == 1
        assert sup.children["ok"].restarts == 0 and sup.children["ok"].state == "running"
        assert sup.children["web"].proc.poll() is None
    finally:
        sup.stop()
    assert any(line.startswith("stuck did not answer for 1 s (stuck): killed") for line in log)


#: a spare: notes its pid, waits for "go" on stdin, notes that, runs on
SPARE = (
    "import os, sys, time\n"
    "log = sys.argv[1]\n"
    "open(log, 'a').write(f'spare {os.getpid()}\\n')\n"
    "if sys.stdin.readline().strip() != 'go': sys.exit(0)\n"
    "open(log, 'a').write(f'go {os.getpid()}\\n')\n"
    "while True: time.sleep(1)"
)


def test_a_dead_worker_is_replaced_by_its_spare_at_once(tmp_path):
    log, notes = [], tmp_path / "notes"
    sup = Supervisor(
        [
            Spec("web", [PY, "-c", FOREVER], essential=True),
            Spec("worker", [PY, "-c", FOREVER], spare=[PY, "-c", SPARE, str(notes)]),
        ],
        log=log.append,
        confirm_after=0.2,
        spare_every=0,
    )
    sup.start()
    worker = sup.children["worker"]
    try:
        watch(sup, lambda: notes.exists() and "spare" in notes.read_text(), 20)
        spare = worker.spare
        time.sleep(0.3)
        worker.proc.kill()
        watch(sup, lambda: worker.restarts == 1 and worker.state == supervisor.RUNNING, 10)
        assert worker.proc is spare  # the spare became the worker
        watch(sup, lambda: f"go {spare.pid}" in notes.read_text(), 5)
        # and the next spare waits
        watch(sup, lambda: worker.spare is not None and notes.read_text().count("spare") == 2, 20)
        assert worker.spare is not spare
    finally:
        sup.stop(timeout=5)
    assert f"worker: the spare (pid {spare.pid}) takes over." in log
    assert spare.returncode is not None and worker.spare.returncode is not None
    assert sup.children["web"].restarts == 0


def test_only_the_web_servers_end_stops_everything(tmp_path):
    sup = Supervisor(
        [
            Spec("web", [PY, "-c", "import time; time.sleep(0.5)"], essential=True),
            Spec("worker", [PY, "-c", FOREVER]),
        ],
        log=lambda line: None,
    )
    sup.start()
    try:
        reason = sup.run(lambda: False, interval=0.05)
    finally:
        sup.stop(timeout=5)
    assert reason == "web stopped (exit 0)"
    assert sup.children["worker"].proc.returncode is not None


def test_the_laptops_workers_are_solo_one_per_queue_group_with_heartbeats(settings):
    specs = {s.name: s for s in runall.process_specs(["web"])}
    assert specs["web"].essential
    workers = [s for s in specs.values() if "worker" in s.command]
    assert len(workers) == 2
    queues = []
    for spec in workers:
        assert "--pool=solo" in spec.command
        # its spare: the same worker, loaded ahead (tournaments/standby.py)
        assert spec.spare[1:3] == ["-m", "tournaments.standby"]
        assert spec.spare[3:] == spec.command[3:]
        assert not spec.essential and spec.heartbeat is not None and spec.stale_after > 0
        queues += spec.command[spec.command.index("-Q") + 1].split(",")
    # every queue a task is routed or sent to, each taken by one worker
    assert sorted(queues) == sorted(["celery", settings.CLOCK_QUEUE])
    assert not specs["beat"].essential


def test_a_workers_heartbeat_task_touches_its_file(settings, tmp_path):
    from tournaments import tasks

    settings.RUN_DIR = tmp_path
    tasks.heartbeat("clock")
    assert (tmp_path / "heartbeat-clock").exists()
    assert supervisor.heartbeat_path(tmp_path, "clock") == tmp_path / "heartbeat-clock"
    tasks.heartbeat("../escape")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["heartbeat-clock"]


def status(tmp_path, *, updated=None, **processes) -> Path:
    path = tmp_path / "processes.json"
    path.write_text(
        json.dumps(
            {
                "updated": time.time() if updated is None else updated,
                "processes": {
                    name: {"state": state, "reason": reason, "stuck_seconds": 61, "restarts": 2}
                    for name, (state, reason) in processes.items()
                },
            }
        )
    )
    return path


@pytest.mark.django_db
def test_the_overview_says_when_a_background_process_is_down_in_english_and_german(
    client, organizer, tournament, settings, tmp_path
):
    client.force_login(organizer)
    url = reverse("tournament_detail", args=[tournament.pk])
    settings.PROCESS_STATUS_FILE = status(
        tmp_path,
        web=("running", ""),
        **{"worker-clock": ("down", "stuck"), "worker-tasks": ("down", "exited")},
        beat=("restarting", "exited"),
    )
    page = client.get(url).content.decode()
    assert 'id="background-processes"' in page
    assert (
        "The background process for the round clock and the bots did not answer for 61 "
        "seconds and was stopped; it is started again automatically." in page
    )
    assert (
        "The background process for print jobs, imports and publishing stopped; "
        "it is started again automatically." in page
    )
    assert "The background process for the scheduled checks is starting again." in page
    german = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Arbeit im Hintergrund unterbrochen" in german
    assert (
        "Der Hintergrundprozess für die Uhr der Runden und die Bots hat 61 Sekunden lang "
        "nicht geantwortet und wurde beendet; er wird von selbst neu gestartet." in german
    )
    assert (
        "Der Hintergrundprozess für Druckaufträge, Importe und das Veröffentlichen ist "
        "stehen geblieben; er wird von selbst neu gestartet." in german
    )
    assert "Der Hintergrundprozess für die regelmäßigen Prüfungen startet wieder." in german


@pytest.mark.django_db
def test_the_overview_has_no_notice_when_all_run_or_without_runall(
    client, organizer, tournament, settings, tmp_path
):
    client.force_login(organizer)
    url = reverse("tournament_detail", args=[tournament.pk])
    settings.PROCESS_STATUS_FILE = status(tmp_path, web=("running", ""), beat=("running", ""))
    assert 'id="background-processes"' not in client.get(url).content.decode()
    # a status file runall left long ago, and none at all
    settings.PROCESS_STATUS_FILE = status(
        tmp_path, updated=time.time() - 600, beat=("down", "exited")
    )
    assert 'id="background-processes"' not in client.get(url).content.decode()
    settings.PROCESS_STATUS_FILE = tmp_path / "none.json"
    assert client.get(url).status_code == 200
