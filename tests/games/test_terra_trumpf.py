"""Terra Trumpf engine: one scenario per rule of games/terra_trumpf/RULES.md, deck files,
options and bots. Paper sheets are in test_terra_trumpf_sheet.py."""

from __future__ import annotations

import copy
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import get_engine
from games.base import DeckError, IllegalAction, RandomBot, rank_by
from games.terra_trumpf import (
    ENGINE,
    MixedSetsError,
    SmartBot,
    load_deck,
    parse_deck,
    shipped_decks,
)
from games.terra_trumpf.engine import ranked_result
from tests.examples import examples

E = ENGINE

# -- a test deck with values chosen for the scenarios ---------------------------
# set 1: categories c0..c9, set 2: d0..d9; card k (1..5) of category i is worth
# 1000 * k + 10 * i, except c5, whose cards 2 and 3 are both worth 3000.


def _value(prefix: str, i: int, k: int) -> int:
    if prefix == "c" and i == 5:
        return [1000, 3000, 3000, 4000, 5000][k - 1]
    return 1000 * k + 10 * i + (0 if prefix == "c" else 5)


def make_deck() -> dict:
    return {
        "name": "test",
        "sets": [
            {
                "name": f"set {prefix}",
                "categories": [
                    {
                        "key": f"{prefix}{i}",
                        "label": f"Category {prefix}{i}",
                        "cards": [
                            {"id": f"X-{prefix}{i}-{k}", "name": f"{prefix}{i} #{k}", "value": v}
                            for k in range(1, 6)
                            for v in [_value(prefix, i, k)]
                        ],
                    }
                    for i in range(10)
                ],
            }
            for prefix in ("c", "d")
        ],
    }


DECK = make_deck()
VALUE = {
    card["id"]: card["value"]
    for s in DECK["sets"]
    for cat in s["categories"]
    for card in cat["cards"]
}


def cards(*specs: str) -> list[str]:
    """'c0' -> the five cards of c0; 'c0-2' -> that card."""
    out = []
    for spec in specs:
        if "-" in spec:
            out.append(f"X-{spec}")
        else:
            out.extend(f"X-{spec}-{k}" for k in range(1, 6))
    return out


def options_for(hands: list[list[str]], categories: list[str], **extra) -> dict:
    """Options with a stack that deals exactly ``hands`` (card i to seat i mod n)."""
    n = len(hands)
    assert all(len(h) == 15 for h in hands), [len(h) for h in hands]
    stack = [hands[j][k] for k in range(15) for j in range(n)]
    opts = {"deck": DECK, "categories": categories}
    rest = [c["id"] for c in E.deck(n, opts) if c["id"] not in set(stack)]
    opts.update(stack=stack + rest, **extra)
    return opts


def game(hands, categories, seed=1, **extra) -> dict:
    return E.new_game(len(hands), seed, options_for(hands, categories, **extra))


def play(s: dict, *moves: str) -> dict:
    """Apply actions for whoever is to act ('alpha:c0', 'c0-1' = play that card)."""
    for move in moves:
        action = move if move.startswith("alpha:") else f"play:X-{move}"
        s = E.apply(s, E.to_act(s)[0], action)
    return s


def first_legal(s: dict) -> dict:
    seat = E.to_act(s)[0]
    return E.apply(s, seat, E.legal_actions(s, seat)[0])


# 2 players, categories c0..c5
CATS2 = ["c0", "c1", "c2", "c3", "c4", "c5"]
H2 = [
    cards("c0-1", "c0-2", "c0-3", "c1", "c2", "c5-2", "c3-1"),
    cards("c0-4", "c0-5", "c3-2", "c3-3", "c3-4", "c3-5", "c4", "c5-1", "c5-3", "c5-4", "c5-5"),
]
# 3 players, categories c0..c8
CATS3 = [f"c{i}" for i in range(9)]
H3 = [
    cards("c0", "c1", "c6-1", "c6-2", "c2-1", "c2-2", "c2-3"),
    cards("c3", "c4", "c6-3", "c6-4", "c2-4", "c2-5", "c7-1"),
    cards("c5", "c6-5", "c7-2", "c7-3", "c7-4", "c7-5", "c8"),
]


