"""Signed links: a table's result form (the QR code on its printed sheet) and a
player's seat link. Nothing is stored; the signature (``SECRET_KEY``) is the
proof, so an unsigned or tampered link is refused.

Tokens are short (the QR code stays small): ``<id>:<signature>`` for a table,
``<table id>.<seat>:<signature>`` for a seat.
"""

from __future__ import annotations

from django.conf import settings
from django.core import signing
from django.urls import reverse

_TABLE = signing.Signer(salt="turnierleiter.table-sheet")
_SEAT = signing.Signer(salt="turnierleiter.seat")


def table_token(table_id: int) -> str:
    return _TABLE.sign(str(table_id))


def table_from_token(token: str) -> int | None:
    """The table id of a valid token, else None."""
    try:
        value = _TABLE.unsign(token)
    except signing.BadSignature:
        return None
    return int(value) if value.isdigit() else None


def seat_token(table_id: int, position: int) -> str:
    return _SEAT.sign(f"{table_id}.{position}")


def seat_from_token(token: str) -> tuple[int, int] | None:
    """(table id, seat position) of a valid token, else None."""
    try:
        value = _SEAT.unsign(token)
    except signing.BadSignature:
        return None
    table, _, position = value.partition(".")
    if not (table.isdigit() and position.isdigit()):
        return None
    return int(table), int(position)


def absolute(path: str, request=None) -> str:
    """An absolute URL: from the request when there is one, else ``SITE_URL``."""
    if request is not None:
        return request.build_absolute_uri(path)
    return settings.SITE_URL + path


def table_sheet_url(table_id: int, request=None) -> str:
    """The QR code's target: the table's result form, signed."""
    return absolute(reverse("sheet_link", args=[table_token(table_id)]), request)


def seat_url(table_id: int, position: int, request=None) -> str:
    """A player's private link to his seat (self-report, digital play)."""
    return absolute(reverse("seat_link", args=[seat_token(table_id, position)]), request)
