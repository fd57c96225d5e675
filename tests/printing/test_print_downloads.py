"""PDF downloads from the database: score sheets with QR links that lead to
the right table, lists, standings, results; the Celery path for large rounds
with its progress; ``manage.py print``."""

import io
import json
import re
from pathlib import Path

import pdfplumber
import pytest
from django.core.management import call_command
from django.db.models import QuerySet
from django.urls import resolve, reverse

from scoring.printing import documents, marks
from scoring.printing.models import PrintJob
from scoring.printing.sheets import render_score_sheets
from scoring.printing.tasks import run_print_job
from scoring.sheet_links import table_from_token
from tests.scoring import handmade
from tournaments.celery import app as celery_app
from tournaments.models import Table

pytestmark = pytest.mark.django_db


@pytest.fixture
def made(tournament, organizer):
    return handmade.build(tournament, organizer)


def pages_text(pdf: bytes) -> list[str]:
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        return [page.extract_text() or "" for page in doc.pages]


def qr_codes(pdf: bytes, kind: str = "QRCode") -> list[str]:
    """The QR codes (or the sheet codes: ``kind="DataMatrix"``) of every
    page, top half first."""
    import pypdfium2 as pdfium
    import zxingcpp

    doc = pdfium.PdfDocument(pdf)
    found = []
    for k in range(len(doc)):
        image = doc[k].render(scale=150 / 72).to_pil().convert("L")
        codes = sorted(
            zxingcpp.read_barcodes(image, formats=getattr(zxingcpp.BarcodeFormat, kind)),
            key=lambda c: c.position.top_left.y,
        )
        found += [c.text for c in codes]
    return found


def pdf_response(client, url, **params):
    response = client.get(url, params)
    assert response.status_code == 200, url
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF")
    return response.content


def test_score_sheets_every_table_name_and_qr(client, organizer, tournament, made):
    client.force_login(organizer)
    pdf = pdf_response(client, reverse("print_round", args=[tournament.pk, 1, "sheets"]))
    sheets = pages_text(pdf)  # one A4 sheet per table
    assert len(sheets) == 2
    tables = made["tables"]
    for sheet, key in zip(sheets, [(1, 1), (1, 2)], strict=True):
        assert f"Round 1 · Table {key[1]}" in sheet
        names = [s.player.name for s in tables[key].seats.select_related("player")]
        for name in names:
            assert name in sheet
        # in seat order
        assert [sheet.index(n) for n in names] == sorted(sheet.index(n) for n in names)
    text = "\n".join(sheets)
    for name in ("Ayşe Şahin", "Łukasz Wróblewski", "Jürgen Weiß", "Bernd Ćosić"):
        assert name in text
    codes = qr_codes(pdf)
    assert len(codes) == 2
    for code, key in zip(codes, [(1, 1), (1, 2)], strict=True):
        assert code.startswith("http://testserver/")
        match = resolve(code.removeprefix("http://testserver"))
        assert match.url_name == "sheet_link"
        assert table_from_token(match.kwargs["token"]) == tables[key].pk
        # the link opens that table's result entry
        response = client.get(code)
        assert response.status_code in (200, 302)
        if response.status_code == 302:
            entry = reverse("result_entry", args=[tournament.pk, 1, key[1]])
            assert response.url.split("?")[0] == entry
    # the sheet code names the tournament, the round and the table, no secret
    sheet_codes = [marks.parse_code(c) for c in qr_codes(pdf, "DataMatrix")]
    assert [(c.tournament, c.round, c.table) for c in sheet_codes] == [
        (tournament.pk, 1, 1),
        (tournament.pk, 1, 2),
    ]
    token = resolve(codes[0].removeprefix("http://testserver")).kwargs["token"]
    tampered = token[:-1] + ("A" if token[-1] != "A" else "B")
    assert table_from_token(tampered) is None
    assert client.get(reverse("sheet_link", args=[tampered])).status_code in (400, 403, 404)


