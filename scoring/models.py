"""Result submissions (append-only, versioned) and their confirmations. A
season's series is ``scoring.season.models``, an import job
``scoring.exchange.models``, a print job ``scoring.printing.models``, a pile
of scanned sheets ``scoring.scans.models``."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils.translation import gettext_lazy as _

from tournaments.models import AuditedImport


class Submission(AuditedImport):
    """One version of a table's result, as entered from the paper sheet (or
    reported by a player, or finished by a digital table's engine).

    Never updated in place except for its ``status``: a correction is a new
    version that names the one it replaces and a reason. At most one version
    per table is confirmed — a database constraint, not application code.
    """

    PENDING, CONFIRMED, SUPERSEDED, REJECTED = "pending", "confirmed", "superseded", "rejected"
    STATUSES = [
        (PENDING, _("waiting for confirmation")),
        (CONFIRMED, _("confirmed")),
        (SUPERSEDED, _("replaced")),
        (REJECTED, _("rejected")),
    ]
    SOURCES = [
        ("form", _("result form")),
        ("qr", _("QR code on the sheet")),
        ("player", _("player's seat link")),
        ("digital", _("digital table")),
        ("import", _("import")),
        ("scan", _("read from scan")),
    ]
    table = models.ForeignKey(
        "tournaments.Table", on_delete=models.CASCADE, related_name="submissions"
    )
    version = models.PositiveIntegerField()
    status = models.CharField(max_length=20, choices=STATUSES, default=PENDING)
    #: the sheet as entered (field name → value) and what the engine made of it
    sheet = models.JSONField(default=dict)
    ranks = models.JSONField(default=list)
    figures = models.JSONField(default=list)
    details = models.JSONField(default=dict, blank=True)
    #: the paper sheet claims this result is the state at time
    source = models.CharField(max_length=20, choices=SOURCES, default="form")
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    by_seat = models.SmallIntegerField(null=True, blank=True)
    from_address = models.GenericIPAddressField(null=True, blank=True)
    replaces = models.ForeignKey(
        "self", on_delete=models.PROTECT, null=True, blank=True, related_name="replaced_by"
    )
    reason = models.CharField(_("reason for the correction"), max_length=500, blank=True)
    #: entered after the table's deadline (a late paper result is flagged)
    late = models.BooleanField(default=False)

    class Meta:
        ordering = ["table", "version"]
        verbose_name = _("result")
        verbose_name_plural = _("results")
        constraints = [
            models.UniqueConstraint(fields=["table", "version"], name="submission_version_unique"),
            models.UniqueConstraint(
                fields=["table"],
                condition=Q(status="confirmed"),
                name="one_confirmed_result_per_table",
            ),
        ]

    def __str__(self):
        return f"{self.table} v{self.version} ({self.status})"


def confirmed_result(table=None) -> QuerySet:
    """A table's counted result: its confirmed version (at most one, a
    constraint). ``table``: a table or its id; by default the table of the
    outer query (for :func:`has_result`)."""
    return Submission.objects.filter(
        table=OuterRef("pk") if table is None else table, status=Submission.CONFIRMED
    )


def has_result(table=None) -> Exists:
    """ "The table has its result", the one definition: a confirmed version
    exists (a confirmed sheet, a digital table's engine result, an imported
    one). An expression for ``annotate``, ``filter`` and ``exclude`` over
    tables (``table`` as in :func:`confirmed_result`)."""
    return Exists(confirmed_result(table))


class Confirmation(AuditedImport):
    """Someone agrees with a submission: a second scorekeeper, the organizer,
    or a player of the table through his seat link."""

    submission = models.ForeignKey(
        Submission, on_delete=models.CASCADE, related_name="confirmations"
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    by_seat = models.SmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["submission", "by_seat"],
                condition=Q(by_seat__isnull=False),
                name="confirmation_seat_unique",
            ),
            models.UniqueConstraint(
                fields=["submission", "by"],
                condition=Q(by__isnull=False),
                name="confirmation_user_unique",
            ),
        ]

    def __str__(self):
        return f"{self.submission} ✓ {self.by or self.by_seat}"
