"""Changing a draft without a database: a drop re-seats only the tables that
must change, a late arrival takes a free seat or re-seats only the tables
needed, a swap or a move by hand changes only its tables
(``tournaments.seating.reseat``, ``.late`` and ``.manual``)."""

import pytest

from tournaments.seating import (
    SeatingError,
    add_late_arrival,
    move_player,
    reseat_after_drop,
    swap_players,
)


def request(n, size=4, allowed=None, byes=False, met=()):
    return {
        "players": [{"id": p, "score": n - p} for p in range(n)],
        "met": [list(m) for m in met],
        "table_size": size,
        "allowed_sizes": allowed or [size],
        "byes": byes,
        "mode": "swiss",
        "seed": 1,
    }


def test_a_drop_from_a_table_that_may_shrink_changes_only_that_table():
    tables = {1: [0, 1, 2, 3], 2: [4, 5, 6, 7], 3: [8, 9, 10, 11]}
    out = reseat_after_drop(request(12, allowed=[3, 4]), tables, [], 5)
    assert dict(out["tables"]) == {1: [0, 1, 2, 3], 2: [4, 6, 7], 3: [8, 9, 10, 11]}
    assert out["changed"] == [2] and out["removed"] == []
    assert [r["code"] for r in out["reasons"][2]] == ["small_table_changed"]


def test_a_drop_takes_a_player_from_the_nearest_table_that_can_spare_one():
    # tables of 4 and 5: table 2 drops to 3, table 3 (of 5) gives its player
    # nearest in score who met nobody at table 2
    tables = {1: [0, 1, 2, 3], 2: [4, 5, 6, 7], 3: [8, 9, 10, 11, 12]}
    out = reseat_after_drop(request(13, allowed=[4, 5]), tables, [], 4, {3: []})
    new = dict(out["tables"])
    assert new[1] == tables[1] and len(new[2]) == 4 and len(new[3]) == 4
    assert out["detail"]["moved"] == {"player": 8, "from": 3}
    assert out["changed"] == [2, 3]


def test_a_drop_merges_neighbours_when_nothing_else_fits():
    tables = {1: [0, 1, 2], 2: [3, 4, 5], 3: [6, 7, 8]}
    out = reseat_after_drop(request(9, size=3, allowed=[3, 5]), tables, [], 6)
    new = dict(out["tables"])
    assert new[1] == [0, 1, 2] and sorted(len(t) for t in new.values()) == [3, 5]
    assert out["removed"] == [3]


def test_a_drop_leaves_a_short_table_that_says_so():
    tables = {1: [0, 1, 2], 2: [3, 4, 5]}
    out = reseat_after_drop(request(6, size=3, allowed=[3]), tables, [], 0)
    assert [r["code"] for r in out["reasons"][1]] == ["short_table"]
    assert out["detail"]["resolved"] is False


def test_in_a_two_player_game_a_bye_takes_the_free_seat():
    tables = {1: [0, 1], 2: [2, 3]}
    out = reseat_after_drop(request(5, size=2, byes=True), tables, [4], 3)
    assert dict(out["tables"])[2] == [2, 4] and out["byes"] == []


def test_a_late_arrival_fills_a_small_table_first_avoiding_repeats():
    tables = {1: [0, 1, 2, 3], 2: [4, 5, 6], 3: [7, 8, 9]}
    r = request(11, allowed=[3, 4], met=[(10, 4)])
    r["players"][10]["score"] = 5  # scores like table 2, but met player 4
    out = add_late_arrival(r, tables, [], 10)
    assert dict(out["tables"])[3] == [7, 8, 9, 10] and out["changed"] == [3]


def test_a_late_arrival_in_a_two_player_game_meets_the_bye():
    out = add_late_arrival(request(6, size=2, byes=True), {1: [0, 1], 2: [2, 3]}, [4], 5)
    assert out["byes"] == [] and dict(out["tables"])[3] == [4, 5] and out["changed"] == [3]


def test_a_late_arrival_gets_a_bye_when_every_table_is_full():
    out = add_late_arrival(request(5, size=2, byes=True), {1: [0, 1], 2: [2, 3]}, [], 4)
    assert out["byes"] == [4] and out["changed"] == []


def test_a_late_arrival_who_fits_nowhere_gets_a_code():
    with pytest.raises(SeatingError) as exc:
        add_late_arrival(request(9), {1: [0, 1, 2, 3], 2: [4, 5, 6, 7]}, [], 8)
    assert exc.value.code == "no_place" and exc.value.params["sizes"] == [4]
    with pytest.raises(SeatingError) as exc:
        add_late_arrival(request(9), {1: [0, 1, 2, 3], 2: [4, 5, 6, 7]}, [], 3)
    assert exc.value.code == "already_seated"


