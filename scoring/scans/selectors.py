"""Reads for reading sheets: the layout of the sheet a code names, from the
database (the tournament's game and options, the table's size), built as the
sheet printer builds it (:func:`scoring.printing.sheets.sheet_layouts`)."""

from __future__ import annotations

from django.db.models import F, Q

from games import get_engine
from scoring.models import Confirmation, Submission
from scoring.printing import marks
from scoring.scans.models import ScanPage, ScanPile
from scoring.standings import listings
from tournaments.models import Tournament


def table_size(tournament: Tournament, round_no: int, table_no: int) -> int | None:
    """The players of a round's table as its sheet lists them (bot seats
    too); None when the round has no such table."""
    for table in listings.seated_tables(tournament, round_no):
        if table["number"] == table_no:
            return len(table["players"]) + len(table["bot_seats"])
    return None


def layout_of(tournament: Tournament, players: int) -> marks.Layout | None:
    engine = get_engine(tournament.game)
    if not engine.min_players <= players <= engine.max_players:
        return None
    options = tournament.game_options or None
    options = options if options is not None else engine.default_options()
    return marks.sheet_layout(engine.sheet_schema(players, options), players)


def layout_finder(tournament: Tournament | None = None, round_no: int | None = None):
    """``layout_for(code)`` for the reader: the layout of the sheet a code
    names, None for a sheet the database does not know. Given a tournament
    (and round), only that tournament's (round's) sheets are known."""
    cache: dict[tuple, marks.Layout | None] = {}

    def layout_for(code: marks.SheetCode) -> marks.Layout | None:
        if tournament is not None and code.tournament != tournament.pk:
            return None
        if round_no is not None and code.round != round_no:
            return None
        key = (code.tournament, code.round, code.table)
        if key not in cache:
            t = tournament or Tournament.objects.filter(pk=code.tournament).first()
            n = None if t is None else table_size(t, code.round, code.table)
            cache[key] = None if n is None else layout_of(t, n)
        return cache[key]

    return layout_for


def piles_of_round(rnd) -> list[ScanPile]:
    """The round's latest piles, for its results page."""
    return list(ScanPile.objects.filter(round=rnd).defer("data")[:10])


def pages_of_submissions(submission_ids) -> dict[int, list[ScanPage]]:
    """Submission id → the scanned pages it was read from (without their
    images), for a table's versions."""
    out: dict[int, list[ScanPage]] = {}
    pages = ScanPage.objects.filter(submission_id__in=list(submission_ids)).only(
        "pk", "number", "submission_id"
    )
    for page in pages:
        out.setdefault(page.submission_id, []).append(page)
    return out


def scan_page_for_entry(tournament, table, page_id: str | None) -> ScanPage | None:
    """The scanned page the entry form was opened from (``?scan=``)."""
    if not page_id or not str(page_id).isdigit():
        return None
    # a page whose code could not be read names no table: the staff chose this one
    return (
        ScanPage.objects.filter(pk=int(page_id), pile__round=table.round_id)
        .filter(Q(table=table) | Q(table__isnull=True))
        .defer("image")
        .first()
    )


def pile_waiting(pile: ScanPile, user) -> dict:
    """The results a pile stored that wait, for its press: ``waiting`` how
    many, ``second`` how many of them their author checked and now wait for
    a second person (``second_ids``: their submissions; only while the
    tournament wants one), ``press`` whether ``user``'s press would do anything
    (not when every one is his own and checked by him already)."""
    pages = pile.pages.filter(
        outcome=ScanPage.STORED, submission__status=Submission.PENDING
    ).values_list("submission_id", "submission__by_id")
    subs = dict(pages)
    checked = set()
    if pile.round.tournament.confirmation_required:
        checked = set(
            Confirmation.objects.filter(submission_id__in=subs, by__isnull=False)
            .filter(by_id=F("submission__by_id"))
            .values_list("submission_id", flat=True)
        )
    user_id = user.pk if user is not None and user.is_authenticated else None
    own_checked = {s for s in checked if subs[s] == user_id}
    return {
        "waiting": len(subs),
        "second": len(checked),
        "second_ids": checked,
        "press": len(subs) > len(own_checked),
    }
