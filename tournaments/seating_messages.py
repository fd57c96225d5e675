"""What the seating says, the Django side: the pure package's error codes as
the organizer's translated messages.

The package :mod:`tournaments.seating` refuses with a code and parameters
(:class:`~tournaments.seating.errors.SeatingError`); a service turns it into a
:class:`~tournaments.services.errors.ServiceError` here, worded for the page
the organizer acted on.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.seating.errors import SeatingError
from tournaments.services.errors import ServiceError


def sizes_text(sizes) -> str:
    return ", ".join(str(s) for s in sorted(sizes))


def seating_error(exc: SeatingError, names=None, round_number=None) -> ServiceError:
    """The translated message of an error code from the seating package;
    ``names``: player id → name, ``round_number``: the round changed."""
    p, names = exc.params, names or {}
    if exc.code == "too_few_players":
        return ServiceError(
            _("Too few players: %(n)s checked in, a table needs %(min)s.")
            % {"n": p["players"], "min": p["minimum"]}
        )
    if exc.code == "impossible_sizes":
        params = {"n": p["players"], "sizes": sizes_text(p["sizes"])}
        if p["byes"]:
            return ServiceError(
                ngettext(
                    "%(n)s player cannot be seated at tables of %(sizes)s, not even with byes.",
                    "%(n)s players cannot be seated at tables of %(sizes)s, not even with byes.",
                    params["n"],
                )
                % params
            )
        return ServiceError(
            ngettext(
                "%(n)s player cannot be seated at tables of %(sizes)s. "
                "Allow another table size in the settings, or check players in or out.",
                "%(n)s players cannot be seated at tables of %(sizes)s. "
                "Allow another table size in the settings, or check players in or out.",
                params["n"],
            )
            % params
        )
    if exc.code == "team_too_large":
        return ServiceError(
            _("A team has more players than the largest table (%(size)s).") % {"size": p["largest"]}
        )
    if exc.code == "no_place":
        return ServiceError(
            _(
                "No table can take another player at the allowed sizes (%(sizes)s). "
                "Discard the draft and seat the round again."
            )
            % {"sizes": sizes_text(p["sizes"])}
        )
    if exc.code == "rating_with_teams":
        return ServiceError(
            _(
                "In team mode partners sit together: round 1 cannot be seated by rating. "
                "Choose the random draw."
            )
        )
    return _change_error(exc, names, round_number)


def _change_error(exc: SeatingError, names: dict, round_number) -> ServiceError:
    """The refusals of a change to a draft (``tournaments.seating.manual``,
    ``late``, ``reseat``)."""
    p = exc.params
    if exc.code == "same_player":
        return ServiceError(_("Choose two different players."))
    if exc.code == "both_on_bye":
        return ServiceError(_("Both players have a bye: there is nothing to swap."))
    if exc.code == "no_table":
        return ServiceError(
            _("Round %(n)s has no table %(table)s.") % {"n": round_number, "table": p["table"]}
        )
    if exc.code == "same_table":
        return ServiceError(
            _("%(name)s already sits at table %(table)s.")
            % {"name": names.get(p["player"], p["player"]), "table": p["table"]}
        )
    if exc.code == "size_not_allowed":
        return ServiceError(
            ngettext(
                "Table %(table)s would have %(size)s player; allowed sizes are %(sizes)s.",
                "Table %(table)s would have %(size)s players; allowed sizes are %(sizes)s.",
                p["size"],
            )
            % {"table": p["table"], "size": p["size"], "sizes": sizes_text(p["sizes"])}
        )
    if exc.code in ("already_seated", "not_seated", "not_in_request"):
        return ServiceError(_("This player cannot be added to the seating."))
    # bad_request / no_pairing: a bug on this side, not the organizer's input
    return ServiceError(_("The seating could not be computed (%(code)s).") % {"code": exc.code})
