"""Print jobs whose worker was lost: the sweep hands them out
again, a delivery that comes back late renders nothing, a job lost again and
again says it failed and can be tried again — and the page says each of it.

The in-process tests hold every message the web sends instead of a broker
and deliver them by hand; the last test kills a real Celery worker while it
renders (PostgreSQL and Redis)."""

from __future__ import annotations

import os
import signal
import time
import uuid
from datetime import timedelta
from pathlib import Path

import pytest
from django.db.models import F
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import time_format

from scoring.printing import tasks
from scoring.printing.models import PrintJob
from tests.conftest import missing_service
from tests.scoring import handmade
from tournaments.celery import app as celery_app

pytestmark = pytest.mark.django_db


@pytest.fixture
def made(tournament, organizer):
    return handmade.build(tournament, organizer)


@pytest.fixture
def broker(monkeypatch, settings, tmp_path):
    """The messages the web and the sweep send, held: (job, language, origin, attempt)."""
    settings.VAR_DIR = tmp_path
    sent = []
    monkeypatch.setattr(tasks.render_print_job, "delay", lambda *args: sent.append(args))
    return sent


def start_job(client, tournament, capture, kind="sheets", number=1) -> PrintJob:
    with capture(execute=True):
        response = client.post(
            reverse("print_job_start", args=[tournament.pk]), {"kind": kind, "round": number}
        )
    assert response.status_code == 302
    return PrintJob.objects.latest("at")


def silent_for(job: PrintJob, minutes: float = 5) -> None:
    """No sign of life from the job's worker for ``minutes``."""
    PrintJob.objects.filter(pk=job.pk).update(alive_at=F("alive_at") - timedelta(minutes=minutes))


