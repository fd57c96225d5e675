"""Monddämmerung paper score sheets.

Fields per seat ``i`` (seats print as 1..n):

- ``s<i>_won``: cards in the win pile, the One included if he laid it (0..64);
- ``s<i>_one``: laid the One (checkbox);
- ``s<i>_out``: went out as number 1, 2, ... (blank: still in at the end);
- ``s<i>_place``: placing (optional; when filled in it is checked).

Score = win-pile cards + 5 for the laid One; ranks follow the scores, equal
scores share the rank.

Problem codes: ``counts_exceed_deck`` (win piles hold more cards than the
deck), ``one_laid_twice``, ``one_not_counted`` (the One was laid, so the win
pile holds at least it), ``one_laid_not_out`` (laying the One puts its player
out), ``out_order_invalid`` (out numbers repeat, leave gaps, or every player
went out), ``placings_mismatch`` (a placing that does not follow from the
scores), plus the readers' ``missing``/``invalid``/``too_small``/``too_large``
and ``not_a_sheet``/``unknown_field``.
"""

from __future__ import annotations

from games.base import Problem, SheetError, TableResult, rank_by
from games.i18n import _
from games.monddaemmerung.deck import load_deck
from games.sheets import field, is_blank, read_bool, read_int, unknown_fields

ONE_BONUS = 5


def _total(engine, options) -> int:
    opts = engine._options({k: v for k, v in (options or {}).items() if k != "stack"})
    deck = load_deck(opts["deck"])
    return len(deck.cards) + 1


def sheet_schema(engine, players: int, options: dict | None = None) -> list[dict]:
    engine.check_players(players)
    total = _total(engine, options)
    fields = []
    for i in range(players):
        fields += [
            field(
                f"s{i}_won",
                _("Cards in win pile (the One included if laid)"),
                "int",
                seat=i,
                min=0,
                max=total,
            ),
            field(f"s{i}_one", _("Laid the One"), "bool", seat=i, required=False),
            field(
                f"s{i}_out",
                _("Went out as number (blank: still in)"),
                "int",
                seat=i,
                required=False,
                min=1,
                max=players,
            ),
            field(f"s{i}_place", _("Placing"), "int", seat=i, required=False, min=1, max=players),
        ]
    return fields


def check_sheet(engine, players: int, sheet: dict, options: dict | None = None) -> TableResult:
    schema = sheet_schema(engine, players, options)
    total = _total(engine, options)
    problems: list[Problem] = []
    if not unknown_fields(sheet, schema, problems):
        raise SheetError(problems)
    seats = range(players)
    won = [read_int(sheet, f"s{i}_won", problems, min=0, max=total) for i in seats]
    one = [read_bool(sheet, f"s{i}_one", problems) for i in seats]
    out = [
        read_int(sheet, f"s{i}_out", problems, required=False, min=1, max=players) for i in seats
    ]
    place = [
        read_int(sheet, f"s{i}_place", problems, required=False, min=1, max=players) for i in seats
    ]

    known = [w for w in won if w is not None]
    if sum(known) > total:
        problems.append(
            Problem(
                "counts_exceed_deck",
                tuple(f"s{i}_won" for i in seats if won[i] is not None),
                _("The win piles hold {count} cards, but the deck has only {total}."),
                {"count": sum(known), "total": total},
            )
        )
    layers = [i for i in seats if one[i]]
    if len(layers) > 1:
        problems.append(
            Problem(
                "one_laid_twice",
                tuple(f"s{i}_one" for i in layers),
                _("Only one player can lay the One; {count} are marked."),
                {"count": len(layers)},
            )
        )
    for i in layers:
        if won[i] == 0:
            problems.append(
                Problem(
                    "one_not_counted",
                    (f"s{i}_won", f"s{i}_one"),
                    _("Seat {seat} laid the One, so his win pile holds at least that card."),
                    {"seat": i + 1},
                )
            )
        if is_blank(sheet.get(f"s{i}_out")):
            problems.append(
                Problem(
                    "one_laid_not_out",
                    (f"s{i}_out", f"s{i}_one"),
                    _("Seat {seat} laid the One and so went out; enter when."),
                    {"seat": i + 1},
                )
            )
    given = [(o, i) for i, o in enumerate(out) if o is not None]
    numbers = sorted(o for o, _i in given)
    if given and (numbers != list(range(1, len(numbers) + 1)) or len(numbers) >= players):
        problems.append(
            Problem(
                "out_order_invalid",
                tuple(f"s{i}_out" for _o, i in sorted(given)),
                _(
                    "The going-out numbers must be 1, 2, 3, ... without repeats or gaps, "
                    "and at least one player stays in."
                ),
            )
        )
    if any(w is None for w in won) or any(o is None for o in one):
        raise SheetError(problems)
    scores = [won[i] + (ONE_BONUS if one[i] else 0) for i in seats]
    keys = [[sc] for sc in scores]
    ranks = rank_by(keys)
    wrong = [i for i in seats if place[i] is not None and place[i] != ranks[i]]
    if wrong:
        problems.append(
            Problem(
                "placings_mismatch",
                tuple(f"s{i}_place" for i in wrong),
                _("The placings do not follow from the scores: expected {expected}."),
                {"expected": ", ".join(f"seat {i + 1}: {ranks[i]}" for i in wrong)},
            )
        )
    if problems:
        raise SheetError(problems)
    out_order = [i for _o, i in sorted(given)]
    return TableResult(
        ranks=ranks,
        figures=scores,
        details={
            "rank_keys": keys,
            "win_pile": won,
            "one_laid": layers[0] if layers else None,
            "out_order": out_order,
        },
    )


def unfinished(engine, result: TableResult, players: int) -> Problem | None:
    """The game ends when at most one player still holds cards."""
    out = result.details.get("out_order") or []
    holding = players - sum(1 for x in out if x is not None)
    if holding > 1:
        return Problem("cards_still_held", (), _("{n} players still hold cards."), {"n": holding})
    return None
