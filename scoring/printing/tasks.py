"""Print jobs: a large round's PDF rendered by a Celery task, with its
progress; and the sweep that hands out again a job whose worker was lost.

A job is handed to a worker by :func:`send`: each hand-out is an attempt,
numbered on the row, and the task carries its number. A task renders only
if its attempt is the job's latest and the job is still queued (the claim in
:func:`run_print_job`), so a delivery that comes back late — Redis hands an
unacknowledged message out again after its visibility timeout, 12 hours —
does nothing. While rendering, the worker writes a sign of life
(``alive_at``) every few seconds; a job whose worker was killed stops giving
one, and :func:`sweep_print_jobs` (the beat, every 30 s: tournaments/celery.py) hands
it out again, at most ``MAX_ATTEMPTS`` times in all, then marks it failed
with the reason; the page offers to try again (:func:`retry`).

The PDF goes under ``settings.VAR_DIR / "prints"`` (atomically: a temporary
file, then rename).
"""

from __future__ import annotations

import logging
import os
import threading
from datetime import timedelta
from pathlib import Path

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q
from django.db.models.functions import Coalesce
from django.dispatch import Signal
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.printing import documents
from scoring.printing.models import PrintJob
from scoring.sheet_links import table_token
from tournaments import addresses
from tournaments.celery import app
from tournaments.services.deadlines import db_now

log = logging.getLogger(__name__)

#: hand-outs of one job (the first and the sweep's) before it is reported failed
MAX_ATTEMPTS = 3


def lost_after() -> timedelta:
    """A job that gave no sign of life for this long has lost its worker (a
    rendering worker gives one every :func:`heartbeat_seconds`)."""
    return timedelta(seconds=float(getattr(settings, "PRINT_JOB_LOST_SECONDS", 60)))


def heartbeat_seconds() -> float:
    return max(0.05, lost_after().total_seconds() / 6)


def prints_dir() -> Path:
    path = Path(settings.VAR_DIR) / "prints"
    path.mkdir(parents=True, exist_ok=True)
    return path


def start(
    *, tournament, kind: str, round_number: int | None, by, language: str, origin: str
) -> PrintJob:
    """A new job, handed to a worker once the caller's transaction commits."""
    job = PrintJob.objects.create(
        tournament=tournament,
        kind=kind,
        round_number=round_number,
        total=max(1, documents.table_count(tournament, round_number)),
        by=by,
        language=language or "",
        origin=origin or "",
    )
    send(job.pk)
    return job


def send(job_id: int, *, requeued: bool = False) -> int:
    """Hand the job to a worker: a new attempt, its task sent after the
    commit. A broker that can't be reached fails the job with the reason
    instead of leaving it waiting. Returns the attempt's number."""
    now = db_now()
    with transaction.atomic():
        job = PrintJob.objects.select_for_update().get(pk=job_id)
        job.attempts += 1
        job.status, job.done, job.alive_at = PrintJob.QUEUED, 0, now
        fields = ["attempts", "status", "done", "alive_at"]
        if requeued:
            job.requeued_at = now
            fields.append("requeued_at")
        job.save(update_fields=fields)
    attempt, language, origin = job.attempts, job.language or None, job.origin or None

    def enqueue():
        try:
            render_print_job.delay(job_id, language, origin, attempt)
        except Exception as exc:  # broker down: say so instead of waiting forever
            with translation.override(language or settings.LANGUAGE_CODE):
                error = _("The background worker can't be reached: %(e)s") % {"e": exc}
            PrintJob.objects.filter(pk=job_id, attempts=attempt).update(
                status=PrintJob.FAILED, error=error[:500]
            )

    transaction.on_commit(enqueue)
    return attempt


def retry(job: PrintJob) -> bool:
    """Try a failed job again from the start (False: it had not failed)."""
    with transaction.atomic():
        reset = PrintJob.objects.filter(pk=job.pk, status=PrintJob.FAILED).update(
            attempts=0, error="", requeued_at=None, file=""
        )
        if reset:
            send(job.pk)
    return bool(reset)


class _Superseded(Exception):
    """The job was handed out again meanwhile: this attempt stops."""


class _Heartbeat:
    """While a job renders: its sign of life, written every few seconds from
    a thread of the worker (which dies with it)."""

    def __init__(self, mine):
        self.mine, self.stop = mine, threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True, name="print-heartbeat")

    def _run(self):
        try:
            while not self.stop.wait(heartbeat_seconds()):
                self.mine.update(alive_at=db_now())
        except Exception:  # a lost sign of life only makes the sweep look sooner
            log.exception("print job heartbeat failed")
        finally:
            connection.close()

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join(timeout=30)