def test_registered():
    assert get_engine("terra_trumpf") is E
    assert (E.min_players, E.max_players) == (2, 6)
    assert E.time_called_text and E.figure_label
    assert "tiere" in shipped_decks()


# -- teams -------------------------------------------------------------------------
def test_teams_partners_sit_opposite():
    """Ruling: At 4 and 6 players two-player teams; partners sit opposite
    (seats i and i + n/2)."""
    assert E.teams(4) == [[0, 2], [1, 3]]
    assert E.teams(6) == [[0, 3], [1, 4], [2, 5]]
    for n in (2, 3, 5):
        assert E.teams(n) is None


def test_team_scores_the_sum_of_its_players_points():
    """Ruling: a team scores the sum of its players' points."""
    res = ranked_result(4, [5, 3, 2, 4], [5500, 3900, 2100, 4000], {})
    assert res.figures == [7, 7, 7, 7]
    # equal team points: the summed collected value decides (7600 vs 7900)
    assert res.ranks == [3, 1, 3, 1]  # competition ranking over seats
    s = E.finish(E.new_game(4, 3), RandomBot(3))
    res = E.result(s)
    pts = res.details["points"]
    assert res.figures[0] == res.figures[2] == pts[0] + pts[2]
    assert res.figures[1] == res.figures[3] == pts[1] + pts[3]
    assert res.ranks[0] == res.ranks[2] and res.ranks[1] == res.ranks[3]


# -- cards in play -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("players", "deck_size", "in_play", "per_set"),
    [(2, 50, 30, [6]), (3, 50, 45, [9]), (4, 100, 60, [6, 6]), (5, 100, 75, [8, 7]),
     (6, 100, 90, [9, 9])],
)  # fmt: skip
def test_cards_in_play_three_categories_per_player(players, deck_size, in_play, per_set):
    """Ruling (cards in play): 3 categories per player, 15 cards per player:
    2 players 6 categories of one set; 3 players 9 of one set; 4 players 12 of
    two sets; 5 players 15; 6 players 18. Which categories are removed is drawn
    at random by the seed."""
    deck = E.deck(players, {})
    assert len(deck) == deck_size == len({c["id"] for c in deck})
    s = E.new_game(players, 7)
    zones = E.zones(s)
    removed = set(zones["removed"])
    assert len(removed) == deck_size - in_play
    assert all(len(zones[f"hand:{j}"]) == 15 for j in range(players))
    assert len(s["in_play"]) == 3 * players
    sets = {c["category"]: c["set"] for c in deck}
    names = list(dict.fromkeys(sets.values()))
    assert [sum(sets[k] == name for k in s["in_play"]) for name in names] == per_set
    # removed cards are exactly the other categories' cards
    assert removed == {c["id"] for c in deck if c["category"] not in s["in_play"]}
    # drawn from the seed: the same seed gives the same choice, others vary
    assert E.new_game(players, 7)["in_play"] == s["in_play"]
    choices = {tuple(E.new_game(players, seed)["in_play"]) for seed in range(20)}
    assert len(choices) > 1


def test_cards_in_play_entered_by_the_organiser():
    """Ruling (cards in play): ... (or entered by the organiser for a paper table)."""
    cats = ["d0", "d1", "d2", "d3", "d4", "d5"]
    s = E.new_game(2, 5, {"deck": DECK, "categories": cats})
    assert s["in_play"] == cats
    # deck() returns the cards in play: exactly the given categories' cards
    deck = E.deck(2, {"deck": DECK, "categories": cats})
    assert [c["id"] for c in deck] == cards(*cats)
    hands = [h for j in range(2) for h in E.zones(s)[f"hand:{j}"]]
    assert sorted(hands) == sorted(cards(*cats))
    assert E.zones(s)["removed"] == []


