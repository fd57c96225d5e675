import random
from decimal import Decimal
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.standings.compute import Row, compute_standings
from tests.examples import examples
from tournaments.points import PointsScheme

NAMES = ["Anna", "Bert", "Cem", "Dora", "Emil", "Fay", "Gus"]


def roster(names=NAMES, **extra):
    return [{"id": i, "name": n, **extra.get(n, {})} for i, n in enumerate(names)]


def by_name(rows):
    return {r.name: r for r in rows}


# Seven players, tables of 4 and 3 (sizes differ between rounds).
MIXED = [
    {
        "round": 1,
        "table": 1,
        "seats": [0, 1, 2, 3],
        "ranks": [1, 2, 3, 4],
        "figures": [10, 8, 5, 0],
    },
    {"round": 1, "table": 2, "seats": [4, 5, 6], "ranks": [1, 1, 3], "figures": [7, 7, 2]},
    {"round": 2, "table": 1, "seats": [0, 4, 6], "ranks": [2, 1, 3], "figures": [5, 9, 1]},
    {"round": 2, "table": 2, "seats": [1, 2, 3, 5], "ranks": [1, 2, 2, 4], "figures": [6, 4, 4, 0]},
]


def test_mixed_table_sizes_by_hand():
    rows = compute_standings(roster(), MIXED)
    got = [(r.place, r.name, r.points, r.figures, r.wins, r.games) for r in rows]
    assert got == [
        # Emil: shared 1st of 3 (3 + 1.5) / 2, then won a table of 3.
        (1, "Emil", Decimal("5.25"), 16, 1, 2),
        (2, "Bert", 5, 14, 1, 2),  # 2nd of 4, won a table of 4
        (3, "Anna", Decimal("4.5"), 15, 1, 2),  # won a table of 4, 2nd of 3
        (4, "Cem", Decimal("2.5"), 9, 0, 2),  # 3rd of 4, shared 2nd-3rd of 4
        (5, "Fay", Decimal("2.25"), 7, 0, 2),
        (6, "Dora", Decimal("1.5"), 4, 0, 2),
        (7, "Gus", 0, 3, 0, 2),
    ]
    # Each seat earns 1.5 on average, whatever the table size.
    assert sum(r.points for r in rows) == Decimal("1.5") * 14
    # Opponents' average: Anna met Bert, Cem, Dora, then Emil, Gus.
    assert by_name(rows)["Anna"].opponents == Decimal("2.85")  # (5+2.5+1.5+5.25+0)/5
    assert all(not r.shared and r.head_to_head is None for r in rows)


def test_winners_of_small_and_large_tables_score_alike():
    players = roster(NAMES[:5])
    results = [
        {"round": 1, "seats": [0, 1], "ranks": [1, 2]},
        {"round": 1, "seats": [2, 3, 4], "ranks": [1, 2, 3]},
    ]
    pts = {r.name: r.points for r in compute_standings(players, results)}
    assert pts == {"Anna": 3, "Cem": 3, "Dora": Decimal("1.5"), "Bert": 0, "Emil": 0}


def test_exact_ties_share_a_place():
    players = roster(NAMES[:4])
    results = [
        {"round": 1, "seats": [0, 1], "ranks": [1, 2], "figures": [5, 3]},
        {"round": 1, "seats": [2, 3], "ranks": [1, 2], "figures": [5, 3]},
    ]
    rows = compute_standings(players, results)
    assert [(r.place, r.name, r.shared) for r in rows] == [
        (1, "Anna", True),
        (1, "Cem", True),
        (3, "Bert", True),
        (3, "Dora", True),
    ]


def test_ties_broken_in_order_and_by_rating():
    players = roster(NAMES[:4], Bert={"rating": 1200}, Dora={"rating": 1800})
    results = [
        {"round": 1, "seats": [0, 1], "ranks": [1, 2], "figures": [5, 3]},
        {"round": 1, "seats": [2, 3], "ranks": [1, 2], "figures": [5, 3]},
    ]
    rows = compute_standings(players, results)
    assert [(r.place, r.name) for r in rows] == [(1, "Anna"), (1, "Cem"), (3, "Dora"), (4, "Bert")]
    rows = compute_standings(players, results, order=["points"])
    assert [r.place for r in rows] == [1, 1, 3, 3]
    rows = compute_standings(players, results, order=["rating", "points"])
    assert [r.name for r in rows] == ["Dora", "Bert", "Anna", "Cem"]


