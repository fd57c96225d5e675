"""The clock with a real Celery worker and Redis: the close happens at the
deadline by itself, survives a worker that dies, and follows the deadline
when it moves.

Each worker is a subprocess on the pytest-django test database of this
process, consuming a queue no other test uses (pytest-xdist runs several
processes against the same Redis database); its sweep sees only this
process's database.
"""

import os
import signal
import subprocess
import time
import uuid
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from tests.conftest import missing_service
from tests.factories import PlayerFactory, TournamentFactory, one_table, seated_round
from tournaments.models import Round, Table
from tournaments.services import clock, round_life

ROOT = Path(__file__).resolve().parents[2]
PYTHON = ROOT / ".venv" / "bin" / "python"

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def database_url_of_test_db() -> str:
    from django.conf import settings

    parts = urlsplit(os.environ["DATABASE_URL"])
    return urlunsplit(parts._replace(path="/" + settings.DATABASES["default"]["NAME"]))


class Worker:
    def __init__(self, proc, log: Path):
        self.proc, self.log = proc, log

    def stop(self, sig=signal.SIGTERM):
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def start_worker(*, queue, db_url, redis_url, tmp: Path, beat=False) -> Worker:
    """A Celery worker (with the beat's sweep when ``beat``) on ``queue``;
    returns once it is ready to consume."""
    tag = uuid.uuid4().hex[:6]
    log = tmp / f"worker-{tag}.log"
    env = os.environ | {
        "DATABASE_URL": db_url,
        "REDIS_URL": redis_url,
        "TURNIERLEITER_CLOCK_QUEUE": queue,
        "CONN_MAX_AGE": "0",
        "DJANGO_SETTINGS_MODULE": "tournaments.settings",
    }
    env.pop("CELERY_BROKER_URL", None)
    cmd = [
        str(PYTHON),
        "-m",
        "celery",
        "-A",
        "tournaments.celery",
        "worker",
        "-Q",
        queue,
        "-P",
        "threads",
        "-c",
        "4",
        "-n",
        f"{queue}-{tag}@%h",
        "--without-gossip",
        "--without-mingle",
        "--without-heartbeat",
        "--loglevel=INFO",
        "-f",
        str(log),
    ]
    if beat:
        cmd += ["-B", "-s", str(tmp / f"beat-{tag}")]
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    worker = Worker(proc, log)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if log.exists() and " ready." in log.read_text():
            return worker
        if proc.poll() is not None:
            raise RuntimeError(f"worker exited: {proc.stderr.read().decode()[-2000:]}")
        time.sleep(0.05)
    worker.stop(signal.SIGKILL)
    raise RuntimeError("worker did not get ready in 30 s")


def forget_queue(redis_url: str, queue: str) -> None:
    """Remove the test queue and any message a killed worker left unacked."""
    import json

    import redis

    r = redis.Redis.from_url(redis_url)
    for key in r.scan_iter(f"*{queue}*"):
        r.delete(key)
    for tag, raw in r.hgetall("unacked").items():
        try:
            routing_key = json.loads(raw)[2]
        except (ValueError, IndexError):
            continue
        if routing_key == queue:
            r.hdel("unacked", tag)
            r.zrem("unacked_index", tag)


@pytest.fixture(scope="module")
def module_env(django_db_setup, tmp_path_factory):
    """Services checked, a queue of its own and the test database's URL."""
    from django.conf import settings

    if "postgresql" not in settings.DATABASES["default"]["ENGINE"]:
        missing_service("PostgreSQL (set DATABASE_URL=postgres://...)")
    if not os.environ.get("REDIS_URL"):
        missing_service("Redis (set REDIS_URL=redis://127.0.0.1:6379/15)")
    queue = f"test-clock-{uuid.uuid4().hex[:10]}"
    yield {
        "queue": queue,
        "db_url": database_url_of_test_db(),
        "redis_url": os.environ["REDIS_URL"],
        "tmp": tmp_path_factory.mktemp("clock-workers"),
    }
    forget_queue(os.environ["REDIS_URL"], queue)


@pytest.fixture
def env(module_env, settings):
    """This module's queue for every wake-up call the services send."""
    settings.CLOCK_QUEUE = module_env["queue"]
    return module_env


@pytest.fixture(scope="module")
def module_worker(module_env):
    w = start_worker(**module_env)
    yield w
    w.stop()


@pytest.fixture
def worker(module_worker, env):
    """A worker without the beat: only the tasks scheduled for the deadlines close."""
    assert module_worker.proc.poll() is None
    return module_worker


@pytest.fixture
def tournament(organizer):
    """A Quartett tournament at tables of two."""
    return TournamentFactory(owner=organizer, name="Herbstturnier", allowed_sizes=[2], table_size=2)


@pytest.fixture
def rnd(tournament):
    """Round 1: two paper tables of two seated through the services, a draft."""
    order = [
        [PlayerFactory(tournament=tournament, name=f"P{n}{pos}") for pos in range(2)]
        for n in (1, 2)
    ]
    return seated_round(tournament, order=order, publish=False)


def wait_for(check, timeout: float):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    return check()


def closed(obj):
    obj.refresh_from_db()
    return obj.time_called_at is not None


def test_a_two_second_round_is_closed_within_a_second_of_its_deadline(worker, rnd, organizer):
    round_life.round_start(round=rnd, by=organizer, seconds=2)
    assert wait_for(lambda: closed(rnd), timeout=6), "the worker did not close the round"
    late = rnd.time_called_at - rnd.deadline
    assert timedelta(0) <= late <= timedelta(seconds=1), late
    assert rnd.status == Round.TIME_CALLED
    assert rnd.activations.get(kind="time_called").reason == clock.VIA_TASK
    assert set(rnd.tables.values_list("status", flat=True)) == {Table.WAITING}


