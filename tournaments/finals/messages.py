"""The final stage's reason codes worded for people, translated: the
settings' problems (``formats.problems``), who qualified and why
(``qualification``), who went on from a semi-final (``advancement``) and
what settled a finalist's place (``ordering``)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.models import TIEBREAKS


def tiebreak_name(name: str | None) -> str:
    return str(dict(TIEBREAKS).get(name, name or ""))


def problem(code: str, params: dict) -> str:
    """A problem of the settings (``formats.problems``)."""
    texts = {
        "unknown_format": _("Choose one of the final stage's formats."),
        "unknown_mode": _("Choose whether the final replaces or adds to the places."),
        "final_size": _(
            "A final table of %(n)s players is not one of the allowed table sizes (%(sizes)s)."
        ),
        "semi_size": _(
            "Semi-final tables of %(n)s players are not one of the allowed table sizes (%(sizes)s)."
        ),
        "semi_tables": _("Semi-finals need at least 2 tables."),
        "advance_range": _(
            "From a semi-final table of %(size)s players between 1 and one less than "
            "%(size)s go on to the final, not %(n)s."
        ),
        "advance_sum": _(
            "%(tables)s semi-final tables with %(advance)s going on from each send "
            "%(total)s to the final, but the final table seats %(final)s."
        ),
        "larger_than_field": _(
            "The final stage is for the best %(n)s, but only %(field)s take part."
        ),
        "semi_count": _("From the semi-finals %(n)s go on, but the final table seats %(size)s."),
    }
    return texts.get(code, code) % params


def qualification(code: str, params: dict) -> str:
    """Why a player qualified or not (``qualification.Decision``)."""
    params = {**params, "tiebreak": tiebreak_name(params.get("tiebreak"))}
    texts = {
        "place": _("Qualified: place %(place)s on points."),
        "tiebreak_in": _("Qualified: level on points at the cut, ahead on “%(tiebreak)s”."),
        "tiebreak_out": _("Not qualified: level on points at the cut, behind on “%(tiebreak)s”."),
        "lot_in": _("Qualified: level on every tiebreak at the cut, drawn by lot."),
        "lot_out": _("Not qualified: level on every tiebreak at the cut, drawn by lot."),
        "below": _("Not qualified: place %(place)s."),
        "dropped": _("Not qualified: left the tournament."),
    }
    return texts.get(code, code) % params


def advancement(code: str, rank: int, table: int) -> str:
    """Why a player went on from a semi-final or not (``advancement.Advance``)."""
    params = {"rank": rank, "table": table}
    texts = {
        "rank": _("Goes on: place %(rank)s at semi-final table %(table)s."),
        "tiebreak_in": _(
            "Goes on: place %(rank)s at semi-final table %(table)s, shared; ahead in the "
            "qualifying standings."
        ),
        "tiebreak_out": _(
            "Out: place %(rank)s at semi-final table %(table)s, shared; behind in the "
            "qualifying standings."
        ),
        "below": _("Out: place %(rank)s at semi-final table %(table)s."),
    }
    return texts.get(code, code) % params


def settled(code: str, game: str) -> str:
    """What decided a finalist's place (``ordering.Placed.settled``) in
    ``game`` (its name)."""
    texts = {
        "rank": _("by the rank at the table"),
        "game": _("level at the table, settled by the rules of %(game)s") % {"game": game},
        "tiebreak": _("a tie at the table, settled by the tiebreaks (qualifying standings)"),
        "points": _("by the points with the final's added"),
    }
    return texts.get(code, "")
