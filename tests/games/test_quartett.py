"""Quartett engine: scenario tests for every rule of games/quartett/RULES.md (and
the rulings added in games/quartett/engine.py), deck validation, options,
views and the smart bot."""

from __future__ import annotations

import json

import pytest

from games import DeckError, IllegalAction, get_engine
from games.base import RandomBot
from games.quartett import SmartBot, load_deck, parse_deck, ranking, year_to_ngz
from games.quartett.deck import shipped_decks

E = get_engine("quartett")

ATTRS = [
    {"key": "a", "label": "Power", "direction": "higher", "unit": "pt"},
    {"key": "b", "label": "Rank", "direction": "lower", "unit": "no."},
    {"key": "y", "label": "Year", "direction": "earlier", "unit": "year"},
]


def card_values(spec) -> dict:
    if isinstance(spec, dict):
        return {"a": spec.get("a", 0), "b": spec.get("b", 0), "y": spec.get("y", "2000 AD")}
    return {"a": spec, "b": 0, "y": "2000 AD"}


def setup(piles, aside=()):
    """A game on a test deck whose seat ``i`` starts with the cards ``piles[i]``
    (top first; a card is an ``a`` value or a dict of values). Card ids are
    ``T-<seat>.<index>`` and ``T-x<index>`` for the set-aside cards."""
    n = len(piles)
    assert len({len(p) for p in piles}) == 1, "the deal gives everyone the same count"
    cards, ids = [], [[f"T-{s}.{i}" for i in range(len(p))] for s, p in enumerate(piles)]
    for s, pile in enumerate(piles):
        for i, spec in enumerate(pile):
            cards.append({"id": ids[s][i], "name": f"Card {s}/{i}", "values": card_values(spec)})
    aside_ids = [f"T-x{i}" for i in range(len(aside))]
    for i, spec in enumerate(aside):
        cards.append({"id": aside_ids[i], "name": f"Spare {i}", "values": card_values(spec)})
    deck = {"name": "Test", "attributes": ATTRS, "cards": cards}
    stack = [ids[s][i] for i in range(len(piles[0])) for s in range(n)] + aside_ids
    return E.new_game(n, 1, {"deck": deck, "stack": stack})


def play(s, *actions):
    for a in actions:
        s = E.apply(s, E.to_act(s)[0], a if ":" in a else f"announce:{a}")
    return s


def piles(s):
    return [list(p) for p in s["piles"]]


# -- the deck ---------------------------------------------------------------------


def test_shipped_deck_is_a_32_card_space_deck_with_the_five_attributes():
    """The shipped deck is a fictional 32-card space deck with the original rules' five
    attributes: distance (higher better), first contact (earlier better, AD or
    NGZ), first mention (lower better), number of planets (higher better),
    gravity (higher better)."""
    assert "space" in shipped_decks()
    d = load_deck("space")
    assert len(d["cards"]) == 32
    assert [(a["key"], a["direction"]) for a in d["attributes"]] == [
        ("distance", "higher"),
        ("first_contact", "earlier"),
        ("first_mention", "lower"),
        ("planets", "higher"),
        ("gravity", "higher"),
    ]
    raw = [v for c in d["cards"] for v in c["values"].values()]
    assert "unbekannt" in raw and "nicht definierbar" in raw
    years = [c["values"]["first_contact"] for c in d["cards"]]
    assert any(str(y).endswith("AD") for y in years)
    assert any(str(y).endswith("NGZ") for y in years)
    assert len({c["id"] for c in d["cards"]}) == 32
    assert E.default_options() == {"deck": "space"}


def test_ngz_is_ad_minus_3587():
    """NGZ: 3588 AD = 1 NGZ, so NGZ = AD − 3587."""
    assert year_to_ngz("3588 AD") == 1
    assert year_to_ngz("1 NGZ") == 1
    assert year_to_ngz("2150 AD") == 2150 - 3587
    assert year_to_ngz(2150) == 2150 - 3587
    assert year_to_ngz("1290 NGZ") == 1290
    assert year_to_ngz("2150 n. Chr.") == 2150 - 3587