def test_lists_standings_results_and_cards(client, organizer, tournament, made):
    client.force_login(organizer)
    by_table = "\n".join(
        pages_text(pdf_response(client, reverse("print_round", args=[tournament.pk, 2, "seating"])))
    )
    assert "Seating by table" in by_table
    for name in ("Ayşe Şahin", "Fritz Falk", "Łukasz Wróblewski", "Dora Quist"):
        assert name in by_table
    by_name = "\n".join(
        pages_text(pdf_response(client, reverse("print_round", args=[tournament.pk, 2, "names"])))
    )
    # the club tells players of one name apart
    assert "Şahin, Ayşe (SC Köln) 1 1" in by_name and "Weiß, Jürgen 2 3" in by_name
    cards = pages_text(
        pdf_response(client, reverse("print_round", args=[tournament.pk, 1, "tables"]))
    )
    assert len(cards) == 2
    standings = "\n".join(
        pages_text(pdf_response(client, reverse("print_standings", args=[tournament.pk])))
    )
    assert "Ayşe Şahin" in standings and "Standings after round 2 of 5" in standings
    assert "Counts rounds 1–2." in standings  # round 3 has no confirmed result yet
    lines = standings.splitlines()
    assert lines.index(next(ln for ln in lines if "Bernd" in ln)) < lines.index(
        next(ln for ln in lines if "Clara" in ln)
    )
    assert re.search(r"^3 Bernd Ćosić SC Köln 4\.5 13 2\.333", standings, re.M)  # with club
    assert "Dora Quist (dropped)" in standings
    after1 = "\n".join(
        pages_text(pdf_response(client, reverse("print_standings", args=[tournament.pk]), round=1))
    )
    assert "Standings after round 1 of 5" in after1 and "Counts round 1." in after1
    results = "\n".join(
        pages_text(pdf_response(client, reverse("print_round", args=[tournament.pk, 3, "results"])))
    )
    assert "Results of round 3" in results and "no result" in results
    assert "Tables with a result: 0 of 2." in results
    results2 = "\n".join(
        pages_text(pdf_response(client, reverse("print_round", args=[tournament.pk, 2, "results"])))
    )
    assert "1 1 Ayşe Şahin (SC Köln) 1 9 3" in results2


def test_unknown_kind_or_round_and_bad_tables(client, organizer, tournament, made):
    client.force_login(organizer)
    assert client.get(reverse("print_round", args=[tournament.pk, 1, "poster"])).status_code == 404
    assert client.get(reverse("print_round", args=[tournament.pk, 8, "sheets"])).status_code == 404
    # a table the game can't be played at: a clear message instead of a crash
    table = Table.objects.create(round=made["rounds"][3], number=3)
    table.seats.create(player=made["players"]["Z"], position=0)
    response = client.get(reverse("print_round", args=[tournament.pk, 3, "sheets"]), follow=True)
    assert "Correct the seating before printing score sheets." in response.content.decode()


def test_print_center_lists_rounds(client, organizer, tournament, made):
    client.force_login(organizer)
    html = client.get(reverse("print_center", args=[tournament.pk])).content.decode()
    for n in (1, 2, 3):
        for kind in documents.ROUND_KINDS:
            assert reverse("print_round", args=[tournament.pk, n, kind]) in html


def test_sheet_progress_callback():
    calls = []
    tables = [{"number": n, "players": ["Ş", "Ł", "ß"]} for n in range(1, 6)]
    render_score_sheets(
        {"name": "x"}, 1, tables, engine_id="quartett", progress=lambda d, t: calls.append((d, t))
    )
    assert calls == [(1, 5), (2, 5), (3, 5), (4, 5), (5, 5)]  # an A4 page per sheet
    calls.clear()
    render_score_sheets(
        {"name": "x"},
        1,
        tables,
        engine_id="quartett",
        progress=lambda d, t: calls.append((d, t)),
        machine_readable=False,
    )
    assert calls == [(2, 5), (4, 5), (5, 5)]  # two A5 sheets per page


