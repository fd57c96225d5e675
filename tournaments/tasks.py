"""Celery tasks of the clock: thin wake-up calls on the "clock" queue.

Each task only calls a service that re-checks the database, so a stale task
(the deadline moved), a duplicate delivery or a task that arrives late does
the right thing: nothing, or exactly the close that is due.

On the embedded default (SQLite) a bot's task whose lock was refused all the
same (a wait longer than the busy timeout) runs again
(:mod:`tournaments.sqlite.retry`): its moves re-check the table, so a move is
stored once. The clock's own work needs no retry: ``clock.guarded`` marks the
failure and the sweep, every second, does the work again.
"""

from __future__ import annotations

import re

from celery import shared_task

from tournaments.play import bots, tables
from tournaments.services import clock
from tournaments.sqlite.retry import retry_when_locked


@shared_task(name="clock.close_round", ignore_result=True)
def close_round(round_id: int) -> bool:
    return clock.guarded(
        round_id, clock.CLOSE_FAILED, clock.close_round, round_id, via=clock.VIA_TASK
    )


@shared_task(name="clock.close_table", ignore_result=True)
def close_table(table_id: int) -> bool:
    round_id = clock.round_of_table(table_id)
    return clock.guarded(
        round_id, clock.TABLE_CLOSE_FAILED, clock.close_table, table_id, via=clock.VIA_TASK
    )


@shared_task(name="clock.finish_table", ignore_result=True)
def finish_table(table_id: int) -> bool:
    round_id = clock.round_of_table(table_id)
    return clock.guarded(round_id, clock.FINISH_FAILED, tables.table_finish, table_id=table_id)


@shared_task(name="clock.start_round", ignore_result=True)
def start_round(round_id: int) -> bool:
    return clock.start_due_round(round_id)


@shared_task(name="clock.sweep", ignore_result=True)
def sweep() -> dict:
    return clock.sweep()


@shared_task(name="clock.bot_move", ignore_result=True)
def bot_move(table_id: int) -> int:
    return retry_when_locked(bots.bot_move)(table_id=table_id)


@shared_task(name="clock.bot_sweep", ignore_result=True)
def bot_sweep() -> int:
    return retry_when_locked(bots.bot_sweep)()


@shared_task(name="registrations.mail_link", ignore_result=True)
def registration_mail(*, email: str, url: str, tournament: str, language: str) -> None:
    """A player's personal link by mail; a failed send is logged, not retried."""
    from tournaments.registrations import mail

    try:
        mail.send_link(email=email, url=url, tournament=tournament, language=language)
    except Exception:
        mail.log.exception("registration mail not sent")


@shared_task(name="runall.heartbeat", ignore_result=True)
def heartbeat(name: str) -> None:
    """On a laptop, runall sends this to each worker's queue every few
    seconds: the worker's heartbeat file, touched only when the worker takes
    and runs its tasks (tournaments/supervisor.py: a stale one is a stuck worker)."""
    from tournaments.supervisor import touch_heartbeat

    path = heartbeat_file(name)
    if path is not None:
        touch_heartbeat(path)


def heartbeat_file(name: str):
    """Where the heartbeat of the worker ``name`` ("clock", "tasks") is kept."""
    from django.conf import settings

    if not re.fullmatch(r"[a-z][a-z0-9-]{0,30}", name or ""):
        return None
    return settings.RUN_DIR / f"heartbeat-{name}"


# the mirror wing's tasks (publishing to the online site), registered here
from tournaments.mirror import tasks as _mirror_tasks  # noqa: E402, F401
