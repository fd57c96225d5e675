"""The printed documents: each kind's data loaded from the database
(:mod:`scoring.standings.listings`), handed as plain data to the pure drawing beside
it (:mod:`scoring.printing.lists`, :mod:`scoring.printing.sheets` ...,
ReportLab), returned as PDF bytes.

The views, the Celery task (:mod:`scoring.printing.tasks`) and ``manage.py print`` all
call :func:`render`, so every path prints the same document.

Kinds: ``sheets`` (score sheets with the QR code), ``seating`` (by table),
``names`` (seating by name), ``tables`` (table cards), ``results`` (a round's
results) — all per round — and ``standings`` (after a round, or now).
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.db.models import Count, Q
from django.urls import reverse
from django.utils.formats import date_format, get_format, number_format
from django.utils.translation import gettext, gettext_lazy, ngettext

from scoring.models import Submission
from scoring.printing import lists
from scoring.printing.certificates import render_certificates
from scoring.printing.lists import (
    render_round_results,
    render_seating_by_name,
    render_seating_by_table,
    render_standings,
    render_table_cards,
)
from scoring.printing.sheets import render_score_sheets
from scoring.printing.sheets import sheet_layouts as printed_sheet_layouts
from scoring.sheet_links import table_sheet_url, table_token
from scoring.standings import listings
from tournaments import providers
from tournaments.addresses import absolute
from tournaments.models import Round, Tournament

#: kind → label; every kind but standings needs a round
KINDS = {
    "sheets": gettext_lazy("Score sheets"),
    "seating": gettext_lazy("Seating by table"),
    "names": gettext_lazy("Seating by name"),
    "tables": gettext_lazy("Table cards"),
    "results": gettext_lazy("Round results"),
    "standings": gettext_lazy("Standings"),
    "final": gettext_lazy("Final standings"),
    "certificates": gettext_lazy("Certificates"),
}
#: places that get a certificate unless the organizer asks for more
CERTIFICATES = 3
MAX_CERTIFICATES = 50
ROUND_KINDS = ("sheets", "seating", "names", "tables", "results")


def decimal_separator() -> str:
    """The active language's decimal separator, for the pure drawing."""
    return get_format("DECIMAL_SEPARATOR")


def format_value(value) -> str:
    """A number as the reader of the active language writes it ("6,5" in
    German, "6.5" in English); integers as they are."""
    return lists.format_value(value, decimal_separator())


class PrintError(ValueError):
    """The document can't be printed; the message says why (translated)."""


def async_limit() -> int:
    """Rounds with more tables than this are rendered by a Celery task."""
    return int(getattr(settings, "PRINT_ASYNC_TABLES", 40))


def table_count(tournament: Tournament, round_no: int | None) -> int:
    if round_no is None:
        return 0
    return tournament.round_set.get(number=round_no).tables.count()


def filename(kind: str, tournament: Tournament, round_no: int | None) -> str:
    suffix = f"-r{round_no}" if round_no is not None else ""
    return f"{kind}-t{tournament.pk}{suffix}.pdf"


def _check(kind: str, tournament: Tournament, round_no: int | None) -> None:
    if kind not in KINDS:
        raise PrintError(gettext("Unknown document: %(kind)s") % {"kind": kind})
    if kind in ROUND_KINDS:
        if round_no is None:
            raise PrintError(gettext("This document needs a round."))
        if not tournament.round_set.filter(number=round_no).exists():
            raise PrintError(gettext("There is no round %(round)s.") % {"round": round_no})


def render(
    kind: str,
    tournament: Tournament,
    round_no: int | None = None,
    *,
    url_for_table: Callable[[int], str] | None = None,
    progress: Callable[[int, int], None] | None = None,
    url_for_seat: Callable[[str], str] | None = None,
    places: int | None = None,
) -> bytes:
    """The PDF of ``kind``. ``final`` and ``certificates`` are after the last
    complete round; ``places``: how many top places get a certificate. ``url_for_table(table id)`` gives the QR code's
    link (default: :func:`scoring.sheet_links.table_sheet_url` with ``SITE_URL``);
    ``progress(done, total)`` is called while score sheets are drawn;
    ``url_for_seat(seat key)`` gives the table cards' seat QR codes.
    Raises :class:`PrintError` for a document that can't be printed."""
    _check(kind, tournament, round_no)
    info = _round_info(tournament, round_no)
    if kind == "standings":
        return _standings(tournament, info, round_no)
    if kind in ("final", "certificates"):
        info.update(event_info(tournament))
        counts = final_counts(tournament)
        if not counts["rounds"]:
            raise PrintError(gettext("No round is complete yet: there are no standings to print."))
        last = counts["rounds"][-1]["number"]
        if kind == "final":
            return _standings(tournament, info, last, final=True, counts=counts)
        return render_certificates(
            info,
            _winners(tournament, last, places or CERTIFICATES),
            gettext=gettext,
            ngettext=ngettext,
            counts=counts,
            decimal_separator=decimal_separator(),
        )
    if kind == "results":
        res = listings.round_results(tournament, round_no)
        return render_round_results(
            info,
            round_no,
            res["tables"],
            figure_label=listings.figure_label(tournament),
            gettext=gettext,
            decimal_separator=decimal_separator(),
        )
    tables = listings.seated_tables(tournament, round_no)
    if kind == "seating":
        return render_seating_by_table(info, round_no, tables, gettext=gettext)
    if kind == "names":
        return render_seating_by_name(info, round_no, tables, gettext=gettext)
    if kind == "tables":
        _add_seat_links(tournament, tables, url_for_table, url_for_seat)
        return render_table_cards(info, tables, gettext=gettext)
    return _score_sheets(tournament, info, round_no, tables, url_for_table, progress)


