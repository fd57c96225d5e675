"""Bot seats in the standings (pure): a seat the game's bot filled because
nobody sat there is ``None`` in a result's ``seats``. The ruling: the bot is
no player and earns nothing; the table's size is its number of seats and the
ranks are the game's over all seats; the bot is nobody's opponent."""

from decimal import Decimal
from fractions import Fraction as F

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scoring.standings.compute import compute_standings, prepare
from tests.examples import examples
from tournaments.points import get_scheme
from tournaments.tiebreaks import head_to_head, opponents

NAMES = ["Anna", "Bert", "Cem", "Dora", "Emil", "Fay"]


def roster(n):
    return [{"id": i, "name": NAMES[i] if i < len(NAMES) else f"P{i}"} for i in range(n)]


def by_name(rows):
    return {r.name: r for r in rows}


@pytest.mark.parametrize("scheme", ["placement", "win_draw_loss", "figure"])
def test_two_bots_at_a_table_of_four_pay_like_four_players(scheme):
    ranks, figures = [2, 1, 4, 3], [7, 9, 1, 4]
    with_bots = [
        {"round": 1, "table": 1, "seats": [0, None, 1, None], "ranks": ranks, "figures": figures}
    ]
    full = [{"round": 1, "table": 1, "seats": [0, 2, 1, 3], "ranks": ranks, "figures": figures}]
    bots = prepare(roster(2), with_bots, scheme=scheme)
    people = prepare(roster(4), full, scheme=scheme)
    for p in (0, 1):
        assert bots.points(p) == people.points(p)
    assert set(bots.players) == {0, 1}
    if scheme == "placement":  # 2nd and 4th of 4
        assert (bots.points(0), bots.points(1)) == (2, 0)


def test_a_player_behind_the_bot_is_second():
    results = [{"round": 1, "table": 1, "seats": [None, 0, 1], "ranks": [1, 2, 3]}]
    rows = by_name(compute_standings(roster(2), results))
    assert rows["Anna"].points == Decimal("1.5")  # 2nd of 3
    assert rows["Bert"].points == 0
    # the table was won by the bot: nobody won it
    assert rows["Anna"].wins == 0 and rows["Bert"].wins == 0
    assert [r.player_id for r in compute_standings(roster(2), results)] == [0, 1]


def test_sharing_first_with_the_bot_is_a_draw():
    results = [{"round": 1, "table": 1, "seats": [0, None], "ranks": [1, 1]}]
    row = compute_standings(roster(1), results, scheme="win_draw_loss")[0]
    assert (row.points, row.wins) == (1, 0)


def test_a_table_of_one_player_and_the_bot_counts():
    won = [{"round": 1, "table": 1, "seats": [0, None], "ranks": [1, 2], "figures": [5, 0]}]
    row = compute_standings(roster(1), won)[0]
    assert (row.place, row.points, row.figures, row.wins, row.games) == (1, 3, 5, 1, 1)
    assert row.opponents == 0  # nobody to meet: like a bye for the tiebreak
    lost = [{"round": 1, "table": 1, "seats": [None, 0], "ranks": [1, 2]}]
    row = compute_standings(roster(1), lost)[0]
    assert (row.points, row.wins, row.games) == (0, 0, 1)


def test_the_bot_is_nobodys_opponent():
    results = [
        # round 1: Anna, the bot, Bert; Cem and Dora alone
        {"round": 1, "table": 1, "seats": [0, None, 1], "ranks": [1, 2, 3]},
        {"round": 1, "table": 2, "seats": [2, 3], "ranks": [1, 2]},
        # round 2: Anna beside two bots; Bert, Cem, Dora
        {"round": 2, "table": 1, "seats": [None, 0, None], "ranks": [1, 2, 3]},
        {"round": 2, "table": 2, "seats": [1, 2, 3], "ranks": [1, 2, 3]},
    ]
    prep = prepare(roster(4), results)
    total = {p: prep.points(p) for p in prep.players}
    assert total == {0: F(9, 2), 1: 3, 2: F(9, 2), 3: 0}
    # Anna met only Bert (the round-2 table had nobody but bots)
    opp = {p: F(k) / prep.unit for p, k in opponents(prep.players, list(prep.players)).items()}
    assert opp[0] == total[1]
    # Bert met Anna, then Cem and Dora: three opponents, not four
    assert opp[1] == (total[0] + total[2] + total[3]) / 3
    assert [g.mates for g in prep.players[0].games] == [(1,), ()]
    # head to head between Anna and Bert: one table, Anna ahead; the bot,
    # ahead of Anna in round 2, is not in any tie group
    assert head_to_head(prep.players, [0, 1]) == {0: 1, 1: -1}
    assert head_to_head(prep.players, [0, 2]) == {0: 0, 2: 0}


