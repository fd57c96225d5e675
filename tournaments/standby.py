"""A Celery worker started ahead of need: runall's spare
(``python -m tournaments.standby <celery's arguments>``).

A worker's start — Django, the Celery app, every task module — takes
seconds, and on a laptop whose cores are busy (a full round, a browser, the
players' phones) up to ten. The spare does all of that at once and then
waits for one line on its standard input: ``go`` makes it the worker, as
``python -m celery <arguments>`` would be; anything else, or the end of the
input (runall gone), ends it. When a worker dies, runall
(:mod:`tournaments.supervisor`) hands its work to the spare at once and
starts the next spare once the new worker runs.
"""

from __future__ import annotations

import os
import sys


def prepare() -> None:
    """Everything a worker loads before it takes its first task."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournaments.settings")
    import django

    django.setup()
    from tournaments.celery import app

    app.loader.import_default_modules()
    import celery.apps.worker
    import celery.bin.celery
    import celery.concurrency.solo
    import celery.worker.worker  # noqa: F401


def main(argv: list[str]) -> int:
    try:
        prepare()
        line = sys.stdin.readline()
    except KeyboardInterrupt:  # Ctrl-C reaches the whole group: not an error
        return 0
    if line.strip() != "go":
        return 0
    from celery.bin.celery import main as celery_main

    sys.argv = ["celery", *argv]
    return celery_main()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
