"""Start the web server, the Celery workers and beat together (``make run``).

The web server is uvicorn serving Django's ASGI application
(``tournaments.serve``: two processes, one per core), bound to every interface
so the players' phones on the venue's Wi-Fi reach the laptop; the addresses
they use are printed at the start. An idle or slow connection costs it no
thread (README, "Server"). Django's development server is single-process
and meant for development only: ``--server runserver`` keeps it.

The laptop runs without DEBUG (``DEBUG=1 make run`` turns it on): the site's
own error pages, a secret key made once in ``var/``, static files collected
for WhiteNoise, plain HTTP on the venue's network (:func:`laptop_env`).

The workers and beat are kept running by :mod:`tournaments.supervisor`: one
that stops, or a worker whose heartbeat goes stale, is started again with a
back-off, and the organizer's overview says so meanwhile; only the web
server's end (or Ctrl-C) stops them all. For production, run them as
separate processes (``docker/compose.yaml``).
"""

import errno
import os
import signal
import socket
import subprocess
import sys
import time

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from tournaments import supervisor
from tournaments.addresses import lan_addresses

#: the web servers: the default, and Django's development server
SERVERS = ("uvicorn", "runserver")


def web_command(addrport: str, *, server: str = "uvicorn") -> list[str]:
    """The web server's command line for ``addrport`` ("0.0.0.0:8000"): the
    server ``make run`` starts. Run it with :func:`laptop_env`'s environment
    (after :func:`prepare`) to have it as ``make run`` has it."""
    py = sys.executable
    if server == "runserver":
        return [py, "manage.py", "runserver", "--noreload", addrport]
    if server != "uvicorn":
        raise ValueError(f"unknown server {server!r}: one of {', '.join(SERVERS)}")
    host, port = split_addrport(addrport)
    # tournaments/serve.py has the limits and timeouts
    return [py, "-m", "tournaments.serve", "--host", host, "--port", port]


def laptop_env(base: dict | None = None) -> dict:
    """The environment of the laptop's processes: DEBUG off unless the
    developer set it, plain HTTP on the venue's network."""
    env = dict(os.environ if base is None else base)
    env.setdefault("DEBUG", "0")
    env["TURNIERLEITER_LAPTOP"] = "1"
    return env


def prepare(env: dict) -> None:
    """What the laptop's web server needs before it starts: without DEBUG,
    the static files collected for WhiteNoise (hashed names, compressed).
    The secret key is made by the settings on first use (``var/secret_key``)."""
    debug = env.get("DEBUG", "").strip().lower() in {"1", "true", "yes", "on"}
    if not debug:
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
            cwd=settings.BASE_DIR,
            env=env,
            check=True,
        )


def split_addrport(addrport: str) -> tuple[str, str]:
    host, sep, port = addrport.rpartition(":")
    if not sep:
        host, port = "0.0.0.0", addrport
    if not port.isdigit():
        raise CommandError(f"Not an address and port: {addrport!r} (e.g. 0.0.0.0:8000)")
    return host or "0.0.0.0", port


def port_free(host: str, port: int) -> bool:
    """Whether the web server can listen on ``host``:``port``: another
    program listening there (on that address or on every interface) makes it
    fail only after it started. Bound the way uvicorn binds (address reuse
    on, so a connection of a server just stopped doesn't count)."""
    family = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host.strip("[]"), port))
            s.listen(1)
        except OSError as exc:
            if exc.errno in (errno.EADDRINUSE, errno.EACCES):
                return False
            raise
    return True


def next_free_port(host: str, port: int, *, tries: int = 50) -> int | None:
    """The first port after ``port`` the web server could listen on."""
    for candidate in range(port + 1, min(port + 1 + tries, 65536)):
        if port_free(host, candidate):
            return candidate
    return None


def busy_port_message(host: str, port: int, *, via_make: bool) -> str:
    """What to do when another program holds the port, in the terms of the
    command the user typed (``make run`` or ``manage.py runall``)."""
    other = next_free_port(host, port) or port + 1
    again = f"make run PORT={other}" if via_make else f"python manage.py runall {host}:{other}"
    return f"Port {port} is in use by another program. Stop it or run `{again}`."


#: the laptop's workers: one solo process per queue group, so a slow print
#: or import never delays the clock and the bots, and there is no pool
#: child whose death could hang its worker (billiard's prefork pool blocks
#: for good when a child is SIGKILLed); name -> (queues, heartbeat limit in s)
WORKERS = {
    "clock": ("{clock}", 60),  # the round clock, bots, the sweeps: quick tasks
    "tasks": ("celery", 300),  # print jobs, imports, publications: up to minutes
}
#: how often runall sends each worker its heartbeat task
HEARTBEAT_EVERY = 5.0


def celery_commands() -> dict[str, list[str]]:
    """The Celery workers (:data:`WORKERS`) and beat."""
    py, var = sys.executable, settings.VAR_DIR
    celery = [py, "-m", "celery", "-A", "tournaments.celery"]
    commands = {}
    for name, (queues, _limit) in WORKERS.items():
        commands[f"worker-{name}"] = [
            *celery,
            "worker",
            "--loglevel=INFO",
            "--pool=solo",
            "-n",
            f"{name}@%h",
            "-Q",
            queues.format(clock=settings.CLOCK_QUEUE),
            # no broadcast at start and no gossip: on the filesystem broker
            # they only leave messages for workers long gone
            "--without-mingle",
            "--without-gossip",
        ]
    commands["beat"] = [
        *celery,
        "beat",
        "--loglevel=INFO",
        "--schedule",
        str(var / "celerybeat-schedule"),
    ]
    return commands


