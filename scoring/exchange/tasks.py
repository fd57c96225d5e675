"""The imports' Celery task (its name from before the app: queued messages
name it so)."""

from __future__ import annotations

from celery import shared_task

from scoring.exchange import jobs


@shared_task(name="scoring.run_import", ignore_result=True)
def run_import(job_id: int):
    """A tournament import's file read, checked and stored (scoring.exchange.jobs)."""
    jobs.run(job_id)
