"""The tournament export format: its name and version, the fields written
per entity, and the error a refused import raises (see ``scoring.exchange``)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.models import TOURNAMENT_SETTINGS
from tournaments.services.errors import ServiceError

FORMAT = "turnierleiter.tournament"
VERSION = 1
MAX_ERRORS = 30

#: the tournament's settings (the form's, ``TOURNAMENT_SETTINGS``), its
#: game's options and its tiebreaks
TOURNAMENT_FIELDS = [
    "name",
    "game",
    "game_options",
    *TOURNAMENT_SETTINGS[:6],
    "tiebreaks",
    *TOURNAMENT_SETTINGS[6:],
]
PLAYER_FIELDS = [
    "name",
    "club",
    "rating",
    "rating_confirmed",  # absent in older files: confirmed (the organizer's list)
    "birth_year",
    "checked_in",
    "dropped",
    "first_round",
]
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
    "seating_mode",
    "seating_seed",
    "seating_teams",
    "seating_scores",
    "plan_seed",
    "seating_stats",
    "stage",
]
#: the final stage's settings (``tournaments.finals``), when the tournament has them
FINAL_STAGE_FIELDS = [
    "format",
    "final_size",
    "semi_tables",
    "semi_size",
    "advance",
    "minutes",
    "mode",
]
#: files written before the round's seating had its own fields kept them in
#: ``seating_stats`` under these keys
LEGACY_SEATING_KEYS = {
    "mode": "seating_mode",
    "seed": "seating_seed",
    "teams": "seating_teams",
    "scores": "seating_scores",
    "plan_seed": "plan_seed",
}


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


def read_seating(reader, rnd, d: dict, path: str) -> None:
    """A round's seating fields: a file written before they existed (``d``
    has no ``seating_mode``) has them in ``seating_stats``; they are filled
    from there through ``reader`` (which checks their types) and only the
    figures stay. The standings the round was seated by must be points by
    player id."""
    if "seating_mode" not in d:
        stats = rnd.seating_stats if isinstance(rnd.seating_stats, dict) else {}
        fields = {LEGACY_SEATING_KEYS[k]: v for k, v in stats.items() if k in LEGACY_SEATING_KEYS}
        if "seating_teams" in fields and fields["seating_teams"] is None:
            fields["seating_teams"] = ""
        rnd.seating_stats = {k: v for k, v in stats.items() if k not in LEGACY_SEATING_KEYS}
        reader.fill(rnd, fields, list(fields), f"{path}.seating_stats")
    scores = rnd.seating_scores
    if scores is not None and not (
        isinstance(scores, dict)
        and all(
            k.isdigit() and isinstance(v, int | float) and not isinstance(v, bool)
            for k, v in scores.items()
        )
    ):
        reader.error(f"{path}.seating_scores", _("expected the points of each player"))
