"""Monddämmerung engine: one scenario per rule of games/monddaemmerung/RULES.md (and per
added ruling), built with options["stack"]; deck file and option errors; bots."""

import json

import pytest

from games import get_engine
from games.base import DeckError, IllegalAction, RandomBot
from games.monddaemmerung import SmartBot, load_deck, parse_deck
from games.monddaemmerung.deck import DECK_DIR

E = get_engine("monddaemmerung")
DECK = load_deck("standard")
ONE = DECK.one
ALL = DECK.ids()
# harmless filler: one colour, no moon, high numbers first
FILLER = sorted(
    (c for c in DECK.cards.values() if len(c.colours) == 1 and c.moon is None),
    key=lambda c: (-c.number, c.id),
)


def make_stack(n, hands, stock=()):
    """A complete stack dealing ``hands[seat]`` (padded to 7 with filler) and
    putting ``stock`` on top of the draw pile; the One goes to the pile's bottom
    unless placed."""
    used = {c for h in hands for c in h} | set(stock)
    free = [c.id for c in FILLER if c.id not in used]
    hands = [list(h) for h in hands] + [[] for _ in range(n - len(hands))]
    for h in hands:
        while len(h) < 7:
            h.append(free.pop(0))
    stack = [hands[seat][i] for i in range(7) for seat in range(n)]
    rest = [c for c in ALL if c not in stack and c not in stock and c != ONE]
    stack += list(stock) + rest
    if ONE not in stack:
        stack.append(ONE)
    return stack


def new(n, hands, stock=(), seed=1):
    return E.new_game(n, seed, {"stack": make_stack(n, hands, stock)})


def shrink(s, seat, keep):
    """Test setup: seat ``seat`` keeps only ``keep``; his other cards leave the
    game (zone "removed"), so cards stay conserved."""
    s = E.copy(s)
    gone = [c for c in s["hands"][seat] if c not in keep]
    for c in keep:
        if c not in s["hands"][seat]:
            for h in s["hands"]:
                if c in h:
                    h.remove(c)
            if c in s["stock"]:
                s["stock"].remove(c)
    s["hands"][seat] = list(keep)
    s["removed"] += gone
    return s


def run(s, *steps):
    for seat, action in steps:
        s = E.apply(s, seat, action)
    return s


def conserved(s):
    held = sorted(c for z in E.zones(s).values() for c in z)
    return held == sorted(ALL)


# -- deck -------------------------------------------------------------------------


def test_deck_ruling_64_cards_every_colour_1_to_18_nine_two_coloured():
    """Ruling (deck): 9 of the 63 numbered cards carry two colours: every colour
    then has exactly the numbers 1-18; a two-coloured card has one number that
    counts in both colours."""
    assert len(ALL) == 64 and len(set(ALL)) == 64
    assert len(DECK.cards) == 63
    assert sum(len(c.colours) == 2 for c in DECK.cards.values()) == 9
    for col in ("yellow", "red", "green", "blue"):
        nums = sorted(c.number for c in DECK.cards.values() if col in c.colours)
        assert nums == list(range(1, 19))
    assert len(E.deck(3)) == 64


def test_deck_ruling_each_moon_on_two_numbered_cards():
    """Ruling: each of the six moons is on 2 numbered cards."""
    for moon in ("full", "empty", "half", "sickle", "blood", "eclipse"):
        assert sum(c.moon == moon for c in DECK.cards.values()) == 2


def _deck_data():
    return json.loads((DECK_DIR / "standard.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d["cards"].pop(), "lacks the number"),
        (lambda d: d["cards"][0].update(number=2), "on two cards"),
        (lambda d: d["cards"][0].update(colours=["purple"]), "colours"),
        (lambda d: d["cards"][1].update(id=d["cards"][0]["id"]), "used twice"),
        (lambda d: d["cards"][0].update(moon="full"), "full moon is on 3 cards"),
        (lambda d: d["cards"][0].update(moon="harvest"), "unknown moon"),
        (lambda d: d.update(format="other"), "format"),
        (lambda d: d["cards"][0].update(number=19), "'number' must be 1 to 18"),
        (lambda d: d.update(one={}), "the One"),
    ],
)
def test_bad_deck_data_raises_deck_error(mutate, message):
    """The deck is data (a file) and validated on load: the colour/number property."""
    data = _deck_data()
    mutate(data)
    with pytest.raises(DeckError, match=message):
        parse_deck(data)