def test_deck_without_categories_is_every_card_of_the_sets_used():
    """Without options["categories"] the draw happens in new_game: deck() is the
    card sets used (one set at 2-3 players, both at 4-6 with this deck)."""
    assert {c["category"] for c in E.deck(3, {"deck": DECK})} == {f"c{i}" for i in range(10)}
    assert len(E.deck(4, {"deck": DECK})) == 100
    s = E.new_game(3, 2, {"deck": DECK})
    zones = E.zones(s)
    assert sorted(c for cs in zones.values() for c in cs) == sorted(
        c["id"] for c in E.deck(3, {"deck": DECK})
    )


@pytest.mark.parametrize("players", [2, 3])
def test_ruling_two_and_three_players_categories_of_one_set_mixed_refused(players):
    """Ruling (cards in play): 2 players 6 categories of one set; 3 players 9 of
    one set. Categories entered across both sets are refused with the reason."""
    need = 3 * players
    mixed = [f"c{i}" for i in range(need - 1)] + ["d0"]
    for opts in ({"deck": DECK, "categories": mixed}, {"categories": _tiere_mixed(need)}):
        with pytest.raises(MixedSetsError, match=f"at {players} players .* one card set"):
            E.new_game(players, 1, opts)
        with pytest.raises(ValueError, match="one card set"):
            E.deck(players, opts)
    # one set, either set, is fine
    for cats in ([f"c{i}" for i in range(need)], [f"d{i}" for i in range(need)]):
        s = E.new_game(players, 1, {"deck": DECK, "categories": cats})
        assert s["in_play"] == cats


@pytest.mark.parametrize("players", [4, 5, 6])
def test_four_players_and_more_may_mix_sets(players):
    cats = [f"c{i}" for i in range(10)] + [f"d{i}" for i in range(3 * players - 10)]
    s = E.new_game(players, 1, {"deck": DECK, "categories": cats})
    assert s["in_play"] == cats


@settings(max_examples=examples(40), deadline=None)
@given(players=st.sampled_from([2, 3]), data=st.data())
def test_random_draw_at_two_and_three_players_stays_in_one_set(players, data):
    seed = data.draw(st.integers(0, 10**6))
    s = E.new_game(players, seed, {"deck": DECK})
    assert len({k[0] for k in s["in_play"]}) == 1


def _tiere_mixed(need):
    deck = load_deck("tiere")
    first, second = ([c.key for c in card_set.categories] for card_set in deck.sets[:2])
    return first[: need - 1] + second[:1]


def test_deal_fifteen_cards_one_at_a_time_from_seat_0():
    """A hand: shuffle, deal 15 to each (options['stack'] deals card i to seat i mod n)."""
    s = game(H3, CATS3)
    for j in range(3):
        assert s["hands"][j] == H3[j]
    assert E.view(s, 1)["hand_sizes"] == [15, 15, 15]
    s2 = E.new_game(3, 11, {"deck": DECK, "categories": CATS3})
    assert sorted(c for h in s2["hands"] for c in h) == sorted(cards(*CATS3))


# -- Alpha ---------------------------------------------------------------------------
def test_alpha_chooser_names_a_category_in_play_then_leads():
    """The Alpha chooser names one category in play as Alpha (trump), then leads
    the first trick."""
    s = game(H2, CATS2)
    assert E.to_act(s) == [0]
    assert E.legal_actions(s, 0) == [f"alpha:{k}" for k in CATS2]
    assert E.legal_actions(s, 1) == []
    with pytest.raises(IllegalAction, match="not a category in play"):
        E.apply(s, 0, "alpha:c7")
    with pytest.raises(IllegalAction, match="first choose the Alpha"):
        E.apply(s, 0, "play:X-c0-1")
    s = play(s, "alpha:c3")
    assert s["alpha"] == "c3" and E.view(s, None)["alpha"] == "c3"
    assert E.to_act(s) == [0]
    assert all(a.startswith("play:") for a in E.legal_actions(s, 0))
    assert len(E.legal_actions(s, 0)) == 15  # the leader may lead any card
    with pytest.raises(IllegalAction, match="already chosen"):
        E.apply(s, 0, "alpha:c1")


