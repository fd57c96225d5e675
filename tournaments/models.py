"""Tournaments, their players and teams, and who may run them."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from games import ENGINES

POINTS_SCHEMES = [
    ("placement", _("Placement points scaled to table size")),
    ("win_draw_loss", _("Win / draw / loss")),
    ("figure", _("The game's own figure")),
]

TIEBREAKS = [
    ("points", _("Tournament points")),
    ("figures", _("Sum of game figures")),
    ("opponents", _("Opponents' average points")),
    ("wins", _("Wins")),
    ("head_to_head", _("Head-to-head")),
    ("rating", _("Rating / seed")),
]
DEFAULT_TIEBREAKS = ["points", "figures", "opponents", "wins", "head_to_head", "rating"]


def game_choices():
    return [(engine_id, engine.name) for engine_id, engine in ENGINES.items()]


class Tournament(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="owned_tournaments",
        verbose_name=_("organizer"),
    )
    scorekeepers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="scored_tournaments",
        verbose_name=_("scorekeepers"),
    )
    name = models.CharField(_("name"), max_length=200)
    game = models.CharField(_("game"), max_length=40)
    game_options = models.JSONField(_("game options"), default=dict, blank=True)
    rounds = models.PositiveSmallIntegerField(_("number of rounds"), default=5)
    round_minutes = models.PositiveSmallIntegerField(_("round length (minutes)"), default=45)
    table_size = models.PositiveSmallIntegerField(_("preferred table size"), default=4)
    allowed_sizes = models.JSONField(_("allowed table sizes"), default=list)
    team_mode = models.BooleanField(_("team mode"), default=False)
    points_scheme = models.CharField(
        _("points scheme"), max_length=20, choices=POINTS_SCHEMES, default="placement"
    )
    tiebreaks = models.JSONField(_("tiebreak order"), default=list)
    public = models.BooleanField(_("public pages"), default=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self):
        return self.name

    def get_absolute_url(self):
        return reverse("tournament_detail", args=[self.pk])

    @property
    def engine(self):
        return ENGINES[self.game]

    @property
    def has_started(self) -> bool:
        return self.round_set.exists()

    def clean(self):
        errors = {}
        engine = ENGINES.get(self.game)
        if engine is None:
            errors["game"] = _("Choose one of the games.")
        else:
            lo, hi = engine.min_players, engine.max_players
            sizes = self.allowed_sizes or []
            bad = [s for s in sizes if not isinstance(s, int) or not lo <= s <= hi]
            if bad or not sizes:
                errors["allowed_sizes"] = _(
                    "%(game)s is played at tables of %(lo)s to %(hi)s players."
                ) % {"game": engine.name, "lo": lo, "hi": hi}
            elif self.table_size not in sizes:
                errors["table_size"] = _("The preferred size must be one of the allowed sizes.")
            if self.team_mode and not any(engine.teams(n) for n in sizes if isinstance(n, int)):
                errors["team_mode"] = _("%(game)s has no teams at these table sizes.") % {
                    "game": engine.name
                }
        bad_tb = [t for t in self.tiebreaks or [] if t not in dict(TIEBREAKS)]
        if bad_tb:
            errors["tiebreaks"] = _("Unknown tiebreak: %(names)s") % {"names": ", ".join(bad_tb)}
        if errors:
            raise ValidationError(errors)

    def role_of(self, user) -> str | None:
        """ "owner", "scorekeeper" or None for this user."""
        if not user.is_authenticated:
            return None
        if self.owner_id == user.pk:
            return "owner"
        if self.scorekeepers.filter(pk=user.pk).exists():
            return "scorekeeper"
        return None


class Team(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="teams")
    name = models.CharField(_("team name"), max_length=200)

    class Meta:
        ordering = ["name"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="team_name_unique")
        ]

    def __str__(self):
        return self.name


class Player(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(_("name"), max_length=200)
    club = models.CharField(_("club"), max_length=200, blank=True)
    rating = models.IntegerField(_("rating"), null=True, blank=True)
    birth_year = models.PositiveSmallIntegerField(_("birth year"), null=True, blank=True)
    team = models.ForeignKey(
        Team,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="members",
        verbose_name=_("team"),
    )
    checked_in = models.BooleanField(_("checked in"), default=False)
    dropped = models.BooleanField(_("dropped"), default=False)
    #: the first round this player can be seated in (late entries: > 1)
    first_round = models.PositiveSmallIntegerField(_("first round"), default=1)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "club"]
        verbose_name = _("player")
        verbose_name_plural = _("players")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "name", "club"], name="player_name_club_unique"
            )
        ]

    def __str__(self):
        return f"{self.name} ({self.club})" if self.club else self.name

    @property
    def late_entry(self) -> bool:
        return self.first_round > 1


class PlayerEvent(models.Model):
    """Append-only log of check-ins, drops and re-entries (who and when)."""

    KINDS = [
        ("check_in", _("checked in")),
        ("check_out", _("check-in undone")),
        ("drop", _("dropped")),
        ("readd", _("re-added")),
        ("late_entry", _("late entry")),
    ]
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=20, choices=KINDS)
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self):
        return f"{self.player} {self.get_kind_display()}"


class Round(models.Model):
    """A round of a tournament; its clock and tables arrive with the round issue."""

    STATUSES = [
        ("seated", _("seated")),
        ("running", _("running")),
        ("paused", _("paused")),
        ("time_called", _("time called")),
        ("complete", _("complete")),
    ]
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE)
    number = models.PositiveSmallIntegerField(_("round"))
    status = models.CharField(max_length=20, choices=STATUSES, default="seated")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique")
        ]

    def __str__(self):
        return f"{self.tournament} – {self.number}"
