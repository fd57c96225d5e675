from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PlayConfig(AppConfig):
    """A player's seat and the digital tables: seat links, moves, bots."""

    name = "tournaments.play"
    label = "play"
    verbose_name = _("Digital tables")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from tournaments.play import poll_cache

        poll_cache.connect()
