"""Bot seats in the season ratings: a seat the game's bot filled because nobody
was seated there (``None`` among a table's seats, a ``Seat`` without a player
in the database) is never a rated person; the people keep their order by the
table's ranks, and a table of one person and bots is not rated."""

from games import ENGINES
from scoring.season.ratings import Match, compute_ratings, sides_of
from scoring.season.selectors import _table_game


def state(ratings):
    return {k: (round(r.mu, 9), round(r.sigma, 9), r.games) for k, r in ratings.items()}


def test_bot_seats_are_left_out_and_the_people_keep_their_order():
    # the bot won; Anna 2nd, Bert 4th, another bot 3rd
    sides, ranks = sides_of(["anna", None, None, "bert"], [2, 1, 3, 4], None)
    assert (sides, ranks) == ([["anna"], ["bert"]], [1, 2])
    # rated exactly as a table of the two people in that order
    with_bots = compute_ratings([Match(1, sides, ranks)])
    alone = compute_ratings([Match(1, [["anna"], ["bert"]], [1, 2])])
    assert state(with_bots) == state(alone)
    assert None not in with_bots
    assert with_bots["anna"].mu > 25 > with_bots["bert"].mu


def test_ties_among_people_stay_ties():
    sides, ranks = sides_of([None, "a", "b", "c"], [1, 3, 3, 2], None)
    assert (sides, ranks) == ([["a"], ["b"], ["c"]], [2, 2, 1])


def test_a_table_of_one_person_and_bots_is_not_rated():
    assert sides_of(["anna", None, None], [1, 2, 3], None) == ([], [])
    assert sides_of([None, "anna"], [1, 2], None) == ([], [])
    assert compute_ratings([Match(1, [], [])]) == {}


def test_a_table_without_bots_is_rated_as_before():
    assert sides_of(["a", "b", "c"], [3, 1, 2], None) == ([["a"], ["b"], ["c"]], [3, 1, 2])
    assert sides_of(["a", "b", "c", "d"], [1, 2, 1, 2], [[0, 2], [1, 3]]) == (
        [["a", "c"], ["b", "d"]],
        [1, 2],
    )


def test_a_team_loses_its_bot_but_keeps_its_rank():
    # seats 0+2 against 1+3; seat 3 is the bot's, its team won
    sides, ranks = sides_of(["a", "b", "c", None], [2, 1, 2, 1], [[0, 2], [1, 3]])
    assert (sides, ranks) == ([["a", "c"], ["b"]], [2, 1])
    ratings = compute_ratings([Match(1, sides, ranks)])
    assert set(ratings) == {"a", "b", "c"}
    assert ratings["b"].mu > 25 > ratings["a"].mu
    # a team of bots only is no side: two people of one team have no opponent
    assert sides_of(["a", None, "c", None], [1, 2, 1, 2], [[0, 2], [1, 3]]) == ([], [])


# -- the season selector's per-table step ---------------------------------------
# (``_games`` reads Seat.player_id per table in seat order; a bot seat will be
# a NULL player there once the model allows it: this is the step it feeds.)


def test_the_selector_maps_no_bot_seat_to_a_person():
    engine = ENGINES["quartett"]
    person_of = {10: 1, 11: ("player", 11)}  # a roster person and an unlinked entry
    game = _table_game(engine, person_of, ("t", 1, 1), [10, None, 11, None], [3, 1, 2, 4], {})
    assert game == Match(("t", 1, 1), [[1], [("player", 11)]], [2, 1])  # seat order
    ratings = compute_ratings([game])
    assert set(ratings) == {1, ("player", 11)}


def test_the_selector_skips_a_table_of_one_person_and_bots():
    engine = ENGINES["quartett"]
    assert _table_game(engine, {10: 1}, ("t", 1, 1), [None, 10, None], [1, 2, 3], None) is None


def test_the_selector_still_skips_ranks_that_dont_fit_the_seats():
    engine = ENGINES["quartett"]
    assert _table_game(engine, {10: 1, 11: 2}, "k", [10, None, 11], [1, 2], {}) is None


def test_the_selector_keeps_teams_by_seat_with_a_bot_seat():
    # Terra Trumpf at 4: seats 0+2 against 1+3 (the teams count the bot's seat)
    engine = ENGINES["terra_trumpf"]
    person_of = {1: "a", 2: "b", 3: "c"}
    game = _table_game(engine, person_of, "k", [1, 2, 3, None], [1, 2, 1, 2], {})
    assert game == Match("k", [["a", "c"], ["b"]], [1, 2])
