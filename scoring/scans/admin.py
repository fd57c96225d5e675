from django.contrib import admin

from scoring.scans.models import ScanPile


@admin.register(ScanPile)
class ScanPileAdmin(admin.ModelAdmin):
    """Read-only: a pile is uploaded and confirmed on its round's pages."""

    list_display = ["round", "name", "status", "done", "total", "reason", "at"]
    list_filter = ["status"]
    exclude = ["data"]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
