"""The mirror app's admin: approving the organizers who publish."""

from django.contrib import admin
from django.utils.translation import gettext_lazy

from tournaments.mirror import keys
from tournaments.mirror.models import PublisherConfirmation


@admin.register(PublisherConfirmation)
class PublisherConfirmationAdmin(admin.ModelAdmin):
    """Organizer accounts asking to publish from a laptop: approve them here
    (ORGANIZER_CONFIRMATION=admin)."""

    list_display = ["user", "email", "requested_at", "confirmed_at", "via"]
    list_filter = ["via"]
    search_fields = ["user__username", "email"]
    actions = ["approve"]

    @admin.action(description=gettext_lazy("Approve as organizers who publish"))
    def approve(self, request, queryset):
        for row in queryset.select_related("user"):
            keys.approve(user=row.user)
