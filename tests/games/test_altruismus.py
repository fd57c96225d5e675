"""Altruismus engine: scenario tests for every rule of games/altruismus/RULES.md
(and the rulings added in games/altruismus/engine.py), deck and option errors,
and the smart bot."""

import json

import pytest

from games.altruismus import ENGINE, colour_bonus, load_deck, score_collection, validate_deck
from games.altruismus.bots import SmartBot
from games.altruismus.engine import DECK_DIR, load_deck_file
from games.base import DeckError, IllegalAction, RandomBot

E = ENGINE
DECK = load_deck("standard")
ALL = list(DECK)


def c(colour, number):
    return f"AL-{colour}-{number:02d}"


def make_stack(hands, pile=()):
    """A full stack: ``hands`` (per seat, the first cards of each hand; the rest
    is filled with plain cards) and ``pile`` (top of the draw pile, first = the
    mission card), then every other card in deck order."""
    used = {x for h in hands for x in h} | set(pile)
    assert len(used) == sum(len(h) for h in hands) + len(pile), "a card is used twice"
    plain = [x for x in ALL if x not in used and DECK[x][2] is None]
    full = []
    for h in hands:
        h = list(h)
        while len(h) < 10:
            h.append(plain.pop())
        full.append(h)
    used |= {x for h in full for x in h}
    stack = [full[k % len(full)][k // len(full)] for k in range(10 * len(full))]
    stack += list(pile)
    stack += [x for x in ALL if x not in used]
    return stack


def new(hands, pile=(), seed=1):
    return E.new_game(len(hands), seed, {"stack": make_stack(hands, pile)})


def play_turn(s, cards):
    """Every seat plays its card (seat order)."""
    for seat, card in enumerate(cards):
        s = E.apply(s, seat, f"play:{card}")
    return s


# -- setup ---------------------------------------------------------------------------
def test_deal_ten_each_rest_is_draw_pile_top_card_is_mission():
    """Deal 10 each; the rest is the draw pile. Turn the top card up: the mission number."""
    s = new([[c("red", 1)], [c("red", 2)], [c("red", 4)]], [c("green", 10)])
    assert [len(h) for h in s["hands"]] == [10, 10, 10]
    assert c("red", 1) in s["hands"][0] and c("red", 2) in s["hands"][1]
    assert s["missions"] == [[c("green", 10), None]]
    assert len(s["pile"]) == 108 - 30 - 1
    assert E.view(s, 0)["mission_number"] == 10
    assert len(E.deck(2, {})) == 108


def test_deck_has_six_colours_18_numbers_five_symbols_once_per_colour():
    """Ruling (deck): 6 colours x numbers 1-18. Five action symbols, each on one
    card of every colour (30 symbol cards); which numbers carry them is data."""
    deck = E.deck(4, {})
    assert len({d["id"] for d in deck}) == 108
    syms = [d for d in deck if d["symbol"]]
    assert len(syms) == 30
    for colour in {d["colour"] for d in deck}:
        assert sorted(d["symbol"] for d in syms if d["colour"] == colour) == sorted(
            ["pass", "mission", "even", "plusminus", "exchange"]
        )


# -- a turn: simultaneous, hidden picks ------------------------------------------------------
def test_everyone_picks_face_down_revealed_together():
    """Everyone picks a hand card face down; all are revealed together."""
    s = new([[c("red", 8)], [c("red", 13)], [c("red", 1)]], [c("green", 10)])
    assert E.to_act(s) == [0, 1, 2]
    s = E.apply(s, 1, f"play:{c('red', 13)}")
    assert E.to_act(s) == [0, 2]
    for seat in (0, 2, None):
        v = E.view(s, seat)
        assert c("red", 13) not in json.dumps(v)
        assert v["picked"] == [False, True, False]
    assert E.view(s, 1)["played"][1] == c("red", 13)
    assert c("red", 13) in E.hidden(s, 0)
    with pytest.raises(IllegalAction, match="not to act"):
        E.apply(s, 1, f"play:{s['hands'][1][0]}")
    with pytest.raises(IllegalAction, match="not in your hand"):
        E.apply(s, 0, f"play:{c('red', 13)}")
    s = E.apply(s, 0, f"play:{c('red', 8)}")
    s = E.apply(s, 2, f"play:{c('red', 1)}")
    # revealed: the winner (seat 0, 8 is nearest to 10) decides; all plays visible
    assert s["phase"] == "take"
    assert E.view(s, 2)["played"] == [c("red", 8), c("red", 13), c("red", 1)]


# -- symbol ordering -----------------------------------------------------------------------
def test_symbols_highest_number_first_then_play_order_from_him():
    """Symbol actions: the player with the highest played number that carries a
    symbol acts first, then the other symbol cards follow in clockwise (play)
    order from him. plus/minus 3: changes add up."""
    s = new(
        [[c("red", 12)], [c("orange", 13)], [c("yellow", 14)]],
        [c("red", 10)],
    )
    s = play_turn(s, [c("red", 12), c("orange", 13), c("yellow", 14)])
    assert E.to_act(s) == [2]  # 14 first
    assert E.legal_actions(s, 2) == ["plus3", "minus3"]
    s = E.apply(s, 2, "plus3")
    assert E.to_act(s) == [0]  # then play order from seat 2: 0, 1
    s = E.apply(s, 0, "plus3")
    assert E.to_act(s) == [1]
    s = E.apply(s, 1, "minus3")
    assert s["mod"] == 3 and E.view(s, 0)["mission_number"] == 13
    # 13: seat 1's orange 13 is nearest
    assert s["winner"] == 1 and s["missions"][0][1] == 1


def test_equal_highest_symbol_numbers_tie_draw_decides_who_acts_first():
    """Equal highest numbers: those players each draw a card, the highest draw
    acts first; drawn cards go back under the pile; repeat on a tie."""
    # red 12 = plus/minus, green 12 = exchange; draws: 4 v 4 (tie), then 5 v 2
    draws = [c("red", 4), c("yellow", 4), c("red", 5), c("red", 2)]
    s = new([[c("red", 12)], [c("green", 12)]], [c("red", 10), *draws])
    s = play_turn(s, [c("red", 12), c("green", 12)])
    assert E.to_act(s) == [0] and s["pending"]["symbol"] == "plusminus"
    assert s["pile"][-4:] == draws  # back under the pile, in the order drawn
    assert [e for e in s["log"] if e["event"] == "draw"] == [
        {"event": "draw", "for": "symbols", "draws": [[0, 4], [1, 4]]},
        {"event": "draw", "for": "symbols", "draws": [[0, 5], [1, 2]]},
    ]
    s = E.apply(s, 0, "minus3")
    assert E.to_act(s) == [1] and s["pending"]["symbol"] == "exchange"


def test_equal_highest_symbol_tie_draw_other_seat_wins():
    """The highest draw acts first (here the second player)."""
    s = new([[c("red", 12)], [c("green", 12)]], [c("red", 10), c("red", 1), c("red", 2)])
    s = play_turn(s, [c("red", 12), c("green", 12)])
    assert E.to_act(s) == [1] and s["pending"]["symbol"] == "exchange"


# -- the five symbols ----------------------------------------------------------------------
def test_pass_hands_cards_on_new_holder_carries_out_symbol():
    """pass: everyone hands his played card to the next player; a symbol not yet
    carried out is carried out by its new holder in its turn."""
    s = new([[c("blue", 16)], [c("red", 12)], [c("red", 1)]], [c("red", 10)])
    s = play_turn(s, [c("blue", 16), c("red", 12), c("red", 1)])
    assert s["played"] == [c("red", 1), c("blue", 16), c("red", 12)]
    assert E.to_act(s) == [2] and s["pending"]["card"] == c("red", 12)
    s = E.apply(s, 2, "minus3")  # target 7
    assert s["winner"] == 2  # 12 -> |12-7|=5 beats 1 (6) and 16 (9)


def test_new_mission_card_goes_under_pile_new_one_turned_up():
    """new mission: the mission card goes under the draw pile and a new one is
    turned up."""
    s = new([[c("red", 6)], [c("red", 11)]], [c("red", 10), c("red", 5)])
    s = play_turn(s, [c("red", 6), c("red", 11)])
    assert s["missions"] == [[c("red", 5), 0]]  # 6 is nearest to 5
    assert s["pile"][-1] == c("red", 10)
    assert s["winner"] == 0


def test_new_mission_discards_earlier_plus_minus_changes():
    """Ruling (added): a new mission card discards the plus/minus changes made so
    far; later changes apply to the new mission number."""
    s = new([[c("orange", 13)], [c("red", 6)]], [c("red", 10), c("red", 7)])
    s = play_turn(s, [c("orange", 13), c("red", 6)])
    s = E.apply(s, 0, "plus3")
    assert s["mod"] == 0 and E.target(s) == 7
    assert s["winner"] == 1


def test_even_out_drops_even_players_and_ignores_their_symbols():
    """even out: every player whose played card is even drops out of this turn
    (cannot win it); their symbols not yet carried out are ignored."""
    s = new([[c("yellow", 11)], [c("blue", 10)], [c("red", 2)]], [c("red", 1)])
    s = play_turn(s, [c("yellow", 11), c("blue", 10), c("red", 2)])
    assert s["out"] == [False, True, True]
    # blue 10 (plus/minus) was not carried out: no decision, seat 0 wins alone
    assert s["phase"] == "take" and s["winner"] == 0 and s["mod"] == 0
    assert {"event": "ignored", "symbol": "plusminus", "seat": 1} in s["log"]


def test_everyone_dropped_out_nobody_wins_mission_stays_unowned():
    """Ruling: if everyone dropped out, nobody wins and the mission card stays
    unowned."""
    s = new([[c("orange", 10)], [c("red", 2)]], [c("red", 1), c("red", 5)])
    s = play_turn(s, [c("orange", 10), c("red", 2)])
    assert s["phase"] == "pick" and s["turn"] == 1
    assert s["missions"] == [[c("red", 1), None], [c("red", 5), None]]
    assert s["last_turn"]["winner"] is None
    assert s["collections"] == [[c("orange", 10)], [c("red", 2)]]


def test_plus_minus_3_changes_the_mission_number():
    """plus/minus 3: the player adds or subtracts 3 from the current mission number."""
    s = new([[c("red", 12)], [c("red", 8)]], [c("red", 10)])
    s = play_turn(s, [c("red", 12), c("red", 8)])
    assert E.apply(s, 0, "plus3")["winner"] == 0  # 13: 12 nearer
    assert E.apply(s, 0, "minus3")["winner"] == 1  # 7: 8 nearer


def test_exchange_draws_and_gives_card_replacing_played_card():
    """exchange: the player draws a card and must give it to another player,
    whose played card goes under the draw pile; the new card's symbol is ignored."""
    s = new(
        [[c("red", 15)], [c("red", 11)], [c("red", 13)]],
        [c("red", 10), c("yellow", 17)],
    )
    s = play_turn(s, [c("red", 15), c("red", 11), c("red", 13)])
    assert E.to_act(s) == [0]
    assert E.legal_actions(s, 0) == ["give:1", "give:2"]
    assert E.view(s, 1)["drawn"] == c("yellow", 17)
    with pytest.raises(IllegalAction, match="not yourself"):
        E.apply(s, 0, "give:0")
    s = E.apply(s, 0, "give:2")
    assert s["played"] == [c("red", 15), c("red", 11), c("yellow", 17)]
    assert s["pile"][-1] == c("red", 13)
    # yellow 17 carries exchange, but it is ignored: straight to the winner
    assert s["phase"] == "take" and s["winner"] == 1


def test_exchange_removes_pending_symbol_of_replaced_card():
    """Ruling (added): a played card that goes under the pile loses its pending symbol."""
    s = new([[c("red", 15)], [c("red", 12)]], [c("red", 10), c("red", 1)])
    s = play_turn(s, [c("red", 15), c("red", 12)])
    s = E.apply(s, 0, "give:1")
    assert s["phase"] == "take" and s["played"][1] == c("red", 1)


# -- winner -------------------------------------------------------------------------------
def test_nearest_played_card_wins_and_owns_mission():
    """The played card nearest the mission number wins the turn; the mission
    card's arrow turns to him (he owns that mission card; it stays on the table)."""
    s = new([[c("red", 8)], [c("red", 13)]], [c("red", 10), c("red", 4)])
    s = play_turn(s, [c("red", 8), c("red", 13)])
    assert s["winner"] == 0 and E.to_act(s) == [0]
    s = E.apply(s, 0, "keep")
    s = E.apply(s, 0, "noswap")
    assert s["missions"] == [[c("red", 10), 0], [c("red", 4), None]]
    assert s["collections"] == [[c("red", 8)], [c("red", 13)]]


def test_equal_distance_tie_draw_highest_draw_wins():
    """Equal distance: those players draw a card each, the highest draw wins,
    the drawn cards go back under the pile; repeat on a tie."""
    draws = [c("red", 4), c("yellow", 4), c("red", 1), c("red", 2)]
    s = new([[c("red", 8)], [c("orange", 12)]], [c("red", 10), *draws])
    s = play_turn(s, [c("red", 8), c("orange", 12)])
    assert s["winner"] == 1
    assert s["pile"][-4:] == draws
    assert [e["draws"] for e in s["log"] if e["event"] == "draw"] == [
        [[0, 4], [1, 4]],
        [[0, 1], [1, 2]],
    ]


def test_winner_may_take_another_players_played_card():
    """He may take another player's played card for his own collection, giving
    that player his own played card in return."""
    s = new([[c("red", 8)], [c("red", 13)], [c("red", 18)]], [c("red", 10)])
    s = play_turn(s, [c("red", 8), c("red", 13), c("red", 18)])
    assert E.legal_actions(s, 0) == ["take:1", "take:2", "keep"]
    with pytest.raises(IllegalAction, match="another player"):
        E.apply(s, 0, "take:0")
    s = E.apply(s, 0, "take:2")
    s = E.apply(s, 0, "noswap")
    assert s["collections"] == [[c("red", 18)], [c("red", 13)], [c("red", 8)]]


def test_winner_swap_pile_puts_card_under_pile_and_draws():
    """He may swap one hand card: put it under the draw pile and draw a new one."""
    s = new([[c("red", 8), c("red", 1)], [c("red", 13)]], [c("red", 10), c("blue", 18)])
    s = play_turn(s, [c("red", 8), c("red", 13)])
    s = E.apply(s, 0, "keep")
    assert f"swap_pile:{c('red', 1)}" in E.legal_actions(s, 0)
    s = E.apply(s, 0, f"swap_pile:{c('red', 1)}")
    # the next mission came from the top after the swap's draw
    assert c("blue", 18) in s["hands"][0] and c("red", 1) not in s["hands"][0]
    assert s["pile"][-1] == c("red", 1)
    assert len(s["hands"][0]) == 9


def test_winner_swap_give_gives_card_and_takes_one_blind():
    """He may give a hand card to a player of his choice and take a card blind
    from that player's hand. Ruling (added): the blind card comes from the cards
    that player held before the gift."""
    s = new([[c("red", 8), c("red", 1)], [c("red", 13)]], [c("red", 10)])
    s = play_turn(s, [c("red", 8), c("red", 13)])
    s = E.apply(s, 0, "keep")
    before1 = set(s["hands"][1])
    s2 = E.apply(s, 0, f"swap_give:{c('red', 1)}:1")
    assert c("red", 1) in s2["hands"][1] and c("red", 1) not in s2["hands"][0]
    taken = set(s2["hands"][0]) - set(s["hands"][0])
    assert len(taken) == 1 and taken <= before1
    assert [len(h) for h in s2["hands"]] == [9, 9]
    with pytest.raises(IllegalAction, match="swap_give"):
        E.apply(s, 0, f"swap_give:{c('red', 1)}:0")


def test_everyone_collects_current_played_card_new_mission_beside_earlier():
    """Everyone puts his (current) played card on his own collection pile. A new
    mission card is turned up beside the earlier ones."""
    s = new([[c("blue", 16)], [c("red", 11)]], [c("red", 10), c("red", 4)])
    s = play_turn(s, [c("blue", 16), c("red", 11)])  # pass swaps the cards
    assert s["winner"] == 0
    s = E.apply(s, 0, "keep")
    s = E.apply(s, 0, "noswap")
    assert s["collections"] == [[c("red", 11)], [c("blue", 16)]]
    assert [m[0] for m in s["missions"]] == [c("red", 10), c("red", 4)]
    assert s["phase"] == "pick" and s["played"] == [None, None]


# -- end and time ---------------------------------------------------------------------------
def _play_out(s, seed=0):
    bot = RandomBot(seed)
    while not E.is_over(s):
        seat = E.to_act(s)[0]
        s = E.apply(s, seat, bot.choose(E.view(s, seat), E.legal_actions(s, seat)))
    return s


def test_game_ends_when_hands_are_empty_no_new_mission_after_last_turn():
    """The game ends when the hands are empty. Ruling (added): no new mission
    card after the last turn."""
    s = _play_out(E.new_game(3, 5))
    assert s["turn"] == 10 and not any(s["hands"])
    assert len(s["missions"]) == 10
    assert [len(x) for x in s["collections"]] == [10, 10, 10]
    assert E.to_act(s) == []


def test_time_called_mid_turn_finishes_the_turn():
    """Time called: finish the turn in progress, then the game ends."""
    s = new([[c("red", 8)], [c("red", 13)]], [c("red", 10)])
    s = E.apply(s, 0, f"play:{c('red', 8)}")
    s = E.call_time(s)
    assert not E.is_over(s) and E.to_act(s) == [1]
    s = E.apply(s, 1, f"play:{c('red', 13)}")
    s = E.apply(s, 0, "keep")
    s = E.apply(s, 0, "noswap")
    assert E.is_over(s) and s["turn"] == 1
    assert s["missions"] == [[c("red", 10), 0]]
    assert E.result(s).figures == [8, 13]


def test_time_called_before_anyone_picked_ends_at_once_mission_back_under_pile():
    """Ruling (added): if nobody has picked yet, the game ends at once and that
    turn's mission card goes back under the draw pile."""
    s = new([[c("red", 8)], [c("red", 13)]], [c("red", 10), c("red", 4)])
    s = play_turn(s, [c("red", 8), c("red", 13)])
    s = E.apply(E.apply(s, 0, "keep"), 0, "noswap")
    s = E.call_time(s)
    assert E.is_over(s) and s["missions"] == [[c("red", 10), 0]]
    assert s["pile"][-1] == c("red", 4)
    assert E.call_time(s) == s


# -- scoring -------------------------------------------------------------------------------
def test_colour_bonus_from_three_cards_per_colour():
    """Colour bonus: a colour with k >= 3 cards scores 10 x (k - 2), at most 80
    (read per colour; the colour bonuses add up)."""
    reds = [c("red", n) for n in range(1, 12)]
    assert colour_bonus(reds[:2]) == 0
    assert colour_bonus(reds[:3]) == 10
    assert colour_bonus(reds[:5]) == 30
    assert colour_bonus(reds[:10]) == 80
    assert colour_bonus(reds[:11]) == 80  # capped (never reached in play)
    blues = [c("blue", n) for n in range(1, 4)]
    assert colour_bonus(reds[:3] + blues) == 20


def test_void_card_matches_mission_not_his_unowned_or_others():
    """A collection card whose number equals the printed number of a mission card
    on the table that is not his (arrow not at him, or unowned) scores no value,
    unless a mission card with the same number is his."""
    cards = [c("red", 5), c("blue", 7), c("green", 9), c("red", 11)]
    missions = [
        [c("yellow", 5), None],  # unowned 5: voids red 5
        [c("yellow", 7), 1],  # other's 7: voids blue 7
        [c("yellow", 9), 1],  # other's 9 ...
        [c("orange", 9), 0],  # ... but also my own 9: green 9 counts
        [c("yellow", 11), 0],  # my own 11
    ]
    sc = score_collection(cards, missions, 0)
    assert sc["void"] == [c("red", 5), c("blue", 7)]
    assert sc["sum"] == 9 + 11 and sc["bonus"] == 0 and sc["total"] == 20
    # void cards still count for the colour bonus
    sc = score_collection([c("red", 5), c("red", 1), c("red", 2)], missions, 0)
    assert sc == {"sum": 3, "bonus": 10, "total": 13, "void": [c("red", 5)]}


def test_void_scoring_in_a_game_owned_and_unowned():
    """Score = colour bonus + the numbers of the other collection cards; a mission
    card he owns protects his card of that number."""
    # turn 1: mission 10, seat 0 wins with 10 (red 10); seat 1 collects 11
    # turn 2: mission 11 (unowned until won): seat 1 wins with 11 -> owns 11
    s = new(
        [[c("red", 10), c("orange", 18)], [c("red", 11), c("green", 11)]],
        [c("yellow", 10), c("yellow", 11)],
    )
    s = play_turn(s, [c("red", 10), c("red", 11)])
    s = E.apply(E.apply(s, 0, "keep"), 0, "noswap")
    # now mission 11 is on the table, unowned: seat 1's red 11 is void
    assert E.view(s, None)["scores"] == [10, 0]
    s = play_turn(s, [c("orange", 18), c("green", 11)])
    assert s["winner"] == 1
    s = E.apply(E.apply(s, 1, "keep"), 1, "noswap")
    s = E.call_time(s)
    res = E.result(s)
    assert res.figures == [28, 22] and res.ranks == [1, 2]
    assert res.details["rank_keys"] == [[28], [22]]


def test_equal_scores_share_the_rank():
    """Ruling: equal scores share the rank."""
    s = new([[c("red", 8)], [c("blue", 8)]], [c("red", 10), c("red", 1), c("red", 2)])
    s = play_turn(s, [c("red", 8), c("blue", 8)])
    s = E.apply(E.apply(s, s["winner"], "keep"), s["winner"], "noswap")
    s = E.call_time(s)
    assert E.result(s).ranks == [1, 1]


# -- errors ---------------------------------------------------------------------------------
def test_bad_players_and_options():
    with pytest.raises(ValueError, match="2 to 4"):
        E.new_game(5, 1)
    with pytest.raises(ValueError, match="unknown Altruismus deck"):
        E.new_game(2, 1, {"deck": "nope"})
    with pytest.raises(ValueError, match="deck name"):
        E.new_game(2, 1, {"deck": ["standard"]})
    with pytest.raises(ValueError, match="unknown Altruismus option"):
        E.new_game(2, 1, {"colour": "x"})
    with pytest.raises(ValueError, match="stack"):
        E.new_game(2, 1, {"stack": ALL[:-1]})
    assert E.default_options() == {"deck": "standard"}


def _good():
    return json.loads((DECK_DIR / "standard.json").read_text())


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d["colours"].pop(), "exactly 6"),
        (lambda d: d["colours"].__setitem__(0, "Red 1"), "lowercase"),
        (lambda d: d["colours"].__setitem__(1, "red"), "repeats"),
        (lambda d: d.__setitem__("numbers", [1, 17]), "numbers"),
        (lambda d: d["symbols"].pop("red"), "every colour"),
        (lambda d: d["symbols"]["red"].pop("pass"), "each symbol"),
        (lambda d: d["symbols"]["red"].__setitem__("pass", 19), "1..18"),
        (lambda d: d["symbols"]["red"].__setitem__("pass", 6), "two symbols"),
        (lambda d: d.__setitem__("extra", 1), "unknown deck keys"),
    ],
)
def test_bad_deck_data_is_rejected(change, message):
    data = _good()
    change(data)
    with pytest.raises(DeckError, match=message):
        validate_deck(data)