def process_specs(web: list[str]) -> list[supervisor.Spec]:
    """What runall starts and watches: the web server (its end stops all),
    the workers (restarted when they exit or their heartbeat is stale) and
    beat (restarted when it exits)."""
    specs = [supervisor.Spec("web", web, essential=True)]
    for name, command in celery_commands().items():
        worker = name.removeprefix("worker-")
        if worker in WORKERS:
            specs.append(
                supervisor.Spec(
                    name,
                    command,
                    heartbeat=supervisor.heartbeat_path(settings.RUN_DIR, worker),
                    stale_after=WORKERS[worker][1],
                    # a copy loaded ahead takes over at once (tournaments/standby.py)
                    spare=[sys.executable, "-m", "tournaments.standby", *command[3:]],
                )
            )
        else:
            specs.append(supervisor.Spec(name, command))
    return specs


class Heartbeats:
    """Each running worker gets ``runall.heartbeat`` on its queue every
    :data:`HEARTBEAT_EVERY` seconds (a supervisor's ``on_tick``)."""

    def __init__(self, log):
        self.log = log
        self.sent = 0.0
        self.failing = False

    def __call__(self, sup: supervisor.Supervisor) -> None:
        if time.monotonic() - self.sent < HEARTBEAT_EVERY:
            return
        self.sent = time.monotonic()
        from tournaments.celery import app

        for name, (queues, limit) in WORKERS.items():
            if not sup.running(f"worker-{name}"):
                continue
            queue = queues.format(clock=settings.CLOCK_QUEUE).split(",")[0]
            try:
                app.send_task("runall.heartbeat", args=[name], queue=queue, expires=limit)
            except Exception as exc:  # a full disk: said once, never fatal
                if not self.failing:
                    self.log(f"heartbeat for worker-{name} not sent: {exc}")
                self.failing = True
            else:
                self.failing = False


class Command(BaseCommand):
    help = "Run web + Celery workers + beat for a laptop at the venue."

    def add_arguments(self, parser):
        parser.add_argument(
            "addrport",
            nargs="?",
            default="0.0.0.0:8000",
            help="where to listen (default 0.0.0.0:8000: every interface, for the phones)",
        )
        parser.add_argument(
            "--server",
            choices=SERVERS,
            default="uvicorn",
            help="the web server (runserver: Django's development server)",
        )
        parser.add_argument(
            "--demo-first-start",
            action="store_true",
            help="on the first start (no account yet): the demo tournament and its login",
        )

    def greet(self, host: str, port: str, addrport: str, env: dict) -> None:
        """Where the laptop and the phones open the site, and the demo login."""
        login = settings.VAR_DIR / "demo-login.txt"
        self.stdout.write(self.style.SUCCESS(f"\nTurnierleiter runs at http://127.0.0.1:{port}/"))
        if host in ("0.0.0.0", "::", "[::]"):
            urls = [f"http://{a}:{port}/" for a in lan_addresses()]
            if urls:
                self.stdout.write("Players' phones on this network open: " + "  ".join(urls))
            else:
                self.stdout.write(
                    "No network found: connect the laptop to the Wi-Fi or a phone's hotspot."
                )
        else:
            self.stdout.write(f"Listening on {addrport} only: phones may not reach it.")
        if env["DEBUG"].strip().lower() in {"1", "true", "yes", "on"}:
            self.stdout.write(self.style.WARNING("DEBUG is on: for development only."))
        if login.exists():
            self.stdout.write(login.read_text())

    def log(self, line: str) -> None:
        """A line of runall's own, with its time (beside the workers' lines)."""
        self.stderr.write(f"[{time.strftime('%Y-%m-%d %H:%M:%S')}] runall: {line}")

    def handle(self, *args, addrport, server, demo_first_start=False, **opts):
        host, port = split_addrport(addrport)
        addrport = f"{host}:{port}"
        # before anything is printed or started: another program on the port
        # would answer the addresses printed below
        if not port_free(host, int(port)):
            # GNU make passes MAKELEVEL to the commands it runs
            message = busy_port_message(host, int(port), via_make="MAKELEVEL" in os.environ)
            self.stderr.write(message)
            sys.exit(1)
        if demo_first_start:
            call_command("demo", first_start=True, stdout=self.stdout, stderr=self.stderr)
        # links and QR codes printed without a request use this port (tournaments/addresses.py)
        os.environ["TURNIERLEITER_PORT"] = port
        env = laptop_env()
        try:
            prepare(env)
        except subprocess.CalledProcessError as exc:
            raise CommandError(f"collectstatic failed (exit {exc.returncode})") from exc
        sup = supervisor.Supervisor(
            process_specs(web_command(addrport, server=server)),
            env=env,
            status_file=settings.PROCESS_STATUS_FILE,
            log=self.log,
        )
        sup.on_tick = Heartbeats(self.log)
        stop = False

        def on_signal(signum, frame):
            nonlocal stop
            stop = True

        signal.signal(signal.SIGINT, on_signal)
        signal.signal(signal.SIGTERM, on_signal)
        try:
            sup.start()
            self.greet(host, port, addrport, env)
            self.stdout.write("Ctrl-C stops web, workers and beat.\n")
            # a worker or beat that stops is started again; only the web
            # server's end (or Ctrl-C) ends it all
            reason = sup.run(lambda: stop)
            if reason != "stopped":
                self.stderr.write(f"{reason}; stopping the rest.")
        finally:
            sup.stop()