def test_when_the_worker_dies_a_new_one_sweeps_the_round_closed(env, rnd, organizer, settings):
    # a queue of its own: the module's worker (alive if an earlier test here
    # started it) must not be the one that closes this round
    env = env | {"queue": f"{env['queue']}-dies"}
    settings.CLOCK_QUEUE = env["queue"]
    try:
        _worker_dies_then_the_sweep_closes(env, rnd, organizer)
    finally:
        forget_queue(env["redis_url"], env["queue"])


def _worker_dies_then_the_sweep_closes(env, rnd, organizer):
    first = start_worker(**env)
    try:
        round_life.round_start(round=rnd, by=organizer, seconds=2)
        time.sleep(0.5)  # the first worker holds the task scheduled for the deadline...
    finally:
        first.stop(signal.SIGKILL)  # ...and dies with it
    rnd.refresh_from_db()
    time.sleep(max(0.0, (rnd.deadline - clock.db_now()).total_seconds()) + 1.0)
    assert not closed(rnd), "nothing should have closed the round without a worker"
    second = start_worker(**env, beat=True)
    try:
        started = clock.db_now()
        assert wait_for(lambda: closed(rnd), timeout=5)
        assert rnd.time_called_at - started <= timedelta(seconds=2)
        assert rnd.activations.get(kind="time_called").reason == clock.VIA_SWEEP
    finally:
        second.stop()


def test_pause_resume_and_extend_move_the_scheduled_close(worker, rnd, organizer):
    round_life.round_start(round=rnd, by=organizer, seconds=2)
    time.sleep(0.5)
    round_life.round_pause(round=rnd, by=organizer)
    time.sleep(2.0)  # the close scheduled for the first deadline has fired: a no-op
    rnd.refresh_from_db()
    assert rnd.status == Round.PAUSED and rnd.time_called_at is None
    round_life.round_resume(round=rnd, by=organizer)
    round_life.round_extend(round=rnd, by=organizer, seconds=1)
    rnd.refresh_from_db()
    assert rnd.deadline - rnd.activations.get(kind="resume").at >= timedelta(seconds=2.4)
    time.sleep(max(0.0, (rnd.deadline - clock.db_now()).total_seconds() - 0.3))
    assert not closed(rnd), "closed before the moved deadline"
    assert wait_for(lambda: closed(rnd), timeout=3)
    assert timedelta(0) <= rnd.time_called_at - rnd.deadline <= timedelta(seconds=1)


def test_a_table_extension_closes_that_table_later_than_the_others(worker, rnd, organizer):
    t1, t2 = rnd.tables.order_by("number")
    round_life.round_start(round=rnd, by=organizer, seconds=2)
    round_life.table_extend(table=t2, by=organizer, seconds=2, reason="judge call")
    assert wait_for(lambda: closed(rnd), timeout=6)
    assert closed(t1) and t1.status == Table.WAITING
    assert not closed(t2) and t2.status == Table.PLAYING
    assert wait_for(lambda: closed(t2), timeout=5)
    assert t2.status == Table.WAITING
    assert timedelta(0) <= t2.time_called_at - t2.deadline <= timedelta(seconds=1)
    assert t2.time_called_at - rnd.time_called_at >= timedelta(seconds=1.5)


def test_a_poisoned_round_does_not_stop_another_rounds_close(
    env, rnd, organizer, other_user, settings
):
    """Another organizer's round is scheduled to start with a deck the engine
    can't deal (data from before decks were checked); the healthy round's
    close task is lost with its worker. The beat's sweep still closes the
    healthy round within 2 s of its deadline, and the poisoned round shows
    why its start failed."""
    env = env | {"queue": f"{env['queue']}-poison"}
    settings.CLOCK_QUEUE = env["queue"]
    try:
        _poisoned_beside_healthy(env, rnd, organizer, other_user)
    finally:
        forget_queue(env["redis_url"], env["queue"])


def _poisoned_beside_healthy(env, rnd, organizer, other_user):
    from tournaments.models import Tournament

    table = one_table(
        other_user,
        "quartett",
        4,
        digital=True,
        name="Vergiftet",
        names=[f"V{pos}" for pos in range(4)],
    )
    poisoned, bad = table.round, table.round.tournament
    deck = bad.engine.deck_data()
    tiny = {"name": "Mini", "attributes": deck["attributes"], "cards": deck["cards"][:2]}
    Tournament.objects.filter(pk=bad.pk).update(game_options={"deck": tiny})
    Round.objects.filter(pk=poisoned.pk).update(starts_at=clock.db_now())

    first = start_worker(**env)
    try:
        round_life.round_start(round=rnd, by=organizer, seconds=8)
        time.sleep(0.5)  # the first worker holds the task scheduled for the deadline...
    finally:
        first.stop(signal.SIGKILL)  # ...and dies with it
    second = start_worker(**env, beat=True)
    try:
        rnd.refresh_from_db()
        wait = (rnd.deadline - clock.db_now()).total_seconds() + 4
        assert wait_for(lambda: closed(rnd), timeout=max(wait, 1.0)), "the sweep stopped"
        late = rnd.time_called_at - rnd.deadline
        print(f"healthy round closed {late.total_seconds():.3f} s after its deadline")
        assert late <= timedelta(seconds=2), late
        assert rnd.activations.get(kind="time_called").reason == clock.VIA_SWEEP
        poisoned.refresh_from_db()
        assert poisoned.status == Round.SEATED and poisoned.starts_at is None
        assert poisoned.clock_problem["code"] == clock.START_FAILED
        assert "too few" in poisoned.clock_problem["detail"]
        assert "scheduled start of this round failed" in clock.problem_text(poisoned)
    finally:
        second.stop()
