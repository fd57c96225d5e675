"""The one CSV writer: formula cells escaped (OWASP), numbers stay numbers,
German decimal commas."""

import csv
import io
import re
from decimal import Decimal
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from tournaments.csvfile import cell, escape_text, write_csv

ROOT = Path(__file__).resolve().parents[2]


def parse(content: bytes, delimiter: str) -> list[list[str]]:
    assert content.startswith(b"\xef\xbb\xbf")
    return list(csv.reader(io.StringIO(content.decode("utf-8-sig")), delimiter=delimiter))


def test_formula_starts_get_an_apostrophe():
    for text in ["=cmd|' /C calc'!A0", "+1+1", "-2+3", "@SUM(A1)", "\tx", "\rx", "＝1+1"]:
        assert escape_text(text) == "'" + text
    for text in ["Ayşe Şahin", "SC Köln", "", "1=1", "O'Neil"]:
        assert escape_text(text) == text


def test_numbers_stay_numbers_in_both_languages():
    assert cell(Decimal("6.5"), ",") == "6,5"
    assert cell(Decimal("6.5"), ".") == "6.5"
    assert cell(Decimal("4"), ",") == "4"
    assert cell(-3, ",") == "-3"  # a negative number is a number, not a formula
    assert cell(2.25, ",") == "2,25"
    assert cell(True) == "1" and cell(False) == "0" and cell(None) == ""


def test_german_file_reads_as_german_excel_would():
    rows = [{"name": '=HYPERLINK("http://x")', "points": Decimal("6.5"), "games": 3}]
    content = write_csv(rows, ["name", "points", "games"], language="de")
    header, row = parse(content, ";")
    assert header == ["name", "points", "games"]
    assert row[0] == '\'=HYPERLINK("http://x")'
    # German Excel: ";" separates, "," is the decimal point
    assert float(row[1].replace(",", ".")) == 6.5 and int(row[2]) == 3
    assert b"\r\n" in content


def test_english_file_has_decimal_points():
    content = write_csv([{"p": Decimal("0.333")}], ["p"], language="en")
    assert parse(content, ",")[1] == ["0.333"]


@given(st.text(max_size=40), st.sampled_from(["de", "en"]))
def test_no_text_cell_starts_a_formula(text, language):
    content = write_csv([{"name": text, "club": text}], ["name", "club"], language=language)
    delimiter = ";" if language == "de" else ","
    rows = parse(content, delimiter)
    # the csv module treats a lone "\r" inside quotes correctly: one data row
    values = rows[1]
    for value in values:
        assert not value.startswith(("=", "+", "-", "@", "\t", "\r"))
        assert value.removeprefix("'") == text or value == text


def test_no_other_csv_writer_in_the_product():
    """Every CSV the product writes goes through tournaments/csvfile.py."""
    offenders = []
    for path in list((ROOT / "tournaments").rglob("*.py")) + list((ROOT / "scoring").rglob("*.py")):
        if path.name == "csvfile.py":
            continue
        text = path.read_text(encoding="utf-8")
        if re.search(r"csv\.(writer|DictWriter)\(|text/csv", text):
            offenders.append(str(path.relative_to(ROOT)))
    assert offenders == []
