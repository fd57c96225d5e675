"""The wing's forms: the announcement (organizer) and the registration
(player; also the organizer's "add by hand" and the player's change).

Against bots the registration form carries a field people don't see (a bot
filling it is refused) and a signed stamp of when the form was handed out:
sent back sooner than ``REGISTRATION_MIN_SECONDS`` or with a forged stamp,
it is refused with a message. The stamp also holds the form's one-time id,
so the same form sent twice makes one registration."""

from __future__ import annotations

import time
import uuid

from django import forms
from django.conf import settings
from django.core import signing
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments import limits
from tournaments.registrations.models import MAX_NOTE, Announcement
from tournaments.registrations.services import Entry
from tournaments.widgets import DateInput, DateTimeInput, TimeInput

_SALT = "registration-form"
#: the oldest form accepted (a phone left open overnight is fine)
FORM_MAX_AGE = 7 * 24 * 3600
MIN_BIRTH_YEAR = 1900


def form_stamp(nonce: str | None = None, at: float | None = None) -> str:
    """A signed stamp: the form's one-time id and when it was handed out."""
    return signing.dumps(
        {"n": nonce or uuid.uuid4().hex, "t": int(at if at is not None else time.time())},
        salt=_SALT,
    )


class AnnouncementForm(forms.ModelForm):
    event_date = forms.DateField(label=_("date"), required=False, widget=DateInput)
    venue = forms.CharField(label=_("venue"), max_length=limits.MAX_NAME, required=False)

    class Meta:
        model = Announcement
        fields = ["open", "start_time", "deadline", "cap", "note", "public_names"]
        widgets = {
            "start_time": TimeInput,
            "deadline": DateTimeInput,
            "note": forms.Textarea(attrs={"rows": 4, "maxlength": MAX_NOTE}),
        }

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["event_date"].initial = tournament.event_date
        self.fields["venue"].initial = tournament.venue
        self.fields["cap"].widget.attrs.update(min=1, max=limits.MAX_PLAYERS)
        self.fields["cap"].validators.append(MaxValueValidator(limits.MAX_PLAYERS))
        self.fields["note"].max_length = MAX_NOTE

    def clean_deadline(self):
        deadline = self.cleaned_data.get("deadline")
        if deadline is not None and not 2000 <= deadline.year <= 2999:
            raise forms.ValidationError(_("Enter a deadline between the years 2000 and 2999."))
        return deadline


class RegistrationForm(forms.Form):
    name = forms.CharField(label=_("name"), max_length=limits.MAX_NAME)
    club = forms.CharField(label=_("club"), max_length=limits.MAX_NAME, required=False)
    birth_year = forms.IntegerField(label=_("birth year"), required=False)
    rating = forms.IntegerField(
        label=_("rating"),
        required=False,
        min_value=limits.MIN_RATING,
        max_value=limits.MAX_RATING,
        help_text=_(
            "Optional: a number for your playing strength, if the organizer asks for one. "
            "The number counts only once the organizer has confirmed it: then it may seed "
            "round 1 and decide a tie that nothing else decides."
        ),
    )
    consent_public = forms.BooleanField(
        label=_("Show my name and club on the public list"), required=False
    )

    def __init__(self, *args, organizer: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        if organizer:  # the organizer's page speaks of the player
            self.fields["consent_public"].label = _("The player agreed to the public list")
            self.fields["rating"].help_text = _(
                "Entered by you, it counts as confirmed: it may seed round 1 and break "
                "the last tie."
            )
        year = timezone.localdate().year
        self.fields["birth_year"].validators += [
            MinValueValidator(MIN_BIRTH_YEAR),
            MaxValueValidator(year),
        ]
        self.fields["birth_year"].widget.attrs.update(min=MIN_BIRTH_YEAR, max=year)
        for name in ("name", "club"):
            self.fields[name].widget.attrs["maxlength"] = limits.MAX_NAME

    def entry(self) -> Entry:
        d = self.cleaned_data
        return Entry(
            name=d["name"],
            club=d.get("club") or "",
            birth_year=d.get("birth_year"),
            rating=d.get("rating"),
            consent_public=bool(d.get("consent_public")),
        )


class SignUpForm(RegistrationForm):
    """The public form: the registration, the optional address the link is
    mailed to (only where the site sends mail; it is not stored), the field
    people don't see and the stamp."""

    email = forms.EmailField(
        label=_("email (optional)"),
        required=False,
        max_length=254,
        help_text=_("We send your personal link there once; the address is not stored."),
    )
    website = forms.CharField(
        label=_("Leave this field empty"), required=False, max_length=limits.MAX_NAME
    )
    stamp = forms.CharField(widget=forms.HiddenInput, max_length=500)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if not getattr(settings, "REGISTRATION_MAIL", False):
            del self.fields["email"]
        self.fields["website"].widget.attrs.update(autocomplete="off", tabindex="-1")
        if not self.is_bound:
            self.initial["stamp"] = form_stamp()
        self.nonce = None

    def renew_stamp(self) -> None:
        """Hand the form out again with a new stamp (its entries kept): the
        one it came with was used by another sender."""
        self.data = self.data.copy()
        self.data["stamp"] = form_stamp()

    def clean_website(self):
        if self.cleaned_data.get("website"):
            raise forms.ValidationError(_("This form could not be sent. Please try again."))
        return ""

    def clean_stamp(self):
        try:
            data = signing.loads(self.cleaned_data["stamp"], salt=_SALT, max_age=FORM_MAX_AGE)
            nonce, at = str(data["n"]), int(data["t"])
        except (signing.BadSignature, KeyError, TypeError, ValueError):
            raise forms.ValidationError(
                _("This form has expired. Please check your entries and send it again.")
            ) from None
        if time.time() - at < settings.REGISTRATION_MIN_SECONDS:
            raise forms.ValidationError(
                _("That was very quick. Please check your entries and send the form again.")
            )
        self.nonce = nonce[:40]
        return self.cleaned_data["stamp"]

    def clean(self):
        data = super().clean()
        problems = [self.errors.get(f) for f in ("website", "stamp") if self.errors.get(f)]
        if problems:  # shown at the top: the two fields are not visible
            for field in ("website", "stamp"):
                self.errors.pop(field, None)
            for errors in problems:
                for e in errors:
                    self.add_error(None, e)
        return data
