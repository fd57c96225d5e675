from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FinalsConfig(AppConfig):
    """The final stage after the qualifying rounds: its settings."""

    name = "tournaments.finals"
    label = "finals"
    verbose_name = _("Final stage")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from tournaments import providers
        from tournaments.finals import selectors, services

        providers.provide(
            final_standings=selectors.final_standings,
            final_stage_to_seat=selectors.stage_to_seat,
            final_stage_possible=selectors.stage_possible,
            final_decides=selectors.final_decides,
            correction_impact=selectors.correction_impact,
            final_replace_dropped=services.final_replace_dropped,
        )
