"""The final stage's settings: one row per tournament that has a final.

It belongs to the ``finals`` app; its table keeps the name it had in the
``tournaments`` app (``db_table``); the relation names its model
by label, so this module imports no other project module. The formats,
modes and their checks are in the pure :mod:`tournaments.finals.formats`
(the codes here are the same strings). A round of the final stage is a
:class:`tournaments.models.Round` with its ``stage`` set.
"""

from __future__ import annotations

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _


class FinalStage(models.Model):
    """How a tournament ends after its qualifying rounds (``format``: none,
    one final table, semi-finals and a final), changeable until the stage is
    seated (``tournaments.finals.services``)."""

    NONE, TABLE, SEMIS = "none", "table", "semis"
    FORMATS = [
        (NONE, _("No final: the standings after the last round are final")),
        (TABLE, _("One final table of the best players")),
        (SEMIS, _("Semi-final tables, their best go on to a final table")),
    ]
    REPLACE, ADD = "replace", "add"
    MODES = [
        (REPLACE, _("The final decides the finalists' places")),
        (ADD, _("The final's points are added to the finalists' points")),
    ]
    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="final_stage"
    )
    format = models.CharField(_("final stage"), max_length=10, choices=FORMATS, default=NONE)
    final_size = models.PositiveSmallIntegerField(
        _("players at the final table"),
        default=4,
        validators=[MinValueValidator(2), MaxValueValidator(6)],
    )
    semi_tables = models.PositiveSmallIntegerField(
        _("semi-final tables"), default=2, validators=[MinValueValidator(2), MaxValueValidator(8)]
    )
    semi_size = models.PositiveSmallIntegerField(
        _("players at each semi-final table"),
        default=4,
        validators=[MinValueValidator(2), MaxValueValidator(6)],
    )
    advance = models.PositiveSmallIntegerField(
        _("go on from each semi-final table"),
        default=2,
        validators=[MinValueValidator(1), MaxValueValidator(5)],
    )
    minutes = models.PositiveSmallIntegerField(
        _("round length of the final stage (minutes)"),
        default=45,
        validators=[MinValueValidator(1), MaxValueValidator(600)],
    )
    mode = models.CharField(_("the final's result"), max_length=10, choices=MODES, default=REPLACE)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "tournaments_finalstage"  # its table from before it was an app
        verbose_name = _("final stage")
        verbose_name_plural = _("final stages")

    def __str__(self):
        return f"{self.tournament_id}: {self.format}"