# -- following -----------------------------------------------------------------------
def test_must_follow_the_led_category_if_able():
    """A player must play the led category if he can."""
    s = play(game(H2, CATS2), "alpha:c4", "c0-1")
    legal = set(E.legal_actions(s, 1))
    assert {"play:X-c0-4", "play:X-c0-5"} <= legal
    assert "play:X-c3-2" not in legal and "play:X-c5-1" not in legal
    with pytest.raises(IllegalAction, match="you must follow c0"):
        E.apply(s, 1, "play:X-c3-2")
    with pytest.raises(IllegalAction, match="not in your hand"):
        E.apply(s, 1, "play:X-c1-1")


def test_an_alpha_card_may_always_be_played_instead():
    """... but an Alpha card may always be played instead."""
    s = play(game(H2, CATS2), "alpha:c4", "c0-1")
    legal = set(E.legal_actions(s, 1))
    assert legal == {"play:X-c0-4", "play:X-c0-5", *(f"play:{c}" for c in cards("c4"))}
    s = play(s, "c4-1")
    assert s["last_trick"]["winner"] == 1


def test_alpha_led_must_be_followed_with_alpha():
    """A player must play the led category if he can (also when the led category is Alpha)."""
    s = play(game(H2, CATS2), "alpha:c0", "c0-1")
    assert set(E.legal_actions(s, 1)) == {"play:X-c0-4", "play:X-c0-5"}


def test_who_cannot_follow_plays_any_card():
    """A player who can't follow plays any card."""
    s = play(game(H2, CATS2), "alpha:c4", "c1-1")
    assert len(E.legal_actions(s, 1)) == 15


# -- the trick -----------------------------------------------------------------------
def test_highest_alpha_wins_the_trick():
    """If any Alpha was played, the highest Alpha value wins."""
    s = play(game(H3, CATS3), "alpha:c6", "c0-5", "c6-3", "c6-5")
    assert s["last_trick"] == {
        "plays": [[0, "X-c0-5"], [1, "X-c6-3"], [2, "X-c6-5"]],
        "winner": 2,
    }
    assert s["values"] == [0, 0, VALUE["X-c0-5"] + VALUE["X-c6-3"] + VALUE["X-c6-5"]]


def test_highest_of_led_category_wins_and_other_cards_lose():
    """Otherwise the highest value of the led category. Cards of neither lose."""
    s = play(game(H3, CATS3), "alpha:c8", "c0-1", "c3-5", "c7-5")
    assert VALUE["X-c3-5"] > VALUE["X-c0-1"] and VALUE["X-c7-5"] > VALUE["X-c0-1"]
    assert s["last_trick"]["winner"] == 0
    s = play(game(H3, CATS3), "alpha:c8", "c2-1", "c2-4", "c7-2")
    assert s["last_trick"]["winner"] == 1


def test_equal_values_the_card_played_first_wins():
    """Ruling: equal values: the card played first wins."""
    assert VALUE["X-c5-2"] == VALUE["X-c5-3"]
    # led category: seat 0 leads 3000, seat 1 follows with 3000
    s = play(game(H2, CATS2), "alpha:c4", "c5-2", "c5-3")
    assert s["last_trick"]["winner"] == 0
    # Alpha: seat 1 leads the second trick, seat 0 plays the equal Alpha after him
    s = play(game(H2, CATS2), "alpha:c5", "c0-1", "c0-4", "c5-3", "c5-2")
    assert s["last_trick"]["plays"] == [[1, "X-c5-3"], [0, "X-c5-2"]]
    assert s["last_trick"]["winner"] == 1


