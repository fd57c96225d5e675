"""The registration wing's models: a tournament's announcement, its
registrations and their append-only log.

They belong to the ``registrations`` app; their tables keep the names
they had in the ``tournaments`` app (``db_table``). The relations name their
models by label; the module imports only the core's audit fields
(``tournaments.models.Audited``); the form checks the limits
(``tournaments.limits``). A registration's personal link is a
random token of which only the SHA-256 hash is stored: a database dump can't
act for a player.
"""

from __future__ import annotations

import hashlib
import secrets
import uuid

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Audited

#: random bytes of a personal link's token (16 → 22 URL-safe characters)
TOKEN_BYTES = 16
#: characters of the organizer's note on the announcement
MAX_NOTE = 2000


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def new_key() -> str:
    return uuid.uuid4().hex


class Announcement(models.Model):
    """A tournament opened for registration: when and where, until when
    players may register, how many places, and what the public sees."""

    tournament = models.OneToOneField(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="announcement"
    )
    start_time = models.TimeField(_("start time"), null=True, blank=True)
    deadline = models.DateTimeField(
        _("entry deadline"),
        null=True,
        blank=True,
        help_text=_("Registration closes at this moment; empty: open until you close it."),
    )
    cap = models.PositiveIntegerField(
        _("places"),
        default=64,
        validators=[MinValueValidator(1)],
        help_text=_("Beyond this number players join the waitlist in order."),
    )
    note = models.TextField(
        _("note"),
        max_length=MAX_NOTE,
        blank=True,
        help_text=_("Entry fee, rules, how to get there: shown on the public page."),
    )
    public_names = models.BooleanField(
        _("list names publicly"),
        default=False,
        help_text=_("The public page lists those registered who agreed to it."),
    )
    #: open: the public page takes registrations (until the deadline)
    open = models.BooleanField(_("open for registration"), default=True)
    #: players may check in themselves with their personal link
    check_in_open = models.BooleanField(_("self check-in open"), default=False)
    #: the next registration's place in the order of arrival
    next_position = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "tournaments_announcement"  # its table from before it was an app
        verbose_name = _("announcement")

    def __str__(self):
        return str(self.tournament_id)


