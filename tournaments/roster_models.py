"""The club roster's models: a person of an organizer's roster, linked to
their entries (``tournaments.models.Player.person``) in many tournaments, and
the log of merges of two roster entries that were one person.

They belong to the ``tournaments`` app (``app_label``), whose ``models``
module imports them, like the wings' models; this module imports no other
project module. The roster's name matching is the pure
:mod:`tournaments.roster`, its writes :mod:`tournaments.services.roster`.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Person(models.Model):
    """A person of an organizer's club roster: registered once, linked to the
    entries (:class:`Player`) in many of the organizer's tournaments. A person
    merged into another keeps its row (``merged_into``) so the merge can be
    undone."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="roster"
    )
    name = models.CharField(_("name"), max_length=200)
    club = models.CharField(_("club"), max_length=200, blank=True)
    birth_year = models.PositiveSmallIntegerField(_("birth year"), null=True, blank=True)
    notes = models.CharField(
        _("notes"),
        max_length=500,
        blank=True,
        help_text=_("For the organizer only; no contact details."),
    )
    merged_into = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="merged"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "tournaments"
        ordering = ["name", "club"]
        verbose_name = _("person")
        verbose_name_plural = _("people")
        constraints = [
            models.UniqueConstraint(
                fields=["owner", "name", "club"],
                condition=models.Q(merged_into__isnull=True),
                name="person_name_club_unique",
            )
        ]

    def __str__(self):
        return f"{self.name} ({self.club})" if self.club else self.name


class PersonMerge(models.Model):
    """Append-only log of merges of two roster entries that were one person:
    which entry went into which, and which tournament entries moved with it
    (so the merge can be undone)."""

    kept = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="merges_kept")
    merged = models.ForeignKey(Person, on_delete=models.CASCADE, related_name="merges_merged")
    players = models.JSONField(default=list)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True)
    at = models.DateTimeField(auto_now_add=True)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )

    class Meta:
        app_label = "tournaments"
        ordering = ["-at", "-pk"]

    def __str__(self):
        return f"{self.merged} → {self.kept}"
