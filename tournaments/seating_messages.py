"""What the seating says, the Django side: the pure package's codes in the
reader's language.

- :func:`why_text`: a table's (or the byes') reasons as sentences. The
  messages are beside the codes, in :mod:`tournaments.seating.reasons`
  (English, marked for translation); here they are translated and filled in,
  players and teams by name. A code without a message is shown as such,
  never dropped.
- :func:`seating_error`: a refusal of the package
  (:class:`~tournaments.seating.errors.SeatingError`, a code and parameters)
  as the :class:`~tournaments.services.errors.ServiceError` a service raises,
  worded for the page the organizer acted on.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.numbers import number_text
from tournaments.seating import reasons
from tournaments.seating.errors import SeatingError
from tournaments.services.errors import ServiceError


def sizes_text(sizes) -> str:
    return ", ".join(str(s) for s in sorted(sizes))


def _translated(message, params: dict) -> str:
    if isinstance(message, reasons.Plural):
        count = params.get(message.count)
        n = count if isinstance(count, int) else 1
        return ngettext(message.singular, message.plural, n)
    return _(message)


def _number(x) -> str:
    return number_text(x)  # as the standings write it: "1,5"


def _joined(values) -> str:
    return ", ".join(str(v) for v in values)


def _by_name(params: dict, names: dict, teams: dict, code: str) -> dict:
    """The parameters as the message shows them: players and teams by name,
    lists joined, scores as localized numbers."""

    def name(pid):
        return names.get(pid, str(pid))

    for key in ("a", "b", "player", "strongest"):
        if key in params:
            params[key] = name(params[key])
    if isinstance(params.get("players"), list):
        params["players"] = _joined(name(p) for p in params["players"])
    if isinstance(params.get("had"), list):
        params["had"] = _joined(f"{name(p)} {n}" for p, n in params["had"])
    for key in ("rounds", "sizes"):
        if isinstance(params.get(key), list):
            params[key] = _joined(params[key])
    if isinstance(params.get("constraints"), list):
        params["constraints"] = "; ".join(
            _(reasons.CONSTRAINTS[c]) if c in reasons.CONSTRAINTS else str(c)
            for c in params["constraints"]
        )
    for key in ("score", "low", "high"):
        if key in params:
            params[key] = _number(params[key])
    if code == "team_split" or params.get("kind") == "team":
        key = "team" if code == "team_split" else "value"
        params[key] = teams.get(params.get(key), params.get(key))
    return params


def why_text(items, names=None, teams=None) -> list[str]:
    """Reasons (codes with parameters) as sentences in the current language;
    ``names``: player id → name, ``teams``: team id → name."""
    names, teams = names or {}, teams or {}
    out = []
    for item in items or []:
        key, params = reasons.wording(item)
        message = reasons.MESSAGES.get(key)
        if message is None:  # a code this version has no words for: say so
            out.append(_("Unknown reason (code %(code)s).") % {"code": key})
            continue
        text = _translated(message, params)
        try:
            out.append(text % _by_name(params, names, teams, key))
        except (KeyError, TypeError, ValueError):
            out.append(text)
    return out


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