class Registration(models.Model):
    """One player's registration. ``position`` orders arrivals (and so the
    waitlist); a confirmed registration is a tournament :class:`Player`."""

    CONFIRMED, WAITLISTED, WITHDRAWN, REJECTED, NO_SHOW = (
        "confirmed",
        "waitlisted",
        "withdrawn",
        "rejected",
        "no_show",
    )
    STATUSES = [
        (CONFIRMED, _("confirmed")),
        (WAITLISTED, _("waitlist")),
        (WITHDRAWN, _("withdrawn")),
        (REJECTED, _("rejected")),
        (NO_SHOW, _("did not come")),
    ]
    ACTIVE = (CONFIRMED, WAITLISTED)

    tournament = models.ForeignKey(
        "tournaments.Tournament", on_delete=models.CASCADE, related_name="registrations"
    )
    #: a stable public id (the laptop's key), never the secret token
    key = models.CharField(max_length=32, unique=True, default=new_key, editable=False)
    token_hash = models.CharField(max_length=64, unique=True)
    #: the form's one-time id: the same form sent twice is one registration
    form_nonce = models.CharField(max_length=40, unique=True, null=True, blank=True)
    name = models.CharField(_("name"), max_length=200)
    club = models.CharField(_("club"), max_length=200, blank=True)
    birth_year = models.PositiveSmallIntegerField(_("birth year"), null=True, blank=True)
    rating = models.IntegerField(_("rating"), null=True, blank=True)
    #: the rating is the organizer's word (added by hand, or changed by the
    #: organizer); one the player typed is not, until confirmed on the player
    rating_confirmed = models.BooleanField(default=False)
    #: name and club folded as the roster folds them ("Juergen Gross" and
    #: "Jürgen Groß" alike): a duplicate is found by an index, not a scan
    name_key = models.CharField(max_length=400, default="", editable=False)
    club_key = models.CharField(max_length=400, default="", editable=False)
    consent_public = models.BooleanField(_("name on the public list"), default=False)
    status = models.CharField(_("status"), max_length=20, choices=STATUSES, default=CONFIRMED)
    position = models.PositiveIntegerField(_("order"))
    #: a waitlisted player who checked in at the door (takes a no-show's place)
    present_at = models.DateTimeField(null=True, blank=True)
    player = models.OneToOneField(
        "tournaments.Player",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="registration",
    )
    #: the registration created its player (False: the organizer joined it
    #: to an entry of their own, which its link never changes or removes)
    owns_player = models.BooleanField(default=True)
    #: a player the organizer entered who is possibly the same person: the
    #: registration waits, without a player, for the organizer to join them
    #: or keep them apart (never bound to an existing entry by itself)
    twin = models.ForeignKey(
        "tournaments.Player",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    person = models.ForeignKey(
        "tournaments.Person",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="registrations",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "tournaments_registration"  # its table from before it was an app
        ordering = ["position"]
        verbose_name = _("registration")
        verbose_name_plural = _("registrations")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "position"], name="registration_position_unique"
            )
        ]
        indexes = [
            models.Index(fields=["tournament", "name_key"], name="registration_name_key"),
            models.Index(fields=["tournament", "status"], name="registration_status"),
        ]

    def __str__(self):
        return f"{self.name} ({self.club})" if self.club else self.name

    @property
    def active(self) -> bool:
        return self.status in self.ACTIVE

    @property
    def waits_for_decision(self) -> bool:
        """Confirmed without a player: possibly the same person as an entry
        of the organizer (``twin``), or that entry was removed meanwhile."""
        return self.status == self.CONFIRMED and self.player_id is None

    @property
    def rating_counts(self) -> bool:
        """The registration's rating is the organizer's word: typed or
        changed by the organizer, or confirmed on the player it created."""
        if self.rating_confirmed:
            return True
        return bool(self.owns_player and self.player_id and self.player.rating_confirmed)


class RegistrationEvent(Audited):
    """Append-only log of a registration: what happened, who did it (an
    organizer's account; None: the player through the link) and when."""

    REGISTERED, WAITLISTED, CHANGED, WITHDRAWN, PROMOTED, CONFIRMED = (
        "registered",
        "waitlisted",
        "changed",
        "withdrawn",
        "promoted",
        "confirmed",
    )
    REJECTED, MOVED, ADDED, LINK_REISSUED, CHECKED_IN, PRESENT, NO_SHOW, LEFT = (
        "rejected",
        "moved",
        "added",
        "link_reissued",
        "checked_in",
        "present",
        "no_show",
        "left",
    )
    TWIN, JOINED, KEPT_APART = "twin", "joined", "kept_apart"
    KINDS = [
        (REGISTERED, _("registered")),
        (WAITLISTED, _("joined the waitlist")),
        (CHANGED, _("changed")),
        (WITHDRAWN, _("withdrew")),
        (PROMOTED, _("moved up from the waitlist")),
        (CONFIRMED, _("confirmed by hand")),
        (REJECTED, _("rejected")),
        (MOVED, _("moved on the waitlist")),
        (ADDED, _("added by hand")),
        (LINK_REISSUED, _("personal link replaced")),
        (CHECKED_IN, _("checked in")),
        (PRESENT, _("present at the door (waitlist)")),
        (NO_SHOW, _("dropped: did not come")),
        (LEFT, _("left the tournament")),
        (TWIN, _("possibly the same person as an entry of the organizer")),
        (JOINED, _("joined to the organizer's entry")),
        (KEPT_APART, _("kept apart: a player of its own")),
    ]
    registration = models.ForeignKey(Registration, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=20, choices=KINDS)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    detail = models.CharField(max_length=300, blank=True, default="")

    class Meta:
        db_table = "tournaments_registrationevent"  # its table from before it was an app
        ordering = ["at", "pk"]

    def __str__(self):
        return f"{self.registration} {self.kind}"
