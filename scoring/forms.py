"""Result entry forms, built from the game's ``sheet_schema``.

:class:`SheetForm` has one form field per sheet field, in the order of the
printed sheet. It checks only what a form can (whole numbers, the schema's
bounds, listed choices); the engine's ``check_sheet`` decides the rest, and
its problems are put next to their fields with :meth:`SheetForm.add_problems`.
"""

from __future__ import annotations

import hashlib
import json
import re

from django import forms
from django.core import signing
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from games.sheets import display

_PREVIEW = signing.Signer(salt="turnierleiter.result-preview")
_EARLY = signing.Signer(salt="turnierleiter.result-ended-before-time")

#: "seat {seat}" in an engine's message (any language): the word before the
#: placeholder goes, the player's name takes the place of the number
_SEAT_WORD = re.compile(r"\w+ \{seat\}")

#: the words of schema group names ("hand 2"); ``display`` translates the word
GROUP_WORDS = (gettext_noop("hand"),)


def _text(text: str, params: dict | None = None) -> str:
    return display(text, params, gettext)


class SheetForm(forms.Form):
    """The fields of a paper sheet for a table whose players are ``names``
    (in seat order). ``sheet()`` gives the submitted sheet dict."""

    prefix = "sheet"

    def __init__(
        self, *args, schema: list[dict], names: list[str], autofocus: bool = False, **kwargs
    ):
        super().__init__(*args, **kwargs)
        self.schema = schema
        self.names = names
        #: keyboard focus on the first field (or problem): the scorekeeper's
        #: form; a player's phone should not pop up its keyboard on arrival
        self.autofocus = autofocus
        #: fields concerned by a problem whose message is shown at another field
        self.flagged: set[str] = set()
        for spec in schema:
            f = self._field(spec)
            #: the label inside a card that already names the seat or the group
            f.short_label = _text(spec["label"], spec.get("params"))
            seat = spec.get("seat")
            if spec.get("group") and seat is not None and seat < len(names):
                f.short_label = f"{names[seat]} · {f.short_label}"
            f.widget.attrs.setdefault("aria-label", f.label)
            if f.help_text:
                f.widget.attrs.setdefault("title", f.help_text)
            self.fields[spec["name"]] = f

    def _label(self, spec: dict) -> str:
        label = _text(spec["label"], spec.get("params"))
        seat = spec.get("seat")
        parts = []
        if spec.get("group"):
            parts.append(_text(spec["group"]))
        if seat is not None and seat < len(self.names):
            parts.append(self.names[seat])
        return " · ".join([*parts, label])

    def _field(self, spec: dict) -> forms.Field:
        kind = spec["kind"]
        common = {
            "required": False,
            "label": self._label(spec),
            "help_text": _text(spec.get("help", ""), spec.get("params")),
        }
        if kind == "int":
            attrs = {"inputmode": "numeric", "class": "num"}
            return forms.IntegerField(
                min_value=spec.get("min"),
                max_value=spec.get("max"),
                widget=forms.NumberInput(attrs=attrs),
                **common,
            )
        if kind == "bool":
            return forms.BooleanField(**common)
        if kind in ("seat", "seats"):
            choices = [(i, f"{i + 1} · {name}") for i, name in enumerate(self.names)]
            if kind == "seats":
                return forms.TypedMultipleChoiceField(
                    choices=choices,
                    coerce=int,
                    widget=forms.CheckboxSelectMultiple,
                    **common,
                )
            return forms.TypedChoiceField(
                choices=[("", "—"), *choices], coerce=int, empty_value=None, **common
            )
        if kind == "choice":
            choices = [(str(value), _text(str(label))) for value, label in spec["choices"]]
            return forms.ChoiceField(choices=[("", "—"), *choices], **common)
        raise ValueError(f"unknown sheet field kind {kind!r}")

    def sheet(self) -> dict:
        """The sheet as the engine reads it: blanks and unticked boxes left out."""
        out = {}
        for spec in self.schema:
            value = self.cleaned_data.get(spec["name"])
            if value is None or value == "" or value is False or value == []:
                continue
            out[spec["name"]] = value
        return out

    def problem_message(self, problem) -> str:
        """An engine's problem in the user's language, naming the player
        ("Anna Şahin is marked out ...") where the engine says "seat 4"."""
        seat = (problem.params or {}).get("seat")
        if isinstance(seat, int) and 1 <= seat <= len(self.names):
            translated = gettext(problem.template)
            named = _SEAT_WORD.sub("{seat}", translated, count=1)
            if named != translated:
                return named.format(**{**problem.params, "seat": self.names[seat - 1]})
        return display(problem.template, problem.params, gettext)

    def add_problems(self, problems) -> None:
        """Show the engine's problems in the user's language: each next to the
        first of its fields (the others are marked), the rest on top."""
        for problem in problems:
            message = self.problem_message(problem)
            fields = [name for name in problem.fields if name in self.fields]
            if not fields:
                self.add_error(None, message)
                continue
            self.add_error(fields[0], message)
            self.flagged.update(fields[1:])

    # -- layout: the printed sheet's grids ---------------------------------------

    def _autofocus(self) -> None:
        """Keyboard focus where typing goes on: the first field of a fresh
        form, the first field with a problem; none on a form that passed (its
        page asks a question or shows a preview, and focuses that)."""
        names = list(self.fields)
        if self.is_bound:
            wanted = next((n for n in names if n in self.errors or n in self.flagged), None)
        else:
            wanted = names[0] if names else None
        if wanted is not None:
            self.fields[wanted].widget.attrs["autofocus"] = True

    def layout(self) -> dict:
        """The fields arranged as on the printed sheet: a grid of seats (rows)
        by per-seat fields (columns); a grid of groups, e.g. hands (rows) by
        group fields and per-seat fields; other fields as boxes before or
        after the grids, in schema order."""
        helps: dict[str, str] = {}
        seat_cols: list[str] = []
        seat_cells: dict[tuple[int, str], forms.BoundField] = {}
        groups: list[str] = []
        group_field_cols: list[str] = []
        group_seat_cols: list[str] = []
        group_cells: dict[tuple[str, str, int | None], forms.BoundField] = {}
        boxes_before, boxes_after = [], []
        grid_seen = False
        if self.autofocus:
            self._autofocus()
        for spec in self.schema:
            bound = self[spec["name"]]
            bound.flagged = spec["name"] in self.flagged
            label = _text(spec["label"], spec.get("params"))
            helps.setdefault(label, bound.help_text)
            seat, group = spec.get("seat"), spec.get("group")
            if group is not None:
                grid_seen = True
                if group not in groups:
                    groups.append(group)
                cols = group_seat_cols if seat is not None else group_field_cols
                if label not in cols:
                    cols.append(label)
                group_cells[(group, label, seat)] = bound
            elif seat is not None:
                grid_seen = True
                if label not in seat_cols:
                    seat_cols.append(label)
                seat_cells[(seat, label)] = bound
            else:
                (boxes_after if grid_seen else boxes_before).append(bound)
        seats = range(len(self.names))

        def heads(cols):
            return [{"label": c, "help": helps.get(c, "")} for c in cols]

        return {
            "seat_cols": heads(seat_cols),
            "seat_rows": [
                {
                    "seat": s + 1,
                    "name": self.names[s],
                    "cells": [seat_cells.get((s, c)) for c in seat_cols],
                }
                for s in seats
            ]
            if seat_cols
            else [],
            "group_field_cols": heads(group_field_cols),
            "group_seat_cols": heads(group_seat_cols),
            "names": self.names,
            "group_rows": [
                {
                    "group": _text(g),
                    "fields": [group_cells.get((g, c, None)) for c in group_field_cols],
                    "seats": [group_cells.get((g, c, s)) for c in group_seat_cols for s in seats],
                }
                for g in groups
            ],
            "boxes_before": boxes_before,
            "boxes_after": boxes_after,
        }


