"""A seat's play partial drawn in Python (``tournaments/play/panel.py``)
reads as the template ``play/panel.html`` drew it before (kept here as
``panel_template.html``): for every game's real screens, seat by seat, in
German and English, and for any text, flag and clock a screen may hold."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.template import Context, Template
from django.utils import timezone, translation
from hypothesis import given, settings
from hypothesis import strategies as st

from games import ENGINES
from tests.examples import examples
from tests.factories import digital_table
from tournaments.models import Seat
from tournaments.play import screen
from tournaments.play import tables as digital
from tournaments.play.links import seat_token
from tournaments.play.panel import panel_html
from tournaments.services import deadlines

TEMPLATE = Template((Path(__file__).parent / "panel_template.html").read_text())
TOKEN = "A1b2C3d4E5f6G7h8I9j0"
CSRF = "csrf<&>token"


def as_template_drew_it(play: dict, token: str, csrf_token: str | None) -> str:
    context = {"play": play, "play_token": token}
    if csrf_token is not None:
        context["csrf_token"] = csrf_token
    return TEMPLATE.render(Context(context))


def same(html: str) -> str:
    """The HTML with its runs of white space made one (the template's
    indentation between tags is not the page's content)."""
    return re.sub(r"> <", "><", re.sub(r"\s+", " ", html)).strip()


def assert_same(play, token=TOKEN, csrf_token=CSRF):
    assert same(panel_html(play, token, csrf_token)) == same(
        as_template_drew_it(play, token, csrf_token)
    )


@pytest.mark.django_db
@pytest.mark.parametrize("game", sorted(ENGINES))
def test_every_games_screens_read_as_the_template_drew_them(monkeypatch, game):
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)
    monkeypatch.setattr(digital, "send_bot_task", lambda *a, **k: None)
    engine = ENGINES[game]
    players = min(max(engine.min_players, 3), engine.max_players)
    table = digital_table(game=game, players=players, round_minutes=60)
    seats = list(Seat.objects.filter(table=table).order_by("position"))
    for step in range(400):
        if step % 7 == 0 or step < 3:
            for seat in seats:
                for language in ("de", "en"):
                    with translation.override(language):
                        play = screen.seat_screen(seat)
                        assert_same(play, seat_token(seat))
        table.refresh_from_db()
        state = engine.load(table.state)
        if engine.is_over(state):
            break
        seat = engine.to_act(state)[0]
        actions = engine.legal_actions(state, seat)
        digital.table_move(table=table, seat=seat, action=actions[step % len(actions)])
    # the game's end: the result's table
    for seat in seats:
        play = screen.seat_screen(seat)
        assert_same(play, seat_token(seat))
        assert_same(play | {"error": "Nope <b>"}, seat_token(seat), None)


TEXT = st.text(alphabet=st.sampled_from(list("aZ ü'\"<>&/;=-7%")), max_size=10)
CARD = st.fixed_dictionaries(
    {"id": TEXT, "title": TEXT, "css": TEXT, "lines": st.lists(TEXT, max_size=2)}
)
NUMBER = st.one_of(st.integers(-5, 123456), st.floats(-1e4, 1e4, allow_nan=False), TEXT)
CLOCK = st.fixed_dictionaries(
    {},
    optional={
        "time_called": st.booleans(),
        "in_grace": st.booleans(),
        "time_up": st.booleans(),
        "grace_end": st.one_of(
            st.none(),
            st.integers(0, 10**6).map(
                lambda s: timezone.now().replace(microsecond=0) + timedelta(seconds=s)
            ),
        ),
    },
)
PLAYS = st.lists(st.fixed_dictionaries({"name": TEXT, "card": CARD}), max_size=3)
TRICK = st.one_of(
    st.none(),
    st.fixed_dictionaries({"title": TEXT, "plays": PLAYS}, optional={"outcome": TEXT}),
)
PLAY = st.fixed_dictionaries(
    {
        "version": TEXT,
        "seat_key": TEXT,
        "started": st.booleans(),
        "polling": st.booleans(),
    },
    optional={
        "error": TEXT,
        "clock": CLOCK,
        "over": st.booleans(),
        "bot": st.booleans(),
        "bot_finished": st.booleans(),
        "my_turn": st.booleans(),
        "status": TEXT,
        "seen": st.integers(0, 5000),
        "result": st.fixed_dictionaries(
            {
                "figure_label": TEXT,
                "rows": st.lists(
                    st.fixed_dictionaries(
                        {"rank": NUMBER, "name": TEXT, "figure": NUMBER, "me": st.booleans()}
                    ),
                    max_size=3,
                ),
            }
        ),
        "facts": st.lists(st.tuples(TEXT, NUMBER), max_size=3),
        "actions": st.lists(st.fixed_dictionaries({"action": TEXT, "label": TEXT}), max_size=3),
        "hand": st.lists(
            st.fixed_dictionaries(
                {"card": CARD, "action": st.one_of(st.none(), TEXT), "label": TEXT}
            ),
            max_size=3,
        ),
        "extra_cards": st.lists(
            st.fixed_dictionaries({"title": TEXT, "cards": st.lists(CARD, max_size=2)}),
            max_size=2,
        ),
        "trick": TRICK,
        "last_trick": TRICK,
        "show_hand": st.booleans(),
        "hand_label": TEXT,
        "score_label": TEXT,
        "players": st.lists(
            st.fixed_dictionaries(
                {
                    "number": st.integers(1, 6),
                    "name": TEXT,
                    "me": st.booleans(),
                    "to_act": st.booleans(),
                    "bot": st.booleans(),
                    "hand": st.one_of(st.none(), st.integers(0, 60)),
                    "score": st.one_of(st.none(), TEXT),
                    "note": TEXT,
                }
            ),
            max_size=3,
        ),
    },
)


@settings(max_examples=examples(300), deadline=None)
@given(
    play=PLAY,
    language=st.sampled_from(["de", "en"]),
    csrf_token=st.sampled_from([CSRF, None, "NOTPROVIDED"]),
)
def test_any_screen_reads_as_the_template_drew_it(play, language, csrf_token):
    with translation.override(language):
        assert_same(play, TOKEN, csrf_token)
