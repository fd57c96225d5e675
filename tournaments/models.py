"""Tournaments, their players and teams, and who may run them."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games import ENGINES
from tournaments import clock as pure_clock
from tournaments import limits, points, tiebreaks
from tournaments.seating import request as seating_request

MAX_ROUND_MINUTES = 600


def _labelled(names, labels) -> list[tuple[str, str]]:
    """Choices from a pure module's names and English labels, translated."""
    return [(name, _(labels[name])) for name in names if name]


#: the pure modules' registries with their labels, translated
POINTS_SCHEMES = _labelled(points.SCHEMES, points.LABELS)
TIEBREAKS = _labelled(tiebreaks.TIEBREAKS, tiebreaks.LABELS)
DEFAULT_TIEBREAKS = list(tiebreaks.DEFAULT_ORDER)
#: the seating modes as the organizer picks one for a round
SEATING_MODES = _labelled(seating_request.MODES, seating_request.MODE_LABELS)
#: how a round's seating treats teams and clubs (none: blank)
SEATING_TEAMS = _labelled(seating_request.TEAM_MODES, seating_request.TEAM_LABELS)


def game_choices():
    return [(engine_id, engine.name) for engine_id, engine in ENGINES.items()]


def deck_problem(engine, options, sizes) -> str:
    """Why the game can't be dealt with these options (its deck) at one of
    the allowed table sizes, translated; "" when every size deals. The engine
    decides (``new_game``): rules stay in ``games/``."""
    for n in sorted({s for s in sizes if isinstance(s, int)}, reverse=True):
        try:
            engine.new_game(n, 0, options or None)
        except Exception as exc:  # DeckError, ValueError, …: the engine's reason
            return _(
                "The deck can't be dealt at tables of %(n)s players (%(why)s). "
                "Upload a bigger deck or allow only smaller tables."
            ) % {"n": n, "why": str(exc)[:200]}
    return ""


class Audited(models.Model):
    """Who did it and when, the fields every log row has: ``by`` the account
    (kept as empty when the account is deleted), ``at`` when it was saved."""

    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        abstract = True


class AuditedImport(Audited):
    """:class:`Audited`, and who did it as named in an imported file
    (``imported_by``: never linked to an account here)."""

    imported_by = models.CharField(max_length=150, blank=True, default="")

    class Meta:
        abstract = True