def test_bad_options_give_clear_errors():
    with pytest.raises(ValueError, match="unknown Monddämmerung deck"):
        E.new_game(3, 1, {"deck": "nosuch"})
    with pytest.raises(ValueError, match="deck name"):
        E.new_game(3, 1, {"deck": "../etc"})
    with pytest.raises(ValueError, match="unknown Monddämmerung option"):
        E.new_game(3, 1, {"colour": "red"})
    with pytest.raises(ValueError, match="3 to 5 players"):
        E.new_game(2, 1)
    with pytest.raises(ValueError, match="stack must list every card"):
        E.new_game(3, 1, {"stack": ALL[:-1]})
    with pytest.raises(ValueError, match="list of card ids"):
        E.new_game(3, 1, {"stack": [1, 2, 3]})
    assert E.options_schema()[0]["name"] == "deck"


# -- deal and rounds ------------------------------------------------------------------


def test_deal_seven_each_rest_is_draw_pile():
    """Deal 7 each; the rest is the draw pile (stack dealt one at a time from seat 0)."""
    stack = make_stack(4, [])
    s = E.new_game(4, 1, {"stack": stack})
    for seat in range(4):
        assert s["hands"][seat] == stack[seat:28:4]
    assert s["stock"] == stack[28:]
    assert E.to_act(s) == [0]
    assert conserved(s)


def test_round_everyone_plays_two_cards_twice_round():
    """A round: the starter plays a card, then each player in turn, twice round."""
    s = new(3, [["MD-R05", "MD-R10"], ["MD-G16", "MD-B16"], ["MD-G18", "MD-B18"]])
    s = run(s, (0, "play:MD-R05"), (0, "nodraw"))
    order = []
    for _ in range(5):
        seat = E.to_act(s)[0]
        order.append(seat)
        s = E.apply(s, seat, E.legal_actions(s, seat)[0])
        if E.legal_actions(s, seat) == ["draw", "nodraw"] and E.to_act(s) == [seat]:
            s = E.apply(s, seat, "nodraw")
    assert order == [1, 2, 0, 1, 2]
    assert len(s["last_trick"]["plays"]) == 6
    assert s["round"] == 2


def test_first_card_colour_is_trump_and_lowest_trump_wins_everything():
    """The first card's colour is trump; the lowest number among the trump-coloured
    cards wins all played cards into its player's win pile."""
    s = new(3, [["MD-R10", "MD-B01"], ["MD-R05", "MD-Y01"], ["MD-R12", "MD-G01"]])
    s = run(s, (0, "play:MD-R10"), (0, "nodraw"))
    assert E.trump(s) == "red"
    s = run(s, (1, "play:MD-Y01"), (2, "play:MD-G01"), (0, "play:MD-B01"))
    s = run(s, (1, "play:MD-R05"), (1, "nodraw"), (2, "play:MD-R12"), (2, "nodraw"))
    # the 1s of other colours do not count: red 5 is the lowest red
    assert s["last_trick"]["winner"] == 1
    assert sorted(s["won"][1]) == sorted(
        ["MD-R10", "MD-Y01", "MD-G01", "MD-B01", "MD-R05", "MD-R12"]
    )
    assert E.view(s, None)["scores"] == [0, 6, 0]