def test_the_bot_changes_no_tiebreak_against_the_same_table_without_it():
    # The same humans in the same order, once with the bot between them (at a
    # table of its size) and once alone: the opponents' and head-to-head keys
    # only see the players, so only the points differ by the table size.
    with_bot = [{"round": 1, "table": 1, "seats": [0, None, 1, 2], "ranks": [1, 2, 3, 4]}]
    without = [{"round": 1, "table": 1, "seats": [0, 1, 2], "ranks": [1, 2, 3]}]
    a = prepare(roster(3), with_bot)
    b = prepare(roster(3), without)
    ids = [0, 1, 2]
    assert head_to_head(a.players, ids) == head_to_head(b.players, ids) == {0: 2, 1: 0, 2: -2}
    # (sum of the other two players' points) / 2 in both
    for prep in (a, b):
        opp = opponents(prep.players, ids)
        pts = {p: prep.points(p) for p in ids}
        unit = prep.unit
        for p in ids:
            others = [q for q in ids if q != p]
            assert F(opp[p]) / unit == sum(pts[q] for q in others) / 2


def test_a_bye_is_the_average_of_the_players_not_the_bot():
    results = [
        {"round": 1, "table": 1, "seats": [0, None], "ranks": [2, 1]},  # the bot won
        {"round": 1, "table": 2, "seats": [1, 2], "ranks": [1, 2]},
        {"round": 1, "byes": [3]},
    ]
    prep = prepare(roster(4), results, scheme="win_draw_loss")
    # (0 + 3 + 0) / 3 players; the bot's 3 points are nobody's
    assert prep.points(3) == 1
    # placement keeps its fixed top / 2
    assert prepare(roster(4), results).points(3) == F(3, 2)


@pytest.mark.parametrize(
    "players, results, message",
    [
        (2, [{"round": 1, "seats": [None, None], "ranks": [1, 2]}], "at least 1 player"),
        (2, [{"round": 1, "table": 4, "seats": [None], "ranks": [1]}], "at least 2 seats"),
        (2, [{"round": 1, "seats": [0], "ranks": [1]}], "at least 2 seats"),
        (2, [{"round": 1, "seats": [0, None, 0], "ranks": [1, 2, 3]}], "two seats"),
        (
            3,
            [
                {"round": 1, "table": 1, "seats": [0, None], "ranks": [1, 2]},
                {"round": 1, "table": 2, "seats": [None, 1, 0], "ranks": [1, 2, 3]},
            ],
            "round 1 table 2: player 0 plays twice",
        ),
        (2, [{"round": 1, "seats": [0, None, 1], "ranks": [1, 2]}], "3 seats but 2 ranks"),
        (
            1,
            [{"round": 1, "seats": [0, None], "ranks": [1, 2]}, {"round": 1, "byes": [None]}],
            "unknown player None",
        ),
        (1, [{"round": 1, "seats": [7, None], "ranks": [1, 2]}], "unknown player 7"),
    ],
)
def test_bad_bot_tables_are_refused(players, results, message):
    with pytest.raises(ValueError, match=message):
        prepare(roster(players), results)


def test_none_is_not_a_player_id():
    with pytest.raises(ValueError, match="bot seat"):
        prepare([{"id": 1}, {"id": None, "name": "Bot"}], [])


def test_the_standings_have_no_row_for_the_bot():
    results = [
        {"round": 1, "table": 1, "seats": [0, None, 1], "ranks": [3, 1, 2]},
        {"round": 2, "table": 1, "seats": [1, 0, None, None], "ranks": [1, 2, 3, 4]},
    ]
    rows = compute_standings(roster(2), results)
    assert [r.player_id for r in rows] == [1, 0]
    assert all(r.games == 2 for r in rows)


# -- the property ---------------------------------------------------------------


