"""The Quartett paper result sheet.

Per seat ``s<i>_cards`` (cards held at the end), ``s<i>_out`` (went out),
``s<i>_out_order`` (1 = went out first; players who went out in the same
trick share the number, the numbers run 1, 2, 3, ... without gaps) and
``s<i>_decision`` (won the decision round among players tied on cards held),
plus ``ties_undecided`` (a decision round ended tied because the tied players'
cards ran out: that group shares its rank).

A sheet is valid only if the counts add up to exactly the cards in play (the
deck, from ``options["deck"]``, minus the cards set aside for this player
count), every "out" seat holds 0 cards and has an exit number, every seat
still in holds at least one card, and the ranking follows from the counts:
each group of seats tied on cards held has exactly one decision-round winner
(unless ``ties_undecided``), and only a tied seat can be one.
"""

from __future__ import annotations

from games.base import Problem, SheetError, TableResult
from games.i18n import _
from games.sheets import field, is_blank, read_bool, read_int, unknown_fields


def sheet_schema(engine, players: int, options: dict | None = None) -> list[dict]:
    engine.check_players(players)
    in_play = engine.in_play_count(players, options)
    fields = []
    for p in range(players):
        fields += [
            field(
                f"s{p}_cards",
                _("Cards held"),
                "int",
                seat=p,
                required=False,
                min=0,
                max=in_play,
                help=_("Cards in the pile when the game ended (blank or 0 if out)."),
            ),
            field(f"s{p}_out", _("Out"), "bool", seat=p, required=False),
            field(
                f"s{p}_out_order",
                _("Order of going out"),
                "int",
                seat=p,
                required=False,
                min=1,
                max=players,
                help=_("1 = went out first; players out in the same trick share the number."),
            ),
            field(
                f"s{p}_decision",
                _("Won the decision round"),
                "bool",
                seat=p,
                required=False,
                help=_("Tick for the winner among players with the same number of cards."),
            ),
        ]
    fields.append(
        field(
            "ties_undecided",
            _("A decision round stayed tied"),
            "bool",
            required=False,
            help=_("The tied players' cards ran out without a winner: they share the rank."),
        )
    )
    return fields


