"""Reading the sheets from a scan, in German, on a phone (390×844) and a
desktop: the round's sheets are printed, filled through their layout
(``tests/scans/corpus.py``'s pen at the positions ``print sheets
--layout-json`` describes), scanned into one PDF and uploaded on the
round's results page; the pile's progress shows, one press confirms what
was read and the standings change. A phone photo of one sheet with a faint
mark opens the result form pre-filled, the crop of the doubtful field
beside it; the staff fix that field and save.

With second-person confirmation, the organizer's press on the pile only
checks what was read: the pile says it waits for a second person, and a
scorekeeper's press on his own phone makes it count.

The worker is the real task code (``scoring.scans.services.run``) in a
thread of its own, as Celery's worker would run it."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from django.db import connection

from scoring.models import Submission
from scoring.scans import services as scans
from scoring.scans.models import ScanPage
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
def de_browser(browser, live_server):
    """``open(user)``: a browser page of ``user``'s own, in German (logged in
    by its session cookie)."""
    contexts = []

    def open_as(user):
        context = logged_in_context(browser, live_server, user, locale="de-DE", bypass_csp=True)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(60_000)
        return page

    yield open_as
    for context in contexts:
        context.close()


@pytest.fixture
def de_page(de_browser, organizer):
    """The organizer's browser in German."""
    return de_browser(organizer)


def faint_photo(tournament, round_no: int, number: int, values: dict, field: str):
    """A phone photo of one sheet whose ``field`` is marked faintly."""
    import pypdfium2 as pdfium

    from scoring.printing import documents

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


def test_a_pile_counts_once_a_second_person_confirms_it(
    de_browser, live_server, organizer, worker, tmp_path, django_user_model
):
    """German, 390×844: the organizer uploads and presses, the pile waits
    for a second person; a scorekeeper on his phone confirms it."""
    tables = make_tables(organizer, "quartett", players=4, count=2, confirmation_required=True)
    tournament = tables[0].round.tournament
    keeper = django_user_model.objects.create_user("zweite", password="pw-zweite-12345")
    tournament.scorekeepers.add(keeper)
    fill = {t.number: valid_values("quartett", 4, start=t.number * 5) for t in tables}
    scan = tmp_path / "stapel.pdf"
    scan.write_bytes(pdf(filled_pages(tournament, 1, fill)))
    phone = {"width": 390, "height": 844}
    page = de_browser(organizer)
    page.set_viewport_size(phone)
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/rounds/1/results/")
    page.locator("input[type=file]").set_input_files(str(scan))
    page.locator("form[enctype='multipart/form-data'] button[type=submit]").click()
    page.wait_for_url("**/scans/*/")
    page.locator("table.scan-pages").wait_for()
    pile_url = page.url
    page.locator("form[action$='/confirm/'] button").click()
    page.wait_for_load_state()
    waits = page.locator("p.scan-second")
    assert "zweite Person" in waits.inner_text(), waits.inner_text()
    assert page.locator("form[action$='/confirm/']").count() == 0  # nothing left to press
    assert page.locator("tr.scan-stored", has_text="zweite Person").count() == 2
    assert page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    page.screenshot(path="/tmp/scanweb-second-waits-phone.png", full_page=True)
    assert points_of(tournament) == 0
    other = de_browser(keeper)
    other.set_viewport_size(phone)
    other.goto(pile_url)
    assert "zweite Person" in other.locator("p.scan-second").inner_text()
    other.locator("form[action$='/confirm/'] button").click()
    other.wait_for_load_state()
    other.screenshot(path="/tmp/scanweb-second-confirmed-phone.png", full_page=True)
    assert points_of(tournament) == 2
    assert other.locator("p.scan-second").count() == 0
    assert other.locator("tr.scan-stored", has_text="bestätigt").count() == 2
