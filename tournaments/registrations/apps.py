from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RegistrationsConfig(AppConfig):
    """Players sign up themselves: announcements, registrations and their log."""

    name = "tournaments.registrations"
    label = "registrations"
    verbose_name = _("Registrations")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from tournaments import panels
        from tournaments.registrations import selectors

        panels.register("overview", "left", selectors.left_by_themselves)
