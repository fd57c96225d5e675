"""The final stage's settings form (the organizer's page)."""

from __future__ import annotations

from django import forms

from tournaments.finals.models import FinalStage


class FinalStageForm(forms.ModelForm):
    class Meta:
        model = FinalStage
        fields = ["format", "final_size", "semi_tables", "semi_size", "advance", "minutes", "mode"]
