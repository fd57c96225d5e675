"""The conformance suite catches broken engines: each broken variant of the
toy engine from test_base is refused with the reason it breaks."""

import random

import pytest

from games.base import IllegalAction, TableResult
from games.testing import ConformanceError, check_engine
from tests.games.test_base import ToyEngine


class LeakyToy(ToyEngine):
    def view(self, s, seat):
        v = super().view(s, seat)
        v["all_hands"] = [list(h) for h in s["hands"]]
        return v


class LosingToy(ToyEngine):
    def zones(self, s):
        z = super().zones(s)
        z.pop("trick")
        return z


class ImpureToy(ToyEngine):
    def apply(self, s, seat, action):
        s2 = super().apply(s, seat, action)
        s["touched"] = s.get("touched", 0) + 1
        return s2


class DiceToy(ToyEngine):
    """Uses Python's global random generator instead of the state's."""

    def new_game(self, players, seed, options=None):
        s = super().new_game(players, seed, options)
        for hand in s["hands"]:
            random.shuffle(hand)
        return s


class UpsideDownToy(ToyEngine):
    def result(self, s):
        res = super().result(s)
        return TableResult([len(res.ranks) + 1 - r for r in res.ranks], res.figures, res.details)


class CarelessToy(ToyEngine):
    def apply(self, s, seat, action):
        if action == "bogus":
            return self.copy(s)
        return super().apply(s, seat, action)


class TupleToy(ToyEngine):
    def _apply(self, s, seat, action):
        super()._apply(s, seat, action)
        s["last"] = (seat, action)


class SilentToy(ToyEngine):
    def apply(self, s, seat, action):
        try:
            return super().apply(s, seat, action)
        except IllegalAction:
            raise IllegalAction("") from None


@pytest.mark.parametrize(
    ("engine", "reason"),
    [
        (LeakyToy(), "leaks"),
        (LosingToy(), "not conserved"),
        (ImpureToy(), "changed the state"),
        (DiceToy(), "the same seed gives another game"),
        (UpsideDownToy(), "do not follow rank_keys"),
        (CarelessToy(), "invented action"),
        (TupleToy(), "load(dump(s)) != s"),
        (SilentToy(), "without a reason"),
    ],
)
def test_a_broken_engine_is_refused_with_its_reason(engine, reason):
    with pytest.raises(ConformanceError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        check_engine(engine, 3, games=20, all_actions_games=5)


def test_the_toy_engine_itself_conforms():
    stats = check_engine(ToyEngine(), 3, games=30, all_actions_games=5)
    assert stats.games == 30 and stats.time_called == 10
