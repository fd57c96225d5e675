"""A tournament import as a job: the request stores the file and answers at
once; a Celery task (``scoring.run_import``) reads it — bounded by
``tournaments.safejson`` (depth, element count) — checks every value and
stores the tournament, never a web process. The import's page shows the
job's progress and its outcome (the new tournament, or every problem with
its place, in the language the file was sent in)."""

from __future__ import annotations

import datetime as dt
import logging

from celery import current_app
from django.conf import settings
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from scoring.exchange.format import ImportRefused
from scoring.exchange.importer import import_tournament
from scoring.exchange.models import ImportJob

log = logging.getLogger(__name__)

#: imports of one account waiting or being read at once
MAX_OPEN = 3
#: a job a worker took and gave no outcome for this long is failed by the
#: sweep (the page offers to send the file again)
LOST_AFTER = dt.timedelta(minutes=10)


class TooMany(Exception):
    """Too many of the account's imports are still open."""


def start(*, owner, data: bytes, name: str, language: str) -> ImportJob:
    """A new job for ``data``, handed to the worker after the commit."""
    open_jobs = ImportJob.objects.filter(
        owner=owner, status__in=[ImportJob.QUEUED, ImportJob.RUNNING]
    ).count()
    if open_jobs >= MAX_OPEN:
        raise TooMany
    job = ImportJob.objects.create(owner=owner, data=data, name=name[:200], language=language)
    transaction.on_commit(lambda: hand_out(job.pk))
    return job


def hand_out(job_id: int) -> None:
    """The task ``scoring.run_import`` (``scoring/exchange/tasks.py``); a broker away
    fails the job with the reason instead of leaving it waiting."""
    try:
        current_app.send_task("scoring.run_import", args=[job_id], expires=3600)
    except Exception as exc:
        log.exception("import %s not handed to the worker", job_id)
        job = ImportJob.objects.filter(pk=job_id).first()
        with translation.override((job.language if job else "") or settings.LANGUAGE_CODE):
            why = _("The background worker can't be reached: %(e)s") % {"e": exc}
        ImportJob.objects.filter(pk=job_id).update(
            status=ImportJob.FAILED, problems=[why[:500]], data=b""
        )


def run(job_id: int) -> str | None:
    """Read, check and store job ``job_id``'s file if it is still queued;
    its outcome is kept on the job. Returns the job's status (None: not this
    call's to run)."""
    claimed = ImportJob.objects.filter(pk=job_id, status=ImportJob.QUEUED).update(
        status=ImportJob.RUNNING, started_at=timezone.now()
    )
    if not claimed:
        return None
    job = ImportJob.objects.select_related("owner").get(pk=job_id)
    tournament, problems = None, []
    with translation.override(job.language or settings.LANGUAGE_CODE):
        try:
            tournament = import_tournament(data=bytes(job.data), owner=job.owner)
        except ImportRefused as exc:
            problems = exc.errors
        except Exception:  # this file's failure is its own
            log.exception("import %s failed", job_id)
            problems = [_("The file could not be read; nothing was imported.")]
    status = ImportJob.DONE if tournament is not None else ImportJob.FAILED
    ImportJob.objects.filter(pk=job_id).update(
        status=status, tournament=tournament, problems=problems, data=b""
    )
    return status


def sweep() -> int:
    """Fail the jobs a lost worker left (their file is sent again)."""
    cutoff = timezone.now() - LOST_AFTER
    lost = ImportJob.objects.filter(status=ImportJob.RUNNING, started_at__lt=cutoff)
    failed = 0
    for job in lost.only("pk", "language"):
        with translation.override(job.language or settings.LANGUAGE_CODE):
            why = _("The background worker stopped while reading this file: send it again.")
        failed += ImportJob.objects.filter(pk=job.pk, status=ImportJob.RUNNING).update(
            status=ImportJob.FAILED, problems=[why], data=b""
        )
    return failed
