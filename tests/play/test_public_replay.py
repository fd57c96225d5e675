"""The public replay of a digital table gives away no hidden card: at every step of 50 random games per game, the public label of the
move names no card id and no card name of what some seat keeps hidden then
(another's hand, the draw pile, a pick face down); the rendered public page
neither, for a few steps of a game per game and in both languages. The
organizer sees every hand, a scorekeeper once the table is over; archived
tournaments have no public table pages."""

import html
import random

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from games import ENGINES, get_engine
from games.base import TIME_CALLED
from tests.factories import digital_table
from tests.public_replay import named, random_games
from tournaments.models import Table, TableAction, Tournament
from tournaments.play import bots, watch
from tournaments.play import tables as digital
from tournaments.play.base import Ctx, card_index
from tournaments.play.screen import presentation
from tournaments.services import round_life, scorekeepers

GAMES = 50
NAMES = [f"Spielerin {k}" for k in range(6)]


def card_titles(engine, state) -> dict[str, str]:
    """Every card's name as the pages show it, in the active language."""
    cards = card_index(engine, state["players"], state["options"])
    ctx = Ctx(engine=engine, view={}, legal=[], seat=None, names=[], cards=cards)
    game = presentation(engine.id)
    return {cid: game.card_title(ctx, cid) for cid in cards}


def secrets(engine, state, titles) -> set[str]:
    """The hidden cards of ``state`` (every seat's private information the
    public view doesn't show, the draw pile) as ids and as names."""
    hidden = engine.hidden(state, None)
    return set(hidden) | {titles[c] for c in hidden}


def step_of(k, seat, action) -> watch.Step:
    return watch.Step(k, None if seat < 0 else seat, action, False, None)


# -- every label of 50 random games per game (no database) --------------------------


@pytest.mark.parametrize("game_id", sorted(ENGINES))
def test_no_public_label_of_50_random_games_names_a_hidden_card(game_id):
    engine = get_engine(game_id)
    labels = caught = 0
    for game in random_games(engine, GAMES):
        names = NAMES[: game.players]
        # English for every game, German for every fifth
        for language in ("en", "de") if game.seed % 5 == 0 else ("en",):
            with translation.override(language):
                titles = card_titles(engine, game.states[0])
                for k, before, seat, action, after in game.steps():
                    label = watch.public_move_label(
                        engine, before, after, names, step_of(k, seat, action)
                    )
                    where = f"{game_id} seed={game.seed} step={k} {language}: {label!r}"
                    secret = secrets(engine, after, titles)
                    assert not named(label, secret), where
                    # the game's own words for every move, not the plain fallback
                    assert label and "makes a move" not in label, where
                    labels += 1
                    if (seat, action) != TIME_CALLED:
                        # the mover's own label (the organizer's) would have told
                        private = watch._move_label(engine, before, names, step_of(k, seat, action))
                        caught += bool(named(private, secret))
    assert labels >= GAMES * 20
    # the check can fail: where the mover's label names a hidden card, the
    # public one does not (Quartett's announcements name no card either way)
    assert caught > 0 or game_id == "quartett"


# -- the rendered public page -----------------------------------------------------------

PAGE_GAMES = [
    ("quartett", 2),
    ("terra_trumpf", 2),
    ("trumpet", 2),
    ("monddaemmerung", 3),
    ("altruismus", 2),
]


def played_table(organizer, game, players, bot_seats=None):
    """A digital table whose bot seats (default: all) play as far as they can."""
    table = digital_table(organizer, game, players, start=False, names=NAMES[:players])
    for pos in range(players) if bot_seats is None else bot_seats:
        bots.seat_to_bot(table=table, position=pos)
    round_life.round_start(round=table.round, by=organizer)
    table.refresh_from_db()
    return table


def page_text(response) -> str:
    assert response.status_code == 200
    return html.unescape(response.content.decode())


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("inline_bots")
@pytest.mark.parametrize("game,players", PAGE_GAMES)
def test_the_public_review_page_shows_no_hidden_card_at_any_step_checked(
    client, organizer, game, players
):
    table = played_table(organizer, game, players)
    engine = get_engine(game)
    t = table.round.tournament
    rows = list(TableAction.objects.filter(table=table).order_by("number"))
    states = digital.replay_states(table, rows)
    names = NAMES[:players]
    titles = dict.fromkeys(("en", "de"))
    for lang in titles:
        with translation.override(lang):
            titles[lang] = card_titles(engine, states[0])
    # the steps whose mover's label names a hidden card (the old leaks), a
    # few at random, the deal and the end
    with translation.override("en"):
        leaky = [
            k
            for k, row in enumerate(rows, start=1)
            if (row.seat, row.action) != TIME_CALLED
            and named(
                watch._move_label(engine, states[k - 1], names, step_of(k, row.seat, row.action)),
                secrets(engine, states[k], titles["en"]),
            )
        ]
    pick = random.Random(f"{game}{len(rows)}")
    steps = sorted({0, len(rows), *leaky[:4], *pick.sample(range(len(rows) + 1), 3)})
    url = reverse("table_review_public", args=[t.pk, 1, 1])
    for k in steps:
        for lang in ("en", "de"):
            page = page_text(client.get(url, {"step": k}, HTTP_ACCEPT_LANGUAGE=lang))
            assert f'data-step="{k}"' in page
            assert not named(page, secrets(engine, states[k], titles[lang])), f"step {k} {lang}"
    watch_page = page_text(client.get(reverse("table_watch", args=[t.pk, 1, 1])))
    assert not named(watch_page, secrets(engine, states[-1], titles["en"]))


