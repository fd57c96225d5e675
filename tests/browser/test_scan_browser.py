"""Reading the sheets from a scan, in German, on a phone (390×844) and a
desktop: the round's sheets are printed, filled through their layout
(``tests/scans/corpus.py``'s pen at the positions ``print sheets
--layout-json`` describes), scanned into one PDF and uploaded on the
round's results page; the pile's progress shows, one press confirms what
was read and the standings change. A phone photo of one sheet with a faint
mark opens the result form pre-filled, the crop of the doubtful field
beside it; the staff fix that field and save.

The worker is the real task code (``scoring.scans.services.run``) in a
thread of its own, as Celery's worker would run it."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from django.db import connection

from scoring.models import ScanPage, Submission
from scoring.scans import services as scans
from scoring.scans.selectors import layout_of, table_size
from tests.browser.sessions import logged_in_context
from tests.scans.corpus import as_photo, mark_sheet
from tests.scans.filled import DPI, filled_pages, pdf, png, valid_values
from tests.scoring.test_result_entry import make_tables

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


@pytest.fixture
def worker(monkeypatch):
    """The pile is read as the Celery worker reads it, in another thread."""
    threads = []

    def hand_out(pile_id):
        def work():
            try:
                scans.run(pile_id)
            finally:
                connection.close()

        t = threading.Thread(target=work, daemon=True)
        t.start()
        threads.append(t)

    monkeypatch.setattr(scans, "hand_out", hand_out)
    yield threads
    for t in threads:
        t.join(60)


@pytest.fixture
def de_page(browser, live_server, organizer):
    """The organizer's browser in German (logged in by its session cookie)."""
    context = logged_in_context(browser, live_server, organizer, locale="de-DE", bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(60_000)
    yield page
    context.close()


def faint_photo(tournament, round_no: int, number: int, values: dict, field: str):
    """A phone photo of one sheet whose ``field`` is marked faintly."""
    import pypdfium2 as pdfium

    from scoring import documents

    layouts = documents.sheet_layouts(tournament, round_no)
    k = [s["table"] for s in layouts].index(number)
    doc = pdfium.PdfDocument(documents.render("sheets", tournament, round_no))
    image = doc[k].render(scale=DPI / 72, grayscale=True).to_numpy()
    doc.close()
    image = np.ascontiguousarray(image[:, :, 0] if image.ndim == 3 else image)
    layout = layout_of(tournament, table_size(tournament, round_no, number))
    rng = np.random.default_rng(5)
    mark_sheet(image, DPI, layout, values, rng, faint_field=field)
    return as_photo(image, DPI, np.random.default_rng(7))


def points_of(tournament) -> int:
    return Submission.objects.filter(
        table__round__tournament=tournament, status=Submission.CONFIRMED
    ).count()


@pytest.mark.parametrize("size", list(SIZES))
def test_a_scanned_pile_is_read_confirmed_and_counts(
    de_page, live_server, organizer, worker, size, tmp_path
):
    page = de_page
    page.set_viewport_size(dict(zip(("width", "height"), SIZES[size], strict=True)))
    tables = make_tables(organizer, "quartett", players=4, count=3)
    tournament = tables[0].round.tournament
    fill = {t.number: valid_values("quartett", 4, start=t.number * 5) for t in tables[:2]}
    scan = tmp_path / "stapel.pdf"
    scan.write_bytes(pdf(filled_pages(tournament, 1, fill)))
    results = f"{live_server.url}/tournaments/{tournament.pk}/rounds/1/results/"
    page.goto(results)
    assert page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    file_input = page.locator("input[type=file]")
    assert file_input.get_attribute("accept") == "image/*,application/pdf"
    assert file_input.get_attribute("multiple") is not None
    assert file_input.get_attribute("capture") is not None
    assert points_of(tournament) == 0
    file_input.set_input_files(str(scan))
    page.locator("form[enctype='multipart/form-data'] button[type=submit]").click()
    page.wait_for_url("**/scans/*/")
    page.screenshot(path=f"/tmp/scanweb-pile-progress-{size}.png", full_page=True)
    # the page asks again every second until every page is read
    page.locator("table.scan-pages").wait_for()
    assert page.locator("progress").count() == 0
    page.screenshot(path=f"/tmp/scanweb-pile-read-{size}.png", full_page=True)
    assert ScanPage.objects.filter(outcome=ScanPage.STORED).count() == 2
    assert points_of(tournament) == 0  # read, not yet counted
    page.locator("form[action$='/confirm/'] button").click()
    page.wait_for_load_state()
    assert points_of(tournament) == 2
    page.goto(results)
    assert page.locator("tbody.no-result").count() == 1  # table 3 was not scanned
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/standings/")
    page.screenshot(path=f"/tmp/scanweb-standings-{size}.png", full_page=True)


@pytest.mark.parametrize("size", list(SIZES))
def test_a_phone_photo_with_a_faint_mark_is_fixed_beside_its_crop(
    de_page, live_server, organizer, worker, size, tmp_path
):
    page = de_page
    page.set_viewport_size(dict(zip(("width", "height"), SIZES[size], strict=True)))
    tables = make_tables(organizer, "quartett", players=4, count=2)
    tournament = tables[0].round.tournament
    values = valid_values("quartett", 4, start=11)
    field = next(k for k in values if k.endswith("_cards") and values[k])
    photo = tmp_path / "foto.png"
    photo.write_bytes(png(faint_photo(tournament, 1, 2, values, field)))
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/rounds/1/results/")
    page.locator("input[type=file]").set_input_files(str(photo))
    page.locator("form[enctype='multipart/form-data'] button[type=submit]").click()
    page.wait_for_url("**/scans/*/")
    page.locator("table.scan-pages").wait_for()
    scanned = ScanPage.objects.get()
    assert (scanned.outcome, scanned.reason) == (ScanPage.REVIEW, "unsure"), scanned.reason
    assert field in scanned.unsure()
    page.locator("tr.scan-review a.button").click()
    page.wait_for_url(f"**/tables/2/result/?scan={scanned.pk}")
    crop = page.locator("#scan-review img")
    crop.wait_for()
    assert page.evaluate("(img) => img.complete && img.naturalWidth > 0", crop.element_handle())
    # what was read for sure is in the form, the doubtful field is empty
    for name, value in values.items():
        box = page.locator(f"[name='sheet-{name}']")
        if name == field or box.count() == 0 or box.get_attribute("type") == "checkbox":
            continue
        assert box.input_value() == str(value), name
    assert page.locator(f"[name='sheet-{field}']").input_value() == ""
    page.screenshot(path=f"/tmp/scanweb-review-{size}.png", full_page=True)
    page.locator(f"[name='sheet-{field}']").fill(str(values[field]))
    page.locator("#sheet-form button[name=action][value=save]").first.click()
    page.wait_for_load_state()
    sub = Submission.objects.get(table=tables[1])
    assert sub.sheet == values
    scanned.refresh_from_db()
    assert scanned.outcome == ScanPage.FIXED