def test_winner_takes_the_trick_onto_his_pile():
    """The winner puts the trick face down on his own pile."""
    s = play(game(H3, CATS3), "alpha:c6", "c0-5", "c6-3", "c6-5")
    zones = E.zones(s)
    assert sorted(zones["pile:2"]) == sorted(["X-c0-5", "X-c6-3", "X-c6-5"])
    assert zones["pile:0"] == zones["pile:1"] == zones["table"] == []


def test_next_trick_led_by_the_player_after_the_previous_leader():
    """The next trick is led by the player after the previous trick's leader
    (not by the winner)."""
    s = play(game(H3, CATS3), "alpha:c6", "c0-5", "c6-3", "c6-5")
    assert s["last_trick"]["winner"] == 2
    assert E.to_act(s) == [1] and E.view(s, None)["leader"] == 1
    s = play(s, "c3-1", "c7-2")  # seat 0 and 2 follow...
    assert E.to_act(s) == [0]
    s = play(s, "c1-1")
    assert E.to_act(s) == [2]  # third trick: after seat 1 comes seat 2


# -- scoring a hand --------------------------------------------------------------------
def _play_hand(s: dict) -> dict:
    hands_before = len(s["history"])
    while len(s["history"]) == hands_before:
        s = first_legal(s)
    return s


