"""Forms of a series: its settings and adding a tournament."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.season.models import Series
from tournaments.models import game_choices


class SeriesForm(forms.ModelForm):
    table_text = forms.CharField(
        label=_("Points by place"),
        required=False,
        help_text=_("For the fixed table: points for 1st, 2nd, … place, e.g. 25-20-16-13-11."),
    )

    class Meta:
        model = Series
        fields = ["name", "game", "scheme", "best", "minimum", "public"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"] = forms.ChoiceField(label=_("game"), choices=game_choices())
        if self.instance.pk:
            self.initial["table_text"] = "-".join(str(v) for v in self.instance.table or [])
            if self.instance.tournaments.exists():
                self.fields["game"].disabled = True

    def clean_table_text(self):
        text = self.cleaned_data.get("table_text", "").strip()
        if not text:
            return []
        parts = [
            p for p in text.replace(",", "-").replace(";", "-").replace(" ", "-").split("-") if p
        ]
        if len(parts) > 500 or not all(p.isascii() and p.isdigit() and len(p) <= 6 for p in parts):
            raise forms.ValidationError(
                gettext("Write the points as whole numbers separated by dashes, e.g. 25-20-16.")
            )
        values = [int(p) for p in parts]
        if values != sorted(values, reverse=True):
            raise forms.ValidationError(
                gettext("Points by place must not rise from one place to the next.")
            )
        return values

    def clean(self):
        data = super().clean()
        if data.get("scheme") == "table" and not data.get("table_text"):
            self.add_error("table_text", gettext("The fixed table needs its points by place."))
        return data

    def save(self, commit=True):
        self.instance.table = self.cleaned_data.get("table_text") or []
        return super().save(commit=commit)


class SeriesTournamentForm(forms.Form):
    tournament = forms.ModelChoiceField(queryset=None, label=_("Tournament"))

    def __init__(self, *args, tournaments=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["tournament"].queryset = tournaments
