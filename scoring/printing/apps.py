from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PrintingConfig(AppConfig):
    """Every printed document: its data loaded (``documents.py``), drawn by
    the pure modules beside it, downloaded or rendered by a print job."""

    name = "scoring.printing"
    label = "printing"
    verbose_name = _("Print")
    default_auto_field = "django.db.models.BigAutoField"
