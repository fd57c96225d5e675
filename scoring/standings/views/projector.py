"""The projector in the hall: a rotation of slides the organizer picks —
the clock, "find your table" (every player by name, paged), the standings
(paged), the tables still playing or missing their sheet — with the join QR.

Rendered once; ``static/js/projector.js`` pages and rotates the slides in the
browser. The clock is the round's status partial (polled by ``clock.js``); the
open tables are a small partial of their own, polled every 15 seconds until
the round is complete.
"""

from __future__ import annotations

from django.shortcuts import render
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from scoring.standings import listings
from scoring.standings.selectors import standings
from tournaments import selectors
from tournaments.addresses import join_url
from tournaments.models import Round, Table
from tournaments.selectors import with_result_flag
from tournaments.views._helpers import qr_svg

#: the slides in the order they rotate (the round page offers them)
SLIDES = ("clock", "seating", "standings", "tables")
DEFAULT_SLIDES = ("clock", "seating")
SECONDS = (3, 120)
DEFAULT_SECONDS = 12


def join_qr_svg(url: str) -> str:
    """The URL as a QR code in inline SVG (scaled by CSS)."""
    return qr_svg(url)


def _extra(seconds: int) -> str:
    m, s = divmod(int(seconds), 60)
    return f"+{m}:{s:02d}"


def _chosen_slides(request) -> list[str]:
    raw = request.GET.getlist("show") or []
    picked = [s for part in raw for s in part.split(",") if s in SLIDES]
    return [s for s in SLIDES if s in picked] or list(DEFAULT_SLIDES)


def _seconds(request) -> int:
    try:
        value = int(request.GET.get("seconds", DEFAULT_SECONDS))
    except ValueError:
        return DEFAULT_SECONDS
    return min(max(value, SECONDS[0]), SECONDS[1])


def _tables_context(rnd: Round) -> dict:
    """The tables still playing and those whose sheet is missing, with the
    per-table extensions."""
    rows = (
        with_result_flag(rnd.tables)
        .order_by("number")
        .values_list("number", "status", "has_result", "extra_seconds", "time_called_at")
    )
    closed = rnd.status in (Round.TIME_CALLED, Round.COMPLETE)
    playing, missing = [], []
    for number, status, has_result, extra, called in rows:
        if has_result or status == Table.DONE:
            continue
        entry = {"number": number, "extra": _extra(extra) if extra else ""}
        # a table owes its sheet once its time is called: the round's, or
        # its own later one when it was given extra time
        over = status == "waiting" or called is not None or (closed and not extra)
        (missing if over else playing).append(entry)
    return {
        "round": rnd,
        "playing": playing,
        "missing": missing,
        "started": rnd.status != Round.SEATED,
        "poll": rnd.status != Round.COMPLETE or bool(playing or missing),
        "extensions": [
            {"number": n, "extra": _extra(sec)} for n, sec in selectors.table_extensions(rnd)
        ],
    }


def _standings(tournament, rnd: Round) -> tuple[int, list[dict]]:
    """(after which round, rows) — the standings before this round while it is
    played, including it once it is complete."""
    after = rnd.number if rnd.status == Round.COMPLETE else rnd.number - 1
    if after < 1:
        return 0, []
    rows = standings(tournament, up_to_round=after)
    return after, [
        {
            "place": f"{r.place}.",
            "name": r.name,
            "points": number_format(r.points),
            "tiebreak": _decided_by(r),
        }
        for r in rows
        if r.games or r.byes
    ]


def _decided_by(row) -> str:
    """The tiebreak that set this player apart from those level on the
    points, with its value ("Rating 1850"); "" when the points did (or
    nothing did: a shared place)."""
    if len(row.applied) < 2 or row.shared:
        return ""
    name = row.applied[-1]
    labels = {
        "points": _("Points"),
        "figures": _("Figures"),
        "opponents": _("Opp. avg"),
        "wins": _("Wins"),
        "head_to_head": _("Head-to-head"),
        "rating": _("Rating"),
    }
    value = listings.standings_value(row.as_dict(), name)
    return f"{labels[name]} {value if isinstance(value, str) else number_format(value)}"


def round_projector(request, tournament_id, number):
    tournament, rnd, _staff = selectors.public_round(request.user, tournament_id, number)
    slides = _chosen_slides(request)
    join = join_url(request, tournament.pk)
    context = selectors.clock_status(rnd) | {
        "tournament": tournament,
        "round": rnd,
        "slides": slides,
        "seconds": _seconds(request),
        "status_url": reverse("round_public_status", args=[tournament.pk, rnd.number]),
        "tables_url": reverse("round_projector_tables", args=[tournament.pk, rnd.number]),
        "join_url": join,
        "join_qr": mark_safe(join_qr_svg(join)),
        "tables": _tables_context(rnd),
    }
    if "seating" in slides:
        context["names"] = selectors.round_names(rnd)
    if "standings" in slides:
        context["standings_after"], context["standings"] = _standings(tournament, rnd)
    return render(request, "tournaments/projector/page.html", context)


def round_projector_tables(request, tournament_id, number):
    """The "tables still playing" slide, polled by the projector."""
    _tournament, rnd, _staff = selectors.public_round(request.user, tournament_id, number)
    context = {"tables": _tables_context(rnd), "compact": request.GET.get("compact") == "1"}
    return render(request, "tournaments/projector/tables.html", context)
