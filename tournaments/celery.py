"""The Celery app: a wake-up call only; the database is the truth.

Broker: ``CELERY_BROKER_URL`` / ``REDIS_URL`` in production and CI, Celery's
filesystem broker under ``var/`` on a laptop (see settings.py).
"""

import os

from celery import Celery
from celery.signals import worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournaments.settings")

app = Celery("turnierleiter")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_ready.connect
def sweep_when_ready(**kwargs):
    """A (re)started worker closes what became overdue while none ran, at once."""
    from django.conf import settings

    app.send_task("clock.sweep", queue=settings.CLOCK_QUEUE, expires=10)


@app.on_after_configure.connect
def schedule_print_sweep(sender, **kwargs):
    """Print jobs whose worker was lost are handed out again (scoring/printing/tasks.py).
    It runs on the clock's queue: its worker is the one that always runs, and
    a lost print worker is the case the sweep is for."""
    from django.conf import settings

    sender.add_periodic_task(
        30.0,
        sender.signature("scoring.sweep_print_jobs"),
        name="print-sweep",
        queue=settings.CLOCK_QUEUE,
        expires=30,
    )
