"""Altruismus paper score sheet (``games/altruismus/RULES.md``, "Paper result").

Fields: ``turns`` (turns played, 0..10) and per seat ``s<i>_cards`` (cards in
his collection), ``s<i>_sum`` (sum of the counted numbers), ``s<i>_bonus``
(colour bonus) and ``s<i>_total``.

Checks (every problem is reported, codes are stable):
- ``bonus_not_allowed``: a bonus not one of 0, 10, ..., 80 (the per-colour
  bonuses add up, but with at most 10 collected cards their sum never exceeds
  80, see ``engine.py``);
- ``total_mismatch``: total != sum + bonus;
- ``too_many_cards``: a seat collected more cards than turns were played;
- ``bonus_needs_more_cards``: a bonus of 10 x m needs at least m + 2 cards;
- ``sum_too_high``: the counted numbers exceed 18 per collected card;
plus the readers' ``missing`` / ``invalid`` / ``too_small`` / ``too_large``
and ``unknown_field`` / ``not_a_sheet``.
Result: figure = total, ranks by total (equal totals share the rank).
"""

from __future__ import annotations

from games.base import Problem, SheetError, TableResult, rank_by
from games.i18n import _
from games.sheets import field, read_int, unknown_fields

MAX_TURNS = 10
MAX_NUMBER = 18
ALLOWED_BONUS = tuple(range(0, 81, 10))
#: the largest total a sheet can hold: every counted number at most 18 in at
#: most 10 turns, plus the largest bonus (RULES.md, "Paper result")
MAX_TOTAL = MAX_TURNS * MAX_NUMBER + ALLOWED_BONUS[-1]


def sheet_schema(engine, players: int, options: dict | None = None) -> list[dict]:
    engine.check_players(players)
    fields = [
        field("turns", _("Turns played"), min=0, max=MAX_TURNS),
    ]
    for i in range(players):
        fields += [
            field(f"s{i}_cards", _("Cards collected"), seat=i, min=0, max=MAX_TURNS),
            field(
                f"s{i}_sum", _("Sum of counted numbers"), seat=i, min=0, max=MAX_TURNS * MAX_NUMBER
            ),
            field(
                f"s{i}_bonus", _("Colour bonus"), seat=i, min=0, max=80, help=_("0, 10, 20, ... 80")
            ),
            field(f"s{i}_total", _("Total"), seat=i, min=0, max=MAX_TOTAL),
        ]
    return fields


def check_sheet(engine, players: int, sheet: dict, options: dict | None = None) -> TableResult:
    schema = sheet_schema(engine, players, options)
    problems: list[Problem] = []
    if not unknown_fields(sheet, schema, problems):
        raise SheetError(problems)
    turns = read_int(sheet, "turns", problems, min=0, max=MAX_TURNS)
    totals = []
    sums = []
    bonuses = []
    for i in range(players):
        f_cards, f_sum, f_bonus, f_total = (f"s{i}_{k}" for k in ("cards", "sum", "bonus", "total"))
        cards = read_int(sheet, f_cards, problems, min=0, max=MAX_TURNS)
        total_sum = read_int(sheet, f_sum, problems, min=0, max=MAX_TURNS * MAX_NUMBER)
        bonus = read_int(sheet, f_bonus, problems)
        total = read_int(sheet, f_total, problems, min=0, max=MAX_TOTAL)
        if bonus is not None and bonus not in ALLOWED_BONUS:
            problems.append(
                Problem(
                    "bonus_not_allowed",
                    (f_bonus,),
                    _("Seat {seat}: a colour bonus of {bonus} is impossible (0, 10, ..., 80)."),
                    {"seat": i + 1, "bonus": bonus},
                )
            )
            bonus = None
        if None not in (total_sum, bonus, total) and total != total_sum + bonus:
            problems.append(
                Problem(
                    "total_mismatch",
                    (f_sum, f_bonus, f_total),
                    _("Seat {seat}: total {total} is not sum {sum} + bonus {bonus}."),
                    {"seat": i + 1, "total": total, "sum": total_sum, "bonus": bonus},
                )
            )
        if cards is not None and turns is not None and cards > turns:
            problems.append(
                Problem(
                    "too_many_cards",
                    (f_cards, "turns"),
                    _("Seat {seat}: {cards} cards collected in only {turns} turns."),
                    {"seat": i + 1, "cards": cards, "turns": turns},
                )
            )
        if cards is not None and bonus is not None and bonus > 10 * max(0, cards - 2):
            problems.append(
                Problem(
                    "bonus_needs_more_cards",
                    (f_bonus, f_cards),
                    _("Seat {seat}: a colour bonus of {bonus} needs more than {cards} cards."),
                    {"seat": i + 1, "bonus": bonus, "cards": cards},
                )
            )
        if cards is not None and total_sum is not None and total_sum > MAX_NUMBER * cards:
            problems.append(
                Problem(
                    "sum_too_high",
                    (f_sum, f_cards),
                    _("Seat {seat}: {cards} cards cannot count {sum} (at most 18 each)."),
                    {"seat": i + 1, "cards": cards, "sum": total_sum},
                )
            )
        totals.append(total)
        sums.append(total_sum)
        bonuses.append(bonus)
    if problems:
        raise SheetError(problems)
    keys = [[t] for t in totals]
    return TableResult(
        ranks=rank_by(keys),
        figures=totals,
        details={"rank_keys": keys, "sums": sums, "bonuses": bonuses, "turns": turns},
    )
