"""The QR code on a printed score sheet: a signed table id
(``<id>:<signature>``, ``SECRET_KEY``) that leads the table's staff to its
result form. It only leads staff to a form they may open anyway, so nothing is
stored."""

from __future__ import annotations

from django.core import signing
from django.urls import reverse

from tournaments.addresses import absolute

_TABLE = signing.Signer(salt="turnierleiter.table-sheet")


def table_token(table_id: int) -> str:
    return _TABLE.sign(str(table_id))


def table_from_token(token: str) -> int | None:
    """The table id of a valid token, else None."""
    try:
        value = _TABLE.unsign(token)
    except signing.BadSignature:
        return None
    return int(value) if value.isascii() and value.isdigit() else None


def table_sheet_url(table_id: int, request=None) -> str:
    """The QR code's target: the table's result form, signed."""
    return absolute(reverse("sheet_link", args=[table_token(table_id)]), request)