def check_sheet(engine, players: int, sheet, options: dict | None = None) -> TableResult:
    schema = sheet_schema(engine, players, options)
    in_play = engine.in_play_count(players, options)
    problems: list[Problem] = []
    if not unknown_fields(sheet, schema, problems):
        raise SheetError(problems)
    counts: list = [None] * players
    outs: list = [None] * players
    orders: list = [None] * players
    wins: list = [None] * players
    readable = True
    for p in range(players):
        cf, of, xf, df = f"s{p}_cards", f"s{p}_out", f"s{p}_out_order", f"s{p}_decision"
        n_before = len(problems)
        out = read_bool(sheet, of, problems)
        count = read_int(sheet, cf, problems, required=False, min=0, max=in_play)
        order = read_int(sheet, xf, problems, required=False, min=1, max=players)
        won = read_bool(sheet, df, problems)
        if len(problems) > n_before:
            readable = False
        if out is True:
            if count is not None and count > 0:
                problems.append(
                    Problem(
                        "out_with_cards",
                        (cf, of),
                        _("Seat {seat} is marked out but holds {count} cards."),
                        {"seat": p + 1, "count": count},
                    )
                )
                readable = False
            if is_blank(sheet.get(xf)):
                problems.append(
                    Problem(
                        "missing",
                        (xf,),
                        _("Seat {seat} is out: enter the order of going out."),
                        {"seat": p + 1},
                    )
                )
                readable = False
            count = 0
        elif out is False:
            if is_blank(sheet.get(cf)):
                problems.append(
                    Problem(
                        "missing",
                        (cf,),
                        _("Enter the cards seat {seat} holds, or mark the seat out."),
                        {"seat": p + 1},
                    )
                )
                readable = False
            elif count == 0:
                problems.append(
                    Problem(
                        "no_cards_not_out",
                        (cf, of),
                        _("Seat {seat} holds no cards, so it is out: mark it out."),
                        {"seat": p + 1},
                    )
                )
                readable = False
            if not is_blank(sheet.get(xf)):
                problems.append(
                    Problem(
                        "out_order_without_out",
                        (xf, of),
                        _("Seat {seat} has an order of going out but is not marked out."),
                        {"seat": p + 1},
                    )
                )
                readable = False
        counts[p], outs[p], orders[p], wins[p] = count, out, order, won
    undecided = read_bool(sheet, "ties_undecided", problems)
    if undecided is None:
        readable = False
    if not readable:
        raise SheetError(problems)

    out_orders = [orders[p] for p in range(players) if outs[p]]
    if out_orders and set(out_orders) != set(range(1, max(out_orders) + 1)):
        problems.append(
            Problem(
                "out_order_invalid",
                tuple(f"s{p}_out_order" for p in range(players) if outs[p]),
                _(
                    "The orders of going out must run 1, 2, 3, ... without gaps "
                    "(players out in the same trick share a number); got {orders}."
                ),
                {"orders": ", ".join(str(o) for o in sorted(out_orders))},
            )
        )
    holders = [p for p in range(players) if not outs[p]]
    total = sum(counts[p] for p in holders)
    if holders and total != in_play:
        problems.append(
            Problem(
                "counts_do_not_add_up",
                tuple(f"s{p}_cards" for p in range(players)),
                _("The cards held add up to {total}, but {expected} cards are in play."),
                {"total": total, "expected": in_play},
            )
        )
    by_count: dict[int, list[int]] = {}
    for p in holders:
        by_count.setdefault(counts[p], []).append(p)
    tied_undecided = False
    for p in range(players):
        if wins[p] and (outs[p] or len(by_count.get(counts[p], [])) < 2):
            problems.append(
                Problem(
                    "decision_winner_not_tied",
                    (f"s{p}_decision",),
                    _("Seat {seat} won a decision round but no other player holds as many cards."),
                    {"seat": p + 1},
                )
            )
    for count, group in sorted(by_count.items(), reverse=True):
        if len(group) < 2:
            continue
        winners = [p for p in group if wins[p]]
        seats = ", ".join(str(p + 1) for p in group)
        if not winners:
            if undecided:
                tied_undecided = True
                continue
            problems.append(
                Problem(
                    "tie_without_decision",
                    tuple(f"s{p}_decision" for p in group),
                    _(
                        "Seats {seats} hold {count} cards each: tick who won the decision "
                        "round (or mark the decision round as tied)."
                    ),
                    {"seats": seats, "count": count},
                )
            )
        elif len(winners) > 1:
            problems.append(
                Problem(
                    "two_decision_winners",
                    tuple(f"s{p}_decision" for p in winners),
                    _("Only one of seats {seats} can have won their decision round."),
                    {"seats": seats},
                )
            )
    if undecided and not tied_undecided:
        problems.append(
            Problem(
                "undecided_without_tie",
                ("ties_undecided",),
                _("A decision round is marked tied, but no tied group lacks a winner."),
            )
        )
    if problems:
        raise SheetError(problems)
    result = engine_ranking(counts, [orders[p] if outs[p] else None for p in range(players)], wins)
    result.details["in_play"] = in_play
    return result


def engine_ranking(counts, out, wins):
    from games.quartett.engine import ranking

    winners = [p for p, w in enumerate(wins) if w]
    return ranking(
        counts, out, winners, details={"out_order": list(out), "decision_winners": winners}
    )


def unfinished(engine, result: TableResult, players: int) -> Problem | None:
    """The game ends when at most one player still holds cards."""
    out = result.details.get("out_order") or []
    holding = players - sum(1 for x in out if x is not None)
    if holding > 1:
        return Problem("cards_still_held", (), _("{n} players still hold cards."), {"n": holding})
    return None
