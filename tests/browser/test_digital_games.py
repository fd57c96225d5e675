"""Every game at a digital table in a real browser: two players on phones
(390×844, each a browser context of their own, through their seat links)
and the game's bot in the third seat play until the game ends or time is
called; both phones show the result, the spectator view on the projector
shows the table without anyone's cards, and the result is in the standings
with the bot seat marked."""

import re

import pytest

from games import get_engine
from tests.browser import sessions
from tests.browser.turns import players_turn
from tests.factories import deal_secret
from tests.timetravel import past_deadline
from tournaments import services
from tournaments.models import Round, Seat, Table
from tournaments.play import bots
from tournaments.play import tables as digital
from tournaments.play.screen import seat_version
from tournaments.services import round_life

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
NAMES = ["Ayşe Şahin", "Łukasz Wróbel", "Grete Bot-Ersatz"]
#: human moves played in the browser before time is called (if the game
#: has not ended by then): keeps each test well under 40 s
HUMAN_MOVES = 8


def phone(browser, url):
    context = browser.new_context(locale="en-GB", viewport=PHONE, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(url)
    return page


@pytest.mark.parametrize(
    "game", ["quartett", "terra_trumpf", "trumpet", "monddaemmerung", "altruismus"]
)
def test_two_phones_and_a_bot_play_a_game_into_the_standings(
    browser, live_server, organizer, inline_bots, game, tmp_path
):
    from playwright.sync_api import expect

    from tests.seat_tokens import token_for

    t = services.tournament_create(
        owner=organizer, name=f"Digitalabend {game}", game=game, digital_tables=True
    )
    t.grace_seconds = 0
    t.save()
    rnd = Round.objects.create(tournament=t, number=1, minutes=30, published=True)
    table = Table.objects.create(round=rnd, number=1, digital=True, secret=deal_secret(2024))
    seats = []
    for pos, name in enumerate(NAMES):
        p = services.player_add(tournament=t, by=organizer, name=name)
        seats.append(Seat.objects.create(table=table, player=p, position=pos))
    bots.seat_to_bot(table=table, position=2)  # the organizer's choice before play

    pages = [phone(browser, f"{live_server.url}/p/{token_for(table, pos)}/") for pos in (0, 1)]
    round_life.round_start(round=rnd, by=organizer)
    engine = get_engine(game)

    moves = 0
    while moves < HUMAN_MOVES:
        _, to_act = players_turn(table, engine, {0, 1})
        if not to_act:  # the game is over
            break
        seat = to_act[0]
        page = pages[seat]
        # the phone shows the table as it is now (polled), with its turn
        expect(page.locator("#play")).to_have_attribute("data-version", seat_version(seats[seat]))
        expect(page.locator("#play .play-status")).to_contain_text("Your turn.")
        before = page.locator("#play").get_attribute("data-version")
        page.locator("#play button[name=action]").first.click()
        expect(page.locator("#play")).not_to_have_attribute("data-version", before)
        expect(page.locator("#play .play-error")).to_have_count(0)
        moves += 1

    table.refresh_from_db()
    if not engine.is_over(engine.load(table.state)):
        # time: the round closes (as the sweep would); after the grace period
        # the bot plays out what is left
        past_deadline(rnd)
        assert round_life.round_time_up(rnd.pk)
        digital.table_finish(table_id=table.pk)
    table.refresh_from_db()
    assert table.status == Table.DONE
    for page in pages:
        expect(page.locator("#play .play-result")).to_be_visible()
        expect(page.locator("#play .play-result")).to_contain_text(NAMES[2])
    bot_moves = table.actions.filter(seat=2, by_bot=True).count()
    assert bot_moves or moves < 3, "the bot played its seat"

    # the spectator view on the projector: the table, nobody's cards
    context = browser.new_context(locale="en-GB", viewport={"width": 1920, "height": 1080})
    big = context.new_page()
    big.goto(f"{live_server.url}/t/{t.pk}/rounds/1/tables/1/")
    expect(big.locator("#watch")).to_contain_text(NAMES[0])
    state = engine.load(table.state)
    shown = set(re.findall(r'data-card="([^"]*)"', big.content()))
    assert not shown & set(engine.hidden(state, None))
    big.screenshot(path=str(tmp_path / f"watch-{game}.png"))

    # the standings: all three players, the bot seat's player marked
    big.goto(f"{live_server.url}/t/{t.pk}/standings/")
    for pos, name in enumerate(NAMES):
        row = big.locator("tr", has_text=name)
        expect(row).to_have_count(1)
        expect(row.locator(".tag-bot")).to_have_count(1 if pos == 2 else 0)
    context.close()
    for page in pages:
        page.context.close()


def test_the_organizer_gives_an_idle_seat_to_the_bot_and_hands_it_back(
    browser, live_server, organizer, inline_bots, settings
):
    from playwright.sync_api import expect

    from tests.seat_tokens import token_for

    settings.DIGITAL_IDLE_SECONDS = 0  # every seat the game waits for counts as idle
    t = services.tournament_create(
        owner=organizer, name="Abendturnier", game="monddaemmerung", digital_tables=True
    )
    rnd = Round.objects.create(tournament=t, number=1, minutes=30, published=True)
    table = Table.objects.create(round=rnd, number=1, digital=True, secret=deal_secret(7))
    for pos, name in enumerate(NAMES):
        p = services.player_add(tournament=t, by=organizer, name=name)
        Seat.objects.create(table=table, player=p, position=pos)
    round_life.round_start(round=rnd, by=organizer)
    engine = get_engine("monddaemmerung")
    table.refresh_from_db()
    waiting = engine.to_act(engine.load(table.state))[0]

    player = phone(browser, f"{live_server.url}/p/{token_for(table, waiting)}/")
    expect(player.locator("#play .play-status")).to_contain_text("Your turn.")

    context = sessions.logged_in_context(browser, live_server, organizer)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.goto(f"{live_server.url}/tournaments/{t.pk}/rounds/1/")
    row = page.locator(f'#round-digital li[data-seat="{waiting}"]')
    expect(row.locator(".tag-idle")).to_be_visible()
    row.get_by_role("button", name="Give to the bot").click()  # one press
    expect(page.locator("#round-digital")).to_contain_text(
        f"The bot plays for {NAMES[waiting]} at table 1 now."
    )
    row = page.locator(f'#round-digital li[data-seat="{waiting}"]')
    expect(row.get_by_role("button", name=f"Hand back to {NAMES[waiting]}")).to_be_visible()
    assert table.actions.filter(seat=waiting, by_bot=True).exists()  # the bot moved at once
    expect(player.locator("#play .play-bot")).to_contain_text("The bot plays your seat now.")

    row.get_by_role("button", name=f"Hand back to {NAMES[waiting]}").click()
    expect(page.locator("#round-digital")).to_contain_text(
        f"{NAMES[waiting]} plays at table 1 again."
    )
    expect(player.locator("#play .play-bot")).to_have_count(0)
    assert not Seat.objects.get(table=table, position=waiting).bot
    context.close()
    player.context.close()
