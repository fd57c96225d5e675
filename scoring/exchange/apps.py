from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ExchangeConfig(AppConfig):
    """A whole tournament as one JSON document, and back: import jobs."""

    name = "scoring.exchange"
    label = "exchange"
    verbose_name = _("Import and export")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from scoring.exchange import jobs
        from scoring.printing import tasks

        # the print sweep's round also hands out the imports a lost worker left
        tasks.sweeping.connect(lambda **kwargs: jobs.sweep(), weak=False, dispatch_uid="imports")