def test_years_are_compared_in_ngz_earlier_wins():
    """Years are compared after converting both to NGZ; earlier is better."""
    s = setup([[{"y": "1 NGZ"}, 1], [{"y": "3500 AD"}, 1]])
    s = play(s, "y")  # 3500 AD = -87 NGZ is earlier than 1 NGZ
    assert s["last_trick"]["winner"] == 1
    s = setup([[{"y": "3588 AD"}, 1], [{"y": "1 NGZ"}, 1]])
    s = play(s, "y")  # the same year: a tie
    assert s["last_trick"]["tied"] == [0, 1]


def test_lower_is_better_attribute():
    """Each attribute has a direction: lower is better (e.g. first mention)."""
    s = setup([[{"b": 3}], [{"b": 12}]])
    s = play(s, "b")
    assert s["last_trick"]["winner"] == 0


def test_unknown_and_not_definable_lose_against_every_known_value():
    """Unknown and not definable lose against every known value."""
    s = setup([[{"a": "unbekannt"}, 1], [{"a": -1000}, 1], [{"a": "nicht definierbar"}, 1]])
    s = play(s, "a")
    assert s["last_trick"]["winner"] == 1


def test_two_unknown_values_are_equal():
    """Two unknown/not-definable values are equal (a tie when nothing better)."""
    s = setup([[{"a": "unbekannt"}, 1], [{"a": "nicht definierbar"}, 1]])
    s = play(s, "a")
    assert s["last_trick"]["winner"] is None
    assert s["last_trick"]["tied"] == [0, 1]
    assert len(s["pot"]) == 2


# -- the deal ---------------------------------------------------------------------


def test_deal_one_at_a_time_remainder_set_aside():
    """Ruling (deal): deal one at a time; the remaining cards (fewer than the
    player count) are set aside out of play, so everyone starts equal."""
    s = E.new_game(3, 7)
    assert [len(p) for p in s["piles"]] == [10, 10, 10]
    assert len(s["aside"]) == 2
    assert E.in_play_count(3) == 30
    z = E.zones(s)
    assert sorted(c for cards in z.values() for c in cards) == sorted(
        c["id"] for c in E.deck(3, {})
    )
    s5 = E.new_game(5, 7)
    assert [len(p) for p in s5["piles"]] == [6] * 5 and len(s5["aside"]) == 2


def test_set_aside_cards_stay_out_of_play_and_hidden():
    """Ruling (deal): the cards set aside are out of play: nobody sees them and
    they never take part in a trick."""
    s = setup([[1, 1], [2, 2]], aside=[99])
    assert s["aside"] == ["T-x0"]
    assert all("T-x0" in E.hidden(s, seat) for seat in (0, 1, None))
    s = E.finish(s, RandomBot(3))
    assert E.zones(s)["aside"] == ["T-x0"]
    assert sum(E.result(s).figures) == 4


def test_stack_deals_one_at_a_time_first_card_on_top():
    """Ruling (added): with options["stack"] the cards are dealt one at a time
    in play order from seat 0, the first card dealt is the top of the pile, and
    the last cards are set aside."""
    ids = [c["id"] for c in E.deck(3, {})]
    s = E.new_game(3, 1, {"stack": ids})
    assert s["piles"][0][:2] == [ids[0], ids[3]]
    assert s["piles"][1][0] == ids[1]
    assert s["piles"][2][0] == ids[2]
    assert s["aside"] == ids[30:]


def test_seed_gives_the_same_deal_and_json_round_trip():
    """Every random step uses the generator in the state: same seed, same game."""
    assert E.new_game(4, 99) == E.new_game(4, 99)
    assert E.new_game(4, 99) != E.new_game(4, 100)
    s = E.new_game(4, 99)
    assert E.load(json.loads(json.dumps(E.dump(s)))) == s


