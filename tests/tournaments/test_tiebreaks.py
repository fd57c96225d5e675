from fractions import Fraction as F

import pytest

from scoring.standings.compute import prepare
from tournaments.tiebreaks import (
    DEFAULT_ORDER,
    TIEBREAKS,
    PlayerData,
    PlayerRound,
    Table,
    check_order,
    head_to_head,
    opponents,
    rank,
    rating,
)


def table(rnd, players, ranks, points, figures=None):
    return Table(
        rnd, None, tuple(players), tuple(ranks), tuple(figures or [0] * len(players)), tuple(points)
    )


def build(tables, byes=(), ratings=None):
    """PlayerData from Table objects (points as given), recorded with
    ``PlayerData.add`` as ``scoring.standings.compute.prepare`` records them."""
    data = {}
    ratings = ratings or {}
    for t in tables:
        for p in t.players:
            data.setdefault(p, PlayerData(p, rating=ratings.get(p)))
    for _, p, _ in byes:
        data.setdefault(p, PlayerData(p, rating=ratings.get(p)))
    for t in tables:
        for i, p in enumerate(t.players):
            data[p].add(PlayerRound(t.round, t, i, t.points[i]))
    for rnd, p, pts in byes:
        data[p].add(PlayerRound(rnd, None, -1, pts))
    return data


def test_registry_matches_the_tournament_choices():
    assert tuple(TIEBREAKS) == DEFAULT_ORDER
    assert check_order(None) == DEFAULT_ORDER
    assert check_order(["wins", "points"]) == ("wins", "points")
    with pytest.raises(ValueError, match="unknown tiebreak elo"):
        check_order(["points", "elo"])
    with pytest.raises(ValueError, match="only once"):
        check_order(["points", "points"])


def test_game_views():
    t = table(1, "ABCD", [2, 1, 2, 4], [F(3, 2), 3, F(3, 2), 0], [5, 9, 5, 0])
    g = PlayerRound(1, t, 0, t.points[0])
    assert (g.rank, g.figure, g.mates, g.bye, g.won) == (2, 5, ("B", "C", "D"), False, False)
    assert PlayerRound(1, t, 1, 3).won
    bye = PlayerRound(2, None, -1, F(3, 2))
    assert (bye.bye, bye.rank, bye.figure, bye.mates, bye.won) == (True, None, 0, (), False)


def test_totals():
    data = build(
        [
            table(1, "ABC", [1, 2, 3], [3, F(3, 2), 0], [9, 4, 1]),
            table(2, "AB", [1, 1], [F(3, 2), F(3, 2)], [2, 2]),
        ],
        byes=[(2, "C", F(3, 2))],
    )
    a, b, c = data["A"], data["B"], data["C"]
    assert (a.points, a.figures, a.wins, a.played, a.byes) == (F(9, 2), 11, 1, 2, 0)
    assert (b.points, b.figures, b.wins, b.played, b.byes) == (3, 6, 0, 2, 0)
    assert (c.points, c.figures, c.wins, c.played, c.byes) == (F(3, 2), 1, 0, 1, 1)


def test_opponents_average_over_all_table_mates():
    # A met B, C (round 1) and B, D (round 2): B counts twice.
    data = build(
        [
            table(1, "ABC", [1, 2, 3], [3, 2, 0]),
            table(2, "ABD", [2, 1, 3], [1, 3, 0]),
            table(2, "CE", [1, 2], [5, 0]),
        ]
    )
    totals = {p: d.points for p, d in data.items()}
    assert totals == {"A": 4, "B": 5, "C": 5, "D": 0, "E": 0}
    opp = opponents(data, list(data))
    assert opp["A"] == F(5 + 5 + 5 + 0, 4)
    assert opp["B"] == F(4 + 5 + 4 + 0, 4)
    assert opp["D"] == F(4 + 5, 2)
    assert opp["E"] == 5


def test_opponents_ignore_byes():
    with_bye = build(
        [table(1, "AB", [1, 2], [3, 0]), table(1, "CD", [1, 2], [3, 0])],
        byes=[(2, "A", F(3, 2)), (2, "C", F(3, 2))],
    )
    opp = opponents(with_bye, list(with_bye))
    assert opp["A"] == 0  # B's points; the bye adds no table-mate
    assert opp["B"] == F(9, 2)  # A's points, bye included
    only_bye = build([], byes=[(1, "Z", F(3, 2))])
    assert opponents(only_bye, ["Z"]) == {"Z": 0}