#: the settings an organizer chooses for a tournament, in the settings form's
#: order: the form (tournaments.forms) and the export (scoring.exchange.format)
#: list them from here
TOURNAMENT_SETTINGS = [
    "rounds",
    "round_minutes",
    "table_size",
    "allowed_sizes",
    "team_mode",
    "points_scheme",
    "public",
    "digital_tables",
    "bot_fill",
    "grace_seconds",
    "confirmation_required",
    "scans_at_once",
    "self_report",
    "close_when_done",
    "rounds_side_by_side",
    "clubs_apart",
]


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
    #: at most 10 hours: the broker's visibility timeout (12 h) must stay above
    #: the longest round, or a scheduled close would be delivered twice
    round_minutes = models.PositiveSmallIntegerField(
        _("round length (minutes)"),
        default=45,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_ROUND_MINUTES)],
    )
    table_size = models.PositiveSmallIntegerField(_("preferred table size"), default=4)
    allowed_sizes = models.JSONField(_("allowed table sizes"), default=list)
    team_mode = models.BooleanField(_("team mode"), default=False)
    #: how round 1 is seated (the seating modes of ``tournaments.seating``)
    ROUND1_SEATING = _labelled(seating_request.ROUND1_MODES, seating_request.ROUND1_LABELS)
    round1_seating = models.CharField(
        _("seating of round 1"),
        max_length=20,
        choices=ROUND1_SEATING,
        default="random",
        help_text=_("By rating: players without a rating are seated last, in a random order."),
    )
    points_scheme = models.CharField(
        _("points scheme"), max_length=20, choices=POINTS_SCHEMES, default=points.DEFAULT_SCHEME
    )
    tiebreaks = models.JSONField(_("tiebreak order"), default=list)
    public = models.BooleanField(_("public pages"), default=True)
    digital_tables = models.BooleanField(
        _("digital tables"),
        default=False,
        help_text=_("Tables play in the browser; the rules engine runs the game."),
    )
    #: digital tables: when the field can't be seated at the allowed sizes, the
    #: players left over sit together and the game's bot plays the empty seats
    bot_fill = models.BooleanField(
        _("bots fill empty seats"),
        default=False,
        help_text=_(
            "Digital tables only: when the players can't be seated at the allowed table "
            "sizes, those left over sit together and the game's bot plays the empty seats. "
            "A bot earns nothing; the players' places count as the table's ranks say."
        ),
    )
    grace_seconds = models.PositiveIntegerField(
        _("grace period at time (seconds)"),
        default=60,
        help_text=_(
            "After time is called, digital tables finish what is left open; "
            "after this grace period a bot plays it out."
        ),
    )
    confirmation_required = models.BooleanField(
        _("second-person confirmation"),
        default=False,
        help_text=_("A result counts once someone other than its author confirms it."),
    )
    #: a sheet read from a scan, fully and accepted by the game's rules, is
    #: confirmed as it is read (the uploader's press, :mod:`scoring.scans`);
    #: with ``confirmation_required`` it still waits for a second person
    scans_at_once = models.BooleanField(
        _("confirm read sheets at once"),
        default=False,
        help_text=_(
            "A scanned sheet that was read completely and that the game's rules accept "
            "counts as soon as it is read, as if its uploader had confirmed it; unclear or "
            "refused sheets still wait for you. With second-person confirmation, it still "
            "counts only once someone other than the uploader confirms it."
        ),
    )
    self_report = models.BooleanField(
        _("players report results"),
        default=False,
        help_text=_(
            "Players may enter their table's result through their seat link; "
            "it counts when all players of the table (or the organizer) confirm."
        ),
    )
    #: a round ends as soon as every table has its result (else one press
    #: on the round page or the overview ends it before its clock runs out)
    close_when_done = models.BooleanField(
        _("end a round when its last result is in"),
        default=False,
        help_text=_(
            "When every table of a round has its result, the round ends at once, "
            "also before its clock has run out. Otherwise one press on the round "
            "page or the overview ends it."
        ),
    )
    #: a round may start while an earlier one has not ended
    rounds_side_by_side = models.BooleanField(
        _("rounds side by side"),
        default=False,
        help_text=_(
            "A round may start while an earlier round is still running. "
            "Off: a round starts only once every earlier round has ended."
        ),
    )
    #: what each round's seating draft starts from (the round's own tick overrides it)
    clubs_apart = models.BooleanField(
        _("keep club-mates apart"),
        default=False,
        help_text=_(
            "Each round's seating starts with players of the same club at different "
            "tables where possible; you can still change it for a single round."
        ),
    )
    event_date = models.DateField(_("date"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    #: set by "finish tournament": results then change only by the organizer,
    #: with a reason
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)
    #: archived by its owner: hidden from lists, read-only, public pages and
    #: seat links off (``services.lifecycle``)
    archived_at = models.DateTimeField(_("archived"), null=True, blank=True)

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
    def finished(self) -> bool:
        return self.finished_at is not None

    @property
    def planned_rounds(self) -> int:
        """The qualifying rounds and the final stage's rounds."""
        # through the finals app's relation (its model is above this one)
        fmt = (
            Tournament.objects.filter(pk=self.pk)
            .values_list("final_stage__format", flat=True)
            .first()
        )
        return self.rounds + {"table": 1, "semis": 2}.get(fmt, 0)

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
            if "allowed_sizes" not in errors:
                problem = deck_problem(engine, self.game_options, sizes)
                if problem:
                    errors["allowed_sizes"] = problem
            if self.team_mode and not any(engine.teams(n) for n in sizes if isinstance(n, int)):
                errors["team_mode"] = _("%(game)s has no teams at these table sizes.") % {
                    "game": engine.name
                }
        if self.bot_fill and not self.digital_tables:
            errors["bot_fill"] = _("Only digital tables have a bot to fill empty seats.")
        rounds_problem = limits.rounds_message(self.rounds or 0)
        if rounds_problem:
            errors["rounds"] = rounds_problem
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
    #: the rating is the organizer's word (entered or imported by the
    #: organizer, or confirmed): only then does it break a tie or seed round
    #: 1. A rating the player typed on the registration form is not, until
    #: the organizer confirms it.
    rating_confirmed = models.BooleanField(
        _("rating confirmed"),
        default=True,
        help_text=_("Only a confirmed rating breaks a tie or seeds round 1 by rating."),
    )
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
    #: the roster person this entry is (None: not linked yet)
    person = models.ForeignKey(
        "Person",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="entries",
        verbose_name=_("roster person"),
    )
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


class PlayerEvent(AuditedImport):
    """Append-only log of check-ins, drops and re-entries (who and when)."""

    CHECK_IN, CHECK_OUT, DROP, READD, LATE_ENTRY = (
        "check_in",
        "check_out",
        "drop",
        "readd",
        "late_entry",
    )
    KINDS = [
        (CHECK_IN, _("checked in")),
        (CHECK_OUT, _("check-in undone")),
        (DROP, _("dropped")),
        (READD, _("re-added")),
        (LATE_ENTRY, _("late entry")),
    ]
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="events")
    kind = models.CharField(max_length=20, choices=KINDS)

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self):
        return f"{self.player} {self.get_kind_display()}"