# -- a trick ----------------------------------------------------------------------


def test_seat_0_announces_first_and_any_attribute_may_be_named():
    """Seat 0 (left of the dealer) announces first; he names one attribute."""
    s = setup([[1], [2], [3]])
    assert E.to_act(s) == [0]
    assert E.legal_actions(s, 0) == ["announce:a", "announce:b", "announce:y"]
    assert E.legal_actions(s, 1) == []
    with pytest.raises(IllegalAction, match="not to act"):
        E.apply(s, 1, "announce:a")
    with pytest.raises(IllegalAction, match="no attribute 'zz'"):
        E.apply(s, 0, "announce:zz")
    with pytest.raises(IllegalAction, match="announce an attribute"):
        E.apply(s, 0, "play:T-0.0")


def test_unique_best_wins_own_card_first_then_others_in_play_order():
    """A unique best value wins: the winner takes every top card and puts them
    under his pile (Ruling: his own card first, then the others in play order
    — Ruling (added): starting with the player after the winner)."""
    s = setup([[5, 1], [9, 1], [2, 1], [4, 1]])
    s = play(s, "a")
    assert s["last_trick"]["winner"] == 1
    assert s["last_trick"]["plays"] == [[0, "T-0.0"], [1, "T-1.0"], [2, "T-2.0"], [3, "T-3.0"]]
    assert piles(s)[1] == ["T-1.1", "T-1.0", "T-2.0", "T-3.0", "T-0.0"]
    assert [len(p) for p in s["piles"]] == [1, 5, 1, 1]


def test_winner_announces_the_next_trick():
    """Ruling: the winner of a trick announces the next one."""
    s = setup([[5, 1], [9, 1], [2, 1]])
    s = play(s, "a")
    assert E.to_act(s) == [1]


# -- ties and decision rounds ----------------------------------------------------


def test_tie_puts_every_top_card_in_the_pot_and_tied_players_play_a_decision_round():
    """Tie for best: every player's top card goes into a pot; only the tied
    players play a decision round with their next top cards. The previous
    announcer announces again if he is among them. The winner takes the pot
    and the decision round's cards, and announces next."""
    s = setup([[5, 7, 1], [5, 3, 1], [2, 9, 1]])
    s = play(s, "a")
    assert s["pot"] == ["T-0.0", "T-1.0", "T-2.0"]
    assert s["decision"] is True
    assert s["active"] == [0, 1]
    assert E.to_act(s) == [0]
    assert [len(p) for p in s["piles"]] == [2, 2, 2]
    s = play(s, "a")  # seat 2 (a 9 on top) does not play
    assert s["last_trick"]["plays"] == [[0, "T-0.1"], [1, "T-1.1"]]
    assert s["last_trick"]["winner"] == 0
    assert piles(s)[0] == ["T-0.2", "T-0.1", "T-1.1", "T-0.0", "T-1.0", "T-2.0"]
    assert piles(s)[2] == ["T-2.1", "T-2.2"]
    assert s["pot"] == [] and s["decision"] is False
    assert E.to_act(s) == [0] and s["active"] == [0, 1, 2]


def test_decision_round_announced_by_nearest_tied_player_when_announcer_not_tied():
    """Otherwise (the previous announcer is not tied) the tied player nearest
    to him in play order announces."""
    s = setup([[1, 1, 1], [5, 1, 1], [2, 1, 1], [5, 1, 1]])
    s = play(s, "a")
    assert s["active"] == [1, 3] and E.to_act(s) == [1]
    s = setup([[1, 1, 1], [2, 1, 1], [5, 1, 1], [5, 1, 1]])
    s = play(s, "a")
    assert E.to_act(s) == [2]
    # announcer seat 2 (won a trick), tie between seats 0 and 1: seat 0 is next after 2, 3
    s = setup([[1, 5, 1], [1, 5, 1], [9, 1, 1], [1, 1, 1]])
    s = play(s, "a")
    assert E.to_act(s) == [2]
    s = play(s, "a")
    assert s["active"] == [0, 1] and E.to_act(s) == [0]


