from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class StandingsConfig(AppConfig):
    """The standings: computed from the confirmed results (pure), their pages,
    the projector, a player's history, a round's results, the listings the
    prints and exports take."""

    name = "scoring.standings"
    label = "standings"
    verbose_name = _("Standings")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from scoring.standings import selectors
        from tournaments import providers

        # the standings, for the core (seating by standings) and the results
        # app (a correction's preview)
        providers.provide(standings=selectors.standings, standings_of=selectors.standings_of)