@st.composite
def tournaments(draw):
    """Players 0..n-1 over 1-3 rounds at tables of 1-4 players; some tables
    get 0-3 bot seats (a table of one player always gets one)."""
    n = draw(st.integers(2, 9))
    results = []
    for rnd in range(1, draw(st.integers(1, 3)) + 1):
        order = draw(st.permutations(range(n)))
        i, number = 0, 1
        while i < n:
            size = draw(st.integers(1, min(4, n - i)))
            humans = list(order[i : i + size])
            i += size
            bots = draw(st.integers(1 if size == 1 else 0, 3))
            seats = humans + [None] * bots
            seats = draw(st.permutations(seats))
            k = len(seats)
            results.append(
                {
                    "round": rnd,
                    "table": number,
                    "seats": list(seats),
                    "ranks": draw(st.lists(st.integers(1, k), min_size=k, max_size=k)),
                    "figures": draw(st.lists(st.integers(-5, 20), min_size=k, max_size=k)),
                }
            )
            number += 1
    return n, results


def _without_bots(entry):
    keep = [i for i, p in enumerate(entry["seats"]) if p is not None]
    return {
        **entry,
        "seats": [entry["seats"][i] for i in keep],
        "ranks": [entry["ranks"][i] for i in keep],
        "figures": [entry["figures"][i] for i in keep],
    }


@settings(max_examples=examples(150), deadline=None)
@given(
    tournaments(),
    st.sampled_from(["placement", "win_draw_loss", "figure"]),
    st.data(),
)
def test_bot_seats_change_nothing_but_their_own_table(tour, scheme, data):
    n, results = tour
    s = get_scheme(scheme)
    prep = prepare(roster(n), results, scheme=scheme)
    players = dict(prep.players)
    assert None not in players
    # every player's game at a table earns the scheme's points for the
    # table's ranks at its size, bot seats included
    for entry in results:
        pts = s.table(entry["ranks"], entry["figures"])
        for i, p in enumerate(entry["seats"]):
            if p is None:
                continue
            (game,) = [g for g in players[p].games if g.round == entry["round"]]
            assert game.seat == i and game.points == pts[i]
            assert None not in game.mates
    for p, d in players.items():
        seated = [e for e in results if p in e["seats"]]
        assert d.played == len(seated)
        assert prep.points(p) == sum(
            s.table(e["ranks"], e["figures"])[e["seats"].index(p)] for e in seated
        )
    # taking the bots out of one table (of 2 players or more) changes nothing
    # at the other tables: their ranks, figures and points, and the totals of
    # the players who did not sit there
    candidates = [j for j, e in enumerate(results) if sum(p is not None for p in e["seats"]) >= 2]
    assume(candidates)
    j = data.draw(st.sampled_from(candidates))
    changed = results[:j] + [_without_bots(results[j])] + results[j + 1 :]
    other = prepare(roster(n), changed, scheme=scheme)

    def tables(pr):
        out = {}
        for d in pr.players.values():
            for g in d.games:
                t = g.table
                out[(t.round, t.number)] = (t.players, t.ranks, t.figures, t.points)
        return out

    here = (results[j]["round"], results[j]["table"])
    before, after = tables(prep), tables(other)
    assert {k: v for k, v in before.items() if k != here} == {
        k: v for k, v in after.items() if k != here
    }
    at_table = set(results[j]["seats"])
    for p in players:
        if p not in at_table:
            assert prep.points(p) == other.points(p)
            a, b = prep.players[p], other.players[p]
            assert (a.figures, a.wins, a.played) == (b.figures, b.wins, b.played)
    # the tiebreaks never see a bot: head to head over everybody is the same
    # with and without the table's bots as long as that table's players keep
    # their order, which taking the bot seats out does
    assert head_to_head(prep.players, list(players)) == head_to_head(other.players, list(players))


def test_a_bot_seat_is_not_a_player_with_a_game():
    from scoring.selectors import with_a_game

    players = [{"id": 0}, {"id": 1}, {"id": 2}]
    results = [
        {"round": 1, "table": 1, "seats": [None, 0, None], "ranks": [1, 2, 3]},
        {"round": 1, "byes": [2]},
    ]
    played, none = with_a_game(players, results)
    assert ([p["id"] for p in played], [p["id"] for p in none]) == ([0, 2], [1])
