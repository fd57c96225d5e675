from __future__ import annotations

import importlib
import json

from django import forms
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db.models import Case, When
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from games import ENGINES, DeckError
from tournaments import limits, safejson
from tournaments.collation import sort_by_name
from tournaments.models import (
    MAX_ROUND_MINUTES,
    TIEBREAKS,
    TOURNAMENT_SETTINGS,
    Player,
    Tournament,
    game_choices,
)
from tournaments.player_import import UnreadableFile, decode_upload
from tournaments.roster_models import Person
from tournaments.services.tournaments import game_defaults
from tournaments.widgets import DateInput

SIZE_CHOICES = [(n, str(n)) for n in range(2, 7)]
MAX_DECK_BYTES = 512 * 1024
UPLOADED = "__uploaded__"


def option_field(spec: dict, current):
    """A form field for one of the engine's ``options_schema`` entries."""
    label = gettext(spec["label"])
    help_text = gettext(spec["help"]) if spec.get("help") else ""
    required = spec.get("required", False)
    if spec["kind"] == "choice":
        choices = [(str(v), gettext(str(lbl))) for v, lbl in spec["choices"]]
        if isinstance(current, dict):  # an uploaded deck
            choices.append((UPLOADED, gettext("own deck (uploaded)")))
            current = UPLOADED
        return forms.ChoiceField(
            label=label, choices=choices, required=required, initial=current, help_text=help_text
        )
    if spec["kind"] == "bool":
        return forms.BooleanField(label=label, required=False, initial=current, help_text=help_text)
    return forms.IntegerField(
        label=label,
        required=required,
        initial=current,
        min_value=spec.get("min"),
        max_value=spec.get("max"),
        help_text=help_text,
    )


