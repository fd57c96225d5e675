"""A tournament import's job (the ``exchange`` app; its table keeps the name
it had in the ``scoring`` app)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class ImportJob(models.Model):
    """A tournament import (``scoring.exchange.jobs``): the file as the
    request stored it, read and checked by a Celery task, never in a web
    process; its outcome — the new tournament, or the problems in the
    language the file was sent in — for the import's page to show."""

    QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    data = models.BinaryField(default=b"")
    name = models.CharField(max_length=200, blank=True)
    language = models.CharField(max_length=10, blank=True)
    status = models.CharField(max_length=10, default=QUEUED)
    at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    problems = models.JSONField(default=list, blank=True)

    class Meta:
        db_table = "scoring_importjob"  # its table from before it was an app
        ordering = ["-at"]

    def __str__(self):
        return f"import {self.pk} ({self.status})"
