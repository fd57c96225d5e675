"""Reads for the print page: a tournament's latest print jobs and how many
of them are still being prepared."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from scoring.printing.models import PrintJob


def latest_jobs(tournament, limit: int = 10) -> list[PrintJob]:
    """The tournament's latest print jobs, newest first."""
    return list(tournament.print_jobs.all()[:limit])


def open_job_count(tournament) -> int:
    """The tournament's jobs of the last hour still queued or rendering (an
    older one is the sweep's to fail)."""
    recent = timezone.now() - timedelta(hours=1)
    return PrintJob.objects.filter(
        tournament=tournament,
        status__in=[PrintJob.QUEUED, PrintJob.RUNNING],
        at__gte=recent,
    ).count()