def test_bad_deck_file_is_rejected(tmp_path):
    p = tmp_path / "bad.json"
    p.write_text("{not json")
    with pytest.raises(DeckError, match="cannot read"):
        load_deck_file(p)
    with pytest.raises(DeckError, match="JSON object"):
        validate_deck([])
    assert len(load_deck_file(DECK_DIR / "standard.json")) == 108


# -- bots -------------------------------------------------------------------------------------
def _bot_game(players, seed, bots):
    s = E.new_game(players, seed)
    while not E.is_over(s):
        seat = E.to_act(s)[0]
        s = E.apply(s, seat, bots[seat].choose(E.view(s, seat), E.legal_actions(s, seat)))
    return E.result(s)


def test_bots_registered():
    assert set(E.bots()) == {"random", "smart"}


def test_smart_bot_beats_random_bots():
    """The smart bot (seat 0) wins clearly more than 1/3 of 3-player games."""
    games = 150
    wins = 0
    for seed in range(games):
        bots = [SmartBot(seed), RandomBot(seed + 1), RandomBot(seed + 2)]
        wins += _bot_game(3, seed, bots).ranks[0] == 1
    assert wins > games * 0.5, wins


def test_draw_pile_running_out_tie_by_lot_and_game_ends():
    """Ruling (added): a tie draw that lacks cards is decided by lot (the state's
    rng); swap_pile needs a draw pile; if no new mission card can be turned up
    the game ends after the turn."""
    s = new([[c("red", 8)], [c("orange", 12)]], [c("red", 10)])
    s["pile"] = []  # (a test-only state: the standard deck never runs out)
    s = play_turn(s, [c("red", 8), c("orange", 12)])
    lot = [e for e in s["log"] if e["event"] == "lot"]
    assert lot and lot[0]["seats"] == [0, 1] and s["winner"] == lot[0]["winner"]
    w = s["winner"]
    s = E.apply(s, w, "keep")
    assert not any(a.startswith("swap_pile:") for a in E.legal_actions(s, w))
    assert any(a.startswith("swap_give:") for a in E.legal_actions(s, w))
    s = E.apply(s, w, "noswap")
    assert E.is_over(s) and len(s["missions"]) == 1
