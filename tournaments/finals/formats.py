"""The final stage's formats and its settings checked (pure: no Django).

A tournament ends after its qualifying rounds (no final stage, as before),
or with one **final table** of the top K, or with **semi-final tables**
whose best go on to a final table (top 8 → two tables of 4 → the top 2 of
each to a final of 4). Every stage is a round of the tournament, marked with
its stage (``SEMI``, ``FINAL``). The final's results **replace** the
qualifying places of the finalists (the usual rule) or **add** to their
points.

:func:`problems` checks settings against the game's allowed table sizes and
the field: each problem a stable code with its parameters, worded on the web
side (``tournaments.finals.messages``). The labels of the formats and modes
are the settings model's (``tournaments.finals.models``), whose codes are
these strings.
"""

from __future__ import annotations

from dataclasses import dataclass

NONE, TABLE, SEMIS = "none", "table", "semis"
FORMATS = (NONE, TABLE, SEMIS)
REPLACE, ADD = "replace", "add"
MODES = (REPLACE, ADD)
#: a round's stage marker: "" for a qualifying round
QUALIFYING, SEMI, FINAL = "", "semi", "final"
STAGES = (QUALIFYING, SEMI, FINAL)


@dataclass(frozen=True, slots=True)
class Config:
    """A final stage's settings. ``final_size``: the players at the final
    table; with semi-finals ``semi_tables`` tables of ``semi_size`` players,
    the best ``advance`` of each go on to the final."""

    format: str = NONE
    final_size: int = 4
    semi_tables: int = 2
    semi_size: int = 4
    advance: int = 2
    mode: str = REPLACE

    @property
    def active(self) -> bool:
        return self.format in (TABLE, SEMIS)

    @property
    def qualifiers(self) -> int:
        """How many players the qualifying rounds send to the final stage."""
        if self.format == SEMIS:
            return self.semi_tables * self.semi_size
        if self.format == TABLE:
            return self.final_size
        return 0

    @property
    def stages(self) -> tuple[str, ...]:
        """The stage rounds in play order."""
        if self.format == SEMIS:
            return (SEMI, FINAL)
        if self.format == TABLE:
            return (FINAL,)
        return ()


def problems(config: Config, *, sizes, field: int) -> list[tuple[str, dict]]:
    """What is wrong with ``config`` for a game played at table ``sizes``
    (the game's sizes) and a field of ``field`` players: ``[(code, params)]``,
    empty when it can be played."""
    out: list[tuple[str, dict]] = []
    if config.format not in FORMATS:
        return [("unknown_format", {"format": config.format})]
    if config.mode not in MODES:
        out.append(("unknown_mode", {"mode": config.mode}))
    if not config.active:
        return out
    allowed = sorted(set(sizes))
    shown = ", ".join(str(s) for s in allowed)
    if config.final_size not in allowed:
        out.append(("final_size", {"n": config.final_size, "sizes": shown}))
    if config.format == SEMIS:
        if config.semi_tables < 2:
            out.append(("semi_tables", {"n": config.semi_tables}))
        if config.semi_size not in allowed:
            out.append(("semi_size", {"n": config.semi_size, "sizes": shown}))
        if not 1 <= config.advance < config.semi_size:
            out.append(("advance_range", {"n": config.advance, "size": config.semi_size}))
        elif config.semi_tables * config.advance != config.final_size:
            out.append(
                (
                    "advance_sum",
                    {
                        "tables": config.semi_tables,
                        "advance": config.advance,
                        "total": config.semi_tables * config.advance,
                        "final": config.final_size,
                    },
                )
            )
    if field and config.qualifiers > field:
        out.append(("larger_than_field", {"n": config.qualifiers, "field": field}))
    return out
