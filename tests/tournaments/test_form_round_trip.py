"""Every organizer form that shows what is stored, opened in German and in
English and saved unchanged, changes nothing in the database.

The form is sent back as a browser sends it (``tests/forms_in_pages.py``):
a date, time or number input whose rendered value the browser can't read
(``type=date`` with ``28.11.2026``) is sent empty — which is how the German
announcement form erased the tournament's date. A save's own time stamp
(``auto_now``) aside, no row of any table may differ.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time
from pathlib import Path

import pytest
from django.apps import apps
from django.contrib.messages import constants as message_levels
from django.contrib.messages import get_messages
from django.db import models
from django.urls import reverse
from django.utils import timezone

from scoring.season import services as season_services
from scoring.season.models import Series
from tests.factories import seated_round
from tests.forms_in_pages import forms
from tournaments.finals import services as finals
from tournaments.models import Player, Tournament
from tournaments.registrations import services as registrations
from tournaments.roster_models import Person
from tournaments.services import round_life

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]

#: tables whose rows a save may write besides the data (who is logged in, logins)
_NOT_DATA = {"django_session", "axes_accessattempt", "axes_accesslog", "axes_accessfailurelog"}
#: the model forms of the project; each must be walked below
MODEL_FORMS = {
    "TournamentForm",
    "PlayerForm",
    "PersonForm",
    "AnnouncementForm",
    "FinalStageForm",
    "SeriesForm",
}


def snapshot() -> dict[str, list[dict]]:
    """Every row of every table, by primary key (``auto_now`` fields aside)."""
    out = {}
    for model in apps.get_models():
        if model._meta.db_table in _NOT_DATA or model._meta.proxy:
            continue
        names = [
            f.attname
            for f in model._meta.concrete_fields
            if not (isinstance(f, models.DateTimeField | models.DateField) and f.auto_now)
        ]
        out[model._meta.db_table] = list(model.objects.order_by("pk").values(*names))
    return out


@pytest.fixture
def world(organizer):
    """A tournament with everything set that its organizer's forms show."""
    from tournaments import services

    t = services.tournament_create(owner=organizer, name="Herbstturnier", game="quartett")
    Tournament.objects.filter(pk=t.pk).update(
        event_date=date(2026, 11, 28), venue="Vereinsheim am See", grace_seconds=90
    )
    t.refresh_from_db()
    rnd = seated_round(
        t,
        players=4,
        names=["Anna Ahrens", "Bernd Berg", "Clara Cramer", "Dieter Dahl"],
        club="SK Bonn",
        rating=[1834, 1500, None, 2010],
        birth_year=[1971, None, 2004, 1988],
    )
    round_life.round_schedule_start(
        round=rnd, at=timezone.make_aware(datetime(2030, 5, 1, 14, 30)), by=organizer
    )
    registrations.announcement_save(
        tournament=t,
        by=organizer,
        event_date=t.event_date,
        venue=t.venue,
        start_time=time(19, 30),
        deadline=timezone.make_aware(datetime(2026, 11, 27, 18, 0)),
        cap=48,
        note="Startgeld 5 €.\r\nAnfahrt: Linie 16.",
        public_names=True,
        open=True,
    )
    finals.final_stage_save(
        tournament=t, by=organizer, format="table", final_size=4, minutes=40, mode="add"
    )
    person = Person.objects.create(
        owner=organizer, name="Erika Ebert", club="SK Bonn", birth_year=1965, notes="Kassenwart"
    )
    series = Series(
        owner=organizer, name="Winterserie", game="quartett", scheme="table", best=3, minimum=2
    )
    series.table = [25, 20, 16, 13]
    season_services.series_save(series=series)
    player = Player.objects.get(tournament=t, name="Anna Ahrens")
    return {"t": t, "round": rnd, "person": person, "series": series, "player": player}


def pages(w) -> list[tuple[str, str, str]]:
    """(what, the page that shows the form, where the form is sent)."""
    t = w["t"].pk
    own = {
        "TournamentForm": reverse("tournament_edit", args=[t]),
        "PlayerForm": reverse("player_edit", args=[t, w["player"].pk]),
        "PersonForm": reverse("person_detail", args=[w["person"].pk]),
        "AnnouncementForm": reverse("announcement_edit", args=[t]),
        "SeriesForm": reverse("series_detail", args=[w["series"].pk]),
    }
    return [(name, url, url) for name, url in own.items()] + [
        (
            "FinalStageForm",
            reverse("final_stage", args=[t]),
            reverse("final_stage_settings", args=[t]),
        ),
        (
            "the round's scheduled start",
            reverse("round_detail", args=[t, w["round"].number]),
            reverse("round_schedule", args=[t, w["round"].number]),
        ),
    ]


