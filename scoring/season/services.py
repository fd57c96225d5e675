"""Writes for series: create and change a series, add and remove its
tournaments. Keyword-only arguments, one transaction each; a refused change
raises ``ServiceError`` with a translated message and changes nothing."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from scoring.season.models import Series
from scoring.season.standings import SeasonError, check_settings
from tournaments.models import Tournament
from tournaments.services import ServiceError

SETTING_ERRORS = {
    "bad_table": lambda p: _("Points by place must be whole numbers of 0 or more."),
    "table_not_descending": lambda p: _(
        "Points by place must not rise from one place to the next."
    ),
    "bad_best": lambda p: _("Count the best results: a number of 1 or more, or empty for all."),
    "bad_minimum": lambda p: _("The number of tournaments needed must be 0 or more."),
    "unknown_scheme": lambda p: _("Choose one of the season point schemes."),
}


def check_series_settings(*, scheme: str, table, best, minimum) -> None:
    """Refuse settings the season standings can't use, with a translated message."""
    try:
        check_settings(scheme, table or None, best, minimum)
    except SeasonError as exc:
        raise ServiceError(SETTING_ERRORS[exc.code](exc.params)) from exc


@transaction.atomic
def series_save(*, series: Series) -> Series:
    check_series_settings(
        scheme=series.scheme, table=series.table, best=series.best, minimum=series.minimum
    )
    series.full_clean()
    series.save()
    return series


@transaction.atomic
def series_add_tournament(*, series: Series, tournament: Tournament, by) -> None:
    if series.owner_id != by.pk or tournament.owner_id != by.pk:
        raise ServiceError(_("Only your own tournaments can be added to your series."))
    if tournament.game != series.game:
        raise ServiceError(
            _("%(tournament)s is a tournament of another game.") % {"tournament": tournament.name}
        )
    series.tournaments.add(tournament)


@transaction.atomic
def series_remove_tournament(*, series: Series, tournament: Tournament, by) -> None:
    if series.owner_id != by.pk:
        raise ServiceError(_("Only your own tournaments can be added to your series."))
    series.tournaments.remove(tournament)
