"""DejaVu Sans for every PDF, so names like "Şahin", "Łukasz" and "Weiß" print.

The fonts come from Debian's ``fonts-dejavu-core`` (``/usr/share/fonts/truetype/
dejavu/``); ``TURNIERLEITER_FONT_DIR`` may name another folder holding
``DejaVuSans.ttf`` and ``DejaVuSans-Bold.ttf``.
"""

from __future__ import annotations

import os
from pathlib import Path

from reportlab.lib.fonts import addMapping
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

FONT = "DejaVuSans"
FONT_BOLD = "DejaVuSans-Bold"
FONT_DIRS = ("/usr/share/fonts/truetype/dejavu",)
_FILES = {FONT: "DejaVuSans.ttf", FONT_BOLD: "DejaVuSans-Bold.ttf"}


class FontsMissing(RuntimeError):
    """The DejaVu fonts are not installed."""


def _dirs() -> list[Path]:
    extra = os.environ.get("TURNIERLEITER_FONT_DIR")
    return [Path(d) for d in ((extra,) if extra else ()) + FONT_DIRS]


def register_fonts() -> tuple[str, str]:
    """Register DejaVu Sans and DejaVu Sans Bold with ReportLab (once) and
    return their names (regular, bold)."""
    if FONT in pdfmetrics.getRegisteredFontNames():
        return FONT, FONT_BOLD
    for folder in _dirs():
        paths = {name: folder / file for name, file in _FILES.items()}
        if all(p.is_file() for p in paths.values()):
            for name, path in paths.items():
                pdfmetrics.registerFont(TTFont(name, str(path)))
            addMapping(FONT, 0, 0, FONT)
            addMapping(FONT, 1, 0, FONT_BOLD)
            addMapping(FONT, 0, 1, FONT)
            addMapping(FONT, 1, 1, FONT_BOLD)
            return FONT, FONT_BOLD
    where = ", ".join(str(d) for d in _dirs())
    raise FontsMissing(
        f"DejaVu Sans (DejaVuSans.ttf, DejaVuSans-Bold.ttf) not found in {where}. "
        "Install the Debian package fonts-dejavu-core (apt-get install fonts-dejavu-core) "
        "or set TURNIERLEITER_FONT_DIR to a folder holding both files."
    )