def test_hand_scored_one_point_per_full_1000():
    """When all hands are empty the hand is scored: each player's collected value,
    1 point per full 1000 (integer division, Ruling)."""
    s = game(H2, CATS2)
    while s["tricks"] < 14:
        s = first_legal(s)
        piles = E.zones(s)
        assert s["values"] == [sum(VALUE[c] for c in piles[f"pile:{j}"]) for j in (0, 1)]
    piles = [sum(VALUE[c] for c in E.zones(s)[f"pile:{j}"]) for j in (0, 1)]
    last_trick = sum(VALUE[h[0]] for h in s["hands"])  # one card left in each hand
    s = first_legal(first_legal(s))
    hand = s["history"][0]
    gained = [v - p for v, p in zip(hand["values"], piles, strict=True)]
    assert sorted(gained) == [0, last_trick]
    piles = hand["values"]
    assert hand == {"chooser": 0, "alpha": "c0", "values": piles, "finished": True}
    total = sum(VALUE[c] for c in cards(*CATS2))
    assert sum(piles) == total and total % 1000 != 0
    assert s["scores"] == [v // 1000 for v in piles]
    assert E.view(s, None)["scores"] == s["scores"]


def test_next_chooser_is_the_player_after_the_previous_chooser():
    """The next hand's Alpha chooser is the player after the previous chooser;
    after a hand the cards are shuffled and dealt again."""
    s = _play_hand(game(H3, CATS3))
    assert s["phase"] == "alpha" and E.to_act(s) == [1] and s["chooser"] == 1
    assert [len(h) for h in s["hands"]] == [15, 15, 15]
    assert s["piles"] == [[], [], []] and s["values"] == [0, 0, 0]
    assert s["last_trick"] is None
    assert sorted(c for h in s["hands"] for c in h) == sorted(cards(*CATS3))


def test_first_chooser_is_seat_0_or_as_given():
    """The first chooser is the youngest player (a digital table: seat 0)."""
    assert E.to_act(E.new_game(4, 2)) == [0]
    s = E.new_game(4, 2, {"first_chooser": 2})
    assert E.to_act(s) == [2]
    s = E.finish(s, SmartBot(1))
    assert [h["chooser"] for h in s["history"]] == [2, 3, 0, 1]
    with pytest.raises(ValueError, match="first_chooser"):
        E.new_game(4, 2, {"first_chooser": 4})


def test_game_ends_when_every_player_chose_alpha_once():
    """The game ends when every player has chosen Alpha once (n hands)."""
    for n in (2, 3, 5):
        s = E.finish(E.new_game(n, 9), RandomBot(9))
        assert E.is_over(s) and E.to_act(s) == []
        assert [h["chooser"] for h in s["history"]] == list(range(n))
        assert all(h["finished"] for h in s["history"])
        pts = [sum(h["values"][j] // 1000 for h in s["history"]) for j in range(n)]
        res = E.result(s)
        assert res.figures == pts
        assert res.details["rank_keys"] == [
            [pts[j], sum(h["values"][j] for h in s["history"])] for j in range(n)
        ]
        assert res.ranks == rank_by(res.details["rank_keys"])


def test_most_points_wins_equal_points_total_value_breaks_tie():
    """Most points wins. Ruling: equal points share the rank; total collected
    value breaks the tie."""
    res = ranked_result(3, [10, 10, 5], [10500, 10900, 5999], {})
    assert res.ranks == [2, 1, 3]
    res = ranked_result(3, [10, 10, 12], [10500, 10500, 12000], {})
    assert res.ranks == [2, 2, 1]
    # a smaller value never beats more points
    res = ranked_result(2, [11, 10], [11000, 10999], {})
    assert res.ranks == [1, 2]


# -- time called -----------------------------------------------------------------------
def test_time_called_mid_trick_finishes_the_trick_then_scores_the_hand():
    """Time called: the trick in progress is finished; the current hand is scored
    as it stands (cards still held score for nobody); no new hand starts."""
    s = play(game(H3, CATS3), "alpha:c6", "c0-5", "c6-3", "c6-5", "c3-1")
    s = E.call_time(s)
    assert not E.is_over(s) and E.to_act(s) == [2]
    s = play(s, "c7-2")
    assert s["history"] == []
    s = play(s, "c0-1")
    assert E.is_over(s)
    assert s["history"] == [
        {
            "chooser": 0,
            "alpha": "c6",
            "values": [0, 1030 + 2070 + 1000, 5000 + 3060 + 5060],
            "finished": False,
        }
    ]
    assert [len(h) for h in s["hands"]] == [13, 13, 13]  # held cards score for nobody
    res = E.result(s)
    assert res.figures == [0, 4, 13]
    assert res.ranks == [3, 2, 1]


def test_time_called_between_tricks_scores_the_hand_at_once():
    """Time called: ... the current hand is scored as it stands; no new hand starts."""
    s = play(game(H3, CATS3), "alpha:c6", "c0-5", "c6-3", "c6-5")
    s = E.call_time(s)
    assert E.is_over(s)
    assert s["history"][0]["values"] == [0, 0, 13120]
    assert s["history"][0]["finished"] is False
    assert E.call_time(s) == s  # calling again changes nothing


def test_time_called_before_alpha_is_chosen_ends_at_once():
    """Ruling (added): time called before the Alpha of the current hand is chosen:
    that hand is not played and not recorded."""
    s = E.call_time(E.new_game(3, 4))
    assert E.is_over(s) and s["history"] == []
    assert E.result(s).ranks == [1, 1, 1]
    s = _play_hand(game(H2, CATS2))
    scores = s["scores"]
    s = E.call_time(s)
    assert E.is_over(s) and len(s["history"]) == 1 and s["scores"] == scores


def test_finish_after_time_called_plays_the_trick_out():
    """Time called: the trick in progress is finished (by a bot at a digital table)."""
    s = E.call_time(play(game(H2, CATS2), "alpha:c4", "c0-1"))
    s = E.finish(s, SmartBot(0))
    assert E.is_over(s) and len(s["history"]) == 1 and s["tricks"] == 1


# -- views and zones ---------------------------------------------------------------------
def test_views_show_only_own_hand():
    s = play(game(H2, CATS2), "alpha:c4", "c0-1")
    v0, v1, pub = E.view(s, 0), E.view(s, 1), E.view(s, None)
    assert set(v0["hand"]) == set(H2[0]) - {"X-c0-1"}
    assert v0["hand"]["X-c1-2"] == ["c1", VALUE["X-c1-2"]]
    assert pub["hand"] == {}
    assert v1["table"] == [[0, "X-c0-1", "c0", 1000]]
    text = json.dumps(v1)
    assert not any(c in text for c in v0["hand"])
    assert E.hidden(s, 1) == set(v0["hand"])


def test_state_is_json_safe_and_apply_does_not_mutate():
    s = play(game(H2, CATS2), "alpha:c4")
    before = copy.deepcopy(s)
    s2 = E.apply(s, 0, "play:X-c0-1")
    assert s == before and s2 != s
    assert E.load(json.loads(json.dumps(E.dump(s2)))) == s2


# -- decks and options ------------------------------------------------------------------
def test_shipped_deck_is_valid():
    deck = load_deck("tiere")
    assert len(deck.sets) == 2 and deck.category_count == 20
    values = [c.value for cat in deck.categories.values() for c in cat.cards]
    assert len(values) == 100 and all(1200 <= v <= 9800 for v in values)


def _bad(mutate) -> dict:
    d = make_deck()
    mutate(d)
    return d


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["sets"][0]["categories"][0]["cards"].pop(), "exactly 5 cards, has 4"),
        (
            lambda d: d["sets"][1]["categories"][0]["cards"][0].update(id="X-c0-1"),
            "duplicate card id",
        ),
        (lambda d: d["sets"][0]["categories"][2]["cards"][1].update(value=12.5), "whole number"),
        (lambda d: d["sets"][0]["categories"][2]["cards"][1].update(value="1200"), "whole number"),
        (lambda d: d["sets"][0]["categories"][2]["cards"][1].update(value=True), "whole number"),
        (lambda d: d["sets"][0]["categories"][2]["cards"][1].update(value=-5), "negative"),
        (lambda d: d["sets"][1]["categories"][3].update(key="c1"), "used twice"),
        (lambda d: d["sets"][1]["categories"][3].update(key="a b"), "'key'"),
        (lambda d: d["sets"][0]["categories"][0].pop("label"), "'label'"),
        (lambda d: d.update(sets=[]), "non-empty list"),
        (lambda d: d["sets"][0].update(categories="x"), "'categories'"),
        (lambda d: d["sets"][0]["categories"][0]["cards"][0].update(id="c3"), "distinctive"),
        (lambda d: d.pop("name"), "'name'"),
    ],
)
def test_parse_deck_rejects_bad_decks(mutate, message):
    with pytest.raises(DeckError, match=message):
        parse_deck(_bad(mutate))
    with pytest.raises(DeckError, match=message):
        E.new_game(2, 1, {"deck": _bad(mutate)})