def test_decision_round_that_ties_again_repeats_and_the_pot_grows():
    """A decision round that ties again repeats among those tied (the pot grows)."""
    s = setup([[5, 4, 8, 1], [5, 4, 2, 1], [5, 1, 1, 1]])
    s = play(s, "a")  # all three tie
    assert len(s["pot"]) == 3 and s["active"] == [0, 1, 2]
    s = play(s, "a")  # 4, 4, 1: seats 0 and 1 tie again
    assert len(s["pot"]) == 6 and s["active"] == [0, 1]
    assert E.to_act(s) == [0]
    s = play(s, "a")  # 8 beats 2
    assert s["pot"] == []
    assert len(s["piles"][0]) == 1 + 8
    assert piles(s)[0][1:3] == ["T-0.2", "T-1.2"]
    assert [len(p) for p in s["piles"]] == [9, 1, 2]


def test_tied_player_without_cards_drops_out_of_the_decision_round():
    """Ruling: a tied player without cards drops out of the decision round."""
    s = setup([[9, 1, 5], [1, 8, 5], [1, 1, 5]])
    s = play(s, "a")  # seat 0 wins: 5, 2, 2
    s = play(s, "a")  # seat 1's 8 wins: 4, 5, 1
    assert [len(p) for p in s["piles"]] == [4, 4, 1]
    s = play(s, "a")  # seat 1 announces: 5, 5, 5 -> three-way tie
    assert s["out"] == [None, None, 1]  # seat 2 played its last card: out
    assert s["active"] == [0, 1] and s["decision"] is True
    assert E.to_act(s) == [1]  # the previous announcer is tied: he announces again
    s = play(s, "a")  # seat 0's 9 beats seat 1's 8
    assert s["last_trick"]["plays"] == [[1, "T-1.1"], [0, "T-0.0"]]
    assert s["last_trick"]["winner"] == 0
    assert piles(s)[0][-5:] == ["T-0.0", "T-1.1", "T-1.2", "T-2.2", "T-0.2"]


def test_lone_tied_player_with_cards_takes_the_pot_without_playing():
    """Ruling (added): a decision round in which only one tied player still
    holds cards is won by him without playing; he announces next."""
    s = setup([[9, 1, 5], [1, 8, 2], [1, 1, 5]])
    s = play(s, "a", "a")  # 4, 4, 1 as above
    s = play(s, "a")  # seat 1 announces: 2, 5, 5 -> seats 2 and 0 tie; seat 2 is out
    assert s["out"] == [None, None, 1]
    assert s["decision"] is False and s["pot"] == []
    assert s["last_trick"]["tied"] == [2, 0] and s["last_trick"]["winner"] == 0
    assert piles(s)[0] == ["T-0.0", "T-1.0", "T-2.0", "T-1.2", "T-2.2", "T-0.2"]
    assert s["phase"] == "play" and E.to_act(s) == [0]
    assert [len(p) for p in s["piles"]] == [6, 3, 0]


def test_all_tied_players_out_of_cards_pot_goes_to_next_tricks_winner():
    """Ruling: if every tied player is out of cards, the pot goes to the winner
    of the next trick (Ruling (added): announced by the previous announcer, or
    the next player after him who still holds cards)."""
    s = setup([[5, 1], [5, 1], [1, 8], [1, 2]])
    s = play(s, "a")  # tie 0/1, pot 4
    s = play(s, "b")  # decision: b 0 vs 0: tie again, both out of cards
    assert s["out"] == [1, 1, None, None]
    assert len(s["pot"]) == 6 and s["decision"] is False
    assert E.to_act(s) == [2] and s["active"] == [2, 3]
    s = play(s, "a")  # seat 2's 8 beats seat 3's 2 and takes the pot too
    assert s["pot"] == []
    assert s["phase"] == "over"
    assert len(s["piles"][2]) == 8
    assert s["out"] == [1, 1, None, 2]
    assert E.result(s).ranks == [3, 3, 1, 2]


