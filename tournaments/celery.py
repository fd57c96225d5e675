"""The Celery app: a wake-up call only; the database is the truth.

Broker: ``CELERY_BROKER_URL`` / ``REDIS_URL`` in production and CI, Celery's
filesystem broker under ``var/`` on a laptop (see settings.py).
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournaments.settings")

app = Celery("turnierleiter")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