class Round(models.Model):
    """A round: seated → running ⇄ paused → time called → complete.

    ``deadline`` is derived from the append-only :class:`ClockActivation` rows
    (``tournaments.clock``) and stored so that the close can be a
    compare-and-set update and every write before time can check it under a row
    lock. ``remaining_seconds`` is the time left while seated or paused.
    """

    SEATED, RUNNING, PAUSED, TIME_CALLED = (
        pure_clock.SEATED,
        pure_clock.RUNNING,
        pure_clock.PAUSED,
        pure_clock.TIME_CALLED,
    )
    COMPLETE = "complete"
    STATUSES = [
        (SEATED, _("seated")),
        (RUNNING, _("running")),
        (PAUSED, _("paused")),
        (TIME_CALLED, _("time called")),
        (COMPLETE, _("complete")),
    ]
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE)
    number = models.PositiveSmallIntegerField(_("round"))
    status = models.CharField(max_length=20, choices=STATUSES, default=SEATED)
    #: seating shown to players (before: a draft the organizer may still change)
    published = models.BooleanField(_("published"), default=False)
    minutes = models.PositiveSmallIntegerField(_("round length (minutes)"), default=45)
    deadline = models.DateTimeField(_("deadline"), null=True, blank=True)
    remaining_seconds = models.FloatField(null=True, blank=True)
    #: when the round is to start by itself (optional)
    starts_at = models.DateTimeField(_("scheduled start"), null=True, blank=True)
    time_called_at = models.DateTimeField(_("time called at"), null=True, blank=True)
    completed_at = models.DateTimeField(null=True, blank=True)
    #: how the round was seated: the mode, the seed, the teams rule (blank:
    #: none) and the standings it was seated by (player id as text → points;
    #: None for a round seated before they were kept). Blank mode: a round no
    #: seating made (created by hand or imported without one).
    seating_mode = models.CharField(
        _("seating mode"), max_length=20, choices=SEATING_MODES, blank=True, default=""
    )
    seating_seed = models.BigIntegerField(_("seed"), default=0)
    seating_teams = models.CharField(max_length=10, choices=SEATING_TEAMS, blank=True, default="")
    seating_scores = models.JSONField(null=True, blank=True)
    #: mixing mode: the seed of the plan every mixing round of the tournament
    #: follows (fixed by the first one)
    plan_seed = models.BigIntegerField(null=True, blank=True)
    #: the seating algorithm's figures (repeats, ranges, bounds, time), the
    #: round's counts as the draft stands and the byes' reasons (``bye_why``)
    seating_stats = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    #: the clock could not act on this round by itself (a scheduled start or a
    #: close failed): ``{"code", "at", "detail"}``, shown translated on the round
    #: page; cleared when the clock succeeds (``services.clock``)
    clock_problem = models.JSONField(default=dict, blank=True)
    #: the final stage's rounds ("semi", "final"; ``tournaments.finals``):
    #: blank for a qualifying round
    STAGES = [("", _("Qualifying round")), ("semi", _("Semi-final")), ("final", _("Final"))]
    stage = models.CharField(_("stage"), max_length=10, choices=STAGES, blank=True, default="")

    class Meta:
        ordering = ["number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique")
        ]
        indexes = [models.Index(fields=["status", "deadline"], name="round_open_deadline")]

    def __str__(self):
        return f"{self.tournament} – {self.number}"


