from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SeasonConfig(AppConfig):
    """A club season: series of tournaments, season standings and ratings."""

    name = "scoring.season"
    label = "season"
    verbose_name = _("Seasons")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from scoring.season.selectors import ratings
        from tournaments import providers

        # the club's ratings, for seating round 1 by rating
        providers.provide(club_ratings=ratings)