def test_head_to_head_counts_only_encounters_inside_the_group():
    # A beat B at a table with X; B beat C... no: C never met A or B.
    # X, not in the group, finished ahead of A and behind B elsewhere.
    t1 = table(1, "XAB", [1, 2, 3], [0, 0, 0])
    t2 = table(2, "BXC", [1, 2, 3], [0, 0, 0])
    t3 = table(3, "AC", [1, 1], [0, 0])
    data = build([t1, t2, t3])
    # Group {A, B}: A ahead of B once.
    assert head_to_head(data, ["A", "B"]) == {"A": 1, "B": -1}
    # Group {A, B, C}: A +1 (B) 0 (C, tie); B −1 (A) +1 (C); C −1 (B) 0 (A).
    assert head_to_head(data, ["A", "B", "C"]) == {"A": 1, "B": 0, "C": -1}
    # Group {A, X}: X ahead of A; nobody else counts.
    assert head_to_head(data, ["A", "X"]) == {"A": -1, "X": 1}


def test_rating_higher_first_missing_last():
    data = {p: PlayerData(p, rating=r) for p, r in [("a", 1500), ("b", None), ("c", 1700)]}
    keys = rating(data, list(data))
    assert sorted(data, key=keys.__getitem__, reverse=True) == ["c", "a", "b"]


def test_rank_shares_places_when_every_key_is_equal():
    data = build(
        [
            table(1, "AB", [1, 2], [3, 0]),
            table(1, "CD", [1, 2], [3, 0]),
        ]
    )
    out = rank(data, ["points", "figures", "opponents", "wins", "head_to_head"])
    places = {p: place for p, place, _ in out}
    assert places == {"A": 1, "C": 1, "B": 3, "D": 3}
    assert [p for p, _, _ in out] == ["A", "C", "B", "D"]  # input order within a tie
    keys = {p: k for p, _, k in out}
    assert keys["A"] == {"points": 3, "figures": 0, "opponents": 0, "wins": 1, "head_to_head": 0}


def test_rank_follows_the_order():
    # A: won once, last once (3 + 0); B: second twice (2 + 2); C: third, then
    # won (1 + 3); D: last, then third (0 + 1).
    data = build(
        [
            table(1, "ABCD", [1, 2, 3, 4], [3, 2, 1, 0]),
            table(2, "CBDA", [1, 2, 3, 4], [3, 2, 1, 0]),
        ]
    )
    by_points = [p for p, _, _ in rank(data, ["points", "wins"])]
    by_wins = [p for p, _, _ in rank(data, ["wins", "points"])]
    assert by_points == ["C", "B", "A", "D"]  # B, C tie on points: C has a win
    assert by_wins == ["C", "A", "B", "D"]  # A, C tie on wins: C has more points


def test_head_to_head_applies_only_within_the_tie_group():
    # E leads on points. A, B, C tie on points (2) and figures: B beat A at
    # their table, C met neither of them; E lost to C, which does not count
    # for anybody, as E is not in the group. X, Y, Z tie on 0: X beat Y.
    data = build(
        [
            table(1, "BAXY", [1, 2, 3, 4], [2, 2, 0, 0]),
            table(2, "CE", [1, 2], [2, 0]),
            table(3, "EZ", [1, 2], [10, 0]),
        ],
        ratings={"A": 2000, "B": 1000, "C": 1500},
    )
    out = rank(data, ["points", "figures", "head_to_head", "rating"])
    assert [p for p, _, _ in out] == ["E", "B", "C", "A", "X", "Z", "Y"]
    assert [place for _, place, _ in out] == [1, 2, 3, 4, 5, 6, 7]
    h2h = {p: k["head_to_head"] for p, _, k in out}
    assert h2h == {"E": None, "B": 1, "C": 0, "A": -1, "X": 1, "Z": 0, "Y": -1}


def test_head_to_head_uses_the_group_left_by_earlier_keys():
    # Same tables, wins before head-to-head: B and C have a win, A has none,
    # so the head-to-head group is {B, C}; they never met: rating decides.
    data = build(
        [
            table(1, "BAXY", [1, 2, 3, 4], [2, 2, 0, 0]),
            table(2, "CE", [1, 2], [2, 0]),
            table(3, "EZ", [1, 2], [10, 0]),
        ],
        ratings={"A": 2000, "B": 1000, "C": 1500},
    )
    out = rank(data, ["points", "wins", "head_to_head", "rating"])
    assert [p for p, _, _ in out][:4] == ["E", "C", "B", "A"]
    h2h = {p: k["head_to_head"] for p, _, k in out}
    assert (h2h["B"], h2h["C"], h2h["A"]) == (0, 0, None)


def test_rank_of_nobody():
    assert rank({}, None) == []


def test_prepared_data_from_results():
    prep = prepare(
        [{"id": 1}, {"id": 2}, {"id": 3}],
        [{"round": 1, "seats": [1, 2], "ranks": [1, 2]}, {"round": 1, "byes": [3]}],
    )
    assert prep.points(1) == 3
    assert prep.points(3) == F(3, 2)
    assert [g.bye for g in prep.players[3].games] == [True]
    assert prep.players[2].games[0].mates == (1,)