def test_two_coloured_first_card_its_player_chooses_trump():
    """If the first card has two colours, its player chooses which is trump."""
    s = new(3, [["MD-YR04"], ["MD-R05"], ["MD-Y03"]])
    s = E.apply(s, 0, "play:MD-YR04")
    assert E.to_act(s) == [0]
    assert E.legal_actions(s, 0) == ["trump:yellow", "trump:red"]
    with pytest.raises(IllegalAction, match="not a colour"):
        E.apply(s, 0, "trump:blue")
    red = E.apply(s, 0, "trump:red")
    assert E.trump(red) == "red"
    yellow = E.apply(s, 0, "trump:yellow")
    assert E.trump(yellow) == "yellow"
    # the first card is trump either way, so its player may draw
    assert E.legal_actions(red, 0) == ["draw", "nodraw"]


def test_two_coloured_card_is_trump_if_either_colour_is():
    """A two-coloured card is trump if either colour is (here it wins as red)."""
    s = new(3, [["MD-R10"], ["MD-YR04"], ["MD-R05"]])
    s = run(s, (0, "play:MD-R10"), (0, "nodraw"), (1, "play:MD-YR04"))
    assert E.legal_actions(s, 1) == ["draw", "nodraw"]  # it is a red card: may draw
    s = run(s, (1, "nodraw"), (2, "play:MD-R05"), (2, "nodraw"))
    assert E.round_winners(s) == [1]


def test_any_card_may_be_played_but_never_the_one():
    """Any card may be played (no following); the One is never played."""
    s = new(3, [["MD-R10", "MD-G12", ONE], ["MD-B12", "MD-Y12"], ["MD-G18"]])
    s = run(s, (0, "play:MD-R10"), (0, "nodraw"))
    legal1 = E.legal_actions(s, 1)
    assert "play:MD-B12" in legal1 and "play:MD-Y12" in legal1
    s = run(s, (1, "play:MD-B12"), (2, "play:MD-G18"))
    assert f"play:{ONE}" not in E.legal_actions(s, 0)
    with pytest.raises(IllegalAction, match="the One is never played"):
        E.apply(s, 0, f"play:{ONE}")
    with pytest.raises(IllegalAction, match="not in your hand"):
        E.apply(s, 0, "play:MD-Y12")
    with pytest.raises(IllegalAction, match="only when it is your only card"):
        E.apply(s, 0, "lay")


def test_playing_trump_may_draw_while_the_pile_lasts():
    """A player who plays a card of the current trump colour may draw one card
    from the draw pile (while it lasts); other cards draw nothing."""
    s = new(3, [["MD-R10"], ["MD-R12", "MD-B12"]], stock=["MD-Y15", "MD-Y14"])
    s = E.apply(s, 0, "play:MD-R10")
    assert E.legal_actions(s, 0) == ["draw", "nodraw"]
    drew = E.apply(s, 0, "draw")
    assert "MD-Y15" in drew["hands"][0] and len(drew["hands"][0]) == 7
    assert drew["stock"][0] == "MD-Y14"
    kept = E.apply(s, 0, "nodraw")
    assert len(kept["hands"][0]) == 6 and E.to_act(kept) == [1]
    off = E.apply(kept, 1, "play:MD-B12")  # not trump: no draw choice
    assert E.to_act(off) == [2]
    # an empty pile offers no draw
    empty = E.copy(kept)
    empty["removed"] += empty["stock"]
    empty["stock"] = []
    on = E.apply(empty, 1, "play:MD-R12")
    assert E.to_act(on) == [2]
    with pytest.raises(IllegalAction):
        E.apply(on, 2, "draw")


def test_no_trump_left_every_colour_counts():
    """If no trump-coloured card is left on the table, every colour counts as trump."""
    s = new(3, [["MD-Y11", "MD-G14"], ["MD-G15", "MD-B11"], ["MD-R06", "MD-B12"]])
    s = run(s, (0, "play:MD-Y11"), (0, "nodraw"), (1, "play:MD-G15"), (1, "remove:MD-Y11"))
    s = run(s, (2, "play:MD-R06"), (0, "play:MD-G14"), (1, "play:MD-B11"))
    s = run(s, (2, "play:MD-B12"))
    assert s["last_trick"]["winner"] == 2  # red 6 is the lowest of all colours
    assert s["removed"][-1] == "MD-Y11"


