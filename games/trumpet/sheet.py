"""Trumpet paper sheet: each figure's final field and who reached the Great Hall.

Fields per seat ``i``:

- ``s<i>_hall`` (bool): the figure reached the Great Hall;
- ``s<i>_field`` (int): the figure's final field, 0 = start, 1..track; not
  needed when ``s<i>_hall`` is ticked (if given it must be the Hall's number,
  ``track + 1``, i.e. 31 on the standard board). Its range is 0..track + 1,
  the largest field a figure can reach (a marked sheet needs one).

A sheet is valid only if no two figures share a track field (the start may be
shared), at most one figure is in the Hall and every field exists on the
board. Problem codes: ``field_shared``, ``several_in_hall``, ``no_such_field``,
``hall_and_field`` plus the readers' ``missing`` / ``invalid`` /
``invalid_choice`` / ``unknown_field`` / ``not_a_sheet``.

Figures are fields, the Hall counting as ``track + 1``; ranks follow the
figures (``rank_keys = [[field], ...]``). Penalty moves for not following
colour are made at the table and are already part of the final fields.
"""

from __future__ import annotations

from games.base import Problem, SheetError, TableResult, rank_by
from games.i18n import _
from games.sheets import field, is_blank, read_bool, read_int, unknown_fields


def _board(engine, options):
    from games.trumpet.engine import load_board

    options = engine._options(options)
    return load_board(options.get("board", "standard"))


def sheet_schema(engine, players: int, options=None) -> list[dict]:
    engine.check_players(players)
    board = _board(engine, options)
    hall = board["track"] + 1
    out = []
    for i in range(players):
        out.append(
            field(
                f"s{i}_field",
                _("Final field"),
                "int",
                seat=i,
                required=False,
                min=0,
                max=hall,
                help=_("0 = start, 1 to {track}; leave blank (or {hall}) for the Great Hall"),
                params={"track": board["track"], "hall": hall},
            )
        )
        out.append(field(f"s{i}_hall", _("Reached the Great Hall"), "bool", seat=i, required=False))
    return out


def check_sheet(engine, players: int, sheet, options=None) -> TableResult:
    schema = sheet_schema(engine, players, options)
    board = _board(engine, options)
    track = board["track"]
    hall_field = track + 1
    problems: list[Problem] = []
    if not unknown_fields(sheet, schema, problems):
        raise SheetError(problems)
    figures: list[int | None] = []
    in_hall = []
    for i in range(players):
        fname, hname = f"s{i}_field", f"s{i}_hall"
        hall = read_bool(sheet, hname, problems)
        value = read_int(sheet, fname, problems, required=False)
        if hall:
            in_hall.append(i)
            if value is not None and value != hall_field:
                problems.append(
                    Problem(
                        "hall_and_field",
                        (fname, hname),
                        _("A figure in the Great Hall has no track field (leave it blank)."),
                    )
                )
            figures.append(hall_field)
            continue
        if value is None:
            if is_blank(sheet.get(fname)):
                problems.append(Problem("missing", (fname,), _("This field is required.")))
            figures.append(None)
            continue
        if value == hall_field:
            problems.append(
                Problem(
                    "hall_not_ticked",
                    (fname, hname),
                    _("Field {hall} is the Great Hall: tick 'Reached the Great Hall'."),
                    {"hall": hall_field},
                )
            )
            figures.append(None)
            continue
        if not (0 <= value <= track):
            problems.append(
                Problem(
                    "no_such_field",
                    (fname,),
                    _("Field {value} does not exist on this board (0 to {track})."),
                    {"value": value, "track": track},
                )
            )
            figures.append(None)
            continue
        figures.append(value)
    if len(in_hall) > 1:
        problems.append(
            Problem(
                "several_in_hall",
                tuple(f"s{i}_hall" for i in in_hall),
                _("Only one figure can reach the Great Hall: the game ends when it does."),
            )
        )
    by_field: dict[int, list[int]] = {}
    for i, f in enumerate(figures):
        if f is not None and 1 <= f <= track:
            by_field.setdefault(f, []).append(i)
    for f, seats in sorted(by_field.items()):
        if len(seats) > 1:
            problems.append(
                Problem(
                    "field_shared",
                    tuple(f"s{i}_field" for i in seats),
                    _("Only one figure can stand on field {field}."),
                    {"field": f},
                )
            )
    if problems:
        raise SheetError(problems)
    keys = [[f] for f in figures]
    return TableResult(
        ranks=rank_by(keys),
        figures=list(figures),
        details={
            "rank_keys": keys,
            "great_hall": in_hall[0] if in_hall else None,
            "hall_field": hall_field,
        },
    )


def unfinished(engine, result: TableResult, players: int) -> Problem | None:
    """The race is won when a figure enters the Great Hall."""
    if result.details.get("great_hall") is None:
        return Problem("hall_not_reached", (), _("No figure reached the Great Hall."))
    return None
