"""A publication's request never unpacks or parses it: the online site
stores the body and answers "accepted" (202) at once; the worker's task
unpacks it within the limits, parses it bounded (depth, element count) and
keeps the outcome, which the laptop asks for. A body that unpacks to 40 MB
of ``{}`` costs the request nothing and the worker a few milliseconds."""

from __future__ import annotations

import gzip
import time
import tracemalloc
import uuid
import zlib

import pytest

from tests.mirror.mirror_helpers import approved_key, body, envelope, laptop_tournament
from tests.mirror.test_mirror import PUBLISH
from tournaments import limits, safejson
from tournaments.mirror import inbox
from tournaments.mirror.models import MirroredTournament, ReceivedPublication

pytestmark = pytest.mark.django_db


@pytest.fixture
def online_key(other_user):
    _row, key = approved_key(user=other_user, name="laptop")
    return key


def empty_objects(megabytes: int) -> bytes:
    """A publication's envelope holding ``megabytes`` MB of ``{},``, gzip."""
    n = megabytes * 1024 * 1024 // 3
    text = b'{"format": "turnierleiter.mirror", "x": [' + b"{}," * n + b"{}]}"
    return gzip.compress(text, 9)


def send(client, data: bytes, key: str):
    auth = {"HTTP_AUTHORIZATION": f"Bearer {key}"}
    started = time.perf_counter()
    response = client.post(PUBLISH, data=data, content_type="application/gzip", **auth)
    return response, time.perf_counter() - started, auth


@pytest.mark.parametrize("megabytes", [40, 15])
def test_a_publication_of_megabytes_of_empty_objects_costs_the_request_nothing(
    client, online_key, megabytes, monkeypatch
):
    data = empty_objects(megabytes)
    unpacked = []
    real = zlib.decompressobj
    monkeypatch.setattr(zlib, "decompressobj", lambda *a: unpacked.append(1) or real(*a))
    assert len(data) < 64 * 1024
    response, took, auth = send(client, data, online_key)
    assert response.status_code == 202, response.content
    assert not unpacked and took < 1.0, took  # stored, not unpacked or parsed
    assert client.get(response.json()["poll"], **auth).status_code == 202  # waiting
    received = ReceivedPublication.objects.get()
    tracemalloc.start()
    started = time.perf_counter()
    status = inbox.process(received.pk)
    worked = time.perf_counter() - started
    _now, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    outcome = client.get(response.json()["poll"], **auth)
    assert status == outcome.status_code
    if megabytes > limits.MAX_PUBLICATION_UNPACKED // 2**20:  # stopped while unpacking
        assert outcome.status_code == 413
        assert outcome.json()["error"] == "The publication is too large when unpacked."
    else:  # within the size: the element count stops the parse before it builds
        assert outcome.status_code == 400
        assert "more than 2,100,000 elements" in outcome.json()["error"]
    assert worked < 2.0 and peak < 3 * limits.MAX_PUBLICATION_UNPACKED, (worked, peak)
    assert ReceivedPublication.objects.get().body in (b"", memoryview(b""))
    assert not MirroredTournament.objects.exists()


def test_the_largest_parse_the_limits_allow_stays_bounded():
    """The worst text within the limits: as many elements as allowed, each
    an object with a key (the costliest per element). Measured on a tenth
    of it (tracemalloc slows every allocation), the memory grows with the
    elements: the whole takes under 400 MB (measured: 328 MB)."""
    n = limits.MAX_JSON_ELEMENTS // 20
    text = b"[" + b'{"":0},' * (n - 1) + b'{"":0}]'
    assert safejson.elements(text) * 10 <= limits.MAX_JSON_ELEMENTS + 10
    tracemalloc.start()
    value = safejson.loads(text)
    _now, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert len(value) == n
    assert peak * 10 < 400 * 2**20, peak / 2**20


def test_a_real_publication_is_applied_by_the_worker_and_told(client, organizer, online_key):
    laptop = laptop_tournament(organizer)
    response, took, auth = send(
        client, body(envelope(laptop, source=uuid.uuid4(), version=1)), online_key
    )
    assert response.status_code == 202
    poll = response.json()["poll"]
    assert client.get(poll, **auth).json() == {"state": "queued"}
    inbox.process(ReceivedPublication.objects.get().pk)
    told = client.get(poll, **auth)
    assert told.status_code == 200 and told.json()["applied"]
    assert MirroredTournament.objects.get().tournament_id == told.json()["tournament"]
    # the outcome is the key owner's only
    _row, other = approved_key(user=organizer)
    assert client.get(poll, HTTP_AUTHORIZATION=f"Bearer {other}").status_code == 404


def test_a_failing_publication_is_its_own_and_a_lost_one_is_handed_out_again(
    client, online_key, monkeypatch
):
    from tournaments.mirror import receive

    sent = []
    monkeypatch.setattr(inbox, "hand_out", sent.append)
    first, _t, auth = send(client, gzip.compress(b"{}"), online_key)
    second, _t, _a = send(client, gzip.compress(b"[]"), online_key)
    one, two = ReceivedPublication.objects.order_by("pk")

    def explode(body):
        raise RuntimeError("a bug")

    monkeypatch.setattr(receive, "unpack", explode)
    assert inbox.process(one.pk) == 500
    monkeypatch.undo()
    monkeypatch.setattr(inbox, "hand_out", sent.append)
    assert inbox.process(two.pk) == 400  # not a publication: refused, not broken
    assert "could not be applied" in client.get(first.json()["poll"], **auth).json()["error"]
    # a publication whose worker was lost is handed out again by the sweep
    third, _t, _a = send(client, gzip.compress(b"{}"), online_key)
    ReceivedPublication.objects.filter(status="queued").update(
        received_at=ReceivedPublication.objects.get(pk=one.pk).received_at - inbox.LOST_AFTER * 2
    )
    assert inbox.sweep()["requeued"] == 1


def test_too_many_waiting_publications_are_told_to_wait(client, online_key, monkeypatch):
    monkeypatch.setattr(inbox, "hand_out", lambda pk: None)
    answers = [send(client, gzip.compress(b"{}"), online_key)[0].status_code for _ in range(7)]
    assert answers == [202] * inbox.MAX_WAITING + [429]
    assert send(client, b"plain text", online_key)[0].status_code == 400
