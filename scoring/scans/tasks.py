"""The scans' Celery tasks (their names from before the app: queued
messages name them so)."""

from __future__ import annotations

from celery import shared_task

from scoring.scans import services


@shared_task(name="scoring.read_scan_pile", ignore_result=True)
def read_scan_pile(pile_id: int) -> str | None:
    """A pile of scanned score sheets read page by page (scoring.scans.services)."""
    return services.run(pile_id)


@shared_task(name="scoring.read_picked_page", ignore_result=True)
def read_picked_page(page_id: int) -> str:
    """A scanned page whose code can't be read, read as the sheet of the
    table the staff named for it (scoring.scans.services.run_pick)."""
    return services.run_pick(page_id)
