"""``manage.py read_sheets FILE… --json``: what a test from outside sees of a
scanned pile, with the layouts taken from the database."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest
from django.core.management import call_command

from tests.scans.filled import fill_from_layout_json, filled_pages, pdf, png, valid_values
from tests.scoring import handmade

pytestmark = pytest.mark.django_db


@pytest.fixture
def made(tournament, organizer):
    return handmade.build(tournament, organizer)


def run(*args) -> dict:
    out = io.StringIO()
    call_command("read_sheets", *args, "--json", stdout=out)
    return json.loads(out.getvalue())


def test_read_sheets_prints_each_pages_sheet_and_every_field(tournament, made, tmp_path):
    values = valid_values("quartett", 4)
    pages = filled_pages(tournament, 3, {1: values, 2: values})
    scan = tmp_path / "pile.pdf"
    scan.write_bytes(pdf(pages))
    photo = tmp_path / "one.png"
    photo.write_bytes(png(pages[1]))
    data = run(str(scan), str(photo))
    first, second = data["files"]
    assert first["status"] == "read" and len(first["pages"]) == 2
    for page, table in zip(first["pages"] + second["pages"], [1, 2, 2], strict=True):
        assert page["status"] == "read", page["reason"]
        assert page["sheet"]["tournament"] == tournament.pk
        assert (page["sheet"]["round"], page["sheet"]["table"]) == (3, table)
        read = {k: f["value"] for k, f in page["fields"].items() if f["status"] == "value"}
        assert read == values
        assert page["seconds"] > 0


def test_read_sheets_names_what_it_refuses(tournament, made, tmp_path):
    text = tmp_path / "notes.txt"
    text.write_bytes(b"not a scan")
    blank = tmp_path / "blank.png"
    blank.write_bytes(png(np.full((1100, 800), 250, np.uint8)))
    data = run(str(text), str(blank))
    assert data["files"][0] == {
        "file": str(text), "status": "refused", "reason": "not_image_or_pdf", "pages": [],
    }  # fmt: skip
    assert data["files"][1]["pages"][0]["reason"] == "blank_page"


def test_a_sheet_of_an_unknown_table_is_refused_as_unknown(tournament, made, tmp_path):
    from tournaments.models import Table

    values = valid_values("quartett", 4)
    page = filled_pages(tournament, 3, {2: values})[0]
    Table.objects.filter(round__tournament=tournament, round__number=3, number=2).delete()
    path = tmp_path / "gone.png"
    path.write_bytes(png(page))
    (read,) = run(str(path))["files"][0]["pages"]
    assert read["status"] == "refused" and read["reason"] == "unknown_sheet"
    assert read["sheet"]["table"] == 2


def test_sheets_filled_through_the_layout_json_are_read_back(tournament, made, tmp_path):
    """From outside, as a test or a scanner's tuning would: print the round's
    sheets with their layout JSON, fill marks where the JSON puts them,
    read the scan with read_sheets."""
    import pypdfium2 as pdfium

    sheets_pdf, layout = tmp_path / "sheets.pdf", tmp_path / "sheets.json"
    call_command(
        "print", "sheets", "--tournament", str(tournament.pk), "--round", "3",
        "-o", str(sheets_pdf), "--layout-json", str(layout), stdout=io.StringIO(),
    )  # fmt: skip
    described = json.loads(layout.read_text())["sheets"]
    values = {1: valid_values("quartett", 4), 2: valid_values("quartett", 4, start=7)}
    doc = pdfium.PdfDocument(sheets_pdf.read_bytes())
    images = []
    for k, sheet in enumerate(described):
        image = doc[k].render(scale=200 / 72, grayscale=True).to_numpy()
        image = np.ascontiguousarray(image[:, :, 0] if image.ndim == 3 else image)
        fill_from_layout_json(image, 200, sheet, values[sheet["table"]])
        images.append(image)
    doc.close()
    scan = tmp_path / "scan.pdf"
    scan.write_bytes(pdf(images))
    (read,) = run(str(scan))["files"]
    assert [p["sheet"]["table"] for p in read["pages"]] == [1, 2]
    for page in read["pages"]:
        got = {k: f["value"] for k, f in page["fields"].items() if f["status"] == "value"}
        assert page["status"] == "read" and got == values[page["sheet"]["table"]]
        assert page["code"] == described[page["page"] - 1]["code"]


def test_read_sheets_without_json_prints_a_line_per_page_and_a_missing_file_is_an_error(
    tournament, made, tmp_path
):
    from django.core.management.base import CommandError

    blank = tmp_path / "blank.png"
    blank.write_bytes(png(np.full((1100, 800), 250, np.uint8)))
    out = io.StringIO()
    call_command("read_sheets", str(blank), stdout=out)
    assert f"{blank} page 1: no sheet code: refused (blank_page)" in out.getvalue()
    with pytest.raises(CommandError, match="no file"):
        call_command("read_sheets", str(tmp_path / "missing.pdf"), stdout=io.StringIO())
