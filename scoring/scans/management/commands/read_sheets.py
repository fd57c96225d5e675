"""``manage.py read_sheets FILE… [--json]``: read scanned score sheets (PDF,
JPEG, PNG) the way the results page does and print, per page, the sheet it
names (tournament, round, table), each field's value or ``unsure`` with its
reason, and the seconds it took. The layouts come from the database; nothing
is stored."""

import json as jsonlib
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from scoring.scans.reader import read_file
from scoring.scans.selectors import layout_finder


class Command(BaseCommand):
    help = "Read scanned score sheets (PDF, JPEG, PNG); nothing is stored"

    def add_arguments(self, parser):
        parser.add_argument("files", nargs="+", help="scanned PDFs or images")
        parser.add_argument("--json", action="store_true", help="print JSON")

    def handle(self, *args, files, **options):
        layout_for = layout_finder()
        out = []
        for name in files:
            path = Path(name)
            if not path.is_file():
                raise CommandError(f"no file {name}")
            result = read_file(path.read_bytes(), layout_for)
            out.append({"file": name, **result.to_json()})
        if options.get("json"):
            self.stdout.write(_dumps({"files": out}))
            return
        for f in out:
            if f["status"] != "read":
                self.stdout.write(f"{f['file']}: refused ({f['reason']})")
                continue
            for page in f["pages"]:
                self.stdout.write(_page_line(f["file"], page))
                for field, reading in page["fields"].items():
                    self.stdout.write(f"  {field}: {_reading(reading)}")


def _dumps(data) -> str:
    return jsonlib.dumps(data, indent=1, ensure_ascii=False)


def _page_line(name: str, page: dict) -> str:
    sheet = page["sheet"] or {}
    where = (
        f"tournament {sheet['tournament']} round {sheet['round']} table {sheet['table']}"
        if sheet
        else "no sheet code"
    )
    state = "read" if page["status"] == "read" else f"refused ({page['reason']})"
    return f"{name} page {page['page']}: {where}: {state}, {page['seconds']:.2f} s"


def _reading(reading: dict) -> str:
    if reading["status"] == "unsure":
        return f"unsure ({reading['reason']})"
    return "blank" if reading["status"] == "blank" else str(reading["value"])