def test_head_to_head_among_tied_players_only():
    players = roster(NAMES[:6])
    A, B, C, D, E, F_ = range(6)
    results = [
        {"round": 1, "seats": [A, B, C], "ranks": [1, 2, 3]},  # A 3, B 1.5, C 0
        {"round": 1, "seats": [D, E, F_], "ranks": [1, 2, 3]},  # D 3, E 1.5, F 0
        {"round": 2, "seats": [B, D, F_], "ranks": [1, 2, 3]},  # B 3, D 1.5, F 0
        {"round": 2, "seats": [A, C, E], "ranks": [3, 1, 2]},  # A 0, C 3, E 1.5
    ]
    rows = compute_standings(players, results, order=["points", "head_to_head"])
    got = [(r.place, r.name, r.points, r.head_to_head) for r in rows]
    assert got == [
        # Bert and Dora on 4.5: Bert finished ahead of Dora when they met.
        (1, "Bert", Decimal("4.5"), 1),
        (2, "Dora", Decimal("4.5"), -1),
        # Anna, Cem, Emil on 3. Anna-Cem: one each; Cem ahead of Emil; Emil
        # ahead of Anna. Anna beating Bert (not in this group) does not count.
        (3, "Cem", 3, 1),
        (4, "Emil", 3, 0),
        (5, "Anna", 3, -1),
        (6, "Fay", 0, None),  # alone on 0: never needed head-to-head
    ]


def test_level_on_head_to_head_shares_the_place():
    players = roster(NAMES[:2])
    results = [{"round": 1, "seats": [0, 1], "ranks": [1, 1]}]
    rows = compute_standings(players, results, order=["points", "head_to_head"])
    assert [(r.place, r.shared, r.head_to_head) for r in rows] == [(1, True, 0), (1, True, 0)]


def test_byes():
    players = roster(NAMES[:5])
    results = [
        {"round": 1, "seats": [0, 1, 2, 3], "ranks": [1, 2, 3, 4], "byes": [4]},
        {"round": 2, "seats": [4, 1, 2, 3], "ranks": [1, 2, 3, 4]},
        {"round": 2, "byes": [0]},
    ]
    rows = by_name(compute_standings(players, results))
    assert (rows["Emil"].points, rows["Emil"].games, rows["Emil"].byes) == (Decimal("4.5"), 1, 1)
    assert (rows["Anna"].points, rows["Anna"].games, rows["Anna"].byes) == (Decimal("4.5"), 1, 1)
    # A bye is no win and adds no table-mate: Anna's opponents are round 1's.
    assert rows["Emil"].wins == 1
    assert rows["Anna"].opponents == 2  # (Bert 4 + Cem 2 + Dora 0) / 3
    # Fixed bye points.
    fixed = by_name(compute_standings(players, results, scheme=PointsScheme(bye=3)))
    assert fixed["Anna"].points == 6
    # Win/draw/loss: a bye earns the round's average per seat (3 points over 4 seats).
    wdl = by_name(compute_standings(players, results, scheme="win_draw_loss"))
    assert wdl["Anna"].points == Decimal("3.75")
    assert wdl["Emil"].points == Decimal("3.75")


def test_bye_in_a_round_without_tables_uses_all_rounds():
    players = roster(NAMES[:3])
    results = [
        {"round": 1, "seats": [0, 1], "ranks": [1, 1]},  # a draw: 1 + 1 over 2 seats
        {"round": 1, "byes": [2]},
        {"round": 2, "byes": [0]},
    ]
    rows = by_name(compute_standings(players, results, scheme="win_draw_loss"))
    assert (rows["Cem"].points, rows["Anna"].points) == (1, 2)