def test_parse_deck_rejects_non_objects():
    for data in (None, [], "tiere", 5):
        with pytest.raises(DeckError):
            parse_deck(data)


def test_not_enough_categories_for_the_player_count():
    small = _bad(lambda d: d.update(sets=[d["sets"][0]]))  # 10 categories
    E.new_game(3, 1, {"deck": small})
    with pytest.raises(DeckError, match="has 10 categories; 4 players need 12"):
        E.new_game(4, 1, {"deck": small})
    with pytest.raises(DeckError, match="4 players need 12"):
        E.deck(4, {"deck": small})


def test_bad_options_give_clear_errors():
    with pytest.raises(DeckError, match="unknown deck"):
        E.new_game(2, 1, {"deck": "../secret"})
    with pytest.raises(ValueError, match="exactly 6 categories"):
        E.new_game(2, 1, {"categories": ["bigcats"]})
    with pytest.raises(ValueError, match="unknown category 'zebra'"):
        E.new_game(
            2, 1, {"categories": ["zebra", "bears", "canines", "hoofed", "bigcats", "flies"]}
        )
    with pytest.raises(ValueError, match="twice"):
        E.new_game(2, 1, {"deck": DECK, "categories": ["c0", "c0", "c1", "c2", "c3", "c4"]})
    with pytest.raises(ValueError, match="list of category keys"):
        E.new_game(2, 1, {"categories": "bigcats"})
    with pytest.raises(ValueError, match="2 to 6 players"):
        E.new_game(7, 1)
    with pytest.raises(ValueError, match="sheet"):
        E.new_game(2, 1, {"sheet": "scores"})
    with pytest.raises(ValueError, match="options must be"):
        E.new_game(2, 1, ["deck"])


