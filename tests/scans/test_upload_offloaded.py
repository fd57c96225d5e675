"""No upload slows a page: the web process only checks a file's kind, size
and page count (nothing is decoded there) and hands the reading to the
Celery worker after the commit; while the worker reads a pile, the other
pages — and the pile's own progress — answer at once."""

from __future__ import annotations

import threading

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.urls import reverse

from scoring.scans import reader
from scoring.scans import services as scans
from scoring.scans.models import ScanPage, ScanPile
from tests.scans.test_reader import many_pages
from tests.scoring import handmade


class Broker:
    """Records what the web process hands to the worker."""

    def __init__(self):
        self.sent = []

    def send_task(self, name, args=None, **options):
        self.sent.append((name, list(args or [])))


def no_decoding(*args, **kwargs):
    raise AssertionError("a page was decoded in the web process")


@pytest.mark.django_db
def test_an_upload_decodes_nothing_and_hands_the_pile_to_the_worker(
    client, tournament, organizer, monkeypatch, django_capture_on_commit_callbacks
):
    handmade.build(tournament, organizer)
    client.force_login(organizer)
    broker = Broker()
    monkeypatch.setattr(scans, "current_app", broker)
    for name in ("read_pages", "read_image", "read_file"):
        monkeypatch.setattr(reader, name, no_decoding)
    data = many_pages(40)
    url = reverse("scan_upload", args=[tournament.pk, 3])
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"files": [SimpleUploadedFile("scanner.pdf", data)]})
    pile = ScanPile.objects.get()
    assert response.status_code == 302 and str(pile.pk) in response.url
    assert (pile.status, pile.total, pile.done) == (ScanPile.QUEUED, 40, 0)
    assert not ScanPage.objects.exists()
    assert broker.sent == [("scoring.read_scan_pile", [pile.pk])]


@pytest.mark.django_db(transaction=True)
def test_while_the_worker_reads_a_pile_other_pages_answer(
    client, tournament, organizer, monkeypatch
):
    """The worker is held in the middle of a pile (after its first page);
    meanwhile the round's results, the standings and the pile's progress
    answer, and the pile's page says how far it is."""
    handmade.build(tournament, organizer)
    client.force_login(organizer)
    monkeypatch.setattr(scans, "current_app", Broker())
    first_read, go_on = threading.Event(), threading.Event()
    real_pages = reader.read_pages

    def held(*args, **kwargs):
        for k, page in enumerate(real_pages(*args, **kwargs)):
            if k == 1:
                first_read.set()
                assert go_on.wait(60)
            yield page

    monkeypatch.setattr(reader, "read_pages", held)
    rnd = tournament.round_set.get(number=3)
    pile = scans.pile_start(rnd=rnd, by=organizer, data=many_pages(3), name="p.pdf", language="en")

    def worker():
        try:
            scans.run(pile.pk)
        finally:
            connection.close()

    thread = threading.Thread(target=worker, daemon=True)
    thread.start()
    try:
        assert first_read.wait(60)
        for name, args in [
            ("round_results", [tournament.pk, 3]),
            ("standings", [tournament.pk]),
            ("scan_pile", [tournament.pk, 3, pile.pk]),
        ]:
            assert client.get(reverse(name, args=args)).status_code == 200, name
        poll = client.get(
            reverse("scan_pile", args=[tournament.pk, 3, pile.pk]), HTTP_HX_REQUEST="true"
        )
        html = poll.content.decode()
        assert 'hx-trigger="every 1s"' in html and "1 of 3 pages read" in html
    finally:
        go_on.set()
        thread.join(60)
    pile.refresh_from_db()
    assert (pile.status, pile.done) == (ScanPile.DONE, 3)
    assert set(pile.pages.values_list("reason", flat=True)) == {"blank_page"}
