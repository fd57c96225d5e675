from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScansConfig(AppConfig):
    """Score sheets read from scans and photos: piles, their pages, the reader."""

    name = "scoring.scans"
    label = "scans"
    verbose_name = _("Scanned sheets")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        from scoring.scans import review, selectors, services
        from tournaments import panels, providers

        # the result form opened from a scanned page, and the page a version was read from
        providers.provide(
            entry_scan=review.entry_scan,
            entry_scan_saved=services.page_fixed,
            scan_pages=selectors.pages_of_submissions,
        )
        # a round's results page: its piles, beside the upload
        panels.register("round_results", "piles", selectors.piles_of_round)
