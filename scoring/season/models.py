"""A season's series (the ``season`` app; its table keeps the name it had in
the ``scoring`` app)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.season import standings as season_standings


class Series(models.Model):
    """A season: tournaments of one game whose final standings add up
    (``scoring.season.standings``)."""

    SCHEMES = [(name, _(season_standings.SCHEME_LABELS[name])) for name in season_standings.SCHEMES]
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="series"
    )
    name = models.CharField(_("name"), max_length=200)
    game = models.CharField(_("game"), max_length=40)
    scheme = models.CharField(
        _("season points"), max_length=20, choices=SCHEMES, default=season_standings.SCHEMES[0]
    )
    #: the fixed table's points by place (scheme "table")
    table = models.JSONField(_("points by place"), default=list, blank=True)
    best = models.PositiveSmallIntegerField(
        _("count the best"),
        null=True,
        blank=True,
        help_text=_("Count only each person's best results (empty: all)."),
    )
    minimum = models.PositiveSmallIntegerField(_("tournaments needed to be ranked"), default=0)
    public = models.BooleanField(_("public season page"), default=False)
    tournaments = models.ManyToManyField(
        "tournaments.Tournament", blank=True, related_name="series", verbose_name=_("tournaments")
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "scoring_series"  # its table from before it was an app
        ordering = ["-created_at"]
        verbose_name = _("series")
        verbose_name_plural = _("series")

    def __str__(self):
        return self.name
