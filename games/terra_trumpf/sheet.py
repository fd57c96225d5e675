"""Terra Trumpf paper score sheets.

One group of fields per hand ``k`` = 1..n (n = players; hand 1 is required,
later hands are filled in as they are played)::

    h<k>_chooser      seat     the Alpha chooser of the hand
    h<k>_alpha        choice   the Alpha category (the categories in play when
                               options["categories"] is known, else any category
                               of the deck)
    h<k>_finished     bool     ticked when the hand was played to the end
                               (blank: time was called during it)
    h<k>_s<j>_value   int      seat j's collected value in the hand
                               (options["sheet"] == "points": h<k>_s<j>_points,
                               seat j's points in the hand)

Problems found (every one is reported, codes are stable):

- ``missing`` / ``invalid`` / ``invalid_choice`` / ``too_small`` / ``too_large`` /
  ``unknown_field`` / ``not_a_sheet``: from the readers in ``games.sheets`` (a
  value or points field holds at most what one hand can: :func:`most_in_play`);
- ``categories_mixed_sets``: at 2 and 3 players options["categories"] (the
  categories in play) mix card sets, but they must all come from one set (no
  fields: the categories are the table's options, not a sheet field);
- ``too_many_hands``: fields of a hand beyond n;
- ``hands_not_consecutive``: a hand left blank before a filled-in hand;
- ``chooser_repeated``: a seat chose Alpha twice;
- ``chooser_out_of_order``: a chooser is not the seat after the previous chooser;
- ``wrong_first_chooser``: hand 1's chooser is not ``options["first_chooser"]``
  (checked only when that option is set);
- ``unfinished_hand_not_last``: only the last hand can have been cut by time;
- ``hand_total_mismatch``: a finished hand's collected values do not add up to
  the value of the cards in play (only when options["categories"] is known);
- ``hand_total_exceeds``: an unfinished hand's values add up to more than that;
- ``hand_points_exceed`` / ``hand_points_too_low`` (points sheets, categories
  known): a hand's points add up to more than the full thousands of the cards
  in play, or (finished hand) to fewer than the values can give.

Ruling (added): a points-only sheet has no collected values, so equal points
share the rank there (the value tie-break needs a values sheet).
"""

from __future__ import annotations

import re

from games.base import Problem, SheetError, TableResult
from games.i18n import _
from games.sheets import (
    field,
    is_blank,
    read_bool,
    read_choice,
    read_int,
    read_seat,
    unknown_fields,
)
from games.terra_trumpf.cards import categories_needed

_HAND_FIELD = re.compile(r"^h(\d+)_(chooser|alpha|finished|s\d+_(?:value|points))$")


def _mode(options: dict | None) -> str:
    return (options or {}).get("sheet", "values")


def _cat_choices(engine, players: int, options: dict | None) -> tuple[list, int | None]:
    """Alpha choices and the total value of the cards in play (None if unknown)."""
    deck, _used, cats = engine._setup(players, options, allow_mixed=True)
    known = deck.categories
    if cats is None:
        return [[c.key, c.label] for c in known.values()], None
    total = sum(known[k].total for k in cats)
    return [[k, known[k].label] for k in cats], total


def most_in_play(engine, players: int, options: dict | None) -> int:
    """The largest value one hand can hold (RULES.md, "Paper result"): the
    value of the cards in play where the categories are known, else of the
    most valuable categories the table's card sets could put in play."""
    deck, used, cats = engine._setup(players, options, allow_mixed=True)
    known = deck.categories
    if cats is not None:
        return sum(known[k].total for k in cats)
    totals = sorted((c.total for c in known.values() if c.set_index in used), reverse=True)
    return sum(totals[: categories_needed(players)])


