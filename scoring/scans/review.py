"""A scanned page reviewed in the results app's entry form (the form opened
with ``?scan=<page>``): what the form shows of it — what was read for sure,
its doubtful fields with their reasons and crops, the way back to its pile.
Handed to the results app through :mod:`tournaments.providers`
(``entry_scan``; the page marked fixed once its table's result is saved:
``entry_scan_saved``, :func:`scoring.scans.services.page_fixed`)."""

from __future__ import annotations

from django.urls import reverse

from scoring.scans import selectors, services


def entry_scan(tournament, table, page_id: str | None) -> dict | None:
    """The scanned page the entry form was opened from, None without one:
    ``page``, ``reason``, ``unsure`` (each doubtful field: ``field``, ``why``,
    ``crop``), ``pile_url`` and ``values`` (the fields read for sure, the
    form's initial values)."""
    scan = selectors.scan_page_for_entry(tournament, table, page_id)
    if scan is None:
        return None
    number = table.round.number
    return {
        "page": scan,
        "reason": services.reason_text(scan.reason) if scan.reason else "",
        "unsure": [
            {
                "field": name,
                "why": services.unsure_text(why),
                "crop": reverse("scan_crop", args=[tournament.pk, number, scan.pk, name]),
            }
            for name, why in scan.unsure().items()
        ],
        "pile_url": reverse("scan_pile", args=[tournament.pk, number, scan.pile_id]),
        "values": scan.values(),
    }
