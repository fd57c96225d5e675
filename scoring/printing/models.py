"""A print job: a PDF rendered by a Celery task (:mod:`scoring.printing.tasks`),
with its progress (the table keeps the name it had in the scoring app)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Audited


class PrintJob(Audited):
    """A PDF rendered by a Celery task (large rounds), with its progress."""

    QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
    STATUSES = [
        (QUEUED, _("queued")),
        (RUNNING, _("rendering")),
        (DONE, _("ready")),
        (FAILED, _("failed")),
    ]
    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="print_jobs"
    )
    kind = models.CharField(max_length=30)
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=20, choices=STATUSES, default=QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    file = models.CharField(max_length=500, blank=True)
    error = models.CharField(max_length=500, blank=True)
    #: the language and address the job was asked in (a re-queued job keeps them)
    language = models.CharField(max_length=10, blank=True)
    origin = models.CharField(max_length=200, blank=True)
    #: how often the job was handed to a worker; a worker's delivery carries
    #: its number, and only the latest one may render (scoring/printing/tasks.py)
    attempts = models.PositiveSmallIntegerField(default=0)
    #: the last sign of life: handed out, started, a heartbeat while rendering
    alive_at = models.DateTimeField(null=True, blank=True)
    #: when the sweep last handed it out again after its worker was lost
    requeued_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "scoring_printjob"  # made in the scoring app: the table keeps its name
        ordering = ["-at"]

    def __str__(self):
        return f"{self.kind} ({self.status})"