def sheet_digest(sheet: dict) -> str:
    return hashlib.sha256(json.dumps(sheet, sort_keys=True, default=str).encode()).hexdigest()


class EntryMetaForm(forms.Form):
    """What goes with a sheet: the version the author started from, the
    reason for a correction, and the proof that its preview was shown."""

    expected_version = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)
    reason = forms.CharField(
        label=_("Reason for the correction"),
        required=False,
        max_length=500,
        help_text=_("Needed when a confirmed result is corrected after time was called."),
    )
    handed_in_late = forms.BooleanField(
        label=_("The sheet was handed in late"),
        required=False,
        help_text=_("Players filled it in or brought it well after time was called."),
    )
    checked = forms.CharField(required=False, widget=forms.HiddenInput)
    #: the answer "yes, this table ended before time" for one sheet
    early = forms.CharField(required=False, widget=forms.HiddenInput)
    via = forms.ChoiceField(
        choices=[("form", "form"), ("qr", "qr")], required=False, widget=forms.HiddenInput
    )

    @staticmethod
    def token_for(sheet: dict) -> str:
        return _PREVIEW.sign(sheet_digest(sheet))

    @staticmethod
    def early_token_for(sheet: dict) -> str:
        return _EARLY.sign(sheet_digest(sheet))

    def ended_before_time(self, sheet: dict) -> bool:
        """Was it confirmed that exactly this sheet ended before time?"""
        try:
            return _EARLY.unsign(self.cleaned_data.get("early") or "") == sheet_digest(sheet)
        except signing.BadSignature:
            return False

    def previewed(self, sheet: dict) -> bool:
        """Was exactly this sheet's preview shown before?"""
        try:
            return _PREVIEW.unsign(self.cleaned_data.get("checked") or "") == sheet_digest(sheet)
        except signing.BadSignature:
            return False


class TableFindForm(forms.Form):
    table = forms.IntegerField(label=_("Table"), min_value=1)