def test_a_repeat_made_by_hand_stays_the_organizers_after_later_changes():
    tables = {1: [0, 1, 2, 3], 2: [4, 5, 6, 7], 3: [8, 9, 10]}
    earlier = {1: [{"code": "repeat_manual", "params": {"a": 0, "b": 1}}]}
    r = request(11, allowed=[3, 4], met=[(0, 1), (4, 5)])
    out = reseat_after_drop(r, tables, [], 10, earlier)
    codes = {n: [w["code"] for w in why] for n, why in out["reasons"].items()}
    assert "repeat_manual" in codes[1] and "repeat" not in codes[1]
    assert "repeat" in codes[2]  # the algorithm's own repeat stays the algorithm's


def test_a_late_arrival_where_no_table_may_grow_reseats_a_window_of_neighbours():
    # three tables of 4 at sizes 3 and 4: two neighbouring tables and the
    # newcomer become three tables of 3; the third table stays as it was
    tables = {1: [0, 1, 2, 3], 2: [4, 5, 6, 7], 3: [8, 9, 10, 11]}
    out = add_late_arrival(request(13, allowed=[3, 4]), tables, [], 12)
    new = dict(out["tables"])
    assert sorted(len(t) for t in new.values()) == [3, 3, 3, 4]
    kept = [n for n in tables if new.get(n) == tables[n]]
    assert len(kept) == 1 and kept[0] not in out["detail"]["window"]
    assert sorted(p for t in new.values() for p in t) == list(range(13))


def test_a_swap_changes_only_the_two_tables_and_its_repeat_is_the_organizers():
    tables = {1: [0, 1, 2, 3], 2: [4, 5, 6, 7], 3: [8, 9, 10, 11]}
    out = swap_players(request(12, met=[(0, 5, 1)]), tables, [], 1, 5, {3: []})
    new = dict(out["tables"])
    assert new == {1: [0, 5, 2, 3], 2: [4, 1, 6, 7], 3: [8, 9, 10, 11]}
    assert out["changed"] == [1, 2] and out["removed"] == []
    codes = [r["code"] for r in out["reasons"][1]]
    assert "repeat_manual" in codes and "repeat" not in codes
    assert "moved_up" in codes  # player 5 (score 7) now sits with the top four


def test_a_swap_at_one_table_exchanges_seats_and_a_bye_can_be_swapped():
    out = swap_players(request(4), {1: [0, 1, 2, 3]}, [], 3, 0)
    assert dict(out["tables"]) == {1: [3, 1, 2, 0]} and out["changed"] == [1]
    out = swap_players(request(5, size=2, byes=True), {1: [0, 1], 2: [2, 3]}, [4], 4, 2)
    assert dict(out["tables"])[2] == [4, 3] and out["byes"] == [2] and out["changed"] == [2]


@pytest.mark.parametrize(
    ("a", "b", "code"), [(1, 1, "same_player"), (4, 5, "both_on_bye"), (1, 99, "not_seated")]
)
def test_a_swap_that_cannot_be_made_gets_a_code(a, b, code):
    with pytest.raises(SeatingError) as exc:
        swap_players(request(6, size=2, byes=True), {1: [0, 1], 2: [2, 3]}, [4, 5], a, b)
    assert exc.value.code == code


def test_a_move_takes_the_last_seat_and_an_emptied_table_goes():
    tables = {1: [0, 1, 2, 3], 2: [4, 5, 6]}
    out = move_player(request(7, allowed=[3, 4]), tables, [], 0, 2)
    assert dict(out["tables"]) == {1: [1, 2, 3], 2: [4, 5, 6, 0]}
    assert out["changed"] == [1, 2] and out["detail"] == {"player": 0, "from": 1, "to": 2}
    # a player left alone (after a drop) joins another table: the table goes
    out = move_player(request(3, size=3, allowed=[2, 3]), {1: [0, 1], 2: [2]}, [], 2, 1)
    assert dict(out["tables"]) == {1: [0, 1, 2]} and out["removed"] == [2]
    # in a 2-player game a table may not grow to 3, even from a bye
    with pytest.raises(SeatingError) as exc:
        move_player(request(5, size=2, byes=True), {1: [0, 1], 2: [2, 3]}, [4], 4, 2)
    assert exc.value.params == {"table": 2, "size": 3, "sizes": [2]}


@pytest.mark.parametrize(
    ("player", "to", "code", "params"),
    [
        (0, 3, "no_table", {"table": 3}),
        (0, 1, "same_table", {"player": 0, "table": 1}),
        (0, 2, "size_not_allowed", {"table": 2, "size": 5, "sizes": [3, 4]}),
    ],
)
def test_a_move_that_cannot_be_made_gets_a_code(player, to, code, params):
    tables = {1: [0, 1, 2, 3], 2: [4, 5, 6, 7]}
    with pytest.raises(SeatingError) as exc:
        move_player(request(8, allowed=[3, 4]), tables, [], player, to)
    assert (exc.value.code, exc.value.params) == (code, params)
    assert tables == {1: [0, 1, 2, 3], 2: [4, 5, 6, 7]}  # the draft given is not changed
