"""Result submissions (append-only, versioned), their confirmations, print
jobs rendered by Celery and piles of scanned sheets read by Celery. A season's series is ``scoring.season.models``, an
import job ``scoring.exchange.models``."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.utils.translation import gettext_lazy as _

from tournaments.models import Audited, AuditedImport


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


class PrintJob(Audited):
    """A PDF rendered by a Celery task (large rounds), with its progress."""

    QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
    STATUSES = [
        (QUEUED, _("queued")),
        (RUNNING, _("rendering")),
        (DONE, _("ready")),
        (FAILED, _("failed")),
    ]
    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="print_jobs"
    )
    kind = models.CharField(max_length=30)
    round_number = models.PositiveSmallIntegerField(null=True, blank=True)
    status = models.CharField(max_length=20, choices=STATUSES, default=QUEUED)
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    file = models.CharField(max_length=500, blank=True)
    error = models.CharField(max_length=500, blank=True)
    #: the language and address the job was asked in (a re-queued job keeps them)
    language = models.CharField(max_length=10, blank=True)
    origin = models.CharField(max_length=200, blank=True)
    #: how often the job was handed to a worker; a worker's delivery carries
    #: its number, and only the latest one may render (scoring/tasks.py)
    attempts = models.PositiveSmallIntegerField(default=0)
    #: the last sign of life: handed out, started, a heartbeat while rendering
    alive_at = models.DateTimeField(null=True, blank=True)
    #: when the sweep last handed it out again after its worker was lost
    requeued_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-at"]

    def __str__(self):
        return f"{self.kind} ({self.status})"


class ScanPile(Audited):
    """An upload of scanned or photographed score sheets for one round (a
    scanner's PDF or images), read page by page by a Celery task
    (:mod:`scoring.scans.piles`)."""

    QUEUED, RUNNING, DONE, FAILED = "queued", "running", "done", "failed"
    STATUSES = [
        (QUEUED, _("waiting")),
        (RUNNING, _("reading")),
        (DONE, _("read")),
        (FAILED, _("refused")),
    ]
    round = models.ForeignKey("tournaments.Round", on_delete=models.CASCADE, related_name="+")
    name = models.CharField(max_length=200, blank=True)
    status = models.CharField(max_length=20, choices=STATUSES, default=QUEUED)
    #: the uploaded file until it is read (then emptied: the pages keep their images)
    data = models.BinaryField(default=b"")
    done = models.PositiveIntegerField(default=0)
    total = models.PositiveIntegerField(default=0)
    #: a whole file refused: the reader's reason (not_image_or_pdf, too_large ...)
    reason = models.CharField(max_length=40, blank=True)
    language = models.CharField(max_length=10, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    confirmed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self):
        return f"{self.name or self.pk} ({self.status})"


class ScanPage(models.Model):
    """One page of a pile: its straightened image, what the reader made of
    it and what became of it (a stored result, a duplicate, a conflict, a
    page for the staff to review, a refusal with its reason)."""

    #: stored: a new result version, waiting for the pile's confirmation (or
    #: confirmed); same: the table has this result already (nothing added);
    #: review: a field unsure, the engine refused, a conflict or the code
    #: unreadable — staff fix it in the entry form; refused: not a sheet of
    #: this round (the reason says why); fixed: staff saved it from the form
    STORED, SAME, REVIEW, REFUSED, FIXED = "stored", "same", "review", "refused", "fixed"
    OUTCOMES = [
        (STORED, _("read")),
        (SAME, _("already there")),
        (REVIEW, _("to check")),
        (REFUSED, _("refused")),
        (FIXED, _("fixed")),
    ]
    pile = models.ForeignKey(ScanPile, on_delete=models.CASCADE, related_name="pages")
    number = models.PositiveIntegerField()
    outcome = models.CharField(max_length=20, choices=OUTCOMES)
    #: the reader's reason (blank_page, unknown_sheet ...) or ours
    #: (other_tournament, other_round, no_table, unsure, invalid, conflict)
    reason = models.CharField(max_length=40, blank=True)
    #: the engine's problems, a conflict's explanation
    problems = models.JSONField(default=list, blank=True)
    code = models.CharField(max_length=100, blank=True)
    table = models.ForeignKey(
        "tournaments.Table", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    #: a page whose code could not be read: the table the staff named for
    #: it, while the worker reads its marks as that table's sheet
    picked_table = models.PositiveIntegerField(null=True, blank=True)
    #: field -> {"status": value|blank|unsure, "value", "reason"}
    fields = models.JSONField(default=dict, blank=True)
    submission = models.ForeignKey(
        Submission, on_delete=models.SET_NULL, null=True, blank=True, related_name="scans"
    )
    #: the page as read (JPEG, straightened when the sheet was found)
    image = models.BinaryField(default=b"")
    straight = models.BooleanField(default=False)
    seconds = models.FloatField(default=0)

    class Meta:
        ordering = ["pile", "number"]
        constraints = [
            models.UniqueConstraint(fields=["pile", "number"], name="scan_page_unique"),
        ]

    def __str__(self):
        return f"{self.pile_id} p{self.number} ({self.outcome})"

    def values(self) -> dict:
        """The fields read for sure (blanks left out), as the entry form takes them."""
        return {k: r.get("value") for k, r in self.fields.items() if r.get("status") == "value"}

    def unsure(self) -> dict:
        return {k: r.get("reason") for k, r in self.fields.items() if r.get("status") == "unsure"}