class TournamentForm(forms.ModelForm):
    """Create/edit a tournament. Game options come from the engine's
    ``options_schema``; a deck file (JSON) replaces the shipped deck."""

    game = forms.ChoiceField(label=_("game"), choices=game_choices)
    allowed_sizes = forms.TypedMultipleChoiceField(
        label=_("allowed table sizes"),
        choices=SIZE_CHOICES,
        coerce=int,
        widget=forms.CheckboxSelectMultiple,
        required=False,
        help_text=_("Leave empty for the game's usual sizes."),
    )
    table_size = forms.TypedChoiceField(
        label=_("preferred table size"),
        choices=[("", _("the game's usual size")), *SIZE_CHOICES],
        coerce=int,
        empty_value=None,
        required=False,
    )
    deck_file = forms.FileField(
        label=_("own deck (JSON file)"),
        required=False,
        help_text=_("Optional: your own card list in the game's deck format."),
    )

    class Meta:
        model = Tournament
        widgets = {"event_date": DateInput}
        fields = [
            "name",
            "event_date",
            "venue",
            "game",
            *TOURNAMENT_SETTINGS[:5],
            "round1_seating",
            *TOURNAMENT_SETTINGS[5:],
        ]

    def __init__(self, *args, game: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].widget.attrs.update(
            {
                "hx-get": "",
                "hx-trigger": "change",
                "hx-target": "#game-options",
                "hx-select": "#game-options",
                "hx-swap": "outerHTML",
                "hx-include": "this",
            }
        )
        game = self.data.get("game") or game or self.instance.game or next(iter(ENGINES))
        self.game = game if game in ENGINES else next(iter(ENGINES))
        saved = self.instance.game_options if self.instance.game == self.game else {}
        current_options = {**ENGINES[self.game].default_options(), **(saved or {})}
        self.option_names = []
        for spec in ENGINES[self.game].options_schema():
            name = f"opt_{spec['name']}"
            self.fields[name] = option_field(spec, current_options.get(spec["name"]))
            self.option_names.append(name)
        current = self.instance.tiebreaks if self.instance.pk else []
        tb_choices = [("", "—"), *TIEBREAKS]
        for i in range(len(TIEBREAKS)):
            self.fields[f"tiebreak_{i + 1}"] = forms.ChoiceField(
                label=_("tiebreak %(n)s") % {"n": i + 1},
                choices=tb_choices,
                required=False,
                initial=current[i] if i < len(current) else "",
            )
        # left out (older forms, scripts): the random draw, or what was saved
        self.fields["round1_seating"].required = False
        self.fields["rounds"].min_value = 1
        self.fields["rounds"].widget.attrs["min"] = 1
        self.fields["round_minutes"].widget.attrs["min"] = 1
        # digital tables: left empty, the grace period stays as it is (default 60 s)
        self.fields["grace_seconds"].required = False
        self.fields["grace_seconds"].widget.attrs.update({"min": 0, "max": 3600})

    def clean_rounds(self):
        rounds = self.cleaned_data["rounds"]
        message = limits.rounds_message(rounds)
        if message:
            raise forms.ValidationError(message)
        seated = self.instance.round_set.count() if self.instance.pk else 0
        if rounds < seated:
            raise forms.ValidationError(
                ngettext(
                    "%(n)s round is seated already: the tournament needs at least %(n)s round.",
                    "%(n)s rounds are seated already: the tournament needs at least %(n)s rounds.",
                    seated,
                )
                % {"n": seated}
            )
        return rounds

    def clean_grace_seconds(self):
        seconds = self.cleaned_data.get("grace_seconds")
        if seconds is None:
            return self.instance.grace_seconds
        if seconds > 3600:
            raise forms.ValidationError(gettext("At most 3600 seconds."))
        return seconds

    def clean_round_minutes(self):
        minutes = self.cleaned_data["round_minutes"]
        if not 1 <= minutes <= MAX_ROUND_MINUTES:
            raise forms.ValidationError(
                gettext("Between 1 and %(max)s minutes.") % {"max": MAX_ROUND_MINUTES}
            )
        return minutes

    def clean(self):
        data = super().clean()
        data["round1_seating"] = data.get("round1_seating") or self.instance.round1_seating
        if data.get("team_mode") and data["round1_seating"] != "random":
            self.add_error(
                "round1_seating",
                gettext(
                    "In team mode partners sit together: round 1 is drawn at random, "
                    "not seated by rating."
                ),
            )

        game = data.get("game")
        if game not in ENGINES:
            return data
        defaults = game_defaults(game)
        if not data.get("allowed_sizes"):
            data["allowed_sizes"] = defaults["allowed_sizes"]
        if not data.get("table_size"):
            data["table_size"] = defaults["table_size"]
        order = [data.get(f"tiebreak_{i + 1}") for i in range(len(TIEBREAKS))]
        order = [t for t in order if t]
        if len(set(order)) != len(order):
            self.add_error("tiebreak_1", gettext("Each tiebreak may appear only once."))
        data["tiebreaks"] = order or defaults["tiebreaks"]
        options = dict(self.instance.game_options or {}) if self.instance.game == game else {}
        options = {**defaults["game_options"], **options}
        if game == self.game:
            for name in self.option_names:
                value = data.get(name)
                if value == UPLOADED or value in (None, ""):
                    continue
                options[name.removeprefix("opt_")] = value
        upload = data.get("deck_file")
        if upload:
            options["deck"] = self._read_deck(game, upload)
        data["game_options"] = options
        return data

    def _read_deck(self, game, upload):
        parse = getattr(importlib.import_module(f"games.{game}"), "parse_deck", None)
        if parse is None:
            self.add_error("deck_file", gettext("This game has no own decks."))
            return None
        if upload.size > MAX_DECK_BYTES:
            self.add_error("deck_file", gettext("The deck file is larger than 512 KB."))
            return None
        try:
            data = json.loads(upload.read().decode("utf-8"))
            safejson.check(data)
            parse(data)
        except RecursionError:
            self.add_error(
                "deck_file",
                gettext("The deck file is nested more than %(n)s levels deep.")
                % {"n": limits.MAX_JSON_DEPTH},
            )
        except safejson.BadJSON as exc:
            self.add_error("deck_file", str(exc))
        except UnicodeDecodeError:
            self.add_error("deck_file", gettext("The deck file is not UTF-8 text."))
        except json.JSONDecodeError as exc:
            self.add_error(
                "deck_file",
                gettext("The deck file is not valid JSON (line %(line)s).") % {"line": exc.lineno},
            )
        except (DeckError, ValueError, TypeError, KeyError) as exc:
            self.add_error("deck_file", gettext("The deck can't be used: %(why)s") % {"why": exc})
        else:
            return data
        return None

    def game_option_fields(self):
        return [self[name] for name in self.option_names]

    def other_fields(self):
        return [f for f in self if f.name not in self.option_names]

    def _post_clean(self):
        data = self.cleaned_data
        for key in ("tiebreaks", "game_options", "allowed_sizes", "table_size"):
            if key in data:
                setattr(self.instance, key, data[key])
        super()._post_clean()


class PlayerForm(forms.ModelForm):
    """The organizer's player: a rating typed here is the organizer's word
    (confirmed); editing a player shows whether the rating is confirmed (a
    player's own number from the registration form is not, until ticked)."""

    class Meta:
        model = Player
        fields = ["name", "club", "rating", "rating_confirmed", "birth_year", "team"]

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.instance.tournament = tournament
        self.tournament = tournament
        if self.instance.pk is None:  # added by the organizer: confirmed
            del self.fields["rating_confirmed"]
        rating = self.fields["rating"]
        rating.min_value, rating.max_value = limits.MIN_RATING, limits.MAX_RATING
        rating.validators += [
            MinValueValidator(limits.MIN_RATING),
            MaxValueValidator(limits.MAX_RATING),
        ]
        if tournament.team_mode:
            self.fields["team"].queryset = tournament.teams.all()
        else:
            del self.fields["team"]

    def clean(self):
        data = super().clean()
        name, club = data.get("name"), data.get("club") or ""
        if name:
            twins = self.tournament.players.filter(name__iexact=name, club__iexact=club)
            if self.instance.pk:
                twins = twins.exclude(pk=self.instance.pk)
            if twins.exists():
                message = (
                    gettext("%(name)s of %(club)s is already registered.")
                    if club
                    else gettext("%(name)s is already registered.")
                )
                raise forms.ValidationError(message % {"name": name, "club": club})
        if "rating" in self.changed_data and "rating_confirmed" in self.fields:
            data["rating_confirmed"] = True  # the organizer typed the number
        return data


