"""Start the web server, a Celery worker and Celery beat together (``make run``).

The web server is gunicorn with threaded workers (``gthread``), bound to every
interface so the players' phones on the venue's Wi-Fi reach the laptop; the
addresses they use are printed at the start. Django's development server is
single-process and meant for development only: under 200 polling phones its
p95 grows past a second (README, "Server"). ``--server runserver`` keeps it
(e.g. on Windows, where gunicorn does not run).

Ctrl-C stops all three. For production, run them as separate processes
(``docker/compose.yaml``).
"""

import os
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from tournaments.addresses import lan_addresses

#: gunicorn on the laptop: two processes (one per core) of 4 threads each.
#: Requests are short and mostly CPU (the polls come from the cache): a few
#: threads cover the waits on SQLite and the network, more only contend for
#: Python's lock; a second process uses the second core.
#: The limits refuse oversized request lines and headers before Django.
WEB_WORKERS = 2
WEB_THREADS = 4


def web_command(addrport: str, *, server: str = "gunicorn") -> list[str]:
    """The web server's command line for ``addrport`` ("0.0.0.0:8000")."""
    py = sys.executable
    if server == "runserver":
        return [py, "manage.py", "runserver", "--noreload", addrport]
    return [
        py,
        "-m",
        "gunicorn",
        "tournaments.wsgi",
        "--bind",
        addrport,
        "--worker-class",
        "gthread",
        "--workers",
        str(WEB_WORKERS),
        "--threads",
        str(WEB_THREADS),
        "--keep-alive",
        "5",
        "--timeout",
        "60",
        "--graceful-timeout",
        "10",
        "--limit-request-line",
        "4094",
        "--limit-request-fields",
        "60",
        "--limit-request-field_size",
        "8190",
        *_no_control_socket(),
    ]


def _no_control_socket() -> list[str]:
    """Recent gunicorn versions open a control socket in the home folder, shared by
    every gunicorn of that user; the laptop's server needs none."""
    try:
        from gunicorn.config import KNOWN_SETTINGS
    except ImportError:  # pragma: no cover - gunicorn missing: runserver only
        return []
    if any(s.name == "control_socket_disable" for s in KNOWN_SETTINGS):
        return ["--no-control-socket"]
    return []


def split_addrport(addrport: str) -> tuple[str, str]:
    host, sep, port = addrport.rpartition(":")
    if not sep:
        host, port = "0.0.0.0", addrport
    if not port.isdigit():
        raise CommandError(f"Not an address and port: {addrport!r} (e.g. 0.0.0.0:8000)")
    return host or "0.0.0.0", port


class Command(BaseCommand):
    help = "Run web + Celery worker + beat for a laptop at the venue."

    def add_arguments(self, parser):
        parser.add_argument(
            "addrport",
            nargs="?",
            default="0.0.0.0:8000",
            help="where to listen (default 0.0.0.0:8000: every interface, for the phones)",
        )
        parser.add_argument(
            "--server",
            choices=["gunicorn", "runserver"],
            default="gunicorn",
            help="the web server (runserver: Django's development server)",
        )

    def handle(self, *args, addrport, server, **opts):
        var = settings.VAR_DIR
        py = sys.executable
        host, port = split_addrport(addrport)
        addrport = f"{host}:{port}"
        # links and QR codes printed without a request use this port (tournaments/addresses.py)
        os.environ["TURNIERLEITER_PORT"] = port
        commands = {
            "web": web_command(addrport, server=server),
            "worker": [
                py,
                "-m",
                "celery",
                "-A",
                "tournaments.celery",
                "worker",
                "--loglevel=INFO",
                "--concurrency=2",
                # the default queue (print jobs) and the round clock's queue
                "-Q",
                f"celery,{settings.CLOCK_QUEUE}",
            ],
            "beat": [
                py,
                "-m",
                "celery",
                "-A",
                "tournaments.celery",
                "beat",
                "--loglevel=INFO",
                "--schedule",
                str(var / "celerybeat-schedule"),
            ],
        }
        procs = {name: subprocess.Popen(cmd) for name, cmd in commands.items()}
        login = var / "demo-login.txt"
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
        if login.exists():
            self.stdout.write(login.read_text())
        self.stdout.write("Ctrl-C stops web, worker and beat.\n")
        stop = False

        def on_signal(signum, frame):
            nonlocal stop
            stop = True

        signal.signal(signal.SIGINT, on_signal)
        signal.signal(signal.SIGTERM, on_signal)
        try:
            while not stop:
                for name, p in procs.items():
                    if p.poll() is not None:
                        self.stderr.write(
                            f"{name} stopped (exit {p.returncode}); stopping the rest."
                        )
                        stop = True
                time.sleep(0.5)
        finally:
            for p in procs.values():
                if p.poll() is None:
                    p.terminate()
            for p in procs.values():
                try:
                    p.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    p.kill()
