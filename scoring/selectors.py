"""Reads for results: the confirmed results of a tournament as the plain data
the standings take (:func:`scoring.standings.compute.compute_standings`), in
a fixed number of queries; a table's versions and the result pages. The
standings themselves: :mod:`scoring.standings.selectors`."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Count, Exists, OuterRef, Prefetch, Q
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from scoring.models import Confirmation, Submission, confirmed_result, has_result
from tournaments import providers
from tournaments.models import Bye, Player, Round, Seat, Table, Tournament, empty_seat_name
from tournaments.selectors import with_result_flag


def players_data(tournament: Tournament) -> list[dict]:
    """Every registered player as ``{"id", "name", "rating", "dropped"}``.
    ``rating`` is the confirmed rating only (``Player.rating_confirmed``): a
    number a player typed on the registration form breaks no tie until the
    organizer has confirmed it."""
    return players_data_of([tournament.pk])[tournament.pk]


def players_data_of(tournament_ids) -> dict[int, list[dict]]:
    """:func:`players_data` of several tournaments in one query, by id."""
    out: dict[int, list[dict]] = {pk: [] for pk in tournament_ids}
    rows = (
        Player.objects.filter(tournament_id__in=list(out))
        .order_by("tournament_id", "name", "club")
        .values_list("tournament_id", "pk", "name", "rating", "rating_confirmed", "dropped")
    )
    for tid, pk, name, rating, confirmed, dropped in rows:
        out[tid].append(
            {"id": pk, "name": name, "rating": rating if confirmed else None, "dropped": dropped}
        )
    return out


def results_data(tournament: Tournament, *, up_to_round: int | None = None) -> list[dict]:
    """The confirmed table results and the byes, round by round:
    ``{"round", "table", "seats", "ranks", "figures"}`` and ``{"round", "byes"}``.
    Three queries whatever the size of the tournament."""
    return results_data_of([tournament.pk], up_to_round=up_to_round)[tournament.pk]


def results_data_of(tournament_ids, *, up_to_round: int | None = None) -> dict[int, list[dict]]:
    """:func:`results_data` of several tournaments in three queries, by id."""
    out: dict[int, list[dict]] = {pk: [] for pk in tournament_ids}
    ids = list(out)
    subs = Submission.objects.filter(
        table__round__tournament_id__in=ids, status=Submission.CONFIRMED
    )
    seats = Seat.objects.filter(table__round__tournament_id__in=ids)
    byes = Bye.objects.filter(round__tournament_id__in=ids)
    if up_to_round is not None:
        subs = subs.filter(table__round__number__lte=up_to_round)
        seats = seats.filter(table__round__number__lte=up_to_round)
        byes = byes.filter(round__number__lte=up_to_round)
    seat_lists: dict[int, list] = defaultdict(list)
    for table_id, player_id in seats.order_by("table_id", "position").values_list(
        "table_id", "player_id"
    ):
        seat_lists[table_id].append(player_id)
    for tid, table_id, rnd, number, ranks, figures in subs.values_list(
        "table__round__tournament_id",
        "table_id",
        "table__round__number",
        "table__number",
        "ranks",
        "figures",
    ):
        out[tid].append(
            {
                "round": rnd,
                "table": number,
                "seats": seat_lists[table_id],
                "ranks": ranks,
                "figures": figures,
            }
        )
    bye_lists: dict[tuple[int, int], list] = defaultdict(list)
    for tid, rnd, player_id in byes.values_list(
        "round__tournament_id", "round__number", "player_id"
    ):
        bye_lists[tid, rnd].append(player_id)
    for (tid, rnd), players in bye_lists.items():
        out[tid].append({"round": rnd, "byes": players})
    for entries in out.values():
        entries.sort(key=lambda e: (e["round"], e.get("table", 0)))
    return out


def with_a_game(players: list[dict], results: list[dict]) -> tuple[list[dict], list[dict]]:
    """(players with a counted game or a bye, players without one yet)."""
    played = set()
    for entry in results:
        played.update(p for p in entry.get("seats", ()) if p is not None)  # None: a bot seat
        played.update(entry.get("byes", ()))
    return (
        [p for p in players if p["id"] in played],
        [p for p in players if p["id"] not in played],
    )


def author(submission: Submission, names: dict[int, str] | None = None) -> str:
    """Who entered a submission, for people: the user, or the player of the
    seat that reported it (``names``: seat position -> player name, looked up
    when not given)."""
    if submission.by_id:
        return submission.by.get_username()
    if submission.imported_by:  # an author from another site: text, never an account
        return _("%(name)s (imported)") % {"name": submission.imported_by}
    if submission.by_seat is not None:
        if names is None:
            names = seat_names(submission.table_id)
        name = names.get(submission.by_seat)
        if name:
            return name
        return _("seat %(seat)s") % {"seat": submission.by_seat + 1}
    return submission.get_source_display()


def seat_names(table_id: int) -> dict[int, str]:
    """Seat position -> player name at a table ("Bot" for an empty seat)."""
    return {
        position: empty_seat_name(position) if name is None else name
        for position, name in Seat.objects.filter(table_id=table_id).values_list(
            "position", "player__name"
        )
    }


def result_versions(table) -> list[Submission]:
    """Every version of a table's result, newest first, with who confirmed it
    and the scanned pages it was read from (``scan_pages``)."""
    versions = list(
        Submission.objects.filter(table=table)
        .select_related("by", "replaces")
        .prefetch_related(
            Prefetch("confirmations", queryset=Confirmation.objects.select_related("by"))
        )
        .order_by("-version")
    )
    # a version read from a scan keeps its page (the image is loaded on its own)
    pages = providers.scan_pages([v.pk for v in versions]) if versions else {}
    for version in versions:
        version.scan_pages = pages.get(version.pk, [])
    return versions


def prefill_version(table) -> tuple[Submission | None, int | None]:
    """The version to prefill a table's result form with (the confirmed one,
    else the latest) and the latest version number."""
    latest = Submission.objects.filter(table=table).order_by("-version").first()
    confirmed = confirmed_result(table).first()
    return confirmed or latest, latest.version if latest else None


def round_tables_with_results(rnd) -> list[Table]:
    """A round's tables by number, each with ``has_result`` (a counted
    result) and ``has_pending`` (one waiting for confirmation). One query."""
    pending = Submission.objects.filter(table=OuterRef("pk"), status=Submission.PENDING)
    return list(
        with_result_flag(rnd.tables).annotate(has_pending=Exists(pending)).order_by("number")
    )


def next_table_without_result(table) -> Table | None:
    """The table to type in after ``table``: the next one of its round by
    number (wrapping to the first) that has no result yet, neither counted nor
    waiting for confirmation. None when every other table has one."""
    entered = Submission.objects.filter(
        table__round_id=table.round_id,
        status__in=(Submission.CONFIRMED, Submission.PENDING),
    ).values("table_id")
    open_tables = (
        Table.objects.filter(round_id=table.round_id)
        .exclude(pk=table.pk)
        .exclude(pk__in=entered)
        .only("pk", "number", "round_id")
    )
    return (
        open_tables.filter(number__gt=table.number).order_by("number").first()
        or open_tables.filter(number__lt=table.number).order_by("number").first()
    )


@dataclass
class NextStep:
    """Where an event stands and what the organizer does next: ``text`` for
    people, ``url`` of the page to do it on (None: a button on the overview),
    ``code`` for tests and templates."""

    code: str
    text: str
    url: str | None = None
    action: str = ""
    #: documents to print for the step: (label, url)
    links: tuple = ()


def round_prints(tournament_id: int, number: int) -> tuple:
    """A seated round's prints, as on the print page: its score sheets and
    its seating by table (the documents' names)."""
    return (
        (_("Score sheets"), reverse("print_round", args=[tournament_id, number, "sheets"])),
        (_("Seating by table"), reverse("print_round", args=[tournament_id, number, "seating"])),
    )


def event_overview(tournament: Tournament) -> dict:
    """The overview page's facts: rounds seated and played, sheets missing in
    the current round, and the next step. A few queries, whatever the size."""
    rounds = list(tournament.round_set.order_by("number"))
    current = rounds[-1] if rounds else None
    missing = tables = 0
    if current is not None:
        tables = current.tables.count()
        missing = current.tables.exclude(has_result()).count()
    players = tournament.players.aggregate(
        active=Count("pk", filter=Q(dropped=False)),
        checked_in=Count("pk", filter=Q(checked_in=True, dropped=False)),
    )
    closable = _round_to_end(rounds)
    return {
        "rounds": rounds,
        "current": current,
        "tables": tables,
        "missing": missing,
        "complete": sum(1 for r in rounds if r.status == Round.COMPLETE),
        "closable": closable,
        "next": _next_step(tournament, current, missing, players, closable=closable),
    }


def _round_to_end(rounds: list[Round]) -> Round | None:
    """The first round that can end now because every table has its result
    (seated with its seating published, running or paused), or None."""
    for rnd in rounds:
        if rnd.status == Round.SEATED and not rnd.published:
            continue
        if rnd.status not in (Round.SEATED, Round.RUNNING, Round.PAUSED):
            continue
        tables = with_result_flag(rnd.tables).values_list("has_result", flat=True)
        if tables and all(tables):
            return rnd
    return None


def _next_step(tournament, current, missing, players, *, closable=None) -> NextStep:
    tid = tournament.pk
    if tournament.finished_at is not None:
        return NextStep("finished", _("The tournament is finished: the standings are final."))
    if closable is not None:
        return NextStep(
            "end_round",
            _("Every table of round %(n)s has its result: end the round now.")
            % {"n": closable.number},
            reverse("round_detail", args=[tid, closable.number]),
            action="end_round",
        )
    if current is None:
        if not players["active"]:
            return NextStep(
                "add_players", _("Add or import the players."), reverse("player_list", args=[tid])
            )
        if not players["checked_in"]:
            return NextStep(
                "check_in", _("Check the players in."), reverse("player_list", args=[tid])
            )
        return NextStep(
            "seat", _("Seat round %(n)s.") % {"n": 1}, reverse("round_list", args=[tid])
        )
    n = current.number
    if current.status == Round.SEATED and not current.published:
        return NextStep(
            "publish",
            _("Check and publish the seating of round %(n)s.") % {"n": n},
            reverse("round_seating", args=[tid, n]),
        )
    if current.status == Round.SEATED:  # published
        return NextStep(
            "start",
            _("Print the sheets and start the clock of round %(n)s.") % {"n": n},
            reverse("round_detail", args=[tid, n]),
            links=round_prints(tid, n),
        )
    if current.status in (Round.RUNNING, Round.PAUSED, Round.TIME_CALLED):
        running = current.status != Round.TIME_CALLED
        if running:
            text = ngettext(
                "Round %(n)s is being played: %(missing)s sheet missing.",
                "Round %(n)s is being played: %(missing)s sheets missing.",
                missing,
            )
        else:
            text = ngettext(
                "Time is up in round %(n)s: enter the last sheet.",
                "Time is up in round %(n)s: %(missing)s sheets missing.",
                missing,
            )
        return NextStep(
            "results",
            text % {"n": n, "missing": missing},
            reverse("result_find", args=[tid, n]),
        )
    if n < tournament.rounds:
        return NextStep(
            "seat", _("Seat round %(n)s.") % {"n": n + 1}, reverse("round_list", args=[tid])
        )
    stage = providers.final_stage_to_seat(tournament)
    if stage:
        text = _("Seat the semi-finals.") if stage == "semi" else _("Seat the final.")
        return NextStep("seat_final", text, reverse("final_stage", args=[tid]))
    if not tournament.finished and providers.final_stage_possible(tournament):
        return NextStep(
            "final_possible",
            _(
                "Every round is complete: choose a final stage and seat the final, "
                "or finish the tournament."
            ),
            reverse("final_stage", args=[tid]),
        )
    return NextStep(
        "finish",
        _("Every round is complete: finish the tournament and print the final standings."),
        action="finish",
    )


def _rows(submission: Submission, seats: list[Seat]) -> list[dict]:
    """A submission's result per seat, for the result tables."""
    confirmed = {c.by_seat for c in submission.confirmations.all() if c.by_seat is not None}
    return [
        {
            "seat": seat.position + 1,
            "name": seat.name,
            "rank": submission.ranks[i] if i < len(submission.ranks) else None,
            "figure": submission.figures[i] if i < len(submission.figures) else None,
            "confirmed": seat.position in confirmed,
        }
        for i, seat in enumerate(seats)
    ]


def _confirmer(confirmation, names: dict) -> str:
    """Who confirmed: the user, an author imported from another site (text),
    or the player of the seat."""
    if confirmation.by_id:
        return confirmation.by.get_username()
    if confirmation.imported_by:
        return _("%(name)s (imported)") % {"name": confirmation.imported_by}
    return names.get(confirmation.by_seat, "?")


def describe_versions(submissions: list[Submission], seats: list[Seat]) -> list[Submission]:
    """Each version with ``author``, ``rows`` (per seat: name, rank, figure,
    confirmed) and ``confirmed_by``, players named, not seat numbers.
    ``seats`` are the table's seats in order, with their players."""
    names = {s.position: s.name for s in seats}
    for sub in submissions:
        sub.author = author(sub, names)
        sub.rows = _rows(sub, seats)
        sub.confirmed_by = [_confirmer(c, names) for c in sub.confirmations.all()]
    return submissions


def conflict_page(conflict, seats: list[Seat]) -> dict:
    """What a result page shows of a save refused because someone else saved
    meanwhile (:class:`scoring.services.ResultConflict`): the message and the
    other's version, described for the table's ``seats``."""
    if conflict.other is not None:
        describe_versions([conflict.other], seats)
    return {"conflict": str(conflict), "other": conflict.other}


# -- the result pages -----------------------------------------------------------


def table_or_404(tournament: Tournament, number: int, table: int) -> Table:
    """A table of the tournament by round and table number, or a 404 page."""
    return get_object_or_404(
        Table.objects.select_related("round__tournament"),
        round__tournament=tournament,
        round__number=number,
        number=table,
    )


def submission_of(table: Table, version: int | None) -> Submission | None:
    """A version of the table's result, or None (no such version)."""
    return Submission.objects.filter(table=table, version=version or 0).first()


def result_page(tournament: Tournament, table: Table, seats: list, role) -> dict:
    """The page data of a table's result (the staff form and a player's
    seat page): the table, its seats, the versions of its result (described
    for the seats), the counted one and the one waiting for confirmation."""
    history = result_versions(table)
    describe_versions(history, seats)
    return {
        "tournament": tournament,
        "role": role,
        "round": table.round,
        "table": table,
        "seats": seats,
        "history": history,
        "current": next((s for s in history if s.status == Submission.CONFIRMED), None),
        "pending": next((s for s in history if s.status == Submission.PENDING), None),
        "latest": history[0] if history else None,
        "engine": tournament.engine,
    }


def confirmed_by_seat(pending: Submission | None, position: int) -> bool:
    """Whether the player at ``position`` has confirmed the version that a
    player reported and that waits for confirmation."""
    if pending is None or pending.by_seat is None:
        return False
    return any(c.by_seat == position for c in pending.confirmations.all())


def table_by_id(table_id: int | None) -> Table | None:
    """The table a printed sheet's QR code names, with its round and
    tournament; None for no table."""
    if table_id is None:
        return None
    return Table.objects.select_related("round__tournament").filter(pk=table_id).first()