def test_shared_win_odd_card_stays_for_next_rounds_winner():
    """Two equally strong cards: the players share the won cards evenly; Ruling:
    an odd card left over stays on the table for the next round's winner."""
    hands = [
        ["MD-Y11", "MD-G08", "MD-Y18"],
        ["MD-G15", "MD-B11", "MD-Y01"],
        ["MD-R08", "MD-B12", "MD-Y16"],
    ]
    s = new(3, hands)
    s = run(s, (0, "play:MD-Y11"), (0, "nodraw"), (1, "play:MD-G15"), (1, "remove:MD-Y11"))
    s = run(s, (2, "play:MD-R08"), (0, "play:MD-G08"), (1, "play:MD-B11"), (2, "play:MD-B12"))
    # no yellow left: every colour counts; red 8 (seat 2) and green 8 (seat 0) tie
    assert s["last_trick"]["winners"] == [0, 2]
    assert sorted(s["won"][0]) == ["MD-G08", "MD-G15"]
    assert sorted(s["won"][2]) == ["MD-B11", "MD-R08"]
    assert s["carry"] == ["MD-B12"]
    assert E.zones(s)["table"] == ["MD-B12"]
    # the next round (started by seat 1) gives the odd card to its winner
    assert E.to_act(s) == [1]
    s = run(s, (1, "play:MD-Y01"), (1, "nodraw"), (2, "play:MD-Y16"), (2, "target:0"))
    s = E.apply(s, 2, "nodraw")
    while s["round"] == 2:
        seat = E.to_act(s)[0]
        legal = E.legal_actions(s, seat)
        s = E.apply(s, seat, "nodraw" if "nodraw" in legal else legal[0])
    assert s["last_trick"]["winner"] == 1
    assert "MD-B12" in s["won"][1] and s["carry"] == []


def test_next_round_starts_with_player_after_previous_starter():
    """The next round starts with the player after the previous round's starter
    (not the winner)."""
    s = new(3, [["MD-R10", "MD-R12"], ["MD-R01", "MD-R14"], ["MD-G16", "MD-G18"]])
    s = run(s, (0, "play:MD-R10"), (0, "nodraw"), (1, "play:MD-R01"), (1, "nodraw"))
    s = run(s, (2, "play:MD-G16"), (0, "play:MD-R12"), (0, "nodraw"), (1, "play:MD-R14"))
    s = run(s, (1, "nodraw"), (2, "play:MD-G18"))
    # seat 1 played a sickle moon: highest red wins (14, seat 1)
    assert s["last_trick"]["winner"] == 1
    assert s["starter"] == 1 and E.to_act(s) == [1]


def test_player_out_of_cards_in_second_lap_plays_no_second_card():
    """A player with no cards is out; Ruling: a player who runs out during the
    round's second lap simply plays no second card."""
    s = new(3, [["MD-R10", "MD-R12"], ["MD-G16"], ["MD-G18", "MD-B18"]])
    s = shrink(s, 1, ["MD-G16"])
    s = run(s, (0, "play:MD-R10"), (0, "nodraw"), (1, "play:MD-G16"))
    assert s["out"] == [1]
    s = run(s, (2, "play:MD-G18"), (0, "play:MD-R12"), (0, "nodraw"))
    assert E.to_act(s) == [2]  # seat 1 is skipped
    s = E.apply(s, 2, "play:MD-B18")
    assert s["round"] == 2 and s["last_trick"]["winner"] == 0
    assert E.to_act(s) == [2]  # seat 1 would start, but is out