def job_html(client, tournament, job) -> str:
    response = client.get(
        reverse("print_job", args=[tournament.pk, job.pk]), HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    return response.content.decode()


def sweep(capture) -> dict:
    with capture(execute=True):
        return tasks.sweep_print_jobs()


def test_a_job_whose_task_was_lost_is_requeued_by_the_sweep_and_completes(
    client, organizer, tournament, made, broker, django_capture_on_commit_callbacks
):
    client.force_login(organizer)
    capture = django_capture_on_commit_callbacks
    job = start_job(client, tournament, capture)
    assert [m[0] for m in broker] == [job.pk] and broker[0][3] == 1
    assert "waiting for the worker" in job_html(client, tournament, job)
    # the worker is alive and the job young: the sweep leaves it
    assert sweep(capture) == {"requeued": 0, "failed": 0}
    # the worker that took the message was killed: no sign of life for minutes
    silent_for(job)
    assert sweep(capture) == {"requeued": 1, "failed": 0}
    job.refresh_from_db()
    assert (job.status, job.attempts) == (PrintJob.QUEUED, 2)
    assert broker[1] == (job.pk, "en", "http://testserver", 2)
    html = job_html(client, tournament, job)
    when = time_format(timezone.localtime(job.requeued_at), "TIME_FORMAT")
    assert f"Its worker was lost: re-queued at {when} (try 2 of 3)." in html
    assert 'hx-trigger="every 1s"' in html  # the page keeps following it
    # the first message, delivered late (Redis' visibility timeout), renders nothing
    assert tasks.run_print_job(*broker[0]) is False
    job.refresh_from_db()
    assert (job.status, job.attempts) == (PrintJob.QUEUED, 2)
    # the new one completes, and the page offers the PDF
    assert tasks.run_print_job(*broker[1]) is True
    job.refresh_from_db()
    assert (job.status, job.done, job.total) == (PrintJob.DONE, 2, 2)
    assert reverse("print_job_download", args=[tournament.pk, job.pk]) in job_html(
        client, tournament, job
    )
    assert sweep(capture) == {"requeued": 0, "failed": 0}


def test_a_job_whose_worker_died_while_rendering_is_handed_out_again(
    client, organizer, tournament, made, broker, django_capture_on_commit_callbacks
):
    client.force_login(organizer)
    capture = django_capture_on_commit_callbacks
    job = start_job(client, tournament, capture)
    # as a killed worker leaves it: claimed, half drawn, then silence
    PrintJob.objects.filter(pk=job.pk).update(status=PrintJob.RUNNING, done=1)
    silent_for(job)
    assert "1 of 2 tables" in job_html(client, tournament, job)
    assert sweep(capture) == {"requeued": 1, "failed": 0}
    job.refresh_from_db()
    assert (job.status, job.done, job.attempts) == (PrintJob.QUEUED, 0, 2)
    assert "re-queued at" in job_html(client, tournament, job)
    assert tasks.run_print_job(*broker[-1]) is True
    job.refresh_from_db()
    assert job.status == PrintJob.DONE


def test_a_queued_job_waits_its_turn_while_another_renders(
    client, organizer, tournament, made, broker, django_capture_on_commit_callbacks
):
    client.force_login(organizer)
    capture = django_capture_on_commit_callbacks
    rendering = start_job(client, tournament, capture, kind="seating")
    waiting = start_job(client, tournament, capture, kind="names")
    PrintJob.objects.filter(pk=rendering.pk).update(status=PrintJob.RUNNING)
    silent_for(waiting)
    assert sweep(capture) == {"requeued": 0, "failed": 0}
    # once the rendering one falls silent too, both are lost
    silent_for(rendering)
    assert sweep(capture) == {"requeued": 2, "failed": 0}
    assert {m[0] for m in broker[-2:]} == {rendering.pk, waiting.pk}


def test_a_job_lost_again_and_again_says_it_failed_and_can_be_tried_again(
    client, organizer, tournament, made, broker, django_capture_on_commit_callbacks
):
    client.force_login(organizer)
    capture = django_capture_on_commit_callbacks
    job = start_job(client, tournament, capture)
    for attempt in range(2, tasks.MAX_ATTEMPTS + 1):
        silent_for(job)
        assert sweep(capture) == {"requeued": 1, "failed": 0}
        assert broker[-1][3] == attempt
    silent_for(job)
    assert sweep(capture) == {"requeued": 0, "failed": 1}
    job.refresh_from_db()
    assert job.status == PrintJob.FAILED
    html = job_html(client, tournament, job)
    assert "No background worker took this job in" in html and "is the worker running?" in html
    assert "hx-trigger" not in html  # no more polling
    retry = reverse("print_job_retry", args=[tournament.pk, job.pk])
    assert retry in html and "Try again" in html
    # every message of the lost attempts comes back at last: none renders
    for message in list(broker):
        assert tasks.run_print_job(*message) is False
    with capture(execute=True):
        response = client.post(retry)
    assert response.status_code == 302
    job.refresh_from_db()
    assert (job.status, job.attempts, job.error, job.requeued_at) == (
        PrintJob.QUEUED,
        1,
        "",
        None,
    )
    assert tasks.run_print_job(*broker[-1]) is True
    job.refresh_from_db()
    assert job.status == PrintJob.DONE
    # a finished job is not tried again
    sent = len(broker)
    with capture(execute=True):
        page = client.post(retry, follow=True).content.decode()
    assert "This print job has not failed" in page
    assert len(broker) == sent


def test_a_job_that_died_rendering_three_times_says_so_in_german(
    client, organizer, tournament, made, broker, django_capture_on_commit_callbacks
):
    client.force_login(organizer)
    capture = django_capture_on_commit_callbacks
    with capture(execute=True):
        client.post(
            reverse("print_job_start", args=[tournament.pk]),
            {"kind": "sheets", "round": 1},
            HTTP_ACCEPT_LANGUAGE="de",
        )
    job = PrintJob.objects.get()
    for _ in range(tasks.MAX_ATTEMPTS):
        PrintJob.objects.filter(pk=job.pk).update(status=PrintJob.RUNNING)
        silent_for(job)
        sweep(capture)
    job.refresh_from_db()
    assert job.status == PrintJob.FAILED
    assert job.error == (
        "Der Hintergrunddienst ist beim Erstellen dieses Dokuments 3-mal ausgefallen."
    )
    html = client.get(
        reverse("print_job", args=[tournament.pk, job.pk]), HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()
    assert "Erneut versuchen" in html


def test_retry_of_someone_elses_job_is_refused(
    client, organizer, other_user, tournament, made, broker, django_capture_on_commit_callbacks
):
    client.force_login(organizer)
    job = start_job(client, tournament, django_capture_on_commit_callbacks)
    PrintJob.objects.filter(pk=job.pk).update(status=PrintJob.FAILED)
    client.force_login(other_user)
    response = client.post(reverse("print_job_retry", args=[tournament.pk, job.pk]))
    assert response.status_code in (403, 404)
    job.refresh_from_db()
    assert job.status == PrintJob.FAILED


@pytest.mark.django_db(transaction=True)
def test_a_rendering_worker_gives_signs_of_life(organizer, settings, tmp_path, monkeypatch):
    """A render without progress of its own (a list, the table cards) still
    says it is alive: the sweep hands out only jobs whose worker is gone."""
    from tournaments import services

    settings.VAR_DIR = tmp_path
    settings.PRINT_JOB_LOST_SECONDS = 0.3  # a heartbeat every 0.05 s
    tournament = services.tournament_create(owner=organizer, name="Herbst", game="quartett")
    job = PrintJob.objects.create(tournament=tournament, kind="standings", attempts=1)
    seen = []

    def slow_render(*args, **kwargs):
        claimed = PrintJob.objects.get(pk=job.pk).alive_at
        time.sleep(0.6)
        seen.append((claimed, PrintJob.objects.get(pk=job.pk).alive_at))
        seen.append(tasks.sweep_print_jobs())
        return b"%PDF-1.4"

    monkeypatch.setattr(tasks.documents, "render", slow_render)
    assert tasks.run_print_job(job.pk, attempt=1) is True
    (claimed, later), swept = seen
    assert later - claimed >= timedelta(seconds=0.3)
    assert swept == {"requeued": 0, "failed": 0}  # alive, though silent for 0.6 s
    job.refresh_from_db()
    assert job.status == PrintJob.DONE


def test_the_beat_sweeps_print_jobs_on_the_clock_queue(settings):
    entry = celery_app.conf.beat_schedule["print-sweep"]
    assert entry["task"] == tasks.sweep_print_jobs_task.name
    assert entry["options"]["queue"] == settings.CLOCK_QUEUE
    # often enough that a lost job is handed out again within about a minute
    assert entry["schedule"] <= tasks.lost_after().total_seconds()


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_job_whose_worker_was_killed_is_requeued_and_a_new_worker_completes_it(
    monkeypatch, settings, tmp_path, django_user_model
):
    from tests.tournaments.test_clock_celery import (
        database_url_of_test_db,
        forget_queue,
        start_worker,
        wait_for,
    )
    from tournaments import services
    from tournaments.models import Player, Round, Seat, Table

    if "postgresql" not in settings.DATABASES["default"]["ENGINE"]:
        missing_service("PostgreSQL (set DATABASE_URL=postgres://...)")
    redis_url = os.environ.get("REDIS_URL")
    if not redis_url:
        missing_service("Redis (set REDIS_URL=redis://127.0.0.1:6379/15)")
    queue = f"test-print-{uuid.uuid4().hex[:10]}"
    # the workers write the PDF where this test looks
    monkeypatch.setenv("TURNIERLEITER_VAR", str(tmp_path))
    settings.VAR_DIR = tmp_path
    monkeypatch.setattr(
        tasks.render_print_job,
        "delay",
        lambda *args: tasks.render_print_job.apply_async(args, queue=queue),
    )
    owner = django_user_model.objects.create_user("orga-print", password="pw-orga-12345")
    tournament = services.tournament_create(owner=owner, name="Großes Turnier", game="quartett")
    rnd = Round.objects.create(tournament=tournament, number=1, minutes=45, published=True)
    people = Player.objects.bulk_create(
        Player(tournament=tournament, name=f"Spieler {n:03d} Weiß") for n in range(240)
    )
    tables = Table.objects.bulk_create(Table(round=rnd, number=n + 1) for n in range(60))
    Seat.objects.bulk_create(
        Seat(table=tables[n // 4], player=p, position=n % 4) for n, p in enumerate(people)
    )
    where = {"queue": queue, "db_url": database_url_of_test_db(), "redis_url": redis_url}
    first = start_worker(**where, tmp=tmp_path)
    second = None
    try:
        job = tasks.start(
            tournament=tournament,
            kind="sheets",
            round_number=1,
            by=owner,
            language="en",
            origin="http://turnier.test",
        )

        def rendering():
            job.refresh_from_db()
            return job.status == PrintJob.RUNNING

        assert wait_for(rendering, timeout=30), job.status
        first.stop(signal.SIGKILL)
        job.refresh_from_db()
        assert job.status == PrintJob.RUNNING and job.done < job.total
        # nothing of its own accord: Redis would hand the message out in 12 hours
        settings.PRINT_JOB_LOST_SECONDS = 1
        assert wait_for(lambda: tasks.sweep_print_jobs()["requeued"], timeout=10)
        second = start_worker(**where, tmp=tmp_path)

        def done():
            job.refresh_from_db()
            return job.status == PrintJob.DONE

        # a worker started on a loaded machine (the suite beside it) can take
        # a while before it takes the message: patience, not a looser check
        assert wait_for(done, timeout=150), (job.status, job.done, job.error)
        assert job.attempts == 2 and job.done == job.total == 60
        assert list((tmp_path / "prints").glob(f"job-{job.pk}-*.pdf")) == [Path(job.file)]
    finally:
        first.stop(signal.SIGKILL)
        if second is not None:
            second.stop(signal.SIGKILL)
        forget_queue(redis_url, queue)
