from django.contrib import admin

from scoring.models import Confirmation, Submission


class ConfirmationInline(admin.TabularInline):
    model = Confirmation
    extra = 0
    can_delete = False
    readonly_fields = ["by", "by_seat", "at"]


@admin.register(Submission)
class SubmissionAdmin(admin.ModelAdmin):
    """Read-only: a correction is a new version entered through the result form."""

    list_display = ["table", "version", "status", "source", "by", "by_seat", "late", "at"]
    list_filter = ["status", "source", "late"]
    inlines = [ConfirmationInline]

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False
