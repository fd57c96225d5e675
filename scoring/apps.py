from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"
    verbose_name = _("Results and standings")

    def ready(self):
        from scoring.models import has_result
        from tournaments.services import round_life

        # "the table has its result", for the round's life in the core
        round_life.use_result_check(has_result)
