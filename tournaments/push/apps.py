from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PushConfig(AppConfig):
    """Live screens by push (Server-Sent Events); no models."""

    name = "tournaments.push"
    label = "push"
    verbose_name = _("Live screens")
    default_auto_field = "django.db.models.BigAutoField"