def sheet_schema(engine, players: int, options: dict | None = None) -> list[dict]:
    choices, _total = _cat_choices(engine, players, options)
    unit = "points" if _mode(options) == "points" else "value"
    label = _("Points") if unit == "points" else _("Collected value")
    most = most_in_play(engine, players, options)
    if unit == "points":
        most //= 1000
    out = []
    for k in range(1, players + 1):
        group = f"{_('hand')} {k}"
        req = k == 1
        out.append(field(f"h{k}_chooser", _("Alpha chooser"), "seat", group=group, required=req))
        out.append(
            field(
                f"h{k}_alpha",
                _("Alpha category"),
                "choice",
                group=group,
                required=req,
                choices=choices,
            )
        )
        out.append(
            field(
                f"h{k}_finished",
                _("Hand finished"),
                "bool",
                group=group,
                required=False,
                help=_("Tick when all cards were played; leave blank when time was called."),
            )
        )
        for j in range(players):
            out.append(
                field(
                    f"h{k}_s{j}_{unit}",
                    label,
                    "int",
                    seat=j,
                    group=group,
                    required=req,
                    min=0,
                    max=most,
                )
            )
    return out


def check_sheet(engine, players: int, sheet, options: dict | None = None) -> TableResult:
    from games.terra_trumpf.engine import ranked_result

    schema = sheet_schema(engine, players, options)
    choices, total = _cat_choices(engine, players, options)
    unit = "points" if _mode(options) == "points" else "value"
    most = most_in_play(engine, players, options)
    if unit == "points":
        most //= 1000
    n = players
    problems: list[Problem] = []
    if not isinstance(sheet, dict):
        unknown_fields(sheet, schema, problems)
        raise SheetError(problems)
    mixed = engine.mixed_sets(players, options)
    if mixed:
        problems.append(
            Problem(
                "categories_mixed_sets",
                (),
                _(
                    "At {players} players the categories in play must all come from one "
                    "card set, but they mix the sets {sets}."
                ),
                {"players": players, "sets": ", ".join(mixed)},
            )
        )
    beyond = []
    for name in sheet:
        m = _HAND_FIELD.match(str(name))
        if m and int(m.group(1)) > n:
            beyond.append(name)
    unknown_fields({k: v for k, v in sheet.items() if k not in beyond}, schema, problems)
    filled_beyond = sorted(str(k) for k in beyond if not is_blank(sheet[k]))
    if filled_beyond:
        problems.append(
            Problem(
                "too_many_hands",
                tuple(filled_beyond),
                _("A game has at most {max} hands (each player chooses Alpha once)."),
                {"max": n},
            )
        )

    hands = []  # (k, chooser, alpha, finished, values)
    gap = None  # the first blank hand
    gap_reported = False
    keys = [c[0] for c in choices]
    for k in range(1, n + 1):
        value_names = [f"h{k}_s{j}_{unit}" for j in range(n)]
        names = [f"h{k}_chooser", f"h{k}_alpha", *value_names]
        fin_raw = sheet.get(f"h{k}_finished")
        ticked = not is_blank(fin_raw) and read_bool(sheet, f"h{k}_finished", []) is not False
        played = k == 1 or ticked or any(not is_blank(sheet.get(x)) for x in names)
        if not played:
            if gap is None:
                gap = k
            continue
        if gap is not None and not gap_reported:
            gap_reported = True
            problems.append(
                Problem(
                    "hands_not_consecutive",
                    (f"h{gap}_chooser",),
                    _("Hand {hand} is blank but a later hand is filled in."),
                    {"hand": gap},
                )
            )
        chooser = read_seat(sheet, f"h{k}_chooser", problems, n)
        alpha = read_choice(sheet, f"h{k}_alpha", problems, keys)
        finished = read_bool(sheet, f"h{k}_finished", problems)
        values = [read_int(sheet, x, problems, min=0, max=most) for x in value_names]
        hands.append((k, chooser, alpha, finished, values))

    first = (options or {}).get("first_chooser")
    if first is not None and hands and hands[0][1] is not None and hands[0][1] != first:
        problems.append(
            Problem(
                "wrong_first_chooser",
                ("h1_chooser",),
                _("The first Alpha chooser must be seat {seat}."),
                {"seat": first + 1},
            )
        )
    seen: dict[int, int] = {}
    prev = None  # (hand, chooser) of the previous hand
    for k, chooser, _alpha, _fin, _values in hands:
        if chooser is None:
            prev = None
            continue
        if chooser in seen:
            problems.append(
                Problem(
                    "chooser_repeated",
                    (f"h{seen[chooser]}_chooser", f"h{k}_chooser"),
                    _("Seat {seat} chose Alpha in hand {first} and again in hand {hand}."),
                    {"seat": chooser + 1, "first": seen[chooser], "hand": k},
                )
            )
        elif prev is not None and chooser != (prev[1] + 1) % n:
            problems.append(
                Problem(
                    "chooser_out_of_order",
                    (f"h{prev[0]}_chooser", f"h{k}_chooser"),
                    _(
                        "The Alpha chooser of hand {hand} must be seat {expected}, "
                        "the player after the previous chooser."
                    ),
                    {"hand": k, "expected": (prev[1] + 1) % n + 1},
                )
            )
        seen.setdefault(chooser, k)
        prev = (k, chooser)

    for k, _chooser, _alpha, finished, _values in hands[:-1]:
        if finished is False:
            problems.append(
                Problem(
                    "unfinished_hand_not_last",
                    (f"h{k}_finished",),
                    _(
                        "Hand {hand} is not marked finished, but only the last hand "
                        "can be cut short by time."
                    ),
                    {"hand": k},
                )
            )

    if total is not None:
        for k, _chooser, _alpha, finished, values in hands:
            if None in values or finished is None:
                continue
            fields = tuple(f"h{k}_s{j}_{unit}" for j in range(n))
            got = sum(values)
            if unit == "value":
                if finished and got != total:
                    problems.append(
                        Problem(
                            "hand_total_mismatch",
                            fields,
                            _(
                                "The collected values of hand {hand} add up to {got}, "
                                "but the cards in play are worth {total}."
                            ),
                            {"hand": k, "got": got, "total": total},
                        )
                    )
                elif not finished and got > total:
                    problems.append(
                        Problem(
                            "hand_total_exceeds",
                            fields,
                            _(
                                "The collected values of hand {hand} add up to {got}, "
                                "more than the cards in play are worth ({total})."
                            ),
                            {"hand": k, "got": got, "total": total},
                        )
                    )
            else:
                most = total // 1000
                least = max(0, -(-(total - 999 * n) // 1000))
                if got > most:
                    problems.append(
                        Problem(
                            "hand_points_exceed",
                            fields,
                            _(
                                "The points of hand {hand} add up to {got}; the cards in "
                                "play give at most {most}."
                            ),
                            {"hand": k, "got": got, "most": most},
                        )
                    )
                elif finished and got < least:
                    problems.append(
                        Problem(
                            "hand_points_too_low",
                            fields,
                            _(
                                "The points of finished hand {hand} add up to {got}; the "
                                "cards in play give at least {least}."
                            ),
                            {"hand": k, "got": got, "least": least},
                        )
                    )

    if problems:
        raise SheetError(problems)
    pts = [0] * n
    vals = [0] * n if unit == "value" else None
    for _k, _chooser, _alpha, _fin, values in hands:
        for j, v in enumerate(values):
            if unit == "value":
                pts[j] += v // 1000
                vals[j] += v
            else:
                pts[j] += v
    key = "values" if unit == "value" else "points"
    details = {
        "hands": [
            {"chooser": c, "alpha": a, "finished": f, key: list(v)} for _k, c, a, f, v in hands
        ]
    }
    return ranked_result(n, pts, vals, details)


def unfinished(engine, result: TableResult, players: int) -> Problem | None:
    """The game ends when every player has chosen Alpha once (one hand each)
    and the last hand was played out."""
    hands = result.details.get("hands") or []
    if not hands:
        return None
    if not all(h.get("finished") for h in hands):
        return Problem("hand_not_finished", (), _("A hand was not played to its end."))
    if len(hands) < players:
        return Problem(
            "hands_missing",
            (),
            _("Only {played} of {n} hands were played."),
            {"played": len(hands), "n": players},
        )
    return None
