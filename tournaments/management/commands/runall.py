"""Start the web server, a Celery worker and Celery beat together (``make run``).

Ctrl-C stops all three. For production, run them as separate processes
(``docker/compose.yaml``).
"""

import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management.base import BaseCommand


class Command(BaseCommand):
    help = "Run web + Celery worker + beat for a laptop at the venue."

    def add_arguments(self, parser):
        parser.add_argument("addrport", nargs="?", default="127.0.0.1:8000")

    def handle(self, *args, addrport, **opts):
        var = settings.VAR_DIR
        py = sys.executable
        commands = {
            "web": [py, "manage.py", "runserver", "--noreload", addrport],
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
        self.stdout.write(self.style.SUCCESS(f"\nTurnierleiter runs at http://{addrport}/"))
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
