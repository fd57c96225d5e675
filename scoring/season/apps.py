from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SeasonConfig(AppConfig):
    """A club season: series of tournaments, season standings and ratings."""

    name = "scoring.season"
    label = "season"
    verbose_name = _("Seasons")
    default_auto_field = "django.db.models.BigAutoField"
