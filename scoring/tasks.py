"""Celery tasks of scoring: render a large print job in the background.

The task is thin: it loads the :class:`~scoring.models.PrintJob`, calls
:func:`scoring.prints.render` with a progress callback that writes
``done``/``total`` to the row, and writes the PDF under
``settings.VAR_DIR / "prints"`` (atomically: a temporary file, then rename).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from django.conf import settings
from django.urls import reverse
from django.utils import translation

from scoring import prints
from scoring.models import PrintJob
from scoring.sheet_links import table_token
from tournaments import addresses
from tournaments.celery import app

log = logging.getLogger(__name__)


def prints_dir() -> Path:
    path = Path(settings.VAR_DIR) / "prints"
    path.mkdir(parents=True, exist_ok=True)
    return path


def run_print_job(job_id: int, language: str | None = None, origin: str | None = None) -> None:
    """Render job ``job_id``. ``origin`` (``https://host``) is where the QR
    links point (the address the organizer used), else :func:`tournaments.addresses.origin`."""
    job = PrintJob.objects.select_related("tournament").get(pk=job_id)
    if job.status == PrintJob.DONE:
        return
    base = (origin or addresses.origin()).rstrip("/")

    def url_for_table(table_id: int) -> str:
        return base + reverse("sheet_link", args=[table_token(table_id)])

    def progress(done: int, total: int) -> None:
        PrintJob.objects.filter(pk=job_id).update(done=done, total=total)

    total = max(1, prints.table_count(job.tournament, job.round_number))
    PrintJob.objects.filter(pk=job_id).update(status=PrintJob.RUNNING, done=0, total=total)
    try:
        with translation.override(language or settings.LANGUAGE_CODE):
            pdf = prints.render(
                job.kind,
                job.tournament,
                job.round_number,
                url_for_table=url_for_table,
                progress=progress,
            )
    except Exception as exc:  # the page shows the failure instead of spinning forever
        log.exception("print job %s failed", job_id)
        PrintJob.objects.filter(pk=job_id).update(status=PrintJob.FAILED, error=str(exc)[:500])
        if not isinstance(exc, prints.PrintError):
            raise
        return
    target = (
        prints_dir() / f"job-{job_id}-{prints.filename(job.kind, job.tournament, job.round_number)}"
    )
    tmp = target.with_suffix(".part")
    tmp.write_bytes(pdf)
    os.replace(tmp, target)
    PrintJob.objects.filter(pk=job_id).update(
        status=PrintJob.DONE, done=total, total=total, file=str(target)
    )


@app.task(name="scoring.render_print_job")
def render_print_job(job_id: int, language: str | None = None, origin: str | None = None):
    run_print_job(job_id, language, origin)
