"""Date and time inputs every form uses: the browser's own pickers
(``type=date``, ``time``, ``datetime-local``), with the value written in the
one form those inputs read — ISO 8601 (``2026-11-28``, ``19:30``,
``2026-11-28T19:30``) — whatever the page's language. Django's own date
inputs write the language's format (German ``28.11.2026``), which such an
input can't read: it shows an empty field, and saving the form unchanged
cleared the date. The browser shows the date in its user's own format and
sends ISO back, which every language's form fields read.
"""

from __future__ import annotations

from django import forms


class DateInput(forms.DateInput):
    input_type = "date"

    def __init__(self, attrs=None):
        super().__init__(attrs, format="%Y-%m-%d")


class TimeInput(forms.TimeInput):
    input_type = "time"

    def __init__(self, attrs=None):
        super().__init__(attrs, format="%H:%M")


class DateTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, attrs=None):
        super().__init__(attrs, format="%Y-%m-%dT%H:%M")
