"""Celery tasks of the clock: thin wake-up calls on the "clock" queue (the
digital tables' are ``tournaments.play.tasks``, each app's in its ``tasks``).

Each task only calls a service that re-checks the database, so a stale task
(the deadline moved), a duplicate delivery or a task that arrives late does
the right thing: nothing, or exactly the close that is due.

The clock's work needs no retry: ``clock.guarded`` marks the failure and the
sweep, every second, does the work again.
"""

from __future__ import annotations

from celery import shared_task

from tournaments.services import clock, round_life


@shared_task(name="clock.close_round", ignore_result=True)
def close_round(round_id: int) -> bool:
    return clock.guarded(
        round_id, clock.CLOSE_FAILED, round_life.round_time_up, round_id, via=clock.VIA_TASK
    )


@shared_task(name="clock.close_table", ignore_result=True)
def close_table(table_id: int) -> bool:
    round_id = clock.round_of_table(table_id)
    return clock.guarded(
        round_id, clock.TABLE_CLOSE_FAILED, round_life.table_time_up, table_id, via=clock.VIA_TASK
    )


@shared_task(name="clock.start_round", ignore_result=True)
def start_round(round_id: int) -> bool:
    return round_life.round_start_when_due(round_id)


@shared_task(name="clock.sweep", ignore_result=True)
def sweep() -> dict:
    return round_life.sweep()


@shared_task(name="runall.heartbeat", ignore_result=True)
def heartbeat(name: str) -> None:
    """On a laptop, runall sends this to each worker's queue every few
    seconds: the worker's heartbeat file, touched only when the worker takes
    and runs its tasks (tournaments/supervisor.py: a stale one is a stuck worker)."""
    from django.conf import settings

    from tournaments.supervisor import heartbeat_path, touch_heartbeat

    path = heartbeat_path(settings.RUN_DIR, name)
    if path is not None:
        touch_heartbeat(path)
