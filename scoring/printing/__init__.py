"""Printing with ReportLab: score sheets, seating lists, table cards,
standings and a round's results.

A pure module: plain dicts in, PDF bytes out, no Django import, so the views,
a Celery task and ``manage.py print`` all call the same functions. Every text
is DejaVu Sans (``fonts.py``); labels are English and pass through the
optional ``gettext`` argument.
"""

from scoring.printing.lists import (
    render_round_results,
    render_seating_by_name,
    render_seating_by_table,
    render_standings,
    render_table_cards,
)
from scoring.printing.sheets import render_score_sheets, two_up_order

__all__ = [
    "render_round_results",
    "render_score_sheets",
    "render_seating_by_name",
    "render_seating_by_table",
    "render_standings",
    "render_table_cards",
    "two_up_order",
]
