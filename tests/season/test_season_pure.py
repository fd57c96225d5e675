"""Season standings, ratings and roster matching as pure functions: no
database."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.season.ratings import Match, compute_ratings, sides_of
from scoring.season.standings import Event, Placing, SeasonError, season_standings
from tournaments.roster import EXACT, NEAR, NEW, Candidate, folded, match


def ev(key, *people, points=None):
    """An event whose final standings are the people in order (places 1..n)."""
    points = points or [0] * len(people)
    return Event(
        key,
        [Placing(p, i + 1, pts) for i, (p, pts) in enumerate(zip(people, points, strict=False))],
    )


# -- season points by scheme -------------------------------------------------


def test_placement_points_by_field_size():
    rows = season_standings([ev(1, "a", "b", "c", "d"), ev(2, "b", "a")], scheme="placement")
    # field of 4: 4-3-2-1; field of 2: 2-1
    totals = {r.person: r.total for r in rows}
    assert totals == {"a": 4 + 1, "b": 3 + 2, "c": 2, "d": 1}


def test_shared_place_earns_the_same():
    event = Event(1, [Placing("a", 1), Placing("b", 1), Placing("c", 3)])
    rows = season_standings([event], scheme="placement")
    assert {r.person: r.total for r in rows} == {"a": 3, "b": 3, "c": 1}


def test_tournament_points_summed():
    rows = season_standings(
        [ev(1, "a", "b", points=[6, 4]), ev(2, "b", "a", points=[5, 1])], scheme="points"
    )
    assert {r.person: r.total for r in rows} == {"a": 7, "b": 9}
    assert rows[0].person == "b"


def test_fixed_table_and_places_beyond_it():
    rows = season_standings([ev(1, "a", "b", "c", "d")], scheme="table", table=[25, 20, 16])
    assert {r.person: r.total for r in rows} == {"a": 25, "b": 20, "c": 16, "d": 0}


def test_default_table_when_none_given():
    rows = season_standings([ev(1, "a", "b")], scheme="table")
    assert [r.total for r in rows] == [25, 20]


def test_best_n_of_m_counts_only_the_best_results():
    events = [ev(1, "a", "b", "c"), ev(2, "c", "b", "a"), ev(3, "a", "c", "b")]
    rows = {r.person: r for r in season_standings(events, scheme="placement", best=2)}
    # a: 3, 1, 3 → best two 6; c: 1, 3, 2 → 5; b: 2, 2, 1 → 4
    assert rows["a"].total == 6 and rows["c"].total == 5 and rows["b"].total == 4
    assert [r.counted for r in rows["a"].results] == [True, False, True]


def test_minimum_tournaments_to_be_ranked():
    events = [ev(1, "a", "b", "c"), ev(2, "b", "c")]
    rows = season_standings(events, scheme="placement", minimum=2)
    ranked = [r.person for r in rows if r.ranked]
    assert ranked == ["b", "c"]
    a = next(r for r in rows if r.person == "a")
    assert a.place is None and a.total == 3  # listed, without a place, after the ranked


def test_tiebreak_more_tournaments_played():
    # a: 3 (one win in a field of three); b: 1 + 2 = 3 in two tournaments
    events = [ev(1, "a", "x", "y"), ev(2, "p", "b"), ev(3, "q", "b", "r")]
    rows = season_standings(events, scheme="placement")
    a, b = (next(r for r in rows if r.person == p) for p in "ab")
    assert a.total == b.total == 3
    assert b.place < a.place


def test_tiebreak_best_single_result():
    # both 5 in two tournaments; a has 4 + 1, b has 3 + 2
    events = [
        ev(1, "a", "x", "y", "z"),
        ev(2, "q", "r", "s", "a"),
        ev(3, "b", "t", "u"),
        ev(4, "v", "b", "w"),
    ]
    rows = season_standings(events, scheme="placement")
    a, b = (next(r for r in rows if r.person == p) for p in "ab")
    assert (a.total, a.played) == (b.total, b.played) == (5, 2)
    assert a.best_single == 4 and a.place < b.place


def test_tiebreak_head_to_head_in_shared_tournaments():
    # a: 2 + 3, b: 3 + 2 (best 3 each), and b placed above a where they met
    events = [ev(1, "b", "a", "c"), ev(2, "a", "x", "y"), ev(3, "p", "b", "q")]
    rows = season_standings(events, scheme="placement")
    a, b = (next(r for r in rows if r.person == p) for p in "ab")
    assert (a.total, a.played, a.best_single) == (b.total, b.played, b.best_single)
    assert b.head_to_head > a.head_to_head and b.place < a.place


def test_still_tied_people_share_the_place():
    rows = season_standings([ev(1, "a", "x"), ev(2, "b", "y")], scheme="placement")
    top = [r for r in rows if r.person in "ab"]
    assert [r.place for r in top] == [1, 1] and all(r.shared for r in top)


@pytest.mark.parametrize(
    "kwargs,code",
    [
        ({"scheme": "nope"}, "unknown_scheme"),
        ({"scheme": "table", "table": [10, 20]}, "table_not_descending"),
        ({"scheme": "table", "table": [10, -1]}, "bad_table"),
        ({"best": 0}, "bad_best"),
        ({"minimum": -1}, "bad_minimum"),
    ],
)
def test_settings_refused_with_a_code(kwargs, code):
    with pytest.raises(SeasonError) as info:
        season_standings([ev(1, "a", "b")], **kwargs)
    assert info.value.code == code


@given(
    st.lists(
        st.lists(st.sampled_from("abcdefgh"), min_size=2, max_size=8, unique=True),
        min_size=1,
        max_size=6,
    ),
    st.one_of(st.none(), st.integers(1, 6)),
    st.integers(0, 4),
)
def test_places_are_consistent_with_totals(fields, best, minimum):
    events = [ev(i, *people) for i, people in enumerate(fields)]
    rows = season_standings(events, scheme="placement", best=best, minimum=minimum)
    ranked = [r for r in rows if r.ranked]
    assert all(not r.ranked for r in rows[len(ranked) :])
    for upper, lower in zip(ranked, ranked[1:], strict=False):
        assert upper.total >= lower.total
        assert upper.place <= lower.place
    for row in rows:
        counted = [r.points for r in row.results if r.counted]
        assert row.total == sum(counted)
        assert len(counted) == (row.played if best is None else min(best, row.played))


# -- ratings -------------------------------------------------------------------


def test_winner_gains_and_loser_loses():
    ratings = compute_ratings([Match(1, [["a"], ["b"], ["c"]], [1, 2, 3])])
    assert ratings["a"].mu > 25 > ratings["c"].mu
    assert all(r.sigma < 25 / 3 for r in ratings.values())
    assert ratings["a"].games == 1 and ratings["a"].provisional


def test_ties_move_tied_players_alike():
    ratings = compute_ratings([Match(1, [["a"], ["b"], ["c"]], [1, 1, 3])])
    assert ratings["a"].mu == pytest.approx(ratings["b"].mu)


def test_team_results_are_rated_as_teams():
    # Terra Trumpf at 4: seats 0+2 against 1+3; the team of seats 0 and 2 wins
    sides, ranks = sides_of(["a", "b", "c", "d"], [1, 2, 1, 2], [[0, 2], [1, 3]])
    assert sides == [["a", "c"], ["b", "d"]] and ranks == [1, 2]
    ratings = compute_ratings([Match(1, sides, ranks)])
    assert ratings["a"].mu == pytest.approx(ratings["c"].mu)
    assert ratings["b"].mu == pytest.approx(ratings["d"].mu)
    assert ratings["a"].mu > 25 > ratings["b"].mu


def test_ratings_are_deterministic_and_follow_play_order():
    games = [Match(i, [["a"], ["b"]], [1 + i % 2, 2 - i % 2]) for i in range(6)]
    first, second = compute_ratings(games), compute_ratings(games)
    assert {k: (v.mu, v.sigma) for k, v in first.items()} == {
        k: (v.mu, v.sigma) for k, v in second.items()
    }
    assert [k for k, _v in first["a"].history] == list(range(6))


# -- roster matching -----------------------------------------------------------

ROSTER = [
    Candidate(1, "Jürgen Groß", "SK Nord"),
    Candidate(2, "Anna Şahin", ""),
    Candidate(3, "Petra Strauß", "TSV"),
]


def test_exact_match_ignores_case_and_spaces():
    found = match("  jürgen   GROSS ".replace("GROSS", "Groß"), "SK Nord", ROSTER)
    assert found.kind == EXACT and found.best.id == 1


@pytest.mark.parametrize("typed", ["Juergen Gross", "Jurgen Gross", "Juergen Groß", "Jürgen Grosz"])
def test_german_spellings_are_near_matches(typed):
    found = match(typed, "SK Nord", ROSTER)
    assert found.kind == NEAR and found.best.id == 1


def test_accents_and_typos_are_near_matches():
    assert match("Anna Sahin", "", ROSTER).best.id == 2
    assert match("Petra Straus", "TSV", ROSTER).kind == NEAR


def test_a_new_name_is_new():
    assert match("Bernd Müller", "", ROSTER) == match("Bernd Müller", "", [])
    assert match("Bernd Müller", "", ROSTER).kind == NEW


def test_same_name_other_club_is_not_exact():
    found = match("Jürgen Groß", "TSV Süd", ROSTER)
    assert found.kind == NEAR


def test_folding_meets_both_umlaut_spellings():
    assert folded("Jürgen Groß") == folded("Juergen Gross") == folded("JURGEN GROSS")