def test_everyone_out_together_share_the_rank():
    """Ruling (added): if the last cards of every remaining player go into the
    pot together, they all went out together and share the rank."""
    s = setup([[5, 7], [5, 1], [5, 3]])
    s = play(s, "a")  # all tie, each has 1 card left
    s = play(s, "b")  # b all 0: tie again; everyone's last card is in the pot
    assert s["phase"] == "over"
    assert s["out"] == [1, 1, 1]
    assert E.result(s).ranks == [1, 1, 1]
    assert len(E.zones(s)["pot"]) == 6


def test_player_with_no_cards_is_out_and_the_last_player_holding_cards_wins():
    """A player with no cards is out. The last player holding cards wins."""
    s = setup([[1, 1], [5, 9], [3, 1]])
    s = play(s, "a")  # seat 1 wins: piles 1, 4, 1
    assert [len(p) for p in s["piles"]] == [1, 4, 1]
    s = play(s, "a")  # seat 1's 9 wins again: seats 0 and 2 are out together
    assert s["phase"] == "over" and E.to_act(s) == []
    assert s["out"] == [1, None, 1]
    r = E.result(s)
    assert r.ranks == [2, 1, 2]
    assert r.figures == [0, 6, 0]
    with pytest.raises(IllegalAction, match="over"):
        E.apply(s, 1, "announce:a")


def test_game_end_with_a_waiting_pot_gives_it_to_the_last_holder():
    """Ruling (added): if the game ends while a pot waits, the last player
    holding cards takes it."""
    s = setup([[9, 5], [1, 5], [1, 5]])
    s = play(s, "a")  # seat 0: 4 cards, seats 1, 2 one each
    s = play(s, "a")  # 5, 5, 5: seats 1 and 2 go out; seat 0 alone
    assert s["phase"] == "over"
    assert len(s["piles"][0]) == 6 and s["pot"] == []


def test_ranking_helper_out_players_below_later_exits_above_earlier():
    """Players who went out rank below all who still hold cards, later exits
    above earlier ones; players out together share."""
    r = ranking([5, 0, 0, 3, 0], [None, 1, 2, None, 1], [])
    assert r.ranks == [1, 4, 3, 2, 4]
    assert r.details["rank_keys"][0][0] == 5


# -- time called ------------------------------------------------------------------


def test_time_called_between_tricks_ends_at_once_and_ranks_by_cards_held():
    """Time called: players rank by cards held, most first."""
    s = setup([[9, 1, 1, 1], [1, 1, 1, 1]])
    s = play(s, "a")  # 5, 3
    t = E.call_time(s)
    assert t["phase"] == "over" and E.to_act(t) == []
    r = E.result(t)
    assert r.figures == [5, 3] and r.ranks == [1, 2]
    assert s["phase"] == "play"  # call_time is pure


def test_time_called_finishes_the_trick_in_progress_with_its_decision_rounds():
    """Time called: the trick in progress (with any decision round) is finished."""
    s = setup([[5, 7, 1], [5, 3, 1], [2, 9, 1]])
    s = play(s, "a")  # tie: decision round pending
    t = E.call_time(s)
    assert t["phase"] == "play" and E.to_act(t) == [0] and t["time_called"]
    t = play(t, "a")  # seat 0 wins the decision: 6, 1, 2
    assert t["phase"] == "over"
    assert E.result(t).figures == [6, 1, 2]
    assert E.result(t).ranks == [1, 3, 2]