def _the_form(html: str, page: str, action: str):
    found = [f for f in forms(html) if f.method == "post" and (f.action or page) == action]
    assert len(found) == 1, f"{len(found)} forms sent to {action} on {page}"
    return found[0]


def _project_forms() -> set[type]:
    """Every form class of the project (from each module that defines one)."""
    import importlib

    from django import forms as django_forms

    for package in ("tournaments", "scoring"):
        for path in (ROOT / package).rglob("*.py"):
            text = path.read_text()
            if "migrations" not in path.parts and re.search(r"\(forms\.(Model)?Form\)", text):
                module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
                importlib.import_module(module)

    def subclasses(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)

    return {
        c
        for c in subclasses(django_forms.BaseForm)
        if c.__module__.startswith(("tournaments.", "scoring."))
    }


def test_every_model_form_is_walked():
    from django import forms as django_forms

    model_forms = {c.__name__ for c in _project_forms() if issubclass(c, django_forms.ModelForm)}
    assert model_forms == MODEL_FORMS


def test_every_date_and_time_field_has_the_iso_input():
    """No form of the project renders a date or a time in the language's
    format into an input (the shared inputs of ``tournaments/widgets.py``)."""
    from django import forms as django_forms

    from tournaments import widgets

    ours = (widgets.DateInput, widgets.TimeInput, widgets.DateTimeInput)
    kinds = (django_forms.DateField, django_forms.TimeField, django_forms.DateTimeField)
    dated = {
        f"{form.__name__}.{name}": field.widget
        for form in _project_forms()
        for name, field in form.base_fields.items()
        if isinstance(field, kinds)
        or isinstance(field.widget, django_forms.widgets.DateTimeBaseInput)
    }
    assert {"TournamentForm.event_date", "AnnouncementForm.deadline"} <= set(dated)
    assert [name for name, widget in dated.items() if not isinstance(widget, ours)] == []


@pytest.mark.parametrize("language", ["de", "en"])
def test_every_organizer_form_saved_unchanged_changes_nothing(client, world, language):
    client.force_login(world["t"].owner)
    headers = {"HTTP_ACCEPT_LANGUAGE": language}
    walked = set()
    for what, page, action in pages(world):
        before = snapshot()
        response = client.get(page, **headers)
        assert response.status_code == 200, (what, page)
        form = _the_form(response.content.decode(), page, action)
        answer = client.post(action, form.data(), **headers)
        # saved (not refused with the form again, nor with an error message)
        assert answer.status_code == 302, (what, answer.status_code, answer.content[:3000])
        refusals = [
            str(m) for m in get_messages(answer.wsgi_request) if m.level >= message_levels.WARNING
        ]
        assert refusals == [], (what, language)
        after = snapshot()
        changed = {
            table: [row for row in after[table] if row not in before[table]]
            for table in after
            if after[table] != before[table]
        }
        assert changed == {}, f"{what} ({language}) sent back unchanged changed {changed}"
        walked.add(what)
    assert walked >= MODEL_FORMS
    t = Tournament.objects.get(pk=world["t"].pk)
    assert t.event_date == date(2026, 11, 28)


@pytest.mark.parametrize("language", ["de", "en"])
def test_date_and_time_inputs_hold_what_a_browser_can_read(client, world, language):
    """Each date/time-like input of these pages carries its value in the
    ISO form its ``type`` requires (the stored one, not an empty field)."""
    client.force_login(world["t"].owner)
    seen = {}
    for what, page, action in pages(world):
        html = client.get(page, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        for name, kind, value in _the_form(html, page, action).dated:
            seen[(what, name)] = (kind, value)
    assert seen == {
        ("TournamentForm", "event_date"): ("date", "2026-11-28"),
        ("AnnouncementForm", "event_date"): ("date", "2026-11-28"),
        ("AnnouncementForm", "start_time"): ("time", "19:30"),
        ("AnnouncementForm", "deadline"): ("datetime-local", "2026-11-27T18:00"),
        ("the round's scheduled start", "starts_at"): ("datetime-local", "2030-05-01T14:30"),
    }