# -- who sees the hands ------------------------------------------------------------------


@pytest.fixture
def scorekeeper(django_user_model):
    return django_user_model.objects.create_user("zaehler", password="pw-zaehler-12345")


def seat_boxes(page: str) -> int:
    return page.count('class="card review-seat"')


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("inline_bots")
def test_a_scorekeeper_sees_the_hands_once_the_table_is_over_the_organizer_always(
    client, organizer, scorekeeper
):
    # Altruismus at three: the two bots pick face down and wait for seat 1
    table = played_table(organizer, "altruismus", 3, bot_seats=[1, 2])
    t = table.round.tournament
    scorekeepers.scorekeeper_add(tournament=t, username="zaehler")
    engine = get_engine("altruismus")
    state = engine.load(table.state)
    assert engine.to_act(state) == [0] and table.actions.count() == 2
    staff_url = reverse("table_review", args=[t.pk, 1, 1])
    with translation.override("en"):
        titles = card_titles(engine, state)
    hidden = secrets(engine, state, titles)

    # the public pages of the running table: the two picks are face down
    for name in ("table_watch", "table_review_public"):
        page = page_text(client.get(reverse(name, args=[t.pk, 1, 1])))
        assert not named(page, hidden), name

    client.force_login(scorekeeper)
    page = page_text(client.get(staff_url, HTTP_ACCEPT_LANGUAGE="en"))
    assert seat_boxes(page) == 0 and 'data-review="public"' in page
    assert "Public replay while the table runs" in page
    assert "Spielerin 2 picks a card face down." in page
    assert not named(page, hidden)
    page = page_text(client.get(staff_url, HTTP_ACCEPT_LANGUAGE="de"))
    assert "Öffentliche Wiederholung, solange der Tisch spielt" in page
    assert not named(page, secrets(engine, state, card_titles_in(engine, state, "de")))

    client.force_login(organizer)
    page = page_text(client.get(staff_url, HTTP_ACCEPT_LANGUAGE="en"))
    assert seat_boxes(page) == 3 and 'data-review="hands"' in page
    assert "to the organizer at any time, to scorekeepers once the table is over" in page
    assert "Everyone saw: Spielerin 2 picks a card face down." in page
    # the organizer's own copy of the public replay is the public one
    public = page_text(client.get(reverse("table_review_public", args=[t.pk, 1, 1])))
    assert seat_boxes(public) == 0 and not named(public, hidden)

    bots.seat_to_bot(table=table, position=0)  # the bot plays the game to its end
    table.refresh_from_db()
    assert engine.is_over(engine.load(table.state))
    client.force_login(scorekeeper)
    page = page_text(client.get(staff_url, {"step": 2}, HTTP_ACCEPT_LANGUAGE="en"))
    assert seat_boxes(page) == 3 and "the table is over" in page
    client.logout()  # the public gets no staff replay
    assert client.get(staff_url).status_code == 302


def card_titles_in(engine, state, language):
    with translation.override(language):
        return card_titles(engine, state)


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("inline_bots")
def test_an_archived_tournament_has_no_public_table_pages(client, organizer):
    table = played_table(organizer, "quartett", 2)
    t = table.round.tournament
    urls = [
        reverse(name, args=[t.pk, 1, 1])
        for name in ("table_watch", "table_watch_board", "table_review_public")
    ]
    for url in urls:
        assert client.get(url).status_code == 200
    Tournament.objects.filter(pk=t.pk).update(archived_at=timezone.now())
    for url in urls:
        assert client.get(url).status_code == 404, url
    # like the other public pages, its organizer still opens them
    client.force_login(organizer)
    for url in urls:
        assert client.get(url).status_code == 200, url
    assert client.get(reverse("table_review", args=[t.pk, 1, 1])).status_code == 200
    assert Table.objects.get(pk=table.pk).digital