def test_large_round_goes_through_celery_with_progress(
    client,
    organizer,
    tournament,
    made,
    settings,
    tmp_path,
    monkeypatch,
    django_capture_on_commit_callbacks,
):
    settings.VAR_DIR = tmp_path
    settings.PRINT_ASYNC_TABLES = 1  # round 1 (2 tables) counts as large
    monkeypatch.setitem(celery_app.conf, "task_always_eager", True)
    client.force_login(organizer)
    center = client.get(reverse("print_center", args=[tournament.pk])).content.decode()
    assert reverse("print_job_start", args=[tournament.pk]) in center
    assert reverse("print_round", args=[tournament.pk, 1, "sheets"]) not in center
    seen = []
    update = QuerySet.update

    def recorded(qs, **values):  # record every progress write
        if qs.model is PrintJob:
            seen.append(values)
        return update(qs, **values)

    monkeypatch.setattr(QuerySet, "update", recorded)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("print_job_start", args=[tournament.pk]), {"kind": "sheets", "round": 1}
        )
    job = PrintJob.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("print_job", args=[tournament.pk, job.pk])
    assert (job.status, job.done, job.total) == (PrintJob.DONE, 2, 2)
    assert any(
        v.items() >= {"status": PrintJob.RUNNING, "done": 0, "total": 2}.items() for v in seen
    )
    assert any(v.keys() == {"done", "total", "alive_at"} and v["done"] == 2 for v in seen)
    path = Path(job.file)
    assert path.parent == tmp_path / "prints" and path.is_file()
    # the page (and its htmx partial) offers the download
    partial = client.get(reverse("print_job", args=[tournament.pk, job.pk]), HTTP_HX_REQUEST="true")
    html = partial.content.decode()
    assert "<html" not in html and "hx-trigger" not in html
    download = reverse("print_job_download", args=[tournament.pk, job.pk])
    assert download in html
    response = client.get(download)
    pdf = b"".join(response.streaming_content)
    text = "\n".join(pages_text(pdf))
    for name in ("Ayşe Şahin", "Łukasz Wróblewski", "Jürgen Weiß", "Emil Roth"):
        assert name in text
    codes = qr_codes(pdf)
    assert [
        table_from_token(resolve(c.removeprefix("http://testserver")).kwargs["token"])
        for c in codes
    ] == [
        made["tables"][1, 1].pk,
        made["tables"][1, 2].pk,
    ]


def test_unfinished_job_polls_and_failed_job_says_why(
    client, organizer, tournament, made, settings, tmp_path
):
    settings.VAR_DIR = tmp_path
    client.force_login(organizer)
    job = PrintJob.objects.create(
        tournament=tournament, kind="sheets", round_number=1, total=2, by=organizer
    )
    job.status, job.done = PrintJob.RUNNING, 1
    job.save()
    partial = client.get(reverse("print_job", args=[tournament.pk, job.pk]), HTTP_HX_REQUEST="true")
    html = partial.content.decode()
    assert 'hx-trigger="every 1s"' in html and "1 of 2 tables" in html
    # the download link before it is ready shows the progress
    early = client.get(reverse("print_job_download", args=[tournament.pk, job.pk]))
    assert early.status_code == 200 and "1 of 2 tables" in early.content.decode()
    # a job for a round that can't be printed fails with the reason
    Table.objects.create(round=made["rounds"][1], number=3).seats.create(
        player=made["players"]["Z"], position=0
    )
    bad = PrintJob.objects.create(
        tournament=tournament, kind="sheets", round_number=1, by=organizer
    )
    run_print_job(bad.pk)
    bad.refresh_from_db()
    assert bad.status == PrintJob.FAILED and "Correct the seating" in bad.error
    page = client.get(reverse("print_job", args=[tournament.pk, bad.pk])).content.decode()
    assert "Correct the seating" in page


def test_manage_py_print_writes_pdfs(tournament, made, tmp_path, settings):
    settings.SITE_URL = "https://turnier.example.org"
    out = tmp_path / "sheets.pdf"
    call_command(
        "print", "sheets", "--tournament", str(tournament.pk), "--round", "2", "-o", str(out)
    )
    text = "\n".join(pages_text(out.read_bytes()))
    assert "Round 2 · Table 1" in text and "Round 2 · Table 2" in text
    assert "Ayşe Şahin" in text and "Dora Quist" in text
    codes = qr_codes(out.read_bytes())
    assert all(c.startswith("https://turnier.example.org/s/") for c in codes) and len(codes) == 2
    # the marks of every sheet, where a test (or a scanner's tuning) needs them
    layout = tmp_path / "sheets.json"
    call_command(
        "print", "sheets", "--tournament", str(tournament.pk), "--round", "2",
        "-o", str(out), "--layout-json", str(layout),
    )  # fmt: skip
    sheets = json.loads(layout.read_text())["sheets"]
    assert [s["table"] for s in sheets] == [1, 2]
    assert sheets[0]["code"] == qr_codes(out.read_bytes(), "DataMatrix")[0]
    assert sheets[0]["page"]["origin"] == "top-left" and sheets[0]["fields"][0]["areas"]
    out2 = tmp_path / "standings.pdf"
    call_command(
        "print",
        "standings",
        "--tournament",
        str(tournament.pk),
        "-o",
        str(out2),
        "--language",
        "de",
    )
    assert "Ayşe Şahin" in "\n".join(pages_text(out2.read_bytes()))
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="needs a round"):
        call_command("print", "seating", "--tournament", str(tournament.pk), "-o", str(out2))
