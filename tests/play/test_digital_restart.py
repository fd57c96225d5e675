"""A restart doesn't lose a game: bots play a digital table through a real
Celery worker (a subprocess, PostgreSQL + Redis); the worker is killed in the
middle of the game and the web process's connections dropped; a fresh
process rebuilds the table's state from its TableAction rows alone, and a new
worker (with the beat's bot sweep) carries the game on from its stored
record to the end."""

import json
import os
import signal
import subprocess
import uuid

import pytest
from django.db import connection

from games import get_engine
from scoring.models import Submission
from tests.factories import one_table
from tests.tournaments.test_clock_celery import (
    PYTHON,
    ROOT,
    database_url_of_test_db,
    forget_queue,
    start_worker,
    wait_for,
)
from tournaments.models import TableAction
from tournaments.play import bots
from tournaments.play import tables as digital
from tournaments.services import deadlines, round_life

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

REBUILD = """
import json, sys, django
django.setup()
from tournaments.models import Table
from tournaments.play.tables import table_record
table = Table.objects.select_related("round__tournament").get(pk=int(sys.argv[1]))
engine = table.round.tournament.engine
state = table_record(table).replay(engine)
print(json.dumps({"same": engine.dump(state) == table.state, "moves": table.actions.count()}))
"""


def test_a_table_interrupted_by_a_restart_goes_on_from_its_record(
    require_postgres, require_redis, organizer, settings, monkeypatch, tmp_path
):
    queue = f"test-bots-{uuid.uuid4().hex[:10]}"
    settings.CLOCK_QUEUE = queue
    settings.DIGITAL_BOT_DELAY = 0.05
    monkeypatch.setenv("TURNIERLEITER_BOT_DELAY", "0.05")
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)  # no close in this test
    env = {
        "queue": queue,
        "db_url": database_url_of_test_db(),
        "redis_url": require_redis,
        "tmp": tmp_path,
    }
    table = one_table(
        organizer,
        "monddaemmerung",
        3,
        digital=True,
        name="Neustart",
        names=["P0", "P1", "P2"],
        round_minutes=60,
    )
    rnd = table.round
    for pos in range(3):
        bots.seat_to_bot(table=table, position=pos)
    engine = get_engine("monddaemmerung")
    moves = lambda: TableAction.objects.filter(table=table).count()  # noqa: E731

    worker = start_worker(**env)
    try:
        round_life.round_start(round=rnd, by=organizer)  # the deal wakes the first bot
        assert wait_for(lambda: moves() >= 6, 30), "the worker's bots did not play"
        worker.stop(signal.SIGKILL)  # the worker dies mid-game
        connection.close()  # and the web process restarts
        interrupted = moves()
        table.refresh_from_db()
        assert not engine.is_over(engine.load(table.state))

        # a fresh process: the state from the TableAction rows is the stored one
        out = subprocess.run(
            [str(PYTHON), "-c", REBUILD, str(table.pk)],
            cwd=ROOT,
            env=os.environ
            | {"DATABASE_URL": env["db_url"], "DJANGO_SETTINGS_MODULE": "tournaments.settings"},
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        rebuilt = json.loads(out.stdout.strip().splitlines()[-1])
        assert rebuilt == {"same": True, "moves": interrupted}

        # a new worker with the beat: the bot sweep wakes the table, the game ends
        worker = start_worker(**env, beat=True)
        assert wait_for(
            lambda: Submission.objects.filter(table=table, status=Submission.CONFIRMED).exists(),
            90,
        ), "the game did not go on after the restart"
    finally:
        worker.stop()
        forget_queue(require_redis, queue)
    table.refresh_from_db()
    rows = list(TableAction.objects.filter(table=table).order_by("number"))
    assert len(rows) > interrupted
    assert [r.number for r in rows] == list(range(len(rows)))
    final = digital.replay_states(table, rows)[-1]
    assert engine.is_over(final) and final == engine.load(table.state)
    result = Submission.objects.get(table=table, status=Submission.CONFIRMED)
    assert result.ranks == list(engine.result(final).ranks)
