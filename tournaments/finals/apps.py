from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FinalsConfig(AppConfig):
    """The final stage after the qualifying rounds: its settings."""

    name = "tournaments.finals"
    label = "finals"
    verbose_name = _("Final stage")
    default_auto_field = "django.db.models.BigAutoField"