def _round_info(tournament: Tournament, round_no: int | None) -> dict:
    """The heading every print of the document shows: the tournament's name,
    and a final stage's round says so on every print of it."""
    info = {"name": tournament.name}
    if round_no is not None:
        stage = (
            Round.objects.filter(tournament=tournament, number=round_no)
            .values_list("stage", flat=True)
            .first()
        )
        if stage:
            label = gettext("Final") if stage == "final" else gettext("Semi-final")
            info["name"] = f"{tournament.name} · {label}"
            info["round_name"] = label  # in place of the round's number on sheets and slips
    return info


def _score_sheets(tournament, info, round_no, tables, url_for_table, progress) -> bytes:
    """The round's score sheets; refused when a table's size isn't the game's."""
    engine = tournament.engine
    bad = sorted(
        {
            n
            for n in (len(t["players"]) + len(t.get("bot_seats", ())) for t in tables)
            if not engine.min_players <= n <= engine.max_players
        }
    )
    if bad:
        raise PrintError(
            gettext(
                "%(game)s is played by %(lo)s to %(hi)s players; a table of this round has "
                "%(n)s. Correct the seating before printing score sheets."
            )
            % {"game": engine.name, "lo": engine.min_players, "hi": engine.max_players, "n": bad[0]}
        )
    url_for_table = url_for_table or table_sheet_url
    info["id"] = tournament.pk  # the sheet code names the tournament
    return render_score_sheets(
        info,
        round_no,
        [_with_bot_seats(t) for t in tables],
        engine_id=tournament.game,
        options=tournament.game_options or None,
        base_url_for_table=lambda t: url_for_table(t["id"]),
        gettext=gettext,
        progress=progress,
    )


def sheet_layouts(tournament: Tournament, round_no: int) -> list[dict]:
    """Per table of the round the JSON description of its score sheet's
    marks (``manage.py print sheets --layout-json``; see
    :meth:`scoring.printing.marks.Layout.to_json`)."""
    _check("sheets", tournament, round_no)
    tables = [_with_bot_seats(t) for t in listings.seated_tables(tournament, round_no)]
    return printed_sheet_layouts(
        {"id": tournament.pk},
        round_no,
        tables,
        engine_id=tournament.game,
        options=tournament.game_options or None,
    )


def _add_seat_links(tournament, tables, url_for_table, url_for_seat) -> None:
    """Table cards: each player's seat link (its QR slip) at digital tables, or
    at every table when players report results. A seat link belongs to the
    player in that round (:mod:`tournaments.play.links`), issued here when needed.
    ``url_for_seat(key)``; by default the seat link on the address the QR
    codes of the score sheets use (``url_for_table``), else ``SITE_URL``."""
    if url_for_seat is None:
        url_for_seat = _seat_urls_like(url_for_table)
    wanted = [t for t in tables if t.get("digital") or tournament.self_report]
    round_ids = dict(
        Round.objects.filter(
            tournament=tournament, number__in={t["round"] for t in wanted}
        ).values_list("number", "pk")
    )
    by_round: dict[int, list[int]] = {}
    for t in wanted:
        by_round.setdefault(t["round"], []).extend(p["id"] for p in t["players"])
    keys = {
        number: providers.seat_keys(round_ids[number], pids) for number, pids in by_round.items()
    }
    for t in wanted:
        for player in t["players"]:
            player["url"] = url_for_seat(keys[t["round"]][player["id"]])


def _seat_urls_like(url_for_table) -> Callable[[str], str]:
    if url_for_table is None:
        return lambda key: absolute(reverse("seat_link", args=[key]))

    def url(key: str) -> str:
        some_table = 0
        sheet = url_for_table(some_table)
        path = reverse("sheet_link", args=[table_token(some_table)])
        base = sheet[: -len(path)] if sheet.endswith(path) else ""
        if not base:
            return absolute(reverse("seat_link", args=[key]))
        return base + reverse("seat_link", args=[key])

    return url


def _with_bot_seats(table: dict) -> dict:
    """A table whose empty seats the bot plays, as its score sheet lists it:
    every seat in order, the bot's named "Bot" (the sheet is for the table's
    full size, as the game is played and ranked)."""
    if not table.get("bot_seats"):
        return table
    seats = [(p["seat"], p) for p in table["players"]]
    seats += [
        (n, {"id": None, "name": gettext("Bot"), "club": "", "seat": n}) for n in table["bot_seats"]
    ]
    return {**table, "players": [p for _n, p in sorted(seats, key=lambda sp: sp[0])]}