def test_empty_moon_taking_the_last_card_puts_the_victim_out_this_lap():
    """Ruling (added): going out is checked for every player when a turn is
    resolved; the victim of an empty moon plays no second card."""
    s = new(3, [["MD-R10", "MD-R07"], ["MD-G16", "MD-G14"], ["MD-G18", "MD-B18"]])
    s = shrink(s, 1, ["MD-G16", "MD-G14"])
    s = run(s, (0, "play:MD-R10"), (0, "nodraw"), (1, "play:MD-G16"), (2, "play:MD-G18"))
    s = run(s, (0, "play:MD-R07"), (0, "target:1"))
    assert E.view(s, 0)["peek"] == ["MD-G14"]
    assert "MD-G14" not in E.hidden(s, 0)
    assert "peek" not in E.view(s, 2)
    s = run(s, (0, "take:MD-G14"), (0, "nodraw"))
    assert s["out"] == [1]
    assert E.to_act(s) == [2]


def test_game_ends_when_only_one_player_is_left():
    """The game ends when only one player is left in; Ruling (added): the round
    in progress is scored at once."""
    s = new(3, [["MD-R10", "MD-R12"], ["MD-R05"], ["MD-G18"]])
    s = shrink(shrink(s, 1, ["MD-R05"]), 2, ["MD-G18"])
    s = run(s, (0, "play:MD-R10"), (0, "nodraw"), (1, "play:MD-R05"), (1, "nodraw"))
    assert s["out"] == [1] and not E.is_over(s)
    s = E.apply(s, 2, "play:MD-G18")
    assert E.is_over(s) and E.to_act(s) == []
    assert s["out"] == [1, 2]
    assert sorted(s["won"][1]) == ["MD-G18", "MD-R05", "MD-R10"]
    res = E.result(s)
    assert res.figures == [0, 3, 0] and res.ranks == [2, 1, 2]


def test_the_one_laid_counts_as_a_card_plus_five_and_player_is_out():
    """The One is never played. A player whose hand is only the One may lay it on
    his win pile: it counts as a card there and scores 5 extra points; he is
    then out."""
    s = new(3, [["MD-R10", "MD-R12"], [ONE], ["MD-G18", "MD-B18"]])
    s = shrink(s, 1, [ONE])
    s = run(s, (0, "play:MD-R10"), (0, "nodraw"))
    assert E.legal_actions(s, 1) == ["lay", "keep"]
    laid = E.apply(s, 1, "lay")
    assert laid["won"][1] == [ONE] and laid["one_laid"] == 1
    assert laid["out"] == [1]
    assert E.view(laid, None)["scores"][1] == 6
    assert E.to_act(laid) == [2]
    # "keep": he may also decline; he plays no card this turn and stays in
    kept = E.apply(s, 1, "keep")
    assert kept["hands"][1] == [ONE] and kept["out"] == [] and E.to_act(kept) == [2]
    with pytest.raises(IllegalAction, match="you do not hold the One"):
        E.apply(run(laid, (2, "play:MD-G18")), 0, "lay")


def test_one_laid_scores_six_and_ties_share_the_rank():
    """Highest score wins: the laid One (1 card + 5) ties with 6 cards and beats 5;
    equal scores share the rank."""
    s = new(3, [["MD-R10"], [ONE], ["MD-G18"]])
    s = shrink(shrink(s, 1, [ONE]), 2, ["MD-G18"])
    s["won"][0], s["won"][2], s["removed"] = s["removed"][:5], s["removed"][5:11], s["removed"][11:]
    s = run(s, (0, "play:MD-R10"), (0, "nodraw"), (1, "lay"))
    assert conserved(s)
    res = E.result(s)
    assert res.figures == [5, 6, 6]
    assert res.ranks == [3, 1, 1]
    assert res.details["one_laid"] == 1 and res.details["out_order"] == [1]


# -- moons ------------------------------------------------------------------------


def test_full_moon_names_new_trump_from_next_card():
    """Full moon: the player names a new trump colour, in force from the next card."""
    s = new(3, [["MD-R10"], ["MD-Y06"], ["MD-B01", "MD-B02"]], stock=["MD-Y18"])
    s = run(s, (0, "play:MD-R10"), (0, "nodraw"), (1, "play:MD-Y06"))
    assert E.legal_actions(s, 1) == ["trump:yellow", "trump:red", "trump:green", "trump:blue"]
    s = E.apply(s, 1, "trump:blue")
    assert E.trump(s) == "blue"
    assert E.to_act(s) == [2]  # the full moon was yellow, not red: no draw
    s = E.apply(s, 2, "play:MD-B02")
    assert E.legal_actions(s, 2) == ["draw", "nodraw"]  # blue is trump now
    assert E.round_winners(s) == [2]


