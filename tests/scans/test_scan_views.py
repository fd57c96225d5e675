"""The scan on the web: the upload on a round's results page, the pile's
page with its progress, the one press that counts what was read, the entry
form pre-filled from an unsure page with each doubtful field named and its
crop beside it; a bad file says why, stores nothing and is never a 500."""

from __future__ import annotations

import numpy as np
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoring.models import Submission
from scoring.scans import services as scans
from scoring.scans.models import ScanPage, ScanPile
from tests.scans.filled import filled_pages, pdf, png, valid_values
from tests.scoring import handmade
from tournaments.models import Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def made(tournament, organizer):
    return handmade.build(tournament, organizer)


@pytest.fixture
def staff(client, organizer):
    client.force_login(organizer)
    return client


def upload(client, tournament, files, capture, number=3):
    """Upload ``files`` (name -> bytes); the worker's reading runs after."""
    url = reverse("scan_upload", args=[tournament.pk, number])
    data = {"files": [SimpleUploadedFile(n, b) for n, b in files.items()]}
    with capture(execute=False):
        response = client.post(url, data)
    for pile in ScanPile.objects.filter(status=ScanPile.QUEUED):
        scans.run(pile.pk)
    return response


def test_the_results_page_offers_the_upload_for_scanner_and_phone(staff, tournament, made):
    html = staff.get(reverse("round_results", args=[tournament.pk, 3])).content.decode()
    assert 'type="file"' in html and 'accept="image/*,application/pdf"' in html
    assert "capture" in html and "multiple" in html
    assert reverse("scan_upload", args=[tournament.pk, 3]) in html


def test_an_uploaded_pile_is_read_and_one_press_counts_it(
    staff, tournament, made, django_capture_on_commit_callbacks
):
    values = valid_values("quartett", 4)
    table = Table.objects.get(round__tournament=tournament, round__number=3, number=2)
    response = upload(
        staff,
        tournament,
        {"pile.pdf": pdf(filled_pages(tournament, 3, {2: values}))},
        django_capture_on_commit_callbacks,
    )
    pile = ScanPile.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("scan_pile", args=[tournament.pk, 3, pile.pk])
    page = staff.get(response.url).content.decode()
    assert "1 page read." in page and "Confirm 1 result read from the scan" in page
    assert not table.submissions.filter(status=Submission.CONFIRMED).exists()
    confirm = reverse("scan_pile_confirm", args=[tournament.pk, 3, pile.pk])
    after = staff.post(confirm, follow=True).content.decode()
    assert "1 results from the scan confirmed." in after or "1 result" in after
    sub = table.submissions.get(status=Submission.CONFIRMED)
    assert (sub.source, sub.sheet) == ("scan", values)
    # the page image stays with the version and shows in the result's history
    (scanned,) = sub.scans.all()
    image = reverse("scan_page_image", args=[tournament.pk, 3, scanned.pk])
    history = staff.get(reverse("result_entry", args=[tournament.pk, 3, 2])).content.decode()
    assert image in history
    shown = staff.get(image)
    assert shown["Content-Type"] == "image/jpeg" and shown.content[:3] == b"\xff\xd8\xff"
    results = staff.get(reverse("round_results", args=[tournament.pk, 3])).content.decode()
    assert "pile.pdf" in results


def test_the_pile_page_polls_while_the_worker_reads(staff, tournament, made, organizer):
    rnd = tournament.round_set.get(number=3)
    pile = ScanPile.objects.create(round=rnd, by=organizer, name="p.pdf", total=40, done=12)
    pile.status = ScanPile.RUNNING
    pile.save()
    url = reverse("scan_pile", args=[tournament.pk, 3, pile.pk])
    html = staff.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert 'hx-trigger="every 1s"' in html and "12 of 40 pages read" in html
    assert "<h1>" not in html  # only the pile's part, for the poll


def test_an_unsure_page_opens_the_form_prefilled_with_its_doubtful_fields(
    staff, tournament, made, organizer
):
    values = valid_values("quartett", 4)
    table = Table.objects.get(round__tournament=tournament, round__number=3, number=2)
    rnd = tournament.round_set.get(number=3)
    pile = ScanPile.objects.create(round=rnd, by=organizer, status=ScanPile.DONE, total=1, done=1)
    doubtful = next(iter(values))
    fields = {k: {"status": "value", "value": v, "reason": None} for k, v in values.items()}
    fields[doubtful] = {"status": "unsure", "value": None, "reason": "two_marks"}
    page = ScanPage.objects.create(
        pile=pile, number=1, outcome=ScanPage.REVIEW, reason="unsure", table=table, fields=fields
    )
    listing = staff.get(reverse("scan_pile", args=[tournament.pk, 3, pile.pk])).content.decode()
    entry = reverse("result_entry", args=[tournament.pk, 3, 2]) + f"?scan={page.pk}"
    assert entry.replace("?", "?") in listing and "two marks in one column" in listing
    form = staff.get(entry).content.decode()
    assert "Read from the scan (page 1)" in form and "two marks in one column" in form
    assert reverse("scan_crop", args=[tournament.pk, 3, page.pk, doubtful]) in form
    other = next(k for k in values if k != doubtful)
    assert f'name="sheet-{other}"' in form
    # a crop of a page without its image: not found, never an error
    crop = staff.get(reverse("scan_crop", args=[tournament.pk, 3, page.pk, doubtful]))
    assert crop.status_code == 404


