"""Each list of names is defined once, in the pure module, and the Django side
only labels it: a tiebreak, points scheme or seating mode added to the pure
registry shows up in the tournament's choices and forms (or fails here for a
missing label)."""

from django.utils import translation

from scoring.season import standings as season_standings
from scoring.season.models import Series
from tournaments import clock as pure_clock
from tournaments import points, tiebreaks
from tournaments.forms import TournamentForm
from tournaments.models import (
    DEFAULT_TIEBREAKS,
    POINTS_SCHEMES,
    SEATING_MODES,
    TIEBREAKS,
    ClockActivation,
    Round,
    Tournament,
)
from tournaments.seating import request as seating_request


def test_tiebreak_choices_follow_the_pure_registry():
    assert [name for name, _ in TIEBREAKS] == list(tiebreaks.TIEBREAKS)
    assert list(tiebreaks.DEFAULT_ORDER) == DEFAULT_TIEBREAKS


def test_points_scheme_choices_follow_the_pure_registry():
    assert [name for name, _ in POINTS_SCHEMES] == list(points.SCHEMES)
    field = Tournament._meta.get_field("points_scheme")
    assert field.default == points.DEFAULT_SCHEME
    assert [name for name, _ in field.choices] == list(points.SCHEMES)


def test_round1_seating_choices_are_the_seating_packages_round1_modes():
    field = Tournament._meta.get_field("round1_seating")
    assert [mode for mode, _ in field.choices] == list(seating_request.ROUND1_MODES)
    assert set(seating_request.ROUND1_MODES) <= set(seating_request.MODES)
    assert set(seating_request.RATING_MODES) <= set(seating_request.ROUND1_MODES)


def test_the_round_seating_form_offers_every_seating_mode():
    assert [mode for mode, _ in SEATING_MODES] == list(seating_request.MODES)


def test_labels_are_attached_on_the_django_side_and_translated():
    field = Tournament._meta.get_field("round1_seating")
    labelled = [*TIEBREAKS, *POINTS_SCHEMES, *field.choices, *SEATING_MODES]
    with translation.override("en"):
        english = [str(label) for _, label in labelled]
    with translation.override("de"):
        german = [str(label) for _, label in labelled]
    assert all(english) and all(german)
    assert [e for e, g in zip(english, german, strict=True) if e == g] == []


def test_the_tournament_form_offers_every_tiebreak():
    form = TournamentForm()
    offered = [v for v, _ in form.fields["tiebreak_1"].choices if v]
    assert offered == list(tiebreaks.TIEBREAKS)


def test_season_scheme_choices_follow_the_season_registry():
    field = Series._meta.get_field("scheme")
    assert [name for name, _ in field.choices] == list(season_standings.SCHEMES)
    assert field.default in season_standings.SCHEMES


def test_clock_activation_kinds_are_the_pure_clocks():
    assert [kind for kind, _ in ClockActivation.KINDS] == list(pure_clock.KINDS)
    assert {Round.SEATED, Round.RUNNING, Round.PAUSED, Round.TIME_CALLED} <= {
        status for status, _ in Round.STATUSES
    }
