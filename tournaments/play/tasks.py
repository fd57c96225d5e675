"""Celery tasks of the digital tables, on the clock's queue: the table's end
after the grace period and the bots' moves (their names are the ones the
clock gave them: queued messages and the beat schedule name them so).

On the embedded default (SQLite) a bot's task whose lock was refused all the
same (a wait longer than the busy timeout) runs again
(:mod:`tournaments.sqlite.retry`): its moves re-check the table, so a move is
stored once.
"""

from __future__ import annotations

from celery import shared_task

from tournaments.play import bots, tables
from tournaments.services import clock
from tournaments.sqlite.retry import retry_when_locked


@shared_task(name="clock.finish_table", ignore_result=True)
def finish_table(table_id: int) -> bool:
    round_id = clock.round_of_table(table_id)
    return clock.guarded(round_id, clock.FINISH_FAILED, tables.table_finish, table_id=table_id)


@shared_task(name="clock.bot_move", ignore_result=True)
def bot_move(table_id: int) -> int:
    return retry_when_locked(bots.bot_move)(table_id=table_id)


@shared_task(name="clock.bot_sweep", ignore_result=True)
def bot_sweep() -> int:
    return retry_when_locked(bots.bot_sweep)()
