from django.contrib import admin

from scoring.printing.models import PrintJob


@admin.register(PrintJob)
class PrintJobAdmin(admin.ModelAdmin):
    list_display = ["tournament", "kind", "round_number", "status", "done", "total", "at"]
