"""A tournament import is read by the worker, never in the web process: the
request stores the file and answers at once with the job's page, which
polls until the worker has stored the tournament or listed the problems —
in the language the file was sent in. A 21 MB file of empty objects costs
the request nothing and the worker a moment (the element count stops the
parse before it builds anything)."""

from __future__ import annotations

import json
import time
import tracemalloc

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoring.exchange import jobs
from scoring.exchange.export import export_tournament
from scoring.exchange.models import ImportJob
from tests.scoring import played
from tournaments import limits
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def upload(client, content: bytes, language: str = "en"):
    started = time.perf_counter()
    response = client.post(
        reverse("tournament_import"),
        {"file": SimpleUploadedFile("t.json", content, content_type="application/json")},
        HTTP_ACCEPT_LANGUAGE=language,
    )
    return response, time.perf_counter() - started


def test_a_21_mb_file_of_empty_objects_costs_the_request_nothing(client, other_user, monkeypatch):
    client.force_login(other_user)
    parsed = []
    real_loads = json.loads
    monkeypatch.setattr(  # a parse of the file (not a session's few bytes)
        json, "loads", lambda s, **k: parsed.append(len(s) > 10**6) or real_loads(s, **k)
    )
    content = b'{"format": "turnierleiter.tournament", "x": [' + b"{}," * (7 * 2**20) + b"{}]}"
    assert 21 * 10**6 < len(content) < limits.MAX_IMPORT_BYTES
    response, took = upload(client, content)
    assert response.status_code == 302, response.content[:300]
    assert not any(parsed) and took < 10.0, took  # stored, not parsed (the upload's own time)
    job = ImportJob.objects.get()
    page = client.get(response.url).content.decode()
    assert "waiting for the worker" in page and "hx-get" in page
    tracemalloc.start()
    started = time.perf_counter()
    assert jobs.run(job.pk) == ImportJob.FAILED
    worked = time.perf_counter() - started
    _now, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert worked < 2.0 and peak < 100 * 2**20, (worked, peak)
    job.refresh_from_db()
    assert job.problems == [
        "The file holds more than 2,100,000 elements: no tournament is that large."
    ]
    assert job.data in (b"", memoryview(b""))
    assert not Tournament.objects.filter(owner=other_user).exists()


def test_an_import_is_stored_by_the_worker_and_the_page_follows(client, organizer, other_user):
    doc = export_tournament(played.paper_tournament(organizer))
    client.force_login(other_user)
    response, _took = upload(client, json.dumps(doc).encode())
    assert not Tournament.objects.filter(owner=other_user).exists()
    job = ImportJob.objects.get()
    assert jobs.run(job.pk) == ImportJob.DONE
    assert jobs.run(job.pk) is None  # a second delivery does nothing
    partial = client.get(response.url, HTTP_HX_REQUEST="true").content.decode()
    new = Tournament.objects.get(owner=other_user)
    assert reverse("tournament_detail", args=[new.pk]) in partial and "hx-get" not in partial
    # another account can't see the job
    client.force_login(organizer)
    assert client.get(response.url).status_code == 404


def test_the_problems_come_in_the_language_the_file_was_sent_in(client, organizer, other_user):
    doc = export_tournament(played.paper_tournament(organizer))
    doc["tournament"]["tiebreaks"] = ["points", "points"]
    client.force_login(other_user)
    response, _took = upload(client, json.dumps(doc).encode(), language="de")
    jobs.run(ImportJob.objects.get().pk)  # the worker runs in English by default
    page = client.get(response.url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "nur einmal" in page, page


def test_too_many_open_imports_are_told_to_wait(client, other_user, monkeypatch):
    monkeypatch.setattr(jobs, "hand_out", lambda job_id: None)
    client.force_login(other_user)
    answers = [upload(client, b"{}")[0].status_code for _ in range(jobs.MAX_OPEN + 1)]
    assert answers == [302] * jobs.MAX_OPEN + [200]
    assert ImportJob.objects.count() == jobs.MAX_OPEN