def test_time_called_pot_waiting_for_the_next_trick_plays_that_trick():
    """Ruling (added): a pot waiting for the next trick belongs to the trick in
    progress when time is called: that next trick is still played."""
    s = setup([[5, 1, 1], [5, 1, 1], [1, 8, 4], [1, 2, 4]])
    s = play(s, "a")  # tie 0/1, pot 4
    t = E.call_time(s)
    t = play(t, "a")  # 1 vs 1: tie again, pot 6
    t = play(t, "b")  # tie a third time: both out of cards, the pot waits
    assert t["phase"] == "play" and len(t["pot"]) == 8
    assert E.to_act(t) == [2]
    t = play(t, "a")  # seat 2's 8 beats 2: takes the trick and the pot
    assert t["phase"] == "over"
    r = E.result(t)
    assert r.figures == [0, 0, 11, 1]
    assert r.ranks == [3, 3, 1, 2]


def test_time_called_out_players_rank_below_those_holding_cards():
    """Time called: players who went out rank below all who still hold cards."""
    s = setup([[1, 1, 1], [9, 1, 9], [5, 5, 5]])
    s = play(s, "a", "a", "a")  # seat 0 goes out in the third trick
    assert s["out"] == [1, None, None]
    t = E.call_time(s)
    r = E.result(t)
    assert t["phase"] == "over"
    assert r.figures == [0, 6, 3]
    assert r.ranks == [3, 1, 2]


def test_time_called_tied_counts_play_a_decision_round_cards_do_not_move():
    """Players tied on card count play decision rounds as above until one is
    ahead. Ruling (added): the counts at time called stay the figures; the
    previous announcer announces if tied, else the next tied player."""
    s = setup([[1, 3, 1, 1], [9, 1, 1, 1], [1, 7, 1, 1]])
    s = play(s, "a")  # seat 1 wins: 3, 6, 3
    t = E.call_time(s)
    assert t["phase"] == "tiebreak"
    assert t["tiebreak"]["active"] == [0, 2]
    assert E.to_act(t) == [2]  # seat 1 would announce; seat 2 is next after him
    assert E.view(t, 2)["hand"] == ["T-2.1"]
    before = piles(t)
    t = play(t, "a")  # 3 vs 7: seat 2 wins
    assert t["phase"] == "over"
    assert piles(t) == before
    r = E.result(t)
    assert r.figures == [3, 6, 3]
    assert r.ranks == [3, 1, 2]
    assert r.details["decision_winners"] == [2]


def test_time_called_decision_ties_again_uses_the_next_card():
    """A decision round that ties again repeats among those tied."""
    s = setup([[1, 4, 4, 1], [9, 1, 1, 1], [1, 4, 8, 1]])
    s = play(s, "a")  # 3, 6, 3
    t = E.call_time(s)
    t = play(t, "a")  # 4 vs 4: tie
    assert t["phase"] == "tiebreak" and t["tiebreak"]["depth"] == 1
    assert E.view(t, 0)["hand"] == ["T-0.2"]
    t = play(t, "a")  # 4 vs 8: seat 2
    assert E.result(t).ranks == [3, 1, 2]


def test_time_called_decision_tie_with_piles_exhausted_shares_the_rank():
    """Ruling (added): if the tied players' piles run out with the tie
    unbroken, the whole group shares the rank."""
    s = setup([[1, 4], [9, 1], [1, 4]])
    s = play(s, "a")  # 1, 4, 1
    t = E.call_time(s)
    assert t["tiebreak"]["active"] == [0, 2]
    t = play(t, "a")  # 4 vs 4 and no further card
    assert t["phase"] == "over"
    r = E.result(t)
    assert r.ranks == [2, 1, 2]
    assert r.details["undecided_ties"] == [[0, 2]]


def test_time_called_with_a_three_way_tie_one_winner_the_rest_share():
    """Ruling (added): the decision round's winner ranks ahead of his tied
    group; the rest of the group share the next rank."""
    s = setup([[3, 1], [2, 1], [1, 1]])
    t = E.call_time(s)
    assert t["tiebreak"]["active"] == [0, 1, 2] and E.to_act(t) == [0]
    t = play(t, "a")
    r = E.result(t)
    assert r.figures == [2, 2, 2]
    assert r.ranks == [1, 2, 2]


