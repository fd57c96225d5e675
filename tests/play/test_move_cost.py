"""What a move costs the server: a player's move at a busy event is one
short transaction and one drawing of his screen, not a query for each
question the service asks (issue 37: 50 tables × 4 phones)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.examples import examples
from tests.factories import PlayerFactory, digital_table
from tournaments import live
from tournaments.models import Player, Seat, TableAction
from tournaments.play import tables as digital
from tournaments.play.links import seat_token
from tournaments.services import deadlines

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_broker(monkeypatch):
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)


def test_a_move_and_its_new_screen_take_at_most_ten_queries(
    client, organizer, django_assert_max_num_queries
):
    # the link's check 1, the move's transaction 7 with its savepoint and
    # release (the round read with its share lock in one statement, the
    # table locked, the log's figures with the bot seats and the clock, the
    # action, the state), the new screen 2; before: 17 (the table read twice,
    # the bot seats twice, the log counted thrice), then 13 (the round's share
    # lock a statement of its own), then 12 (the bot seats a query of their
    # own), then 11 (the clock a query of its own)
    table = digital_table(organizer, "trumpet", 4, round_minutes=60)
    engine = table.round.tournament.engine
    for played in range(3):
        table.refresh_from_db()
        state = engine.load(table.state)
        seat = engine.to_act(state)[0]
        url = reverse("seat_move", args=[seat_token(Seat.objects.get(table=table, position=seat))])
        action = engine.legal_actions(state, seat)[0]
        data = {"action": action, "seen": str(played), "s": f"{table.pk}.{seat}"}
        if played == 0:
            # the first move warms what a running process keeps (Django's
            # content types, compiled lookups), whichever tests ran before
            answer = client.post(url, data, HTTP_HX_REQUEST="true")
        else:
            with django_assert_max_num_queries(10):
                answer = client.post(url, data, HTTP_HX_REQUEST="true")
        assert answer.status_code == 200
        assert TableAction.objects.filter(table=table).count() == played + 1
    # the same move sent again from the same screen is still played once
    answer = client.post(
        url,
        {"action": action, "seen": str(played), "s": f"{table.pk}.{seat}"},
        HTTP_HX_REQUEST="true",
    )
    assert answer.status_code == 200 and 'role="alert"' in answer.content.decode()
    assert TableAction.objects.filter(table=table).count() == 3
    assert list(TableAction.objects.filter(table=table).values_list("number", flat=True)) == [
        0,
        1,
        2,
    ]


def poll_url(table, position):
    return reverse("seat_play", args=[seat_token(Seat.objects.get(table=table, position=position))])


def poll(client, table, position, shown, url=None):
    url = url or poll_url(table, position)
    return client.get(url, {"v": shown, "s": f"{table.pk}.{position}"}, HTTP_HX_REQUEST="true")


def move_once(table):
    table.refresh_from_db()
    engine = table.round.tournament.engine
    state = engine.load(table.state)
    seat = engine.to_act(state)[0]
    digital.table_move(table=table, seat=seat, action=engine.legal_actions(state, seat)[0])


def test_a_known_links_poll_draws_the_new_screen_without_the_links_query(
    client, organizer, django_assert_max_num_queries
):
    table = digital_table(organizer, "trumpet", 4, round_minutes=60)
    first = poll(client, table, 2, "x")  # the link checked once, then known to the cache
    assert first.status_code == 200
    move_once(table)
    live.forget_local()  # another web process: the shared cache is asked
    url = poll_url(table, 2)
    # the round's versions 1, the table's snapshot 2 (before: the link's query too)
    with django_assert_max_num_queries(3):
        drawn = poll(client, table, 2, "x", url)
    assert drawn.status_code == 200
    assert f'data-seat="{table.pk}.2"' in drawn.content.decode()
    assert 'name="seen" value="1"' in drawn.content.decode() or "play-form" not in (
        drawn.content.decode()
    )


def test_a_known_link_whose_seat_went_to_another_player_is_checked_again(client, organizer):
    table = digital_table(organizer, "trumpet", 4, round_minutes=60)
    token = seat_token(Seat.objects.get(table=table, position=0))
    assert poll(client, table, 0, "x").status_code == 200
    # the seat given to someone else behind the cache's back (no re-issue)
    newcomer = PlayerFactory(tournament=table.round.tournament, name="Neu")
    Seat.objects.filter(table=table, position=0).update(player=newcomer)
    move_once(table)
    live.forget_local()
    url = reverse("seat_play", args=[token])
    answer = client.get(url, {"v": "x", "s": f"{table.pk}.0"}, HTTP_HX_REQUEST="true")
    assert 'data-seat="' not in answer.content.decode()  # never that seat's screen


def test_a_known_link_of_a_player_who_dropped_is_checked_again(client, organizer):
    table = digital_table(organizer, "trumpet", 4, round_minutes=60)
    assert poll(client, table, 1, "x").status_code == 200
    # dropped behind the cache's back (the service forgets the link at once)
    Player.objects.filter(pk=Seat.objects.get(table=table, position=1).player_id).update(
        dropped=True
    )
    move_once(table)
    live.forget_local()
    answer = poll(client, table, 1, "x")
    assert 'data-seat="' not in answer.content.decode()


def test_a_card_on_the_seat_screen_reads_as_the_card_template_draws_it():
    from django.template.loader import render_to_string

    from tournaments.play.templatetags.play_cards import card_face

    for card in (
        {"title": "Rot 7", "lines": ["Trumpf", "<b>& Co</b>"]},
        {"title": "Ass <i>", "lines": []},
        {"title": "Q", "lines": None},
    ):
        assert card_face(card) == render_to_string("play/card.html", {"card": card})


# -- the screen's repeated parts, built in Python -----------------------------
# (templatetags/play_cards.py): each reads exactly as the template language
# drew it before, for any text a deck, a player's name or a game's label holds

#: the template's own loops, as panel.html had them before they moved to Python
_TEMPLATE_PARTS = {
    "hand": (
        '{% load play_cards %}{% for h in hand %}<li>{% if h.action %}<button type="submit" '
        'name="action" value="{{ h.action }}" class="play-card {{ h.card.css }}" '
        'data-card="{{ h.card.id }}" title="{{ h.label }}">{{ h.card|card_face }}</button>'
        '{% else %}<div class="play-card play-card--idle {{ h.card.css }}" '
        'data-card="{{ h.card.id }}">{{ h.card|card_face }}</div>{% endif %}</li>{% endfor %}'
    ),
    "cards": (
        '{% load play_cards %}{% for c in cards %}<li><div class="play-card {{ c.css }}" '
        'data-card="{{ c.id }}">{{ c|card_face }}</div></li>{% endfor %}'
    ),
    "plays": (
        "{% load play_cards %}{% for p in plays %}<li><small>{{ p.name }}</small>"
        '<div class="play-card {{ p.card.css }}" data-card="{{ p.card.id }}">'
        "{{ p.card|card_face }}</div></li>{% endfor %}"
    ),
    "actions": (
        '{% for a in actions %}<button type="submit" name="action" value="{{ a.action }}">'
        "{{ a.label }}</button>{% endfor %}"
    ),
    "players": (
        '{% load i18n %}{% for p in play.players %}<tr class="{% if p.me %}me{% endif %}'
        '{% if p.to_act and not play.over %} to-act{% endif %}"><td data-label="'
        '{% translate "Seat" %}">{{ p.number }}</td><td class="main">{{ p.name }}'
        '{% if p.bot %} <span class="tag tag-bot">{% translate "bot" %}</span>{% endif %}'
        '{% if p.to_act and not play.over %} <span class="tag">{% translate "to play" %}'
        '</span>{% endif %}</td>{% if play.show_hand %}<td data-label="{{ play.hand_label }}">'
        '{{ p.hand|default_if_none:"" }}</td>{% endif %}<td data-label="{{ play.score_label }}">'
        '{{ p.score|default_if_none:"" }}</td><td><small>{{ p.note }}</small></td></tr>'
        "{% endfor %}"
    ),
}


def _strategies():
    from hypothesis import strategies as st

    text = st.text(alphabet=st.sampled_from(list("aZ ü'\"<>&/;=-7")), max_size=12)
    card = st.fixed_dictionaries(
        {"id": text, "title": text, "css": text, "lines": st.lists(text, max_size=3)}
    )
    held = st.fixed_dictionaries(
        {"card": card, "action": st.one_of(st.none(), text), "label": text}
    )
    player = st.fixed_dictionaries(
        {
            "number": st.integers(1, 6),
            "name": text,
            "me": st.booleans(),
            "to_act": st.booleans(),
            "bot": st.booleans(),
            "hand": st.one_of(st.none(), st.integers(0, 60)),
            "score": st.one_of(st.none(), text),
            "note": text,
        }
    )
    play = st.fixed_dictionaries(
        {
            "players": st.lists(player, max_size=6),
            "over": st.booleans(),
            "show_hand": st.booleans(),
            "hand_label": text,
            "score_label": text,
        }
    )
    return card, held, player, play, text


def _parts_property(language):
    from django.template import Context, Template
    from django.utils import translation
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from tournaments.play.templatetags import play_cards

    card, held, _player, play, text = _strategies()
    actions = st.lists(st.fixed_dictionaries({"action": text, "label": text}), max_size=4)
    plays = st.lists(st.fixed_dictionaries({"name": text, "card": card}), max_size=5)

    templates = {name: Template(source) for name, source in _TEMPLATE_PARTS.items()}

    def drawn(name, **context):
        return templates[name].render(Context(context))

    @settings(max_examples=examples(60), deadline=None)
    @given(
        hand=st.lists(held, max_size=6),
        cards=st.lists(card, max_size=4),
        plays=plays,
        actions=actions,
        play=play,
    )
    def check(hand, cards, plays, actions, play):
        with translation.override(language):
            assert play_cards.hand_items(hand) == drawn("hand", hand=hand)
            assert play_cards.card_items(cards) == drawn("cards", cards=cards)
            assert play_cards.play_items(plays) == drawn("plays", plays=plays)
            assert play_cards.action_buttons(actions) == drawn("actions", actions=actions)
            assert play_cards.player_rows(play) == drawn("players", play=play)

    check()


@pytest.mark.parametrize("language", ["de", "en"])
def test_the_screens_cards_moves_and_players_read_as_the_template_drew_them(language):
    _parts_property(language)


def test_a_hostile_name_or_card_text_on_the_seat_screen_is_shown_as_text():
    from tournaments.play.templatetags import play_cards

    evil = '<script>alert("x")</script>&'
    card = {"id": evil, "title": evil, "css": evil, "lines": [evil]}
    out = play_cards.hand_items([{"card": card, "action": evil, "label": evil}])
    out += play_cards.player_rows(
        {"players": [{"number": 1, "name": evil, "note": evil, "score": evil, "hand": 3}]}
    )
    assert "<script>" not in out
    assert out.count("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;") == 9


# -- a push's redraw checks its streams' links as the polls do -----------------


def _streams_of(table):
    """The table's four streams as the stream view opens them (the shared
    cache then knows where each link leads)."""
    from django.test import RequestFactory

    from tournaments.push import views as push_views

    conns = []
    for position in range(4):
        token = seat_token(Seat.objects.get(table=table, position=position))
        conns.append(push_views._seat_conn(RequestFactory().get("/"), token))
    return conns


def test_a_push_to_known_links_checks_them_without_a_query(
    organizer, django_assert_max_num_queries
):
    from tournaments.play import screen
    from tournaments.push import redraw

    table = digital_table(organizer, "trumpet", 4, round_minutes=60)
    conns = _streams_of(table)
    move_once(table)
    live.forget_local()
    screen.forget_snapshots()
    # the snapshot (the table with its version, its seats), no link's query pair
    with django_assert_max_num_queries(2):
        sent = redraw.table_pass(table.pk, conns)
    assert sorted(c.position for c, event, *_ in sent if event == "panel") == [0, 1, 2, 3]


def test_a_push_to_a_known_link_whose_seat_went_to_another_player_reloads_its_page(organizer):
    from tournaments.push import redraw

    table = digital_table(organizer, "trumpet", 4, round_minutes=60)
    conns = _streams_of(table)
    # the seat given to someone else behind the cache's back (no re-issue)
    newcomer = PlayerFactory(tournament=table.round.tournament, name="Neu")
    Seat.objects.filter(table=table, position=0).update(player=newcomer)
    move_once(table)
    live.forget_local()
    sent = {c.position: (event, text) for c, event, text, _v in redraw.table_pass(table.pk, conns)}
    assert sent[0] == (redraw.RELOAD, "")  # never that seat's screen with Neu's cards
    assert {sent[p][0] for p in (1, 2, 3)} == {"panel"}
