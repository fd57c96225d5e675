"""Standings (organizer and public), a player's history, a round's results."""

from functools import partial

from django.shortcuts import get_object_or_404, render
from django.urls import NoReverseMatch, reverse
from django.utils import formats
from django.utils.html import escape
from django.utils.safestring import mark_safe
from django.utils.translation import gettext, ngettext

from scoring.standings import listings
from tournaments import panels
from tournaments.params import parse_int
from tournaments.permissions import STAFF, public_tournament, tournament_view
from tournaments.points import format_value
from tournaments.views._helpers import round_problem
from tournaments.views._ratings import unconfirmed_text


class BadRound(Exception):
    pass


def _after_round(request, tournament) -> int | None:
    """``?round=N``: the standings after round N (not a round: ``BadRound``)."""
    value = request.GET.get("round")
    if not value:
        return None
    number = parse_int(value, minimum=1)
    if number is None or not tournament.round_set.filter(number=number).exists():
        raise BadRound(value)
    return number


def _number(decimal_separator: str):
    """A number formatter for the page's language, chosen once per page: the
    prints' (and every page's ``|number``) formatter — ints as they are,
    decimals with the language's separator."""
    return partial(format_value, decimal_separator=decimal_separator)


def standings_heads(tournament) -> list[dict]:
    """The header of each number column (:func:`listings.standings_columns`):
    ``{"key", "label", "title"}``, translated."""
    heads = {
        "points": (gettext("Points"), ""),
        "figures": (gettext("Figures"), gettext(listings.figure_label(tournament))),
        "opponents": (gettext("Opp. avg"), gettext("Opponents' average points")),
        "wins": (gettext("Wins"), ""),
        "head_to_head": (gettext("H2H"), gettext("Head-to-head")),
        "rating": (gettext("Rating"), gettext("Rating / seed")),
    }
    return [
        {"key": key, "label": heads[key][0], "title": heads[key][1]}
        for key in listings.standings_columns(tournament)
    ]


def standings_body(
    rows: list[dict], *, history_url: str | None, columns: list[str] | None = None
) -> str:
    """The standings table's rows as HTML, built in one pass: a page of 1,000
    players would otherwise spend most of its time in the template engine
    (a variable lookup, localization and escaping per cell, a ``{% url %}``
    per row). ``history_url``: a player's history page with ``0`` for the
    id (None: no links, the public page). ``columns``: the number columns
    (:func:`listings.standings_columns`; without it the results' numbers and
    head-to-head)."""
    fmt = _number(formats.get_format("DECIMAL_SEPARATOR"))
    columns = columns or ["points", "figures", "opponents", "wins", "head_to_head"]
    value = listings.standings_value
    dropped = escape(gettext("dropped"))
    bot = escape(gettext("bot"))
    stages = {"final": gettext("Final"), "semi": gettext("Semi-final")}
    at_stage = gettext("%(stage)s, place %(n)s")
    prefix, suffix = history_url.rsplit("/0/", 1) if history_url else ("", "")
    out = []
    for row in rows:
        pid = int(row["player_id"])
        name = escape(row["name"])
        if history_url:
            name = f'<a href="{prefix}/{pid}/{suffix}">{name}</a>'
        club = f" <small>({escape(row['club'])})</small>" if row.get("club") else ""
        tag = f' <span class="tag">{dropped}</span>' if row["dropped"] else ""
        if row.get("bot_games"):  # README: bots in seats
            title = escape(
                ngettext(
                    "The bot played this player's seat in %(n)s game.",
                    "The bot played this player's seat in %(n)s games.",
                    row["bot_games"],
                )
                % {"n": row["bot_games"]}
            )
            tag += f' <span class="tag tag-bot" title="{title}">{bot}</span>'
        if row.get("stage"):  # a finalist: the stage decided the place
            label = escape(at_stage % {"stage": stages[row["stage"]], "n": row["stage_rank"]})
            tag += f' <span class="tag tag-final">{label}</span>'
        css = ' class="dropped-player"' if row["dropped"] else ""
        out.append(
            f'<tr id="standing-{pid}"{css}>'
            f'<td class="num">{row["place"]}{"=" if row["shared"] else ""}</td>'
            f"<td>{name}{club}{tag}</td>"
            + "".join(f'<td class="num">{fmt(value(row, key))}</td>' for key in columns)
            + f'<td class="num">{row["games"]}</td>'
            f'<td class="num">{row["byes"]}</td></tr>'
        )
    return mark_safe("\n".join(out))


def _context(tournament, after, *, links: bool):
    rows = listings.standings_rows(tournament, up_to_round=after)
    history = reverse("player_history", args=[tournament.pk, 0]) if links else None
    heads = standings_heads(tournament)
    return {
        "tournament": tournament,
        "rows": rows,
        "heads": heads,
        "width": len(heads) + 4,
        "body": standings_body(rows, history_url=history, columns=[h["key"] for h in heads]),
        "no_game": listings.players_without_game(tournament, up_to_round=after),
        "after": after,
        "round_numbers": listings.round_numbers(tournament),
        "order": tournament.tiebreaks or [],
        "figure_label": listings.figure_label(tournament),
        "final_stage": any(row["stage"] for row in rows),
    }


@tournament_view(STAFF)
def standings_page(request, tournament):
    try:
        context = _context(tournament, _after_round(request, tournament), links=True)
    except BadRound as exc:
        return round_problem(request, exc.args[0])
    context["role"] = request.tournament_role
    if any(
        h["key"] == "rating" for h in context["heads"]
    ):  # a player's own number decides nothing yet
        unconfirmed = sum(1 for row in context["rows"] if row["rating_unconfirmed"])
        if unconfirmed:
            context["unconfirmed_text"] = unconfirmed_text(unconfirmed)
    return render(request, "scoring/standings.html", context)


def standings_public(request, tournament_id):
    tournament = public_tournament(tournament_id)
    try:
        after = _after_round(request, tournament)
    except BadRound as exc:
        return round_problem(request, exc.args[0])
    return render(
        request, "scoring/standings_public.html", _context(tournament, after, links=False)
    )


@tournament_view(STAFF)
def player_history(request, tournament, player_id):
    player = get_object_or_404(tournament.players, pk=player_id)
    return render(
        request,
        "scoring/player_history.html",
        {
            "tournament": tournament,
            "role": request.tournament_role,
            "player": player,
            "rows": listings.player_history(tournament, player),
            "total": listings.player_total(tournament, player),
            "figure_label": listings.figure_label(tournament),
        },
    )


def _entry_url(tournament_id, number, table) -> str | None:
    try:
        return reverse("result_entry", args=[tournament_id, number, table])
    except NoReverseMatch:  # result entry not installed
        return None


@tournament_view(STAFF)
def round_results(request, tournament, number):
    rnd = get_object_or_404(tournament.round_set, number=number)
    results = listings.round_results(tournament, number)
    for t in results["tables"]:
        t["entry_url"] = _entry_url(tournament.pk, number, t["number"])
    return render(
        request,
        "scoring/round_results.html",
        {
            "tournament": tournament,
            "role": request.tournament_role,
            "round": rnd,
            "round_numbers": listings.round_numbers(tournament),
            "figure_label": listings.figure_label(tournament),
            **panels.panels("round_results", rnd),  # the scanned piles
            **results,
        },
    )