def test_dropped_player_stays_and_still_counts_for_opponents():
    players = roster(NAMES[:4], Dora={"dropped": True})
    results = [
        {"round": 1, "seats": [0, 1], "ranks": [2, 1]},  # Bert 3
        {"round": 1, "seats": [2, 3], "ranks": [2, 1]},  # Dora 3, then drops
        {"round": 2, "seats": [0, 2], "ranks": [1, 2]},  # Anna 3
        {"round": 2, "byes": [1]},  # Bert 1.5
    ]
    rows = by_name(compute_standings(players, results))
    dora = rows["Dora"]
    # Level with Anna on 3; Anna's opponents (Bert 4.5, Cem 0) beat Dora's (Cem 0).
    assert (dora.dropped, dora.points, dora.games, dora.place) == (True, 3, 1, 3)
    assert rows["Anna"].place == 2 and not rows["Anna"].dropped
    # Cem met Dora (3, dropped) and Anna (3): Dora still counts.
    assert rows["Cem"].opponents == 3


def test_every_scheme():
    players = roster(NAMES[:4])
    results = [
        {"round": 1, "seats": [0, 1, 2, 3], "ranks": [1, 1, 3, 4], "figures": [9, 9, 4, 1]},
        {"round": 2, "seats": [0, 1], "ranks": [2, 1], "figures": [3, 5]},
        {"round": 2, "seats": [2, 3], "ranks": [1, 2], "figures": [8, 0]},
    ]
    pl = by_name(compute_standings(players, results))
    assert [pl[n].points for n in NAMES[:4]] == [Decimal("2.5"), Decimal("5.5"), 4, 0]
    wdl = by_name(compute_standings(players, results, scheme="win_draw_loss"))
    assert [wdl[n].points for n in NAMES[:4]] == [1, 4, 3, 0]
    fig = by_name(compute_standings(players, results, scheme="figure"))
    assert [fig[n].points for n in NAMES[:4]] == [12, 14, 12, 1]
    assert fig["Bert"].place == 1 and fig["Anna"].wins == 0 and fig["Bert"].wins == 1


def test_figure_scheme_with_fractional_figures():
    players = roster(NAMES[:2])
    results = [{"round": 1, "seats": [0, 1], "ranks": [1, 2], "figures": ["2.5", 1]}]
    rows = compute_standings(players, results, scheme="figure")
    assert [(r.name, r.points, r.figures) for r in rows] == [
        ("Anna", Decimal("2.5"), Decimal("2.5")),
        ("Bert", 1, 1),
    ]


def test_results_order_does_not_matter():
    rows = compute_standings(roster(), MIXED)
    shuffled = MIXED[:]
    random.Random(3).shuffle(shuffled)
    assert compute_standings(roster(), shuffled) == rows
    with_bye = [{"round": 3, "byes": [6]}, *MIXED]
    assert compute_standings(roster(), with_bye) == compute_standings(roster(), with_bye[::-1])


def test_player_without_games_and_row_dict():
    rows = compute_standings([{"id": "x", "name": "Zoë", "rating": 1500}], [])
    assert rows == [
        Row(1, False, "x", "Zoë", 0, 0, 0, 0, None, 1500, 0, 0, False),
    ]
    assert rows[0].as_dict()["name"] == "Zoë"