def test_full_moon_undone_when_taken_back_restores_previous_trump():
    """Removing or taking back a full moon undoes its effect: the previous trump
    is restored (here the eclipse takes it back into a hand)."""
    s = new(3, [["MD-R10", "MD-R12"], ["MD-Y06"], ["MD-RB09", "MD-B01"]])
    s = run(s, (0, "play:MD-R10"), (0, "nodraw"), (1, "play:MD-Y06"), (1, "trump:blue"))
    s = run(s, (2, "play:MD-RB09"))
    assert E.legal_actions(s, 2) == ["takeback:MD-R10", "takeback:MD-Y06"]
    s = E.apply(s, 2, "takeback:MD-Y06")
    assert E.trump(s) == "red"
    assert "MD-Y06" in s["hands"][2]
    assert conserved(s)


def test_full_moon_removed_by_blood_moon_restores_previous_trump():
    """Removing a full moon (blood moon) undoes it: trump is red again."""
    s = new(3, [["MD-R10"], ["MD-Y06"], ["MD-Y10"]])
    s = run(s, (0, "play:MD-R10"), (0, "nodraw"), (1, "play:MD-Y06"), (1, "trump:green"))
    s = run(s, (2, "play:MD-Y10"), (2, "remove:MD-Y06"))
    assert E.trump(s) == "red" and s["removed"][-1] == "MD-Y06"


def test_empty_moon_look_at_a_hand_and_take_one_card_the_one_included():
    """Empty moon: the player looks at another player's hand and takes one card
    of it (the One included)."""
    s = new(3, [["MD-R07"], ["MD-G16", ONE], ["MD-B18"]])
    s = E.apply(s, 0, "play:MD-R07")
    assert E.legal_actions(s, 0) == ["target:1", "target:2"]
    with pytest.raises(IllegalAction, match="another player"):
        E.apply(s, 0, "target:0")
    s = E.apply(s, 0, "target:1")
    assert sorted(E.view(s, 0)["peek"]) == sorted(s["hands"][1])
    assert f"take:{ONE}" in E.legal_actions(s, 0)
    s = E.apply(s, 0, f"take:{ONE}")
    assert ONE in s["hands"][0] and ONE not in s["hands"][1]
    assert E.legal_actions(s, 0) == ["draw", "nodraw"]


def test_half_moon_shuffles_both_hands_and_deals_alternately_starting_with_himself():
    """Half moon: the player takes another player's hand, shuffles it with his own
    and deals both hands out alternately, starting with himself."""
    s = new(3, [["MD-Y16"], [], []])
    s = E.apply(s, 0, "play:MD-Y16")
    assert E.legal_actions(s, 0) == ["target:1", "target:2"]  # the moon acts before the draw
    both = sorted(s["hands"][0] + s["hands"][2])
    assert len(s["hands"][0]) == 6 and len(s["hands"][2]) == 7
    s = E.apply(s, 0, "target:2")
    assert sorted(s["hands"][0] + s["hands"][2]) == both
    assert len(s["hands"][0]) == 7 and len(s["hands"][2]) == 6  # 13 cards: he gets the odd one
    assert E.legal_actions(s, 0) == ["draw", "nodraw"]


def test_sickle_moon_turns_to_highest_and_back():
    """Sickle moon: from now on the highest number wins instead of the lowest (or
    the reverse, if a sickle moon already turned it)."""
    s = new(3, [["MD-R10", "MD-R05"], ["MD-R14", "MD-B08"], ["MD-R12", "MD-G18"]])
    s = run(s, (0, "play:MD-R10"), (0, "nodraw"), (1, "play:MD-R14"))
    assert E.high_wins(s)
    s = run(s, (1, "nodraw"), (2, "play:MD-R12"), (2, "nodraw"))
    assert E.round_winners(s) == [1]  # red 14 is the highest red
    s = run(s, (0, "play:MD-R05"), (0, "nodraw"), (1, "play:MD-B08"))
    assert not E.high_wins(s)
    s = E.apply(s, 2, "play:MD-G18")
    assert s["last_trick"]["winner"] == 0  # lowest red again: red 5


