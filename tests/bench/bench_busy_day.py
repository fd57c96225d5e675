"""A busy day on the laptop, and its worker killed:
``python tests/bench/bench_busy_day.py [--seconds 120] [--kills worker,child]``.

What ``make run`` runs — ``manage.py runall``: the web server, the Celery
worker(s) and beat on SQLite and the filesystem broker — in a temporary
``var/`` on 127.0.0.1 (ports 18150–18159), beside two busy-loop processes
(the laptop's cores are taken). Two phases:

1. Load: eight scorekeepers, each on its own session, write as fast as the
   server answers (check-ins and undos, first results, corrections;
   ``tests/staff_load.py`` drives them) while ten digital tables of bots play
   and beat runs, and a watcher asks for a page every quarter second. Prints
   the worker/beat exits runall logged, the watcher's answers ≥ 500 or
   refused, the writes lost or stored twice, the broker's unreadable files.
2. Kills (``--kills``, in order): ``worker`` SIGKILLs every worker process;
   ``child`` SIGKILLs one pool child of each worker that has a pool (the
   out-of-memory killer's choice), else the worker processes again. After
   each: a new round of two seconds, a new bot table and a print job are
   made at once (a step of its own on the database), and the seconds until
   the round is closed, the bot has moved and the print job is done are
   printed (target: each within 10 s), with the watcher's count meanwhile.

Exit 1 when something stopped the site, a write was lost or stored twice,
or something after a kill took longer than 10 s. Runs against an older
checkout too (copy it next to its ``manage.py``): that is the "before".
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests import serverproc, staff_load  # noqa: E402

PORTS = range(18150, 18160)
LIMIT = 10.0  # seconds: a close, a bot move, a print job after a kill
WAIT = 40.0  # how long a step waits for them at most


# -- the step on the database (a process of its own, as staff_load's) -----------------


def _arm() -> dict:
    """A round of two seconds, a new bot table and a print job, made now;
    then wait until each happened (or :data:`WAIT`): the seconds each took
    after it was due."""
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from scoring.printing import tasks as print_tasks
    from scoring.printing.models import PrintJob
    from tests.staff_load import _bot_tournament
    from tournaments import services
    from tournaments.models import Round, Seat, Table, TableAction
    from tournaments.services import round_life

    owner = get_user_model().objects.get(username="load-orga")
    print("ready", flush=True)
    sys.stdin.readline()  # the bench kills, then says go
    made = time.monotonic()
    closing = services.tournament_create(owner=owner, name="Close", game="quartett")
    rnd = Round.objects.create(tournament=closing, number=1, minutes=1, published=True)
    table = Table.objects.create(round=rnd, number=1)
    for pos in range(4):
        player = services.player_add(tournament=closing, by=owner, name=f"Spieler {pos}")
        Seat.objects.create(table=table, player=player, position=pos)
    round_life.round_start(round=rnd, by=owner, seconds=2)
    due_close = made + 2
    # the bot's wake-up call is sent when its table starts, inside this call
    due_move = time.monotonic() + float(os.environ.get("TURNIERLEITER_BOT_DELAY", "1.5"))
    bots = _bot_tournament(owner, 1, "trumpet")
    job = print_tasks.start(
        tournament=closing, kind="seating", round_number=1, by=owner, language="en", origin=""
    )
    asked_print = time.monotonic()
    due = {"close": due_close, "bot_move": due_move, "print": asked_print}
    happened: dict[str, float | None] = dict.fromkeys(due)
    until = time.monotonic() + WAIT
    status = None
    while time.monotonic() < until and None in happened.values():
        now = time.monotonic()
        if happened["close"] is None:
            rnd.refresh_from_db()
            if rnd.time_called_at is not None:
                happened["close"] = now
        if (
            happened["bot_move"] is None
            and TableAction.objects.filter(table_id__in=bots["tables"]).exists()
        ):
            happened["bot_move"] = now
        if happened["print"] is None:
            status = PrintJob.objects.get(pk=job.pk).status
            if status in (PrintJob.DONE, PrintJob.FAILED):
                happened["print"] = now
        time.sleep(0.2)
    # monotonic time is the machine's: the bench compares it with its kill
    return {"due": due, "happened": happened, "print_status": status}


# -- the bench's side ----------------------------------------------------------------------


class Watcher(threading.Thread):
    """A page asked for every quarter second: answers ≥ 500, refused or timed out."""

    def __init__(self, port: int):
        super().__init__(daemon=True)
        self.port = port
        self.ok = self.bad = 0
        self.samples: list[str] = []
        self.running = True

    def run(self):
        while self.running:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
                conn.request("GET", "/accounts/login/")
                status = conn.getresponse().status
                conn.close()
                note = None if status < 500 else f"answer {status}"
            except OSError as exc:
                note = type(exc).__name__
            if note is None:
                self.ok += 1
            else:
                self.bad += 1
                if len(self.samples) < 5:
                    self.samples.append(note)
            time.sleep(0.25)

    def take(self) -> tuple[int, int]:
        """The counts since the last take."""
        counts = (self.ok, self.bad)
        self.ok = self.bad = 0
        return counts


def processes() -> list[tuple[int, int, str]]:
    """Every process: (pid, parent pid, command line)."""
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            args = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        out.append((int(entry), ppid, args))
    return out


def workers_of(runall_pid: int, var: Path) -> list[int]:
    """The worker processes (not their spares): as runall's status file names
    them, else (before it had one) its children running a Celery worker."""
    try:
        status = json.loads((var / "run" / "processes.json").read_text())["processes"]
        return [p["pid"] for name, p in status.items() if name.startswith("worker")]
    except (OSError, ValueError, KeyError):
        pass
    return [
        pid for pid, ppid, args in processes() if ppid == runall_pid and " worker" in f" {args}"
    ]


def pool_children(worker_pids: list[int]) -> list[int]:
    """One pool child of each worker that has some."""
    out = []
    for worker in worker_pids:
        children = [pid for pid, ppid, _ in processes() if ppid == worker]
        if children:
            out.append(children[0])
    return out


def kill(runall_pid: int, what: str, var: Path) -> str:
    workers = workers_of(runall_pid, var)
    if not workers:
        return "no worker process left to kill"
    targets = pool_children(workers) if what == "child" else []
    label = "pool child" if targets else "worker process"
    targets = targets or workers
    for pid in targets:
        os.kill(pid, signal.SIGKILL)
    return f"SIGKILL to {len(targets)} {label}(es) {targets}"


def log_counts(text: str) -> dict:
    return {
        # this branch: "worker-clock stopped (exit -9); starting it again in 1 s."
        # before: "worker stopped (exit 1); stopping the rest."
        "exits": len(
            re.findall(r"^(?:\[[^]]*\] runall: )?(worker\S*|beat) stopped \(exit", text, re.M)
        ),
        "stuck": text.count("(stuck): killed"),
        "unrecoverable": text.count("Unrecoverable error"),
        "stopping_all": text.count("stopping the rest"),
    }


def ready_after(log: Path) -> list[str]:
    """Each worker's seconds from runall's last noticing of a worker's death
    until its "ready" line (both logged in the site's time zone)."""
    text = log.read_text(errors="replace")
    stops = re.findall(r"^\[([\d: -]{19})\] runall: worker\S* stopped", text, re.M)
    if not stops:
        return []
    since = time.mktime(time.strptime(stops[-1], "%Y-%m-%d %H:%M:%S"))
    out = []
    pattern = r"^\[([\d: -]{19}),(\d{3}): INFO/MainProcess\] (\S+) ready\."
    for day, ms, name in re.findall(pattern, text, re.M):
        at = time.mktime(time.strptime(day, "%Y-%m-%d %H:%M:%S")) + int(ms) / 1000
        if at >= since:
            out.append(f"{name.split('@')[0]} {at - since:.1f} s")
    return out


def after_kill(runall_pid: int, what: str, env: dict, watcher: Watcher, log: Path) -> bool:
    """Kill, and at the same moment a round of two seconds starts, a bot
    table starts and a print job is asked for: the seconds until each
    happened, counted from the kill and from when it was due. True when
    something took longer than :data:`LIMIT` or the site failed."""
    step = subprocess.Popen(
        [sys.executable, "-m", "tests.bench.bench_busy_day", "arm"],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert step.stdout.readline().strip() == "ready"
    watcher.take()
    done = kill(runall_pid, what, Path(env["TURNIERLEITER_VAR"]))
    killed = time.monotonic()
    step.stdin.write("go\n")
    step.stdin.flush()
    out, _ = step.communicate(timeout=WAIT + 60)
    measured = json.loads(out.strip().splitlines()[-1])
    ok, refused = watcher.take()
    print(f"kill ({what}): {done}")
    print(
        f"  site: answers ≥500 or refused {refused} of {ok + refused} in the "
        f"{time.monotonic() - killed:.0f} s after"
    )
    late = False
    parts = []
    for key, label in (("close", "round closed"), ("bot_move", "bot moved"), ("print", "print")):
        at, due = measured["happened"][key], measured["due"][key]
        if at is None:
            parts.append(f"{label}: not within {WAIT:.0f} s")
            late = True
            continue
        since_kill = at - killed
        late = late or since_kill > LIMIT
        parts.append(f"{label} {since_kill:.1f} s after the kill ({at - due:.1f} s after due)")
    print("  " + "; ".join(parts) + f"; print job {measured['print_status']}")
    print(
        "  workers ready again after runall saw them die: " + (", ".join(ready_after(log)) or "-")
    )
    return late or bool(refused)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--bot-tables", type=int, default=10)
    parser.add_argument("--busy", type=int, default=2, help="busy-loop processes beside")
    parser.add_argument("--kills", default="worker,child")
    parser.add_argument("--keep", action="store_true", help="keep the temporary var/")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="tl-bench-busy-"))
    env = staff_load.sqlite_env(tmp)
    plan = staff_load.prepare(env, sessions=args.sessions, bot_tables=args.bot_tables)
    port = serverproc.free_port(PORTS)
    log = tmp / "runall.log"
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)]
    bad = False
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "manage.py", "runall", f"127.0.0.1:{port}"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its group: all of it stopped at the end
        )
        watcher = Watcher(port)
        try:
            serverproc.wait_until_up(port, proc, path="/accounts/login/", seconds=90, log=log)
            time.sleep(5)  # the workers and beat up as well
            watcher.start()
            before = staff_load.verify(env, plan)["bots"]
            start = time.monotonic()
            staff = staff_load.run_staff(port, plan, args.seconds)
            elapsed = time.monotonic() - start
            after = staff_load.verify(env, plan)["bots"]
            ok, refused = watcher.take()
            result = staff_load.compare(staff, staff_load.verify(env, plan))
            counts = log_counts(log.read_text(errors="replace"))
            unreadable = len(list((tmp / "broker" / "unreadable").glob("*")))
            print(
                f"load: {result['sessions']} staff sessions for {elapsed:.0f} s beside "
                f"{args.bot_tables} bot tables and {args.busy} busy loops, make run's processes"
            )
            print(
                f"  worker/beat exits {counts['exits']} (Unrecoverable error "
                f"{counts['unrecoverable']}×, stuck {counts['stuck']}×), runall stopped "
                f"everything: {bool(counts['stopping_all'] or proc.poll() is not None)}"
            )
            print(
                f"  answers ≥500 or refused: staff {result['errors_5xx']} of "
                f"{result['requests']}, watcher {refused} of {ok + refused}"
                + (f" e.g. {watcher.samples[:3]}" if watcher.samples else "")
            )
            print(
                f"  writes acknowledged {result['acked']}: lost {result['lost']}, "
                f"twice {result['duplicated']}; sessions that died {len(result['fatal'])}"
            )
            print(
                f"  bot moves {after['moves'] - before['moves']}, broker files set aside "
                f"as unreadable {unreadable}"
            )
            bad = bool(
                counts["exits"]
                or refused
                or result["errors_5xx"]
                or result["lost"]
                or result["duplicated"]
            )
            for what in [k for k in args.kills.split(",") if k]:
                bad = after_kill(proc.pid, what, env, watcher, log) or bad
            counts = log_counts(log.read_text(errors="replace"))
            print(f"runall's log: exits {counts['exits']}, stuck {counts['stuck']}")
        finally:
            watcher.running = False
            for p in busy:
                p.kill()
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
            # whatever runall could not stop (before: a hung worker's children)
            with contextlib.suppress(OSError):
                os.killpg(proc.pid, signal.SIGKILL)
    if args.keep:
        print("kept:", tmp)
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if bad else 0


if __name__ == "__main__":
    if sys.argv[1:] == ["arm"]:
        print(json.dumps(_arm()))
    else:
        sys.exit(main())