class PlayerImportForm(forms.Form):
    file = forms.FileField(label=_("CSV file"), required=False)
    text = forms.CharField(
        label=_("or paste the list"),
        required=False,
        widget=forms.Textarea(
            attrs={"rows": 8, "placeholder": "Anna Beispiel, SK Musterstadt, 1500, 2001"}
        ),
        help_text=_(
            "One player per line: name, club, rating, birth year (club and the rest optional)."
        ),
    )

    def clean(self):
        data = super().clean()
        upload = data.get("file")
        if upload:
            if upload.size > limits.MAX_PLAYER_FILE_BYTES:
                raise forms.ValidationError(
                    gettext("The file is larger than %(n)s MB.")
                    % {"n": limits.mb(limits.MAX_PLAYER_FILE_BYTES)}
                )
            try:
                data["content"] = decode_upload(upload.read())
            except UnreadableFile as exc:
                raise forms.ValidationError(str(exc)) from None
        else:
            data["content"] = data.get("text") or ""
        if not data["content"].strip():
            raise forms.ValidationError(gettext("Choose a file or paste a list."))
        return data


class TeamForm(forms.Form):
    name = forms.CharField(label=_("team name"), max_length=200)
    first = forms.ModelChoiceField(label=_("first player"), queryset=Player.objects.none())
    second = forms.ModelChoiceField(label=_("second player"), queryset=Player.objects.none())

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        free = tournament.players.filter(team__isnull=True)
        # in German alphabetical order, as on every page
        order = [p.pk for p in sort_by_name(free, lambda p: p.name)]
        free = free.order_by(Case(*[When(pk=pk, then=i) for i, pk in enumerate(order)]))
        self.fields["first"].queryset = free
        self.fields["second"].queryset = free


class ScorekeeperForm(forms.Form):
    username = forms.CharField(label=_("username"), max_length=150)


class InviteForm(forms.Form):
    """The organizer invites a helper: a name, and an e-mail where the site sends mail."""

    name = forms.CharField(label=_("Helper's name"), max_length=150)
    email = forms.EmailField(
        label=_("E-mail"),
        required=False,
        help_text=_("Optional: the link is sent there as well."),
    )

    def __init__(self, *args, mail: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        if not mail:
            del self.fields["email"]


class JoinForm(forms.Form):
    """A helper without an account creates one from the invitation."""

    username = forms.CharField(label=_("username"), max_length=150)
    password1 = forms.CharField(label=_("Password"), widget=forms.PasswordInput, strip=False)
    password2 = forms.CharField(label=_("Password again"), widget=forms.PasswordInput, strip=False)

    def clean_username(self):
        name = self.cleaned_data["username"].strip()
        UnicodeUsernameValidator()(name)
        return name

    def clean(self):
        data = super().clean()
        p1, p2 = data.get("password1"), data.get("password2")
        if p1 and p2 and p1 != p2:
            self.add_error("password2", _("The two passwords differ."))
        elif p1:
            try:
                validate_password(p1)
            except forms.ValidationError as e:
                self.add_error("password1", e)
        return data


class PersonForm(forms.ModelForm):
    """A roster person: name, club, birth year, notes (no contact details)."""

    class Meta:
        model = Person
        fields = ["name", "club", "birth_year", "notes"]


class PersonMergeForm(forms.Form):
    kept = forms.ModelChoiceField(queryset=None, label=_("Keep"))
    merged = forms.ModelChoiceField(queryset=None, label=_("Merge into it"))

    def __init__(self, *args, people=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["kept"].queryset = people
        self.fields["merged"].queryset = people

    def clean(self):
        data = super().clean()
        if data.get("kept") and data.get("kept") == data.get("merged"):
            raise forms.ValidationError(gettext("Choose two different entries to merge."))
        return data


MAX_CLUB_BYTES = 50 * 1024 * 1024


class ClubImportForm(forms.Form):
    file = forms.FileField(
        label=_("Club export (JSON)"),
        help_text=_("A file saved with “Export the club” on the roster page."),
    )

    def clean_file(self):
        f = self.cleaned_data["file"]
        if f.size > MAX_CLUB_BYTES:
            raise forms.ValidationError(gettext("The file is too large (at most 50 MB)."))
        return f
