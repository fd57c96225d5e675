"""``manage.py print <kind> --tournament ID [--round N] [--output FILE]``:
the same PDFs as the print page (QR links use SITE_URL). ``print sheets
--layout-json FILE`` also writes where every mark of every sheet is
(page coordinates in points, from the top-left; per table, with its sheet
code), so a test can fill any mark."""

import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils import translation

from scoring.printing import documents
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Print a tournament document as PDF: " + ", ".join(documents.KINDS)

    def add_arguments(self, parser):
        parser.add_argument("kind", choices=list(documents.KINDS))
        parser.add_argument("--tournament", type=int, required=True, help="tournament id")
        parser.add_argument(
            "--round",
            dest="round_no",
            type=int,
            help="round number (needed for all but standings; standings: after this round)",
        )
        parser.add_argument("-o", "--output", help="PDF file (default: <kind>-t<id>[-r<n>].pdf)")
        parser.add_argument(
            "--language", default=settings.LANGUAGE_CODE, help="language of the labels"
        )
        parser.add_argument(
            "--layout-json", help="sheets: also write every mark's position to this JSON file"
        )

    def handle(
        self, *args, kind, tournament, round_no, output, language, layout_json=None, **options
    ):
        if layout_json and kind != "sheets":
            raise CommandError("--layout-json is for score sheets")
        t = Tournament.objects.filter(pk=tournament).first()
        if t is None:
            raise CommandError(f"no tournament {tournament}")
        with translation.override(language):
            try:
                pdf = documents.render(kind, t, round_no)
            except documents.PrintError as exc:
                raise CommandError(str(exc)) from None
            path = Path(output or documents.filename(kind, t, round_no))
        path.write_bytes(pdf)
        self.stdout.write(f"{path} ({len(pdf) // 1024} KiB)")
        if layout_json:
            layouts = documents.sheet_layouts(t, round_no)
            Path(layout_json).write_text(json.dumps({"sheets": layouts}, indent=1))
            self.stdout.write(f"{layout_json} ({len(layouts)} sheets)")