class Table(models.Model):
    """One table of a round: its players (:class:`Seat`, in seat order) and,
    for a digital table, the game as the engine's dumped state plus an
    append-only action log (:class:`TableAction`)."""

    PLAYING, WAITING, DONE = "playing", "waiting", "done"
    STATUSES = [
        (PLAYING, _("playing")),
        (WAITING, _("waiting for sheet")),
        (DONE, _("done")),
    ]
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    digital = models.BooleanField(_("digital"), default=False)
    status = models.CharField(max_length=20, choices=STATUSES, default=PLAYING)
    #: this table's own deadline when it was given an extension (else the round's)
    deadline = models.DateTimeField(null=True, blank=True)
    extra_seconds = models.IntegerField(default=0)
    time_called_at = models.DateTimeField(null=True, blank=True)
    #: digital tables: the secret the deal draws on, 32 random bytes as hex,
    #: drawn when the table is dealt (``tournaments.play.tables``: the
    #: engine's seed is derived from it). Only the server and the organizer's
    #: full export hold it; no page, poll, spectator or player export shows it.
    secret = models.CharField(
        max_length=64,
        blank=True,
        default="",
        editable=False,
        validators=[
            RegexValidator(
                r"^([0-9a-f]{64})?$",
                message=_("A table's deal secret is 64 hexadecimal digits (0-9, a-f)."),
            )
        ],
    )
    #: the engine seed of a table dealt before deal secrets (0 since): a
    #: public number, kept so that those old games still replay
    seed = models.BigIntegerField(default=0)
    #: digital tables: the engine's dumped state
    state = models.JSONField(null=True, blank=True)
    #: why this table breaks a preference: [{"code", "params"}], shown translated
    why = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["round", "number"]
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique")
        ]

    def __str__(self):
        return f"{self.round} – {self.number}"


#: how an empty seat (played by the game's bot for nobody) is named on pages,
#: sheets and exports, with its seat so that two of them at a table differ
EMPTY_SEAT_NAME = pgettext_lazy("an empty seat's player", "Bot (seat %(seat)s)")


def empty_seat_name(position: int) -> str:
    """The name of the empty seat at ``position`` (0 = seat 1)."""
    return str(EMPTY_SEAT_NAME) % {"seat": position + 1}


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    #: None: an empty seat of a digital table, played by the game's bot for
    #: nobody (``Tournament.bot_fill``); such a seat is always a bot seat
    player = models.ForeignKey(
        Player, on_delete=models.PROTECT, related_name="seats", null=True, blank=True
    )
    position = models.PositiveSmallIntegerField(_("seat"))
    #: digital tables: the game's bot plays this seat now (the organizer's
    #: choice, or an empty seat)
    bot = models.BooleanField(_("played by the bot"), default=False)
    #: the bot has made at least one move for this seat (the result is marked)
    bot_played = models.BooleanField(default=False)

    class Meta:
        ordering = ["table", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["table", "player"], name="seat_player_unique"),
            models.CheckConstraint(
                condition=Q(player__isnull=False) | Q(bot=True), name="seat_empty_is_bot"
            ),
        ]

    def __str__(self):
        return f"{self.table} / {self.position + 1}: {self.player or 'bot'}"

    @property
    def empty(self) -> bool:
        """An empty seat: the bot plays it for nobody."""
        return self.player_id is None

    @property
    def name(self) -> str:
        """Who sits here: the player's name, or "Bot" for an empty seat."""
        return self.player.name if self.player_id is not None else empty_seat_name(self.position)


