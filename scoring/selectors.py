"""Reads for results and standings: the confirmed results of a tournament as
the plain data :func:`scoring.standings.compute_standings` takes, in a fixed
number of queries."""

from __future__ import annotations

from collections import defaultdict

from django.db.models import Prefetch

from scoring.models import Confirmation, Submission
from scoring.standings import Row, compute_standings
from tournaments.models import Bye, Seat, Table, Tournament


def players_data(tournament: Tournament) -> list[dict]:
    """Every registered player as ``{"id", "name", "rating", "dropped"}``."""
    return [
        {"id": pk, "name": name, "rating": rating, "dropped": dropped}
        for pk, name, rating, dropped in tournament.players.order_by("name", "club").values_list(
            "pk", "name", "rating", "dropped"
        )
    ]


def results_data(tournament: Tournament, *, up_to_round: int | None = None) -> list[dict]:
    """The confirmed table results and the byes, round by round:
    ``{"round", "table", "seats", "ranks", "figures"}`` and ``{"round", "byes"}``.
    Three queries whatever the size of the tournament."""
    subs = Submission.objects.filter(
        table__round__tournament=tournament, status=Submission.CONFIRMED
    )
    seats = Seat.objects.filter(table__round__tournament=tournament)
    byes = Bye.objects.filter(round__tournament=tournament)
    if up_to_round is not None:
        subs = subs.filter(table__round__number__lte=up_to_round)
        seats = seats.filter(table__round__number__lte=up_to_round)
        byes = byes.filter(round__number__lte=up_to_round)
    seat_lists: dict[int, list] = defaultdict(list)
    for table_id, player_id in seats.order_by("table_id", "position").values_list(
        "table_id", "player_id"
    ):
        seat_lists[table_id].append(player_id)
    entries = []
    for table_id, rnd, number, ranks, figures in subs.values_list(
        "table_id", "table__round__number", "table__number", "ranks", "figures"
    ):
        entries.append(
            {
                "round": rnd,
                "table": number,
                "seats": seat_lists[table_id],
                "ranks": ranks,
                "figures": figures,
            }
        )
    bye_lists: dict[int, list] = defaultdict(list)
    for rnd, player_id in byes.values_list("round__number", "player_id"):
        bye_lists[rnd].append(player_id)
    entries.extend({"round": rnd, "byes": ids} for rnd, ids in bye_lists.items())
    entries.sort(key=lambda e: (e["round"], e.get("table", 0)))
    return entries


def standings(tournament: Tournament, *, up_to_round: int | None = None) -> list[Row]:
    """The standings from the confirmed results (best first)."""
    return compute_standings(
        players_data(tournament),
        results_data(tournament, up_to_round=up_to_round),
        scheme=tournament.points_scheme,
        order=tournament.tiebreaks or None,
    )


def result_versions(table) -> list[Submission]:
    """Every version of a table's result, newest first, with who confirmed it."""
    return list(
        Submission.objects.filter(table=table)
        .select_related("by", "replaces")
        .prefetch_related(
            Prefetch("confirmations", queryset=Confirmation.objects.select_related("by"))
        )
        .order_by("-version")
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
