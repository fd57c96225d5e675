"""Piles of scanned or photographed score sheets, read page by page by a
Celery task, and their pages (the tables keep the names they had in the
scoring app)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Audited


class ScanPile(Audited):
    """An upload of scanned or photographed score sheets for one round (a
    scanner's PDF or images), read page by page by a Celery task
    (:mod:`scoring.scans.services`)."""

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
        db_table = "scoring_scanpile"  # made in the scoring app: the table keeps its name
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
        "scoring.Submission",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="scans",
    )
    #: the page as read (JPEG, straightened when the sheet was found)
    image = models.BinaryField(default=b"")
    straight = models.BooleanField(default=False)
    seconds = models.FloatField(default=0)

    class Meta:
        db_table = "scoring_scanpage"
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