def event_info(tournament: Tournament) -> dict:
    """The event's name, game, date (in the user's language) and venue."""
    return {
        "name": tournament.name,
        "game": tournament.engine.name,
        "date": date_format(tournament.event_date, "DATE_FORMAT") if tournament.event_date else "",
        "venue": tournament.venue,
    }


def stage_place(row: dict) -> str:
    """A finalist's stage and place at its table as the pages say it
    ("Semi-final, place 1"); "" for a player without a final stage."""
    if not row.get("stage"):
        return ""
    stages = {"final": gettext("Final"), "semi": gettext("Semi-final")}
    return gettext("%(stage)s, place %(n)s") % {
        "stage": stages[row["stage"]],
        "n": row["stage_rank"],
    }


def _winners(tournament: Tournament, round_no: int, places: int) -> list[dict]:
    """The players on the top ``places`` places (all who share the last one).
    Where the final decides the finalists' places, a finalist's certificate
    names the stage ("Winner of the final", "Final, place 2") and not the
    qualifying points, which did not decide the place."""
    rows = listings.standings_rows(tournament, up_to_round=round_no)
    decides = providers.final_decides(tournament) and any(r["stage"] for r in rows)
    out = []
    for r in rows:
        if r["place"] > places or r["dropped"]:
            continue
        winner = {"place": r["place"], "name": r["name"], "club": r["club"]}
        if decides and r["stage"]:
            if r["stage"] == "final" and r["stage_rank"] == 1:
                winner["honour"] = gettext("Winner of the final")
            else:
                winner["honour"] = stage_place(r)
        else:
            winner["points"] = number_format(r["points"])  # "4,5" in German
        out.append(winner)
    return out


def _standings(
    tournament: Tournament,
    info: dict,
    round_no: int | None,
    *,
    final: bool = False,
    counts: dict | None = None,
) -> bytes:
    rows = listings.standings_rows(tournament, up_to_round=round_no)
    if counts is None:
        rounds = round_progress(tournament)
        counts = {
            "planned": tournament.planned_rounds,
            "rounds": [r for r in rounds if round_no is None or r["number"] <= round_no],
        }
    # every tiebreak of the order, each with the value that decided (head-to-
    # head and the rating only where they applied): the paper hides none
    labels = {
        "points": gettext("Points"),
        "figures": gettext("Figures"),
        "opponents": gettext("Opp. avg"),
        "wins": gettext("Wins"),
        "head_to_head": gettext("H2H"),
        "rating": gettext("Rating"),
    }
    numbers = listings.standings_columns(tournament)
    columns = [("place", gettext("Place")), ("name", gettext("Player"))]
    if final or any(row["club"] for row in rows):
        columns.append(("club", gettext("Club")))
    columns += [(key, labels[key]) for key in numbers]
    columns.append(("games", gettext("Games")))
    for row in rows:
        row["rating"] = listings.standings_value(row, "rating")
    if any(row["stage"] for row in rows):  # finalists first: their stage and place there
        columns.insert(2, ("final", gettext("Final stage")))
        for row in rows:
            row["final"] = stage_place(row)
    for row in rows:
        if row["dropped"]:
            row["name"] = f"{row['name']} ({gettext('dropped')})"
        if row["shared"]:
            row["place"] = f"{row['place']}="
    return render_standings(
        info,
        rows,
        columns=columns,
        round_no=round_no,
        gettext=gettext,
        ngettext=ngettext,
        final=final,
        counts=counts,
        decimal_separator=decimal_separator(),
    )


def round_progress(tournament: Tournament) -> list[dict]:
    """Per round, in order: ``{"number", "tables", "done", "complete"}``;
    ``done``: tables with a confirmed result. A round is complete when every
    table has its result, whether or not its clock has run out (or when the
    clock closed it: a round of byes only). One query."""
    rounds = (
        Round.objects.filter(tournament=tournament)
        .order_by("number")
        .annotate(
            n_tables=Count("tables", distinct=True),
            n_done=Count(
                "tables",
                filter=Q(tables__submissions__status=Submission.CONFIRMED),
                distinct=True,
            ),
        )
        .values_list("number", "status", "n_tables", "n_done", "stage")
    )
    return [
        {
            "number": number,
            "tables": tables,
            "done": done,
            "complete": (tables > 0 and done >= tables) or status == Round.COMPLETE,
            "stage": stage,  # "semi", "final": a final stage's round, named so on prints
        }
        for number, status, tables, done, stage in rounds
    ]


def final_counts(tournament: Tournament) -> dict:
    """What the final standings and certificates count: every round from 1
    on that is complete (``rounds``); the rounds after the first incomplete
    one are ``left_out`` (the print names those that have results)."""
    rounds = round_progress(tournament)
    counted = []
    for r in rounds:
        if not r["complete"] or r["number"] != len(counted) + 1:
            break
        counted.append(r)
    return {
        "planned": tournament.planned_rounds,
        "rounds": counted,
        "left_out": rounds[len(counted) :],
    }