def test_call_time_on_a_finished_game_keeps_it_over():
    s = setup([[1], [5]])
    s = play(s, "a")
    assert s["phase"] == "over"
    t = E.call_time(s)
    assert t["phase"] == "over" and E.result(t).ranks == [2, 1]


def test_finish_plays_out_with_a_bot():
    s = E.call_time(E.new_game(4, 3))
    s = E.finish(s, RandomBot(1))
    assert E.is_over(s)


# -- views ------------------------------------------------------------------------


def test_a_player_sees_only_his_own_top_card_and_all_pile_sizes():
    """Each player sees only the top card of his own pile; everyone sees the
    pile sizes. Cards shown in a trick are public in last_trick."""
    s = E.new_game(3, 11)
    v = E.view(s, 0)
    assert v["hand"] == [s["piles"][0][0]]
    assert v["top"]["id"] == s["piles"][0][0]
    assert set(v["top"]["values"]) == {
        "distance",
        "first_contact",
        "first_mention",
        "planets",
        "gravity",
    }
    assert v["hand_sizes"] == [10, 10, 10] and v["scores"] == [10, 10, 10]
    hidden = E.hidden(s, 0)
    assert s["piles"][0][0] not in hidden
    assert s["piles"][0][1] in hidden
    assert s["piles"][1][0] in hidden
    assert set(s["aside"]) <= hidden
    pub = E.view(s, None)
    assert pub["hand"] == [] and pub["top"] is None
    s = E.apply(s, 0, "announce:planets")
    shown = {c for _p, c in s["last_trick"]["plays"]}
    assert not shown & E.hidden(s, 2)
    assert E.view(s, None)["last_trick"]["plays"] == s["last_trick"]["plays"]


def test_zones_hold_every_card():
    s = E.new_game(6, 2)
    z = E.zones(s)
    assert set(z) == {"hand:0", "hand:1", "hand:2", "hand:3", "hand:4", "hand:5", "pot", "aside"}
    assert sum(len(v) for v in z.values()) == 32


# -- options and decks ------------------------------------------------------------


def good_deck(**changes):
    d = {
        "name": "Mini",
        "attributes": [
            {"key": "a", "label": "A", "direction": "higher", "unit": ""},
            {"key": "y", "label": "Year", "direction": "earlier", "unit": "year"},
        ],
        "cards": [
            {"id": f"M-{i}", "name": f"Mini {i}", "values": {"a": i, "y": f"{2000 + i} AD"}}
            for i in range(6)
        ],
    }
    d.update(changes)
    return d


def test_organiser_deck_is_accepted_and_played():
    """Organisers can import their own deck (any attributes)."""
    s = E.new_game(2, 1, {"deck": good_deck()})
    assert E.legal_actions(s, 0) == ["announce:a", "announce:y"]
    s = E.finish(s, RandomBot(2))
    assert E.is_over(s)
    parsed = parse_deck(good_deck())
    assert parsed["strength"]["M-2"] == [2, -(2002 - 3587)]


