"""What a move shows to everyone (``Engine.public_action``), checked at every
step of 50 random games per game: the public form of a move names no card a
seat keeps hidden (another's hand, the draw pile, a pick face down) at that
step, and every card it names is shown face up by the public view right
after the move — so a replay label built from it is true at its step and
gives nothing away that only comes out later."""

import json

import pytest

from games import ENGINES, get_engine
from games.base import TIME_CALLED
from tests.public_replay import json_strings, random_games

GAMES = 50


def deck_ids(engine, state) -> set[str]:
    return {c["id"] for c in engine.deck(state["players"], state["options"])}


@pytest.mark.parametrize("game_id", sorted(ENGINES))
def test_the_public_form_of_every_move_names_only_cards_everyone_sees(game_id):
    engine = get_engine(game_id)
    steps = named_cards = hidden_moves = 0
    for game in random_games(engine, GAMES):
        ids = deck_ids(engine, game.states[0])
        for k, before, seat, action, after in game.steps():
            where = f"{game_id} seed={game.seed} step={k} {action!r}"
            public = engine.public_action(before, seat, action)
            assert isinstance(public.get("kind"), str) and public["kind"], where
            assert json.loads(json.dumps(public)) == public, where  # plain JSON data
            if (seat, action) == TIME_CALLED:
                assert public == {"kind": "call_time"}, where
                continue
            # whole ids only: a dict value is an id or is not
            cards = json_strings(public) & ids
            hidden = engine.hidden(after, None)
            assert not cards & hidden, f"{where}: names hidden {sorted(cards & hidden)}"
            shown = json_strings(engine.view(after, None))
            assert cards <= shown, f"{where}: names {sorted(cards - shown)}, not shown"
            # a named card is the move's own card (or, Altruismus, the drawn one)
            assert cards <= {action.split(":")[1] if ":" in action else None, before.get("drawn")}
            assert cards == ({public["card"]} if public.get("card") else set()), where
            steps += 1
            named_cards += bool(cards)
            hidden_moves += "card" in public and not cards
    # the games really exercised both sides: face-up cards named, hidden moves not
    assert steps > 1000
    assert named_cards > 0 or game_id == "quartett"
    assert hidden_moves > 0 or game_id == "quartett"


def test_an_altruismus_pick_is_named_only_by_the_pick_that_turns_all_cards_up():
    engine = get_engine("altruismus")
    s = engine.new_game(3, 7, {})
    picks = []
    for seat in range(3):
        action = engine.legal_actions(s, seat)[0]
        picks.append(engine.public_action(s, seat, action))
        s = engine.apply(s, seat, action)
    assert picks[0] == picks[1] == {"kind": "pick", "card": None, "reveal": False}
    assert picks[2] == {"kind": "pick", "card": action[5:], "reveal": True}
    assert action[5:] in json_strings(engine.view(s, None))  # all three lie face up


def test_a_card_taken_from_a_hand_is_not_named_but_the_hand_it_came_from_is():
    engine = get_engine("monddaemmerung")
    for game in random_games(engine, 30):
        for _k, before, seat, action, _after in game.steps():
            if action.startswith("take:"):
                public = engine.public_action(before, seat, action)
                assert public == {
                    "kind": "take",
                    "target": before["pending"]["target"],
                    "card": None,
                }
                return
    pytest.fail("no empty moon was played in 30 games")