def test_sickle_moon_removed_by_blood_moon_restores_lowest_wins():
    """Removing a sickle moon (blood moon) undoes its effect: lowest wins again."""
    hands = [["MD-R05", "MD-R10"], ["MD-R14", "MD-R02"], ["MD-Y10", "MD-G03"]]
    s = new(3, hands)
    s = run(s, (0, "play:MD-R05"), (0, "nodraw"), (1, "play:MD-R14"), (1, "nodraw"))
    assert E.high_wins(s)
    s = E.apply(s, 2, "play:MD-Y10")
    assert E.legal_actions(s, 2) == ["remove:MD-R05", "remove:MD-R14"]
    s = E.apply(s, 2, "remove:MD-R14")
    assert not E.high_wins(s)
    assert s["removed"][-1] == "MD-R14"
    s = run(s, (0, "play:MD-R10"), (0, "nodraw"), (1, "play:MD-R02"), (1, "nodraw"))
    s = E.apply(s, 2, "play:MD-G03")
    assert s["last_trick"]["winner"] == 1  # red 2: lowest wins again
    assert len(s["won"][1]) == 5 and "MD-R14" not in s["won"][1]
    assert E.zones(s)["removed"][-1] == "MD-R14" and conserved(s)


def test_sickle_moon_taken_back_by_eclipse_restores_lowest_wins():
    """Taking back a sickle moon (eclipse) undoes it too."""
    s = new(3, [["MD-R05"], ["MD-R14"], ["MD-B03"]])
    s = run(s, (0, "play:MD-R05"), (0, "nodraw"), (1, "play:MD-R14"), (1, "nodraw"))
    s = run(s, (2, "play:MD-B03"), (2, "takeback:MD-R14"))
    assert not E.high_wins(s) and "MD-R14" in s["hands"][2]


def test_blood_moon_removes_a_played_card_from_the_game():
    """Blood moon: the player removes one card played this round from the game."""
    s = new(3, [["MD-R01"], ["MD-G15"], ["MD-B18"]])
    s = run(s, (0, "play:MD-R01"), (0, "nodraw"), (1, "play:MD-G15"))
    s = E.apply(s, 1, "remove:MD-R01")
    assert "MD-R01" in E.zones(s)["removed"] and E.view(s, None)["table"] == [[1, "MD-G15"]]


def test_eclipse_takes_a_played_card_into_hand():
    """Eclipse: the player takes one card played this round into his hand."""
    s = new(3, [["MD-R01"], ["MD-B03"], ["MD-B18"]])
    s = run(s, (0, "play:MD-R01"), (0, "nodraw"), (1, "play:MD-B03"))
    with pytest.raises(IllegalAction, match="itself"):
        E.apply(s, 1, "takeback:MD-B03")
    s = E.apply(s, 1, "takeback:MD-R01")
    assert "MD-R01" in s["hands"][1] and len(s["hands"][1]) == 7


def test_moon_without_a_valid_target_has_no_effect():
    """Ruling (added): a blood moon or eclipse played as the round's first card has
    no other played card to act on: no effect, the turn goes on (draw choice)."""
    s = new(3, [["MD-G15"], ["MD-B03"], []])
    s = E.apply(s, 0, "play:MD-G15")
    assert E.legal_actions(s, 0) == ["draw", "nodraw"]
    s = run(s, (0, "nodraw"), (1, "play:MD-B03"))
    assert E.legal_actions(s, 1) == ["takeback:MD-G15"]


