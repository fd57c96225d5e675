"""The final stage's pure parts: who qualifies (ties at the cut by the
tiebreaks, the reason per player), seating the stage and who goes on from a
semi-final, the final order with "replace" and "add", and the season points
that follow from that order. No database."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from scoring.season.standings import Event, Placing, season_standings
from scoring.standings.compute import compute_standings
from tournaments.finals import formats
from tournaments.finals.advancement import StageTable, advance, seat_tables
from tournaments.finals.ordering import Qualifying, final_order
from tournaments.finals.qualification import Standing, qualify

ORDER = ["points", "figures", "opponents", "wins"]


def standing(pid, place, points, figures=0, opponents=0, wins=0, dropped=False):
    values = {"points": points, "figures": figures, "opponents": opponents, "wins": wins}
    return Standing(pid, place, dropped, values)


# -- qualification ---------------------------------------------------------------


def test_the_best_qualify_on_points_with_their_seed():
    rows = [standing(p, k + 1, 10 - k) for k, p in enumerate("abcdef")]
    decisions = {d.player_id: d for d in qualify(rows, 4, ORDER)}
    assert [p for p in "abcdef" if decisions[p].qualified] == list("abcd")
    assert [decisions[p].seed for p in "abcd"] == [1, 2, 3, 4]
    assert decisions["a"].code == "place"
    assert decisions["e"].code == "below" and decisions["e"].params == {"place": 5}


def test_a_tie_on_points_at_the_cut_is_decided_by_the_first_tiebreak_that_splits():
    # c, d and e share 7 points; the figures split them: c and d in, e out
    rows = [
        standing("a", 1, 9),
        standing("b", 2, 8),
        standing("c", 3, 7, figures=30),
        standing("d", 4, 7, figures=20, opponents=5),
        standing("e", 5, 7, figures=20, opponents=4),
        standing("f", 6, 2),
    ]
    decisions = {d.player_id: d for d in qualify(rows, 4, ORDER)}
    assert decisions["b"].code == "place"
    assert (decisions["c"].code, decisions["c"].params) == ("tiebreak_in", {"tiebreak": "figures"})
    # d is level with e on figures too: the opponents decided between them
    assert (decisions["d"].code, decisions["d"].params) == (
        "tiebreak_in",
        {"tiebreak": "opponents"},
    )
    assert (decisions["e"].code, decisions["e"].params) == (
        "tiebreak_out",
        {"tiebreak": "opponents"},
    )
    assert decisions["f"].code == "below"


def test_a_dropped_player_gives_the_place_to_the_next():
    rows = [standing("a", 1, 9, dropped=True), standing("b", 2, 8), standing("c", 3, 7)]
    decisions = {d.player_id: d for d in qualify(rows, 2, ORDER)}
    assert decisions["a"].code == "dropped" and not decisions["a"].qualified
    assert decisions["b"].seed == 1 and decisions["c"].seed == 2


def test_a_tie_on_every_tiebreak_at_the_cut_is_drawn_by_lot_the_same_way_each_time():
    rows = [standing("a", 1, 9)] + [standing(p, 2, 5) for p in "bcd"]
    first = qualify(rows, 2, ORDER, seed=7)
    assert first == qualify(rows, 2, ORDER, seed=7)
    inside = [d for d in first if d.qualified]
    assert inside[0].player_id == "a"
    assert inside[1].code == "lot_in"
    assert sorted(d.code for d in first if d.player_id != "a") == ["lot_in", "lot_out", "lot_out"]


@given(
    points=st.lists(st.integers(0, 6), min_size=2, max_size=30),
    count=st.integers(1, 8),
    seed=st.integers(0, 1000),
)
def test_qualification_takes_exactly_the_best_count_and_never_skips_a_better_player(
    points, count, seed
):
    ordered = sorted(enumerate(points), key=lambda kp: -kp[1])
    rows, place = [], 0
    for k, (pid, pts) in enumerate(ordered):
        if k == 0 or pts != ordered[k - 1][1]:
            place = k + 1
        rows.append(standing(pid, place, pts))
    decisions = qualify(rows, count, ORDER, seed=seed)
    inside = [d for d in decisions if d.qualified]
    assert len(inside) == min(count, len(rows))
    assert [d.seed for d in inside] == list(range(1, len(inside) + 1))
    worst_in = min((points[d.player_id] for d in inside), default=None)
    for d in decisions:
        if not d.qualified:
            assert points[d.player_id] <= worst_in
            if points[d.player_id] == worst_in:
                assert d.code in ("lot_out", "tiebreak_out")


# -- the settings ---------------------------------------------------------------------


def test_settings_refuse_sizes_the_game_does_not_allow_and_a_final_larger_than_the_field():
    bad = formats.Config(format=formats.TABLE, final_size=5)
    assert [c for c, _p in formats.problems(bad, sizes=[3, 4], field=20)] == ["final_size"]
    big = formats.Config(format=formats.SEMIS, semi_tables=4, semi_size=4, final_size=4, advance=1)
    assert [c for c, _p in formats.problems(big, sizes=[4], field=12)] == ["larger_than_field"]
    mismatch = formats.Config(format=formats.SEMIS, semi_size=4, final_size=4, advance=1)
    assert [c for c, _p in formats.problems(mismatch, sizes=[4], field=20)] == ["advance_sum"]
    good = formats.Config(format=formats.SEMIS, semi_size=4, final_size=4, advance=2)
    assert formats.problems(good, sizes=[4], field=8) == []
    assert good.qualifiers == 8 and good.stages == (formats.SEMI, formats.FINAL)


# -- seating the stage, semi-final advancement ---------------------------------------


def test_semi_final_tables_are_seeded_in_a_snake_with_the_best_at_table_1_seat_1():
    assert seat_tables([1, 2, 3, 4, 5, 6, 7, 8], 2) == [[1, 4, 5, 8], [2, 3, 6, 7]]
    assert seat_tables(list(range(1, 10)), 3) == [[1, 6, 7], [2, 5, 8], [3, 4, 9]]


def test_the_best_of_each_semi_final_go_on_and_a_shared_rank_is_decided_by_the_seeds():
    seeds = {p: k for k, p in enumerate("abcdefgh", start=1)}
    semis = [
        StageTable(1, ("a", "d", "e", "h"), (3, 1, 2, 4)),
        # b and c share 2nd: the better seed (b) goes on
        StageTable(2, ("b", "c", "f", "g"), (2, 2, 1, 4)),
    ]
    decisions, finalists = advance(semis, 2, seeds)
    by = {d.player_id: d for d in decisions}
    assert sorted(finalists) == ["b", "d", "e", "f"]
    assert finalists == ["b", "d", "e", "f"]  # seated by qualifying seed
    assert by["b"].code == "tiebreak_in" and by["c"].code == "tiebreak_out"
    assert by["d"].code == "rank" and by["a"].code == "below"


# -- the final order -------------------------------------------------------------------


QUALIFYING = [Qualifying(p, k) for k, p in enumerate("abcdefgh", start=1)]


def test_replace_puts_the_finalists_first_by_their_final_rank_then_the_rest():
    final = StageTable(1, ("a", "b", "c", "d"), (4, 1, 3, 2), (0, 12, 3, 7))
    placed = final_order(QUALIFYING, [(formats.FINAL, [final])], formats.REPLACE)
    assert [p.player_id for p in placed] == list("bdcaefgh")
    assert [p.place for p in placed] == list(range(1, 9))
    assert placed[0].stage == "final" and placed[0].stage_rank == 1
    assert placed[0].settled == "rank" and placed[4].stage == ""


def test_a_tie_at_the_final_table_is_settled_by_the_qualifying_standings_and_says_so():
    final = StageTable(1, ("a", "b", "c", "d"), (2, 1, 2, 4), (5, 9, 5, 1))
    placed = final_order(QUALIFYING, [(formats.FINAL, [final])], formats.REPLACE)
    assert [p.player_id for p in placed[:4]] == ["b", "a", "c", "d"]
    assert placed[1].settled == placed[2].settled == "tiebreak"
    assert not any(p.shared for p in placed[:4])


def test_level_on_the_figure_but_ranked_apart_by_the_game_is_settled_by_the_game():
    # Quartett: b and c hold 5 cards each, c won the decision round
    final = StageTable(1, ("a", "b", "c", "d"), (1, 3, 2, 4), (10, 5, 5, 0))
    placed = {p.player_id: p for p in final_order(QUALIFYING, [(formats.FINAL, [final])])}
    assert placed["c"].place == 2 and placed["c"].settled == "game"
    assert placed["b"].place == 3 and placed["b"].settled == "game"
    assert placed["a"].settled == "rank"


def test_add_orders_the_finalists_by_their_points_with_the_final_added():
    final = StageTable(1, ("a", "b", "c", "d"), (4, 1, 3, 2))
    totals = {"a": 20, "b": 16, "c": 17, "d": 15, "e": 30}
    placed = final_order(QUALIFYING, [(formats.FINAL, [final])], formats.ADD, totals)
    # e has more points but played no final: the finalists come first
    assert [p.player_id for p in placed[:5]] == ["a", "c", "b", "d", "e"]
    assert all(p.settled == "points" for p in placed[:4])


def test_semi_finalists_out_of_the_final_come_after_the_finalists_and_before_the_rest():
    semis = [
        StageTable(1, ("a", "d", "e", "h"), (1, 2, 3, 4)),
        StageTable(2, ("b", "c", "f", "g"), (2, 1, 3, 4)),
    ]
    final = StageTable(1, ("a", "b", "c", "d"), (2, 1, 4, 3))
    extra = [Qualifying("i", 9), Qualifying("j", 10, True), Qualifying("k", 10, True)]
    placed = final_order(
        QUALIFYING + extra, [(formats.FINAL, [final]), (formats.SEMI, semis)], formats.REPLACE
    )
    assert [p.player_id for p in placed] == list("badcefghijk")
    assert [p.stage for p in placed[:8]] == ["final"] * 4 + ["semi"] * 4
    # the rest keep their shared qualifying places, after the finalists
    assert [(p.place, p.shared) for p in placed[8:]] == [(9, False), (10, True), (10, True)]


@given(ranks=st.permutations([1, 2, 3, 4]), mode=st.sampled_from(formats.MODES))
def test_every_finalist_is_above_every_other_player_and_places_run_without_gaps(ranks, mode):
    final = StageTable(1, ("c", "e", "a", "h"), tuple(ranks))
    totals = {p: 10 - k for k, p in enumerate("abcdefgh")}
    placed = final_order(QUALIFYING, [(formats.FINAL, [final])], mode, totals)
    assert {p.player_id for p in placed[:4]} == {"a", "c", "e", "h"}
    assert [p.place for p in placed] == list(range(1, 9))
    if mode == formats.REPLACE:
        assert [p.stage_rank for p in placed[:4]] == [1, 2, 3, 4]


# -- the season points follow the final order ---------------------------------------


def test_season_placement_points_follow_the_final_order_not_the_qualifying_points():
    players = [{"id": p, "name": p} for p in "abcdef"]
    # qualifying: a wins both tables, b second ... (placement points)
    qualifying = [
        {"round": 1, "table": 1, "seats": ["a", "b", "c"], "ranks": [1, 2, 3]},
        {"round": 1, "table": 2, "seats": ["d", "e", "f"], "ranks": [1, 2, 3]},
    ]
    rows = compute_standings(players, qualifying)
    order = [Qualifying(r.player_id, r.place, r.shared) for r in rows]
    final = StageTable(1, ("a", "d", "b"), (3, 1, 2))
    placed = final_order(order, [(formats.FINAL, [final])])
    event = Event(1, [Placing(p.player_id, p.place, 0) for p in placed])
    season = {row.person: row.total for row in season_standings([event], scheme="placement")}
    # d won the final: the most season points, though a had as many points before it
    assert season["d"] == 6 and season["b"] == 5 and season["a"] == 4
    assert max(season, key=season.get) == "d"
