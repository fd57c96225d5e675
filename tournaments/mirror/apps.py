from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class MirrorConfig(AppConfig):
    """The laptop publishes to the online site: links, publications, keys."""

    name = "tournaments.mirror"
    label = "mirror"
    verbose_name = _("Follow from home")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from tournaments.mirror import dirty

        dirty.connect()