class Bye(models.Model):
    """A player who sits out a round (2-player games with an odd count)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="byes")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="byes")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="bye_player_unique")
        ]

    def __str__(self):
        return f"{self.round}: {self.player} (bye)"


class SeatingChange(AuditedImport):
    """Append-only log of the organizer's changes to a seating (swap, move,
    re-seat after a late drop), with who and when.

    A discarded draft takes its round and the round's rows with it; the
    discard itself stays as a row of the tournament without a round
    (``detail["round"]``: the round's number), shown at the head of the log of
    the round seated next under that number."""

    SEAT, SWAP, MOVE, RESEAT, LATE, PUBLISH, UNPUBLISH, DISCARD = (
        "seat",
        "swap",
        "move",
        "reseat",
        "late",
        "publish",
        "unpublish",
        "discard",
    )
    KINDS = [
        (SEAT, _("seated")),
        (SWAP, _("swapped")),
        (MOVE, _("moved")),
        (RESEAT, _("re-seated after a drop")),
        (LATE, _("late arrival added")),
        (PUBLISH, _("published")),
        (UNPUBLISH, _("unpublished")),
        (DISCARD, _("draft discarded")),
    ]
    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, related_name="seating_changes", null=True, blank=True
    )
    tournament = models.ForeignKey(
        Tournament,
        on_delete=models.CASCADE,
        related_name="seating_log",
        null=True,
        blank=True,
    )
    kind = models.CharField(max_length=20, choices=KINDS)
    detail = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self):
        return f"{self.round or self.tournament}: {self.kind}"


class ClockActivation(AuditedImport):
    """Append-only clock log: start, pause, resume, extend (whole round or one
    table), time called. The round's deadline is derived from these rows."""

    START, PAUSE, RESUME, EXTEND, TIME_CALLED = pure_clock.KINDS
    KINDS = [
        (START, _("start")),
        (PAUSE, _("pause")),
        (RESUME, _("resume")),
        (EXTEND, _("extend")),
        (TIME_CALLED, _("time called")),
    ]
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="activations")
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, null=True, blank=True, related_name="activations"
    )
    kind = models.CharField(max_length=20, choices=KINDS)
    seconds = models.IntegerField(default=0)
    reason = models.CharField(max_length=200, blank=True)
    #: the database clock's time of the change (set by the clock, not on save)
    at = models.DateTimeField()

    class Meta:
        ordering = ["at", "pk"]

    def __str__(self):
        return f"{self.round}: {self.kind} {self.seconds}"


class TableAction(models.Model):
    """Append-only log of a digital table's actions; replaying them from the
    table's seed gives its state (``games.base.Record``)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="actions")
    number = models.PositiveIntegerField()
    seat = models.SmallIntegerField()  # -1: time called / bot finish
    action = models.CharField(max_length=200)
    by_bot = models.BooleanField(default=False)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="table_action_unique")
        ]

    def __str__(self):
        return f"{self.table} #{self.number}: {self.action}"


# the club roster's models (tournaments/roster_models.py) belong to this app:
# Django looks for them here
from tournaments.roster_models import Person, PersonMerge  # noqa: E402, F401


class HelperInvite(Audited):
    """A one-time invitation for a helper (scorekeeper) of one tournament:
    ``by`` invited ``name`` at ``at``. Only the hash of its secret is stored;
    the row is also the log of what became of it (used or revoked, by whom, when)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="invites")
    name = models.CharField(_("name"), max_length=150)
    email = models.EmailField(_("e-mail"), blank=True)
    token_hash = models.CharField(max_length=64, unique=True)
    expires_at = models.DateTimeField(_("valid until"))
    used_at = models.DateTimeField(null=True, blank=True)
    used_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )

    class Meta:
        ordering = ["-at", "-pk"]

    def __str__(self):
        return self.name

    def state(self, now) -> str:
        """ "used", "revoked", "expired" or "open"."""
        if self.used_at:
            return "used"
        if self.revoked_at:
            return "revoked"
        if self.expires_at <= now:
            return "expired"
        return "open"