def test_bad_stacks_give_clear_errors():
    opts = options_for(H2, CATS2)
    with pytest.raises(ValueError, match="every card in play exactly once"):
        E.new_game(2, 1, dict(opts, stack=opts["stack"][:-1]))
    # with the categories given, the stack lists exactly their cards
    wrong = ["c0", "c1", "c2", "c3", "c4", "c6"]
    with pytest.raises(ValueError, match="every card in play exactly once"):
        E.new_game(2, 1, dict(opts, categories=wrong, stack=opts["stack"]))
    # without options["categories"], the stack alone decides what is in play
    full = opts["stack"] + [
        c["id"] for c in E.deck(2, {"deck": DECK}) if c["id"] not in opts["stack"]
    ]
    s = E.new_game(2, 1, {"deck": DECK, "stack": full})
    assert s["in_play"] == CATS2 and s["hands"] == H2
    # ... and its first 30 cards must be whole categories
    stack = full[:]
    stack[0], stack[-1] = stack[-1], stack[0]
    with pytest.raises(ValueError, match="whole categories; incomplete: c0, c9"):
        E.new_game(2, 1, {"deck": DECK, "stack": stack})


def test_options_schema_and_defaults():
    names = [f["name"] for f in E.options_schema()]
    assert names == ["deck", "sheet"]
    assert E.default_options() == {"deck": "tiere", "sheet": "values"}
    E.new_game(2, 1, E.default_options())


def test_invented_and_out_of_turn_actions_explained():
    s = play(game(H2, CATS2), "alpha:c4")
    with pytest.raises(IllegalAction, match="not to act"):
        E.apply(s, 1, "play:X-c0-4")
    with pytest.raises(IllegalAction, match="unknown action"):
        E.apply(s, 0, "bogus")
    s = E.call_time(s)
    with pytest.raises(IllegalAction, match="over"):
        E.apply(s, 0, "play:X-c0-1")


# -- bots -----------------------------------------------------------------------------
def test_smart_bot_picks_alpha_where_it_holds_most_value():
    s = game(H2, CATS2)
    # seat 0 holds c1 (15050) and c2 (15100) entirely: c2 is worth more
    assert SmartBot(0).choose(E.view(s, 0), E.legal_actions(s, 0)) == "alpha:c2"


def test_smart_bot_wins_with_the_cheapest_winning_card_or_dumps_low():
    s = play(game(H2, CATS2), "alpha:c4", "c0-1")
    # seat 1 can win with c0-4 (cheapest winner of the led category)
    assert SmartBot(0).choose(E.view(s, 1), E.legal_actions(s, 1)) == "play:X-c0-4"
    s = play(game(H3, CATS3), "alpha:c8", "c0-5")
    # seat 1 has no c0 and no Alpha: it dumps its cheapest card
    assert SmartBot(0).choose(E.view(s, 1), E.legal_actions(s, 1)) == "play:X-c3-1"


def _win_rate(players: int, games: int) -> float:
    wins = 0
    for g in range(games):
        bots = [SmartBot(g)] + [RandomBot(g * 10 + j) for j in range(1, players)]
        s = E.new_game(players, 1000 + g)
        while not E.is_over(s):
            seat = E.to_act(s)[0]
            s = E.apply(s, seat, bots[seat].choose(E.view(s, seat), E.legal_actions(s, seat)))
        wins += E.result(s).ranks[0] == 1
    return wins / games


def test_smart_bot_beats_random_bots():
    """The smart bot in seat 0 wins clearly more often than 1/n."""
    assert E.bots()["smart"] is SmartBot and E.bots()["random"] is RandomBot
    assert _win_rate(2, 80) > 0.7
    assert _win_rate(3, 60) > 0.55
