"""The tournament export format: its name and version, the fields written
per entity, and the error a refused import raises (see ``scoring.exchange``)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.services.errors import ServiceError

FORMAT = "turnierleiter.tournament"
VERSION = 1
MAX_ERRORS = 30

TOURNAMENT_FIELDS = [
    "name",
    "game",
    "game_options",
    "rounds",
    "round_minutes",
    "table_size",
    "allowed_sizes",
    "team_mode",
    "points_scheme",
    "tiebreaks",
    "public",
    "digital_tables",
    "bot_fill",
    "grace_seconds",
    "confirmation_required",
    "self_report",
    "close_when_done",
    "rounds_side_by_side",
]
PLAYER_FIELDS = ["name", "club", "rating", "birth_year", "checked_in", "dropped", "first_round"]
ROUND_FIELDS = [
    "number",
    "status",
    "published",
    "minutes",
    "deadline",
    "remaining_seconds",
    "starts_at",
    "time_called_at",
    "completed_at",
    "seating_stats",
]
TABLE_FIELDS = [
    "number",
    "digital",
    "status",
    "deadline",
    "extra_seconds",
    "time_called_at",
    "secret",
    "seed",
    "state",
    "why",
]
SUBMISSION_FIELDS = [
    "version",
    "status",
    "sheet",
    "ranks",
    "figures",
    "details",
    "source",
    "by_seat",
    "from_address",
    "reason",
    "late",
]
DATETIMES = {"deadline", "starts_at", "time_called_at", "completed_at", "at"}


class ImportRefused(ServiceError):
    """The file can't be imported; ``errors`` lists every problem found."""

    def __init__(self, errors: list[str]):
        self.errors = errors
        super().__init__(
            _("The file was not imported: %(problems)s") % {"problems": "; ".join(errors)}
        )