BAD = {
    "notes.txt": b"these are my notes, not a scan",
    "fake.pdf": b"%PDF-1.7\nnot really a pdf at all",
    "huge.png": b"\x89PNG\r\n\x1a\n" + b"\0" * 64,
}


@pytest.mark.parametrize("name", sorted(BAD))
def test_a_bad_file_says_why_and_stores_nothing(
    staff, tournament, made, name, django_capture_on_commit_callbacks
):
    before = Submission.objects.count()
    response = upload(staff, tournament, {name: BAD[name]}, django_capture_on_commit_callbacks)
    assert response.status_code == 302
    page = staff.get(response.url).content.decode()
    assert name in page or "not read" in page
    assert Submission.objects.count() == before
    assert not ScanPage.objects.filter(outcome=ScanPage.STORED).exists()


def test_a_file_over_the_limit_is_refused_before_it_is_read(
    staff, tournament, made, settings, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(scans, "LIMITS", scans.reader.Limits(max_bytes=1000))
    big = png(np.full((400, 400), 128, np.uint8)) + b"\0" * 2000
    response = upload(staff, tournament, {"big.png": big}, django_capture_on_commit_callbacks)
    page = staff.get(response.url).content.decode()
    assert "big.png" in page and "too large" in page
    assert not ScanPile.objects.exists()


def test_a_blank_page_is_refused_with_its_reason(
    staff, tournament, made, django_capture_on_commit_callbacks
):
    blank = png(np.full((1100, 800), 250, np.uint8))
    upload(staff, tournament, {"blank.png": blank}, django_capture_on_commit_callbacks)
    (page,) = ScanPage.objects.all()
    assert (page.outcome, page.reason) == (ScanPage.REFUSED, "blank_page")
    html = staff.get(reverse("scan_pile", args=[tournament.pk, 3, page.pile_id])).content
    assert "A blank page." in html.decode()


def test_more_photos_than_one_upload_takes_say_so_and_store_nothing(staff, tournament, made):
    """Six photos picked in a row: the upload's message (one PDF instead),
    not Django's bare "Bad Request" for too many files."""
    files = [SimpleUploadedFile(f"p{i}.png", b"\x89PNG\r\n\x1a\n") for i in range(6)]
    url = reverse("scan_upload", args=[tournament.pk, 3])
    response = staff.post(url, {"files": files}, follow=True)
    assert response.status_code == 200
    assert "At most 5 files at once: put the pages in one PDF." in response.content.decode()
    assert not ScanPile.objects.exists()


def test_no_file_chosen_says_so(staff, tournament, made):
    response = staff.post(reverse("scan_upload", args=[tournament.pk, 3]), follow=True)
    assert response.status_code == 200
    assert "Choose a scanned PDF or photos of the sheets." in response.content.decode()
    assert not ScanPile.objects.exists()


def test_an_upload_only_stores_the_file_and_no_page_waits_for_its_reading(
    staff, tournament, made, django_capture_on_commit_callbacks
):
    """The request stores the pile and hands it to the worker after the
    commit; nothing is decoded in the web process, and the round's pages
    are served while the pile waits to be read."""
    values = valid_values("quartett", 4)
    data = pdf(filled_pages(tournament, 3, {1: values, 2: values}))
    url = reverse("scan_upload", args=[tournament.pk, 3])
    with django_capture_on_commit_callbacks(execute=False) as handed:
        response = staff.post(url, {"files": [SimpleUploadedFile("p.pdf", data)]})
    assert response.status_code == 302 and len(handed) == 1
    pile = ScanPile.objects.get()
    assert (pile.status, pile.total, pile.pages.count()) == (ScanPile.QUEUED, 2, 0)
    for other in ("round_results", "result_find"):
        assert staff.get(reverse(other, args=[tournament.pk, 3])).status_code in (200, 302)
    waiting = staff.get(response.url).content.decode()
    assert "<progress" in waiting and 'hx-trigger="every 1s"' in waiting


def blotted_page(staff, tournament, capture, values, corrected=()) -> ScanPage:
    """A sheet of table 2 whose code is inked over, uploaded and read."""
    data = png(filled_pages(tournament, 3, {2: values}, blotted={2}, corrected=corrected)[0])
    upload(staff, tournament, {"sheet.png": data}, capture)
    page = ScanPage.objects.get()
    assert (page.reason, page.table) == ("code_unreadable", None)
    return page


def pick(staff, tournament, page, table):
    """Name the page's table on the pile's page; the worker's part runs after
    (as the upload's does): the answer and what the worker returned."""
    url = reverse("scan_page_table", args=[tournament.pk, 3, page.pk])
    response = staff.post(url, {"table": table}, follow=True)
    return response, scans.run_pick(page.pk)


def test_a_page_whose_code_cant_be_read_is_read_for_the_table_staff_pick(
    staff, tournament, made, django_capture_on_commit_callbacks
):
    values = valid_values("quartett", 4)
    page = blotted_page(staff, tournament, django_capture_on_commit_callbacks, values)
    pile_url = reverse("scan_pile", args=[tournament.pk, 3, page.pile_id])
    listing = staff.get(pile_url).content.decode()
    url = reverse("scan_page_table", args=[tournament.pk, 3, page.pk])
    assert f'action="{url}"' in listing and "Read as this table" in listing
    with django_capture_on_commit_callbacks(execute=False) as handed:
        response = staff.post(url, {"table": "2"}, follow=True)
    assert len(handed) == 1  # the reading is the worker's, not the request's
    assert response.redirect_chain[-1][0] == pile_url
    shown = response.content.decode()
    assert "being read as the sheet of table 2" in shown and 'hx-trigger="every 1s"' in shown
    page.refresh_from_db()
    assert (page.picked_table, page.table, page.fields) == (2, None, {})
    assert scans.run_pick(page.pk) == "read"
    page.refresh_from_db()
    assert (page.outcome, page.table.number, page.values()) == (ScanPage.STORED, 2, values)
    assert page.picked_table is None
    assert 'hx-trigger="every 1s"' not in staff.get(pile_url).content.decode()
    staff.post(reverse("scan_pile_confirm", args=[tournament.pk, 3, page.pile_id]))
    sub = Submission.objects.get(table=page.table)
    assert (sub.source, sub.status, sub.sheet) == ("scan", Submission.CONFIRMED, values)


def test_a_picked_page_with_a_crossed_out_mark_opens_the_form_beside_its_crop(
    staff, tournament, made, django_capture_on_commit_callbacks
):
    values = valid_values("quartett", 4)
    page = blotted_page(staff, tournament, django_capture_on_commit_callbacks, values, {2})
    response, done = pick(staff, tournament, page, "2")
    assert done == "read"
    entry = reverse("result_entry", args=[tournament.pk, 3, 2]) + f"?scan={page.pk}"
    pile_url = reverse("scan_pile", args=[tournament.pk, 3, page.pile_id])
    assert f'href="{entry}"' in staff.get(pile_url).content.decode().replace("&amp;", "&")
    page.refresh_from_db()
    assert page.outcome == ScanPage.REVIEW and page.reason == "unsure"
    (doubtful,) = page.unsure()
    form = staff.get(entry).content.decode()
    assert "a crossed-out mark" in form
    crop = reverse("scan_crop", args=[tournament.pk, 3, page.pk, doubtful])
    assert crop in form
    shown = staff.get(crop)
    assert shown.status_code == 200 and shown.content[:4] == b"\x89PNG"
    other = next(k for k, v in values.items() if k != doubtful and type(v) is int)
    assert f'value="{values[other]}"' in form  # what was read, pre-filled
    assert not Submission.objects.filter(table=page.table, source="scan").exists()


def test_a_picked_table_of_another_size_or_no_table_says_why_and_changes_nothing(
    staff, tournament, made, django_capture_on_commit_callbacks
):
    from tournaments.models import Seat

    three = Table.objects.create(round=tournament.round_set.get(number=3), number=3)
    for pos, k in enumerate("ZOD"):
        Seat.objects.create(table=three, player=made["players"][k], position=pos)
    page = blotted_page(
        staff, tournament, django_capture_on_commit_callbacks, valid_values("quartett", 4)
    )
    # a table of another size: the worker finds the page is not its sheet
    response, done = pick(staff, tournament, page, "3")
    assert done == "not_this_sheet"
    pile_url = reverse("scan_pile", args=[tournament.pk, 3, page.pile_id])
    listing = staff.get(pile_url).content.decode()
    assert "not the sheet of the table chosen for it" in listing and "Read as this table" in listing
    page.refresh_from_db()
    assert (page.outcome, page.table, page.fields, page.picked_table) == (
        ScanPage.REVIEW,
        None,
        {},
        None,
    )
    # no table of the round: refused in the request, nothing handed on
    for table in ("99", "x"):
        response, done = pick(staff, tournament, page, table)
        assert done == "gone"
        assert "Choose a table of this round." in response.content.decode(), table
        page.refresh_from_db()
        assert (page.outcome, page.table, page.fields) == (ScanPage.REVIEW, None, {})
    url = reverse("scan_page_table", args=[tournament.pk, 3, page.pk])
    assert staff.get(url + "?table=2").status_code == 405
    # and the right table after all
    assert pick(staff, tournament, page, "2")[1] == "read"
    assert not Submission.objects.filter(source="scan", status=Submission.CONFIRMED).exists()
