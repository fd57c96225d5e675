from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"
    verbose_name = _("Results")

    def ready(self):
        from scoring.models import has_result
        from scoring.selectors import event_overview
        from tournaments import panels, providers, signals

        # "the table has its result", for the core
        providers.provide(has_result=has_result)
        panels.register("overview", "overview", event_overview)
        signals.tournament_deleting.connect(_free_replaced_versions, dispatch_uid="scoring-delete")


def _free_replaced_versions(sender, tournament, **kwargs):
    """A correction protects the version it replaces: before the tournament
    is deleted, all of them go together."""
    from scoring.models import Submission

    Submission.objects.filter(table__round__tournament=tournament).update(replaces=None)
