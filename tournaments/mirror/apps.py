from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MirrorConfig(AppConfig):
    """The laptop publishes to the online site: links, publications, keys."""

    name = "tournaments.mirror"
    label = "mirror"
    verbose_name = _("Follow from home")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from tournaments import panels
        from tournaments.mirror import dirty, selectors

        dirty.connect()
        panels.register("overview", "mirror", selectors.status)
        panels.register("public", "has_season", selectors.has_seasons)