def run_print_job(
    job_id: int,
    language: str | None = None,
    origin: str | None = None,
    attempt: int | None = None,
) -> bool:
    """Render job ``job_id`` if ``attempt`` is its latest hand-out (None: any)
    and it is still queued; False if it was not this delivery's to render.
    ``origin`` (``https://host``) is where the QR links point (the address the
    organizer used), else :func:`tournaments.addresses.origin`."""
    job = PrintJob.objects.select_related("tournament").filter(pk=job_id).first()
    if job is None:  # its tournament was deleted meanwhile
        return False
    mine = PrintJob.objects.filter(pk=job_id)
    if attempt is not None:
        mine = mine.filter(attempts=attempt)
    total = max(1, documents.table_count(job.tournament, job.round_number))
    claimed = mine.filter(status=PrintJob.QUEUED).update(
        status=PrintJob.RUNNING, done=0, total=total, alive_at=db_now()
    )
    if not claimed:
        return False
    mine = mine.filter(status=PrintJob.RUNNING)
    base = (origin or addresses.origin()).rstrip("/")

    def url_for_table(table_id: int) -> str:
        return base + reverse("sheet_link", args=[table_token(table_id)])

    def progress(done: int, total: int) -> None:
        if not mine.update(done=done, total=total, alive_at=db_now()):
            raise _Superseded

    try:
        with _Heartbeat(mine), translation.override(language or settings.LANGUAGE_CODE):
            pdf = documents.render(
                job.kind,
                job.tournament,
                job.round_number,
                url_for_table=url_for_table,
                progress=progress,
            )
    except _Superseded:
        return False
    except Exception as exc:  # the page shows the failure instead of spinning forever
        log.exception("print job %s failed", job_id)
        mine.update(status=PrintJob.FAILED, error=str(exc)[:500])
        if not isinstance(exc, documents.PrintError):
            raise
        return True
    target = (
        prints_dir()
        / f"job-{job_id}-{documents.filename(job.kind, job.tournament, job.round_number)}"
    )
    tmp = target.with_suffix(f".part{attempt or 0}")
    tmp.write_bytes(pdf)
    os.replace(tmp, target)
    # a job handed out again meanwhile is finished by its latest attempt
    return bool(mine.update(status=PrintJob.DONE, done=total, total=total, file=str(target)))


def sweep_print_jobs() -> dict:
    """What the beat runs: every job whose worker gave no sign of life for
    :func:`lost_after` is handed out again, or after ``MAX_ATTEMPTS``
    hand-outs marked failed with the reason. A queued job that waits while
    another job renders is waiting its turn, not lost. Harmless to run any
    number of times, from any number of processes."""
    cutoff = db_now() - lost_after()
    stale = Q(status=PrintJob.RUNNING)
    if not PrintJob.objects.filter(status=PrintJob.RUNNING, alive_at__gte=cutoff).exists():
        stale |= Q(status=PrintJob.QUEUED)
    lost = (
        PrintJob.objects.annotate(seen=Coalesce("alive_at", "at"))
        .filter(stale, seen__lt=cutoff)
        .values_list("pk", flat=True)
    )
    out = {"requeued": 0, "failed": 0}
    for job_id in list(lost):
        with transaction.atomic():
            job = (
                PrintJob.objects.select_for_update(skip_locked=True)
                .annotate(seen=Coalesce("alive_at", "at"))
                .filter(pk=job_id, seen__lt=cutoff, status__in=[PrintJob.QUEUED, PrintJob.RUNNING])
                .first()
            )
            if job is None:  # it gave a sign of life meanwhile, or another sweep has it
                continue
            if job.attempts < MAX_ATTEMPTS:
                log.warning(
                    "print job %s: no sign of life from its worker, handed out again", job_id
                )
                send(job_id, requeued=True)
                out["requeued"] += 1
                continue
            with translation.override(job.language or settings.LANGUAGE_CODE):
                minutes = max(1, round((db_now() - job.at).total_seconds() / 60))
                if job.status == PrintJob.RUNNING:  # n is MAX_ATTEMPTS: never 1
                    error = _(
                        "The background worker stopped %(n)s times while preparing this document."
                    ) % {"n": job.attempts}
                else:
                    error = ngettext(
                        "No background worker took this job in %(n)s minute: is the worker "
                        "running?",
                        "No background worker took this job in %(n)s minutes: is the worker "
                        "running?",
                        minutes,
                    ) % {"n": minutes}
            log.warning("print job %s: given up after %s attempts", job_id, job.attempts)
            PrintJob.objects.filter(pk=job_id).update(status=PrintJob.FAILED, error=error[:500])
            out["failed"] += 1
    return out


@app.task(name="scoring.render_print_job")
def render_print_job(
    job_id: int,
    language: str | None = None,
    origin: str | None = None,
    attempt: int | None = None,
):
    run_print_job(job_id, language, origin, attempt)


#: sent by the sweep every 30 seconds: the apps above with jobs of their own
#: (the imports: scoring.exchange) hand out again what a lost worker left
sweeping = Signal()


@app.task(name="scoring.sweep_print_jobs", ignore_result=True)
def sweep_print_jobs_task() -> dict:
    sweeping.send(sender=None)
    return sweep_print_jobs()