@pytest.mark.parametrize(
    ("deck", "message"),
    [
        ("nope", "unknown deck 'nope'"),
        (42, "deck name or a deck object"),
        ({"name": "X", "cards": []}, "'attributes' must be a non-empty list"),
        (
            good_deck(attributes=[{"key": "a", "direction": "bigger"}]),
            "direction 'bigger'; use one of higher, lower, earlier",
        ),
        (
            good_deck(
                attributes=[
                    {"key": "a", "direction": "higher"},
                    {"key": "a", "direction": "lower"},
                ]
            ),
            "attribute key 'a' is used twice",
        ),
        (
            good_deck(cards=[{"id": "M-1", "name": "x", "values": {"a": 1, "y": "1 NGZ"}}] * 2),
            "card id 'M-1' is used twice",
        ),
        (
            good_deck(cards=[{"id": "M-1", "name": "x", "values": {"a": 1, "y": "soon"}}]),
            "'y' value 'soon' is not a year",
        ),
        (
            good_deck(cards=[{"id": "M-1", "name": "x", "values": {"a": "lots", "y": 1}}]),
            "'a' value 'lots' is not a number",
        ),
        (
            good_deck(cards=[{"id": "M-1", "name": "x", "values": {"a": 1}}]),
            "lacks a value for 'y'",
        ),
        (
            good_deck(cards=[{"id": "M-1", "name": "x", "values": {"a": 1, "y": 1, "z": 2}}]),
            "unknown attribute",
        ),
        (
            good_deck(cards=[{"id": "Sol", "name": "Sol", "values": {"a": 1, "y": 1}}]),
            "distinctive ids",
        ),
        (good_deck(cards=[{"name": "x", "values": {}}]), "card #1's id"),
        (good_deck(name=""), "the deck's name"),
        ("a" * 3, "unknown deck"),
    ],
)
def test_bad_decks_raise_clear_deck_errors(deck, message):
    with pytest.raises(DeckError, match=message):
        E.new_game(2, 1, {"deck": deck})


def test_deck_with_fewer_cards_than_players():
    """A deck needs at least one card per player."""
    deck = good_deck()
    deck["cards"] = deck["cards"][:3]
    with pytest.raises(DeckError, match="3 cards, too few for 4 players"):
        E.new_game(4, 1, {"deck": deck})


def test_bad_options_raise_value_errors():
    with pytest.raises(ValueError, match="2 to 6 players"):
        E.new_game(7, 1)
    with pytest.raises(ValueError, match="unknown Quartett option"):
        E.new_game(3, 1, {"colour": "red"})
    with pytest.raises(ValueError, match="every card in play exactly once"):
        E.new_game(3, 1, {"stack": ["Q-A1"]})
    with pytest.raises(ValueError, match="list of card ids"):
        E.new_game(3, 1, {"stack": "Q-A1"})
    with pytest.raises(ValueError, match="list of card ids"):
        E.new_game(3, 1, {"stack": [1, "Q-A1"]})
    with pytest.raises(ValueError, match="plain JSON"):
        E.new_game(3, 1, {"deck": {1, 2}})
    with pytest.raises(ValueError, match="options must be a dict"):
        E.new_game(3, 1, ["deck"])


# -- bots -------------------------------------------------------------------------


def test_smart_bot_announces_its_strongest_attribute():
    s = setup([[{"a": 1, "b": 0, "y": "1 NGZ"}, 9], [{"a": 5, "b": 3, "y": "2000 AD"}, 1]])
    bot = SmartBot(1)
    v = E.view(s, 0)
    # card 0 is weakest on a, equal on b... on y it is beaten by 2000 AD cards
    choice = bot.choose(v, E.legal_actions(s, 0))
    st = v["top"]["standing"]
    assert st[choice.split(":")[1]] == max(st.values())
    assert "smart" in E.bots() and "random" in E.bots()


def _duel(players: int, seed: int) -> int:
    """Smart bot in seat 0 against random bots; returns seat 0's rank."""
    bots = [SmartBot(seed)] + [RandomBot(seed * 10 + i) for i in range(1, players)]
    s = E.new_game(players, seed)
    steps = 0
    while not E.is_over(s):
        if steps == 60:
            s = E.call_time(s)
            steps += 1
            continue
        seat = E.to_act(s)[0]
        s = E.apply(s, seat, bots[seat].choose(E.view(s, seat), E.legal_actions(s, seat)))
        steps += 1
    return E.result(s).ranks[0]


def test_smart_bot_beats_random_bots():
    """The smart bot in seat 0 wins clearly more often than 1/n."""
    games = 120
    wins = sum(_duel(3, seed) == 1 for seed in range(games))
    assert wins > games / 3 * 1.6, wins