def test_trump_and_sickle_direction_reset_each_round():
    """Ruling: trump and the sickle direction are reset at each round's start."""
    s = new(3, [["MD-R10", "MD-R12"], ["MD-R14", "MD-B16"], ["MD-Y06", "MD-B18"]])
    s = run(s, (0, "play:MD-R10"), (0, "nodraw"), (1, "play:MD-R14"), (1, "nodraw"))
    s = run(s, (2, "play:MD-Y06"), (2, "trump:green"), (0, "play:MD-R12"))
    s = run(s, (1, "play:MD-B16"), (2, "play:MD-B18"))
    assert s["round"] == 2
    assert E.trump(s) is None and not E.high_wins(s)


# -- time ------------------------------------------------------------------------------


def test_time_called_finishes_the_round_in_progress_then_ranks_by_score():
    """Time called: the round in progress is finished; rank by score."""
    s = new(3, [["MD-R10", "MD-R12"], ["MD-R05", "MD-B16"], ["MD-G16", "MD-B18"]])
    s = run(s, (0, "play:MD-R10"), (0, "nodraw"))
    s = E.call_time(s)
    assert not E.is_over(s)
    s = run(s, (1, "play:MD-R05"), (1, "nodraw"), (2, "play:MD-G16"))
    s = run(s, (0, "play:MD-R12"), (0, "nodraw"), (1, "play:MD-B16"), (2, "play:MD-B18"))
    assert E.is_over(s) and E.to_act(s) == []
    res = E.result(s)
    assert res.figures == [0, 6, 0] and res.ranks == [2, 1, 2]
    assert res.details["rank_keys"] == [[0], [6], [0]]


def test_time_called_between_rounds_ends_at_once():
    s = E.new_game(4, 3)
    s = E.call_time(s)
    assert E.is_over(s)
    assert E.result(s).ranks == [1, 1, 1, 1]  # equal scores share the rank


def test_state_is_json_safe_and_apply_is_pure():
    s = E.new_game(5, 9)
    before = json.dumps(s, sort_keys=True)
    seat = E.to_act(s)[0]
    E.apply(s, seat, E.legal_actions(s, seat)[0])
    assert json.dumps(s, sort_keys=True) == before
    assert E.load(E.dump(s)) == s


def test_explain_illegal_gives_reasons():
    s = new(3, [["MD-R07"], ["MD-G16"], []])
    with pytest.raises(IllegalAction, match="not to act"):
        E.apply(s, 1, "play:MD-G16")
    with pytest.raises(IllegalAction, match="right after playing"):
        E.apply(s, 0, "draw")
    s = E.apply(s, 0, "play:MD-R07")
    with pytest.raises(IllegalAction, match="you must first choose whose hand"):
        E.apply(s, 0, "play:MD-G16")
    with pytest.raises(IllegalAction, match="not another player"):
        E.apply(s, 0, "target:7")
    s = E.apply(s, 0, "target:1")
    with pytest.raises(IllegalAction, match="not in the hand of seat 1"):
        E.apply(s, 0, "take:MD-R07")


# -- bots ------------------------------------------------------------------------------


def _play(players, seed, bots):
    s = E.new_game(players, seed)
    while not E.is_over(s):
        seat = E.to_act(s)[0]
        s = E.apply(s, seat, bots[seat].choose(E.view(s, seat), E.legal_actions(s, seat)))
    return E.result(s)


@pytest.mark.parametrize("players", [3, 5])
def test_smart_bot_beats_random_bots(players):
    games = 100
    wins = 0
    for g in range(games):
        bots = [SmartBot(g)] + [RandomBot(g * 10 + k) for k in range(1, players)]
        wins += _play(players, 1000 + g, bots).ranks[0] == 1
    assert wins / games > 1.6 / players, wins


def test_bots_registered_and_finish_works():
    assert set(E.bots()) == {"random", "smart"}
    s = E.call_time(run(E.new_game(4, 5), (0, E.legal_actions(E.new_game(4, 5), 0)[0])))
    s = E.finish(s, SmartBot(2))
    assert E.is_over(s)
