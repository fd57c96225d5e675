"""Resolvable designs no formula in ``tournaments.seating.mixing`` builds, kept as data.

A resolvable design is a plan of rounds in which nobody meets anybody twice.
``tournaments.seating.mixing`` builds most of them from finite fields; the ones here
have no such construction and were found by search once and checked since (see
``tests/seating/test_seating.py``). Pure data: no Django import.

32 players at tables of 4 for 10 rounds (the "social golfer" instance 8-4-10,
a resolvable 4-GDD of type 2^16): each player meets 30 of the other 31 once and
never meets his partner ``x ^ 1``. Every round is mapped onto itself by
``x -> x ^ 1``, so only the tables with an even first player are stored; the
other half of a round is their partner image. How it was found (2026-11, about
a minute on one core): a SAT model (CaDiCaL) of a resolvable 2-(16, 4, 2) design
on the 16 partner pairs in which two blocks share at most two pairs, then for
each block a GF(2) linear system that decides which partner of each pair sits at
which of the block's two tables, so that every two players of different pairs
meet exactly once. (Seating round by round reaches 6 rounds, the field
construction on 2^5 points 9.)
"""

from __future__ import annotations

_HALF_32_4 = (
    ((0, 2, 4, 6), (8, 10, 12, 14), (16, 18, 20, 22), (24, 26, 28, 30)),
    ((0, 8, 18, 26), (4, 12, 17, 31), (2, 15, 23, 24), (6, 11, 21, 28)),
    ((0, 10, 19, 24), (4, 13, 22, 29), (2, 14, 26, 31), (6, 9, 17, 20)),
    ((0, 15, 17, 25), (6, 10, 18, 30), (12, 21, 22, 27), (2, 5, 9, 29)),
    ((0, 20, 28, 31), (8, 17, 22, 24), (2, 7, 13, 18), (4, 11, 14, 27)),
    ((0, 13, 14, 21), (10, 16, 27, 28), (2, 19, 22, 30), (4, 7, 9, 24)),
    ((0, 5, 11, 22), (12, 18, 24, 29), (6, 15, 16, 31), (2, 8, 20, 27)),
    ((0, 3, 16, 29), (8, 11, 23, 30), (6, 13, 24, 27), (4, 15, 18, 21)),
    ((0, 7, 23, 27), (8, 15, 19, 29), (4, 20, 25, 30), (2, 11, 12, 16)),
    ((0, 9, 12, 30), (2, 10, 21, 25), (4, 16, 19, 26), (6, 14, 23, 29)),
)


def _unfold(halves):
    return tuple(
        tuple(tables) + tuple(tuple(sorted(x ^ 1 for x in t)) for t in tables) for tables in halves
    )


# (players, table size) -> rounds, each a tuple of tables of player numbers 0..n-1
RESOLVABLE = {
    (32, 4): _unfold(_HALF_32_4),
}
