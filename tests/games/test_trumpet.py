"""Trumpet engine: scenario tests for every rule of games/trumpet/RULES.md.

Scenarios fix the first deal with options["stack"]; where a rule needs figures
already on the board or chips already on the scale, the test sets those
plain-JSON state fields ("pos", "scale") directly before playing.
"""

import json

import pytest

from games.base import DeckError, IllegalAction, RandomBot
from games.trumpet import ENGINE as E
from games.trumpet import load_board, trick_winner, validate_board, validate_deck

COLOURS = ["red", "yellow", "green", "blue", "violet", "orange"]
ALL = [c["id"] for c in E.deck(2)]


def stack_for(*hands):
    """A stack dealing ``hands[i]`` (7 ids each) to seat i; the rest is stock."""
    n = len(hands)
    dealt = [hands[i % n][i // n] for i in range(7 * n)]
    return dealt + [c for c in ALL if c not in dealt]


def fill(hand, avoid=()):
    """Pad ``hand`` to 7 cards with low orange/violet cards not used elsewhere."""
    pool = [f"TP-{c}-{v}" for c in ("orange", "violet") for v in range(1, 12)]
    out = list(hand)
    for c in pool:
        if len(out) == 7:
            break
        if c not in out and c not in avoid:
            out.append(c)
    return out


def game(*hands, **opts):
    used = [c for h in hands for c in h]
    full = []
    for h in hands:
        full.append(fill(h, avoid=used + [c for f in full for c in f]))
    return E.new_game(len(hands), 1, {"stack": stack_for(*full), **opts})


def play(s, *cards):
    for cid in cards:
        seat = E.to_act(s)[0]
        s = E.apply(s, seat, "play:" + cid)
    return s


# -- cards and board ------------------------------------------------------------
def test_deck_has_six_colours_of_eleven_and_three_mega_trumps():
    """Cards: 6 colours x values 1-11 (66 cards) and 3 Mega-Trump cards, 69 cards."""
    deck = E.deck(4)
    assert len(deck) == 69 == len({c["id"] for c in deck})
    assert {c["colour"] for c in deck if not c["mega"]} == set(COLOURS)
    assert sum(c["mega"] for c in deck) == 3
    assert sorted({c["value"] for c in deck if not c["mega"]}) == list(range(1, 12))


def test_ruling_board_start_track_hall_crests_final_six():
    """Ruling (board): start 0, track 1-30, Hall after 30, crests 3,7,...,27, final six 25-30."""
    b = load_board("standard")
    assert b["track"] == 30
    assert b["crest_fields"] == [3, 7, 11, 15, 19, 23, 27]
    assert b["final_fields"] == [25, 26, 27, 28, 29, 30]
    s = E.new_game(3, 5)
    assert s["pos"] == [0, 0, 0]  # the start holds any number of figures


def test_board_is_data_another_layout_can_be_configured():
    """The board is data: another layout can be configured."""
    board = {"track": 5, "crest_fields": [2], "final_fields": [4, 5]}
    s = game(["TP-red-9"], ["TP-red-2"], board=board)
    s["pos"] = [5, 0]
    s = play(s, "TP-red-9", "TP-red-2")
    assert s["phase"] == "move"
    s = E.apply(s, 0, "advance")
    assert E.is_over(s) and s["pos"][0] == 6 and E.result(s).ranks == [1, 2]


@pytest.mark.parametrize(
    "board",
    [
        {"track": 0},
        {"track": "30"},
        {"track": 30, "crest_fields": [31]},
        {"track": 30, "crest_fields": [3, 3]},
        {"track": 30, "final_fields": "25-30"},
        [1, 2],
    ],
)
def test_bad_board_option_raises_deck_error(board):
    with pytest.raises(DeckError):
        E.new_game(2, 1, {"board": board})


@pytest.mark.parametrize(
    "deck",
    [
        {"colours": [], "values": [1], "mega_trumps": 0},
        {"colours": ["red", "red"], "values": [1], "mega_trumps": 0},
        {"colours": ["Red!"], "values": [1], "mega_trumps": 0},
        {"colours": ["red"], "values": [0], "mega_trumps": 0},
        {"colours": ["red"], "values": [1], "mega_trumps": -1},
        "nonsense",
    ],
)
def test_bad_deck_data_raises_deck_error(deck):
    with pytest.raises(DeckError):
        validate_deck(deck)


def test_bad_options_give_clear_errors():
    with pytest.raises(DeckError, match="unknown board"):
        E.new_game(2, 1, {"board": "moon"})
    with pytest.raises(DeckError, match="unknown deck"):
        E.new_game(2, 1, {"deck": "nope"})
    with pytest.raises(DeckError, match="simple lowercase name"):
        E.new_game(2, 1, {"board": "../x"})
    with pytest.raises(ValueError, match="unknown Trumpet option"):
        E.new_game(2, 1, {"colour": "red"})
    with pytest.raises(ValueError, match="stack"):
        E.new_game(2, 1, {"stack": ALL[:-1]})
    with pytest.raises(ValueError, match="2 to 6"):
        E.new_game(7, 1)
    assert validate_board({"track": 3})["crest_fields"] == []


# -- trump scale and deal ---------------------------------------------------------
def test_trump_scale_has_six_slots_and_no_trump_at_start():
    """Trump scale: six slots, 1 (lowest) to 5 and the crest slot; at the start no colour is trump."""
    s = E.new_game(4, 3)
    assert s["scale"] == [None] * 6
    assert E.view(s, 0)["scale"] == [None] * 6


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_deal_seven_each_rest_is_stock_player_after_dealer_leads(n):
    """Deal: 7 cards each; the rest is the stock. The player after the dealer leads."""
    s = E.new_game(n, 9)
    z = E.zones(s)
    assert all(len(z[f"hand:{j}"]) == 7 for j in range(n))
    assert len(z["stock"]) == 69 - 7 * n
    assert s["dealer"] == n - 1 and E.to_act(s) == [0]


def test_stack_deals_one_at_a_time_from_seat_zero():
    s = game(["TP-red-1"], ["TP-red-2"], ["TP-red-3"])
    assert s["hands"][0][0] == "TP-red-1"
    assert s["hands"][1][0] == "TP-red-2"
    assert s["hands"][2][0] == "TP-red-3"


def test_deal_rotation_with_full_reshuffle():
    """When every hand is empty, the deal passes to the next seat, all 69 cards are
    reshuffled and 7 dealt again; the player after the new dealer leads."""
    s = E.new_game(3, 4)
    bot = RandomBot(1)
    assert s["dealer"] == 2 and s["deal"] == 1
    while s["deal"] == 1:
        seat = E.to_act(s)[0]
        s = E.apply(s, seat, bot.choose(E.view(s, seat), E.legal_actions(s, seat)))
    assert s["dealer"] == 0
    z = E.zones(s)
    assert z["pile"] == [] and z["table"] == []
    assert all(len(z[f"hand:{j}"]) == 7 for j in range(3))
    assert len(z["stock"]) == 69 - 21
    assert sorted(c for cards in z.values() for c in cards) == sorted(ALL)
    if s["phase"] == "play":
        assert E.to_act(s) == [1]
    assert s["leader"] == 1


def test_deal_rotation_collects_cards_from_pile_into_new_hands():
    """ALL cards are reshuffled: cards played in the last deal can be dealt again."""
    seen = set()
    s = E.new_game(2, 11)
    bot = RandomBot(2)
    played = set()
    while s["deal"] < 4 and not E.is_over(s):
        seat = E.to_act(s)[0]
        a = bot.choose(E.view(s, seat), E.legal_actions(s, seat))
        if a.startswith("play:"):
            played.add(a[5:])
        s = E.apply(s, seat, a)
        seen.update(s["hands"][0])
    assert seen & played


# -- following ----------------------------------------------------------------------
def test_must_follow_led_colour_if_able():
    """Everyone must follow the led colour if able."""
    s = game(["TP-red-5"], ["TP-red-2", "TP-blue-9"])
    s = play(s, "TP-red-5")
    assert "play:TP-blue-9" not in E.legal_actions(s, 1)
    with pytest.raises(IllegalAction, match="you must follow red"):
        E.apply(s, 1, "play:TP-blue-9")
    with pytest.raises(IllegalAction, match="not in your hand"):
        E.apply(s, 1, "play:TP-red-5")


def test_ruling_mega_trump_may_always_be_played():
    """Ruling: a Mega-Trump may always be played (even when holding the led colour)."""
    s = game(["TP-red-5"], ["TP-red-2", "TP-mega-1"])
    s = play(s, "TP-red-5")
    assert "play:TP-mega-1" in E.legal_actions(s, 1)


def test_ruling_mega_trump_led_first_coloured_card_sets_colour():
    """Ruling: when a Mega-Trump is led, the first coloured card after it sets the colour."""
    s = game(["TP-mega-1"], ["TP-green-4", "TP-red-6"], ["TP-red-3", "TP-green-8"])
    s = play(s, "TP-mega-1")
    # nothing to follow yet: any card
    assert {"play:TP-green-4", "play:TP-red-6"} <= set(E.legal_actions(s, 1))
    s = play(s, "TP-green-4")
    assert "play:TP-red-3" not in E.legal_actions(s, 2)
    assert "play:TP-green-8" in E.legal_actions(s, 2)


def test_cannot_follow_plays_any_card():
    """A player who can't follow plays any card."""
    s = game(["TP-red-5"], ["TP-blue-9", "TP-green-1"])
    s = play(s, "TP-red-5")
    assert set(E.legal_actions(s, 1)) == {"play:" + c for c in s["hands"][1]}


def test_penalty_is_paper_only_digital_tables_enforce_following():
    """Penalty: digital tables enforce following, so no penalty move happens."""
    s = game(["TP-red-5"], ["TP-red-2", "TP-blue-9"])
    s = play(s, "TP-red-5")
    with pytest.raises(IllegalAction):
        E.apply(s, 1, "play:TP-blue-9")


# -- winning a trick --------------------------------------------------------------------
def test_two_mega_trumps_the_later_wins():
    """If any Mega-Trump was played, the last one played wins."""
    s = game(["TP-mega-1"], ["TP-red-11"], ["TP-mega-2"])
    s = play(s, "TP-mega-1", "TP-red-11", "TP-mega-2")
    assert s["last_trick"]["winner"] == 2
    assert s["pos"] == [0, 0, 1]
    assert trick_winner([[0, "TP-mega-1"], [1, "TP-mega-2"], [2, "TP-red-1"]], [None] * 6) == 1


def test_mega_trump_beats_highest_trump():
    s = game(["TP-red-11"], ["TP-mega-3"])
    s["scale"] = ["red", None, None, None, None, None]
    s = play(s, "TP-red-11", "TP-mega-3")
    assert s["last_trick"]["winner"] == 1


def test_trump_colour_beats_led_colour():
    """Otherwise a card of a colour on the trump scale wins."""
    s = game(["TP-red-11"], ["TP-blue-1"])
    s["scale"] = ["blue", None, None, None, None, None]
    s = play(s, "TP-red-11", "TP-blue-1")
    assert s["last_trick"]["winner"] == 1


def test_highest_placed_trump_colour_wins_then_highest_value():
    """The card of the highest-placed trump colour wins (highest value within it)."""
    scale = ["red", "blue", None, None, None, None]
    trick = [[0, "TP-red-11"], [1, "TP-blue-2"], [2, "TP-blue-7"], [3, "TP-green-11"]]
    assert trick_winner(trick, scale) == 2
    s = game(["TP-green-3"], ["TP-red-11"], ["TP-blue-2"])
    s["scale"] = scale
    s = play(s, "TP-green-3", "TP-red-11", "TP-blue-2")
    assert s["last_trick"]["winner"] == 2


def test_crest_slot_is_highest():
    """Slots 1 (lowest) .. 5 and the crest slot (highest)."""
    scale = ["red", "yellow", "green", "blue", "violet", "orange"]
    assert trick_winner([[0, "TP-violet-11"], [1, "TP-orange-1"]], scale) == 1


def test_no_trump_highest_card_of_led_colour_wins():
    """Otherwise the highest card of the led colour (off-colour cards lose)."""
    s = game(["TP-red-5"], ["TP-blue-11"], ["TP-red-7"])
    s = play(s, "TP-red-5", "TP-blue-11", "TP-red-7")
    assert s["last_trick"]["winner"] == 2
    assert E.to_act(s) == [2]  # the trick's winner leads the next


# -- moving ---------------------------------------------------------------------------
def test_winner_moves_to_next_field_and_leads():
    """The winner moves his figure to the next unoccupied field ahead; he leads next."""
    s = game(["TP-red-5"], ["TP-red-7"])
    s = play(s, "TP-red-5", "TP-red-7")
    assert s["pos"] == [0, 1] and E.to_act(s) == [1]


def test_occupied_fields_are_skipped():
    """One figure per field; occupied fields are skipped."""
    s = game(["TP-red-5"], ["TP-red-7"], ["TP-red-1"])
    s["pos"] = [5, 4, 6]
    s = play(s, "TP-red-5", "TP-red-7", "TP-red-1")
    assert s["pos"] == [5, 7, 6]


def test_moving_past_field_30_enters_great_hall_and_wins_at_once():
    """Moving past field 30 enters the Great Hall and wins the game at once."""
    s = game(["TP-red-1", "TP-red-2"], ["TP-red-7", "TP-red-3"], ["TP-red-9", "TP-red-4"])
    s["pos"] = [24, 29, 30]
    s["board"] = {**s["board"], "final_fields": []}  # no final-six choice here
    s = play(s, "TP-red-1", "TP-red-7", "TP-red-9")
    assert E.is_over(s) and s["winner"] == 2 and s["pos"] == [24, 29, 31]
    assert E.to_act(s) == [] and len(s["hands"][0]) == 6


def test_great_hall_skipping_occupied_last_fields():
    """Occupied fields are skipped, so past 30 means the Hall even from 28."""
    s = game(["TP-red-9"], ["TP-red-7"], ["TP-red-1"])
    s["pos"] = [28, 29, 30]
    s = play(s, "TP-red-9", "TP-red-7", "TP-red-1")
    assert E.legal_actions(s, 0)[0] == "advance"
    s = E.apply(s, 0, "advance")
    assert E.is_over(s) and s["pos"][0] == 31 and s["winner"] == 0
    res = E.result(s)
    assert res.ranks == [1, 3, 2] and res.figures == [31, 29, 30]
    assert res.details["rank_keys"] == [[31], [29], [30]]


def test_final_six_back_move_to_nearest_unoccupied_field():
    """Final six: a winner on fields 25-30 may instead move any figure on 25-30 back
    to the nearest unoccupied field behind it."""
    s = game(["TP-red-9"], ["TP-red-7"], ["TP-red-1"])
    s["pos"] = [26, 29, 28]
    s = play(s, "TP-red-9", "TP-red-7", "TP-red-1")
    assert set(E.legal_actions(s, 0)) == {"advance", "back:0", "back:1", "back:2"}
    s = E.apply(s, 0, "back:1")
    assert s["pos"] == [26, 27, 28]
    assert s["phase"] == "choose" and E.to_act(s) == [0]  # 27 is a crest field


def test_final_six_back_move_skips_occupied_fields():
    s = game(["TP-red-9"], ["TP-red-7"], ["TP-red-1"])
    s["pos"] = [25, 24, 26]
    s = play(s, "TP-red-9", "TP-red-7", "TP-red-1")
    s = E.apply(s, 0, "back:2")
    assert s["pos"] == [25, 24, 23]
    assert s["phase"] == "choose"  # 23 is a crest field


def test_final_six_only_figures_on_final_fields_can_be_moved_back():
    s = game(["TP-red-9"], ["TP-red-7"])
    s["pos"] = [25, 20]
    s = play(s, "TP-red-9", "TP-red-7")
    assert E.legal_actions(s, 0) == ["advance", "back:0"]
    with pytest.raises(IllegalAction, match="final fields"):
        E.apply(s, 0, "back:1")


def test_final_six_winner_may_advance_instead():
    s = game(["TP-red-9"], ["TP-red-7"])
    s["pos"] = [25, 26]
    s = play(s, "TP-red-9", "TP-red-7")
    s = E.apply(s, 0, "advance")
    assert s["pos"] == [27, 26] and s["phase"] == "choose"


def test_winner_not_in_final_six_has_no_back_move():
    s = game(["TP-red-9"], ["TP-red-7"])
    s["pos"] = [20, 26]
    s = play(s, "TP-red-9", "TP-red-7")
    assert s["pos"] == [21, 26] and s["phase"] == "play"


# -- crest fields ---------------------------------------------------------------------
def test_crest_chip_placed_on_lowest_free_slot():
    """Landing on a crest field moving forward lets the owner lay an unused chip on
    the lowest free slot."""
    s = game(["TP-red-9", "TP-red-8"], ["TP-red-7", "TP-red-6"])
    s["pos"] = [2, 0]
    s = play(s, "TP-red-9", "TP-red-7")
    assert s["pos"] == [3, 0] and s["phase"] == "choose" and E.to_act(s) == [0]
    legal = E.legal_actions(s, 0)
    assert set(legal) == {f"chip:{c}" for c in COLOURS} | {"skip"}
    s = E.apply(s, 0, "chip:blue")
    assert s["scale"] == ["blue", None, None, None, None, None]
    assert s["phase"] == "play" and E.to_act(s) == [0]
    s["pos"] = [6, 0]
    s = play(s, "TP-red-8", "TP-red-6")
    assert "chip:blue" not in E.legal_actions(s, 0)
    with pytest.raises(IllegalAction, match="not an unused chip"):
        E.apply(s, 0, "chip:blue")
    s = E.apply(s, 0, "chip:red")
    assert s["scale"] == ["blue", "red", None, None, None, None]


def test_crest_choice_may_be_skipped():
    """(may, not must)"""
    s = game(["TP-red-9"], ["TP-red-7"])
    s["pos"] = [2, 0]
    s = play(s, "TP-red-9", "TP-red-7")
    s = E.apply(s, 0, "skip")
    assert s["scale"] == [None] * 6 and s["phase"] == "play"


def test_crest_swap_when_scale_full():
    """When all six slots are full, he may instead swap two chips."""
    s = game(["TP-red-9"], ["TP-red-7"])
    s["pos"] = [2, 0]
    s["scale"] = list(COLOURS)
    s = play(s, "TP-red-9", "TP-red-7")
    legal = E.legal_actions(s, 0)
    assert "skip" in legal and not any(a.startswith("chip:") for a in legal)
    assert len([a for a in legal if a.startswith("swap:")]) == 15
    s = E.apply(s, 0, "swap:red:orange")
    assert s["scale"] == ["orange", "yellow", "green", "blue", "violet", "red"]


def test_swap_not_allowed_while_slots_free():
    s = game(["TP-red-9"], ["TP-red-7"])
    s["pos"] = [2, 0]
    s = play(s, "TP-red-9", "TP-red-7")
    with pytest.raises(IllegalAction, match="only when all slots"):
        E.apply(s, 0, "swap:red:blue")


def test_ruling_figure_moved_back_onto_crest_mover_makes_choice():
    """Ruling: a figure moved back onto a crest field: the player who moved it chooses."""
    s = game(["TP-red-9"], ["TP-red-7"], ["TP-red-1"])
    s["pos"] = [25, 28, 0]
    s = play(s, "TP-red-9", "TP-red-7", "TP-red-1")
    s = E.apply(s, 0, "back:1")
    assert s["pos"][1] == 27
    assert s["phase"] == "choose" and E.to_act(s) == [0]
    s = E.apply(s, 0, "chip:red")
    assert s["scale"][0] == "red"


def test_back_move_onto_crest_the_choice_is_compulsory():
    """Seed: "so muß er die Auswirkungen dieses Feldes ausschöpfen": after a back
    move onto a crest field there is no skip; a chip must be laid."""
    s = game(["TP-red-9"], ["TP-red-7"], ["TP-red-1"])
    s["pos"] = [25, 28, 0]
    s = play(s, "TP-red-9", "TP-red-7", "TP-red-1")
    s = E.apply(s, 0, "back:1")
    assert s["pos"][1] == 27 and s["phase"] == "choose"
    assert set(E.legal_actions(s, 0)) == {f"chip:{c}" for c in COLOURS}
    assert E.view(s, 0)["choice_compulsory"] is True
    with pytest.raises(IllegalAction, match="compulsory"):
        E.apply(s, 0, "skip")
    s = E.apply(s, 0, "chip:violet")
    assert s["scale"][0] == "violet" and s["phase"] == "play"
    assert E.view(s, 0)["choice_compulsory"] is False


def test_back_move_onto_crest_with_full_scale_must_swap():
    """With all six slots full, the compulsory choice is a swap of two chips."""
    s = game(["TP-red-9"], ["TP-red-7"], ["TP-red-1"])
    s["pos"] = [25, 24, 0]
    s["scale"] = list(COLOURS)
    s = play(s, "TP-red-9", "TP-red-7", "TP-red-1")
    s = E.apply(s, 0, "back:0")  # own figure back: 24 is taken by seat 1 -> 23
    assert s["pos"][0] == 23 and s["phase"] == "choose" and E.to_act(s) == [0]
    legal = E.legal_actions(s, 0)
    assert "skip" not in legal and len(legal) == 15
    assert all(a.startswith("swap:") for a in legal)
    s = E.apply(s, 0, "swap:yellow:blue")
    assert s["scale"] == ["red", "blue", "green", "yellow", "violet", "orange"]


def test_forward_move_onto_crest_keeps_skip_after_a_compulsory_choice():
    """ "darf" for a forward move: skip stays; a compulsory choice doesn't carry over."""
    s = game(["TP-red-9", "TP-red-8"], ["TP-red-7", "TP-red-6"], ["TP-red-1", "TP-mega-1"])
    s["pos"] = [25, 28, 2]
    s = play(s, "TP-red-9", "TP-red-7", "TP-red-1")
    s = E.apply(s, 0, "back:1")
    s = E.apply(s, 0, "chip:red")
    # seat 0 leads again; seat 2 wins the next trick with a Mega-Trump and
    # moves forward from 2 onto crest field 3
    s = play(s, "TP-red-8", "TP-red-6", "TP-mega-1")
    assert s["pos"][2] == 3 and E.to_act(s) == [2]
    assert "skip" in E.legal_actions(s, 2)
    assert E.view(s, 2)["choice_compulsory"] is False


def test_compulsory_choice_deferred_to_next_deal_stays_compulsory():
    """With an empty hand the mover may choose after the next deal, but must."""
    a = ["TP-red-11", "TP-red-10", "TP-red-9", "TP-red-8", "TP-red-7", "TP-red-6", "TP-red-5"]
    b = ["TP-blue-1", "TP-blue-2", "TP-blue-3", "TP-blue-4", "TP-blue-5", "TP-blue-6", "TP-blue-7"]
    s = game(a, b)
    for i in range(6):
        s["pos"] = [0, 0]
        s = play(s, a[i], b[i])
        assert s["pos"] == [1, 0] and s["phase"] == "play"
    s["pos"] = [25, 28]
    s = play(s, a[6], b[6])
    s = E.apply(s, 0, "back:1")
    assert s["pos"][1] == 27 and s["phase"] == "choose"
    assert set(E.legal_actions(s, 0)) == {f"chip:{c}" for c in COLOURS} | {"later"}
    s = E.apply(s, 0, "later")
    assert s["deal"] == 2 and s["phase"] == "choose" and E.to_act(s) == [0]
    assert set(E.legal_actions(s, 0)) == {f"chip:{c}" for c in COLOURS}
    s = E.apply(s, 0, "chip:green")
    assert s["scale"][0] == "green" and s["phase"] == "play"


def test_smart_bot_makes_the_compulsory_choice():
    s = game(["TP-red-9"], ["TP-red-7"], ["TP-red-1"])
    s["pos"] = [25, 24, 0]
    s["scale"] = list(COLOURS)
    s = play(s, "TP-red-9", "TP-red-7", "TP-red-1")
    s = E.apply(s, 0, "back:0")
    bot = E.bots()["smart"](1)
    action = bot.choose(E.view(s, 0), E.legal_actions(s, 0))
    assert action.startswith("swap:") and "orange" not in action
    E.apply(s, 0, action)


def test_empty_hand_may_choose_after_next_deal():
    """A player with no cards in hand may make his choice after the next deal."""
    a = ["TP-red-1", "TP-red-2", "TP-red-3", "TP-red-4", "TP-red-5", "TP-red-6", "TP-red-11"]
    b = ["TP-blue-1", "TP-blue-2", "TP-blue-3", "TP-blue-4", "TP-blue-5", "TP-blue-6", "TP-blue-7"]
    s = game(a, b)
    s["pos"] = [0, 0]
    for i in range(6):
        s = play(s, a[i], b[i])
        if s["phase"] == "choose":  # crest field 3
            assert "later" not in E.legal_actions(s, 0)
            s = E.apply(s, 0, "skip")
    assert s["pos"][0] == 6
    s = play(s, a[6], b[6])
    assert s["pos"][0] == 7 and s["phase"] == "choose"
    assert "later" in E.legal_actions(s, 0)
    s = E.apply(s, 0, "later")
    # new deal: seat 0 deals now, seat 1 leads, but seat 0's choice comes first
    assert s["deal"] == 2 and s["dealer"] == 0
    assert s["phase"] == "choose" and E.to_act(s) == [0]
    assert len(s["hands"][0]) == 7
    assert "later" not in E.legal_actions(s, 0)
    s = E.apply(s, 0, "chip:green")
    assert s["scale"][0] == "green" and s["pending"] is None
    assert s["phase"] == "play" and E.to_act(s) == [1]


def test_later_not_offered_with_cards_in_hand():
    s = game(["TP-red-9"], ["TP-red-7"])
    s["pos"] = [2, 0]
    s = play(s, "TP-red-9", "TP-red-7")
    assert "later" not in E.legal_actions(s, 0)
    with pytest.raises(IllegalAction, match="empty"):
        E.apply(s, 0, "later")


# -- time called ----------------------------------------------------------------------
def test_time_called_finishes_trick_in_progress():
    """Time called: the trick in progress is finished; rank by board position."""
    s = game(["TP-red-5"], ["TP-red-7"], ["TP-red-1"])
    s["pos"] = [3, 8, 2]
    s = play(s, "TP-red-5")
    s = E.call_time(s)
    assert not E.is_over(s)
    s = play(s, "TP-red-7", "TP-red-1")
    assert E.is_over(s) and s["pos"] == [3, 9, 2]
    res = E.result(s)
    assert res.ranks == [2, 1, 3] and res.details["rank_keys"] == [[3], [9], [2]]


def test_time_called_with_no_trick_in_progress_ends_at_once():
    s = E.new_game(3, 2)
    s = E.call_time(s)
    assert E.is_over(s) and E.to_act(s) == []
    assert E.result(s).ranks == [1, 1, 1]


def test_time_called_winner_still_makes_final_six_move_crest_choice_dropped():
    s = game(["TP-red-9"], ["TP-red-7"])
    s["pos"] = [25, 28]
    s = play(s, "TP-red-9")
    s = E.call_time(s)
    s = play(s, "TP-red-7")
    assert s["phase"] == "move"
    s = E.apply(s, 0, "back:1")
    assert E.is_over(s) and s["pos"] == [25, 27]  # 27 is a crest: choice dropped


def test_great_hall_ranks_first():
    """Rank by board position, the Great Hall first, then the furthest field."""
    s = game(["TP-red-9"], ["TP-red-7"])
    s["pos"] = [30, 29]
    s["board"] = {**s["board"], "final_fields": []}
    s = play(s, "TP-red-9", "TP-red-7")
    assert E.is_over(s) and E.result(s).ranks == [1, 2]


# -- interface --------------------------------------------------------------------------
def test_state_round_trips_and_view_hides_other_hands():
    s = E.new_game(4, 7)
    assert E.load(json.loads(json.dumps(E.dump(s)))) == s
    v = E.view(s, 1)
    assert v["hand"] == s["hands"][1]
    assert not set(s["hands"][0]) & set(json.dumps(v).split('"'))
    assert E.view(s, None)["hand"] == []


def test_apply_is_pure_and_explains():
    s = E.new_game(2, 3)
    before = json.dumps(s, sort_keys=True)
    E.apply(s, 0, E.legal_actions(s, 0)[0])
    assert json.dumps(s, sort_keys=True) == before
    with pytest.raises(IllegalAction, match="not to act"):
        E.apply(s, 1, E.legal_actions(s, 0)[0])
    with pytest.raises(IllegalAction, match="play a card"):
        E.apply(s, 0, "skip")


def test_finish_plays_out_with_a_bot():
    s = E.new_game(3, 5)
    s = E.finish(s, RandomBot(3))
    assert E.is_over(s)
    assert s["winner"] is not None and s["pos"][s["winner"]] == 31


def test_smart_bot_beats_random_bots():
    """Smart bot in seat 0 against random bots wins clearly more than 1/n."""
    smart = E.bots()["smart"]
    n, games, wins = 3, 40, 0
    for g in range(games):
        s = E.new_game(n, 1000 + g)
        bots = [smart(g)] + [RandomBot(g * 7 + i) for i in range(1, n)]
        while not E.is_over(s):
            seat = E.to_act(s)[0]
            s = E.apply(s, seat, bots[seat].choose(E.view(s, seat), E.legal_actions(s, seat)))
        wins += E.result(s).ranks[0] == 1
    assert wins / games > 0.6


def test_smart_bot_uses_back_move_on_leader_and_chips_it_holds():
    bot = E.bots()["smart"](0)
    view = {
        "seat": 0,
        "scores": [26, 29, 10],
        "board": load_board("standard"),
        "hand": ["TP-blue-9", "TP-blue-8", "TP-red-2"],
        "scale": [None] * 6,
    }
    assert bot.choose(view, ["advance", "back:0", "back:1"]) == "back:1"
    view["scores"] = [29, 26, 10]
    assert bot.choose(view, ["advance", "back:0", "back:1"]) == "advance"
    chips = [f"chip:{c}" for c in COLOURS] + ["skip"]
    assert bot.choose(view, chips) == "chip:blue"