@pytest.mark.parametrize(
    ("players", "results", "message"),
    [
        ([{"id": 1}], [{"round": 1, "seats": [1, 2], "ranks": [1, 2]}], "unknown player 2"),
        ([{"id": 1}, {"id": 1}], [], "listed twice"),
        ([{"name": "x"}], [], "no id"),
        ([{"id": 1}, {"id": 2}], [{"seats": [1, 2], "ranks": [1, 2]}], "round number"),
        (
            [{"id": 1}, {"id": 2}],
            [{"round": 1, "seats": [1, 2], "ranks": [1]}],
            "2 seats but 1 ranks",
        ),
        ([{"id": 1}, {"id": 2}], [{"round": 1, "seats": [1], "ranks": [1]}], "at least 2"),
        ([{"id": 1}, {"id": 2}], [{"round": 1, "seats": [1, 1], "ranks": [1, 2]}], "two seats"),
        ([{"id": 1}, {"id": 2}], [{"round": 1, "seats": [1, 2], "ranks": [0, 1]}], "ranks"),
        (
            [{"id": 1}, {"id": 2}, {"id": 3}],
            [
                {"round": 1, "table": 1, "seats": [1, 2], "ranks": [1, 2]},
                {"round": 1, "table": 2, "seats": [3, 2], "ranks": [1, 2]},
            ],
            "round 1 table 2: player 2 plays twice",
        ),
        (
            [{"id": 1}, {"id": 2}],
            [{"round": 1, "seats": [1, 2], "ranks": [1, 2], "byes": [2]}],
            "bye",
        ),
        ([{"id": 1}], [{"round": 1, "byes": [5]}], "unknown player 5"),
        (
            [{"id": 1}, {"id": 2}],
            [{"round": 1, "seats": [1, 2], "ranks": [1, 2], "figures": [1]}],
            "2 seats but 1 figures",
        ),
    ],
)
def test_bad_input_is_refused(players, results, message):
    with pytest.raises(ValueError, match=message):
        compute_standings(players, results)


def test_figure_scheme_needs_figures_and_order_is_checked():
    players = [{"id": 1}, {"id": 2}]
    with pytest.raises(ValueError, match="needs figures"):
        compute_standings(
            players, [{"round": 1, "seats": [1, 2], "ranks": [1, 2]}], scheme="figure"
        )
    with pytest.raises(ValueError, match="unknown tiebreak"):
        compute_standings(players, [], order=["points", "luck"])
    with pytest.raises(ValueError, match="unknown points scheme"):
        compute_standings(players, [], scheme="luck")


# --- property -------------------------------------------------------------------


@st.composite
def tournaments(draw):
    n = draw(st.integers(1, 14))
    players = [
        {
            "id": i,
            "name": draw(st.sampled_from(["Ana", "ana", "Bo", "Şahin", "Łukasz", "Groß"])),
            "rating": draw(st.none() | st.integers(1000, 1003)),
            "dropped": draw(st.booleans()),
        }
        for i in range(n)
    ]
    results = []
    for rnd in range(1, draw(st.integers(0, 4)) + 1):
        ids = draw(st.permutations(range(n)))
        pos = 0
        while n - pos >= 2:
            k = draw(st.integers(2, min(6, n - pos)))
            seats = list(ids[pos : pos + k])
            pos += k
            ranks = [draw(st.integers(1, k)) for _ in seats]
            figures = [draw(st.integers(0, 3)) for _ in seats]
            results.append({"round": rnd, "seats": seats, "ranks": ranks, "figures": figures})
        if pos < n:
            results.append({"round": rnd, "byes": list(ids[pos:])})
    scheme = draw(st.sampled_from(["placement", "win_draw_loss", "figure"]))
    order = draw(
        st.permutations(["points", "figures", "opponents", "wins", "head_to_head", "rating"])
    )
    return players, results, scheme, list(order)


@settings(max_examples=examples(200), deadline=None)
@given(tournaments())
def test_standings_are_a_ranking_of_all_players(case):
    players, results, scheme, order = case
    rows = compute_standings(players, results, scheme=scheme, order=order)
    assert sorted(r.player_id for r in rows) == sorted(p["id"] for p in players)
    places = [r.place for r in rows]
    assert places == sorted(places)
    assert places[:1] in ([], [1])
    for i, r in enumerate(rows):
        assert r.place == (i + 1 if i == 0 or rows[i - 1].place != r.place else rows[i - 1].place)
        assert r.shared == (places.count(r.place) > 1)
    if scheme == "placement":
        seats = sum(len(e.get("seats") or ()) + len(e.get("byes") or ()) for e in results)
        assert sum(F(str(r.points)) for r in rows) == F(3, 2) * seats
    if order[0] == "points":
        pts = [r.points for r in rows]
        assert pts == sorted(pts, reverse=True)
    # Same results in another order: the same standings.
    again = compute_standings(players, results[::-1], scheme=scheme, order=order)
    assert again == rows
