"""A field that doesn't divide, in a real browser: six players for
Monddämmerung at tables of four only. The seating puts the two left over at
the last table with two empty seats the bot plays; both play it on their
phones to the end (or to time called), their phones show the result with the
bot's seats, the organizer's seating page names the empty seats on a phone
and on the projector, and the standings list the six players, no bot."""

import pytest

from games import get_engine
from tests.browser import sessions
from tests.browser.turns import players_turn
from tests.timetravel import past_deadline
from tournaments import services
from tournaments.models import Seat, Table
from tournaments.play import bots
from tournaments.play import tables as digital
from tournaments.play.screen import seat_version
from tournaments.services import round_life, seating

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
PROJECTOR = {"width": 1920, "height": 1080}
NAMES = ["Ayşe Şahin", "Łukasz Wróbel", "Grete Mai", "Jonas Ebert", "Mia Roth", "Paul Kern"]
HUMAN_MOVES = 10


def logged_in(browser, live_server, user, viewport):
    context = sessions.logged_in_context(browser, live_server, user, viewport=viewport)
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def test_two_players_and_two_empty_seats_play_a_table_on_their_phones(
    browser, live_server, organizer, inline_bots, tmp_path
):
    from playwright.sync_api import expect

    from tests.seat_tokens import token_for

    t = services.tournament_create(
        owner=organizer,
        name="Mondabend",
        game="monddaemmerung",
        digital_tables=True,
        bot_fill=True,
        table_size=4,
        allowed_sizes=[4],
    )
    t.grace_seconds = 0
    t.save()
    for name in NAMES:
        p = services.player_add(tournament=t, by=organizer, name=name)
        services.player_set_checked_in(player=p, checked_in=True, by=organizer)
    rnd = seating.round_seat(tournament=t, by=organizer)

    # the organizer's draft, on a phone and on the projector
    for label, viewport in (("phone", PHONE), ("projector", PROJECTOR)):
        page = logged_in(browser, live_server, organizer, viewport)
        page.goto(f"{live_server.url}/tournaments/{t.pk}/rounds/1/seating/")
        expect(page.locator(".seating-counts")).to_contain_text("2 empty seats played by the bot")
        bot_table = page.locator("#table-2")
        expect(bot_table.locator(".bot-seat")).to_have_count(2)
        expect(bot_table).to_contain_text("The bot plays 2 empty seats")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"], f"{label}: the page is wider than the screen"
        page.screenshot(path=str(tmp_path / f"seating-{label}.png"), full_page=True)
        page.context.close()

    rnd = seating.seating_publish(round=rnd, by=organizer)
    table = rnd.tables.get(number=2)
    assert list(table.seats.order_by("position").values_list("bot", flat=True)) == [
        False,
        False,
        True,
        True,
    ]
    for seat in rnd.tables.get(number=1).seats.all():  # the full table: bots, out of sight
        bots.seat_to_bot(table=seat.table, position=seat.position)
    context = browser.new_context(locale="en-GB", viewport=PHONE, is_mobile=True)
    phones = []
    for pos in (0, 1):
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(f"{live_server.url}/p/{token_for(table, pos)}/")
        phones.append(page)
    round_life.round_start(round=rnd, by=organizer)
    engine = get_engine("monddaemmerung")
    seats = list(table.seats.order_by("position"))

    moves = 0
    while moves < HUMAN_MOVES:
        _, to_act = players_turn(table, engine, {0, 1})
        if not to_act:  # the game is over
            break
        page = phones[to_act[0]]
        expect(page.locator("#play")).to_have_attribute(
            "data-version", seat_version(seats[to_act[0]])
        )
        expect(page.locator("#play .play-status")).to_contain_text("Your turn.")
        before = page.locator("#play").get_attribute("data-version")
        page.locator("#play button[name=action]").first.click()
        expect(page.locator("#play")).not_to_have_attribute("data-version", before)
        expect(page.locator("#play .play-error")).to_have_count(0)
        moves += 1
    assert table.actions.filter(seat__in=[2, 3], by_bot=True).exists()

    table.refresh_from_db()
    if not engine.is_over(engine.load(table.state)):
        past_deadline(rnd)
        assert round_life.round_time_up(rnd.pk)
        for t_ in rnd.tables.all():
            digital.table_finish(table_id=t_.pk)
    table.refresh_from_db()
    assert table.status == Table.DONE
    for page in phones:
        expect(page.locator("#play .play-result")).to_be_visible()
        expect(page.locator("#play .play-result")).to_contain_text("Bot")
    phones[0].screenshot(path=str(tmp_path / "phone-result.png"), full_page=True)
    context.close()

    big = browser.new_context(locale="en-GB", viewport=PROJECTOR).new_page()
    big.goto(f"{live_server.url}/t/{t.pk}/standings/")
    for name in NAMES:
        expect(big.locator("tr", has_text=name)).to_have_count(1)
    expect(big.locator("tbody tr")).to_have_count(len(NAMES))  # no row for a bot
    assert Seat.objects.filter(table__round=rnd, player__isnull=True).count() == 2
    big.screenshot(path=str(tmp_path / "standings.png"))
    big.context.close()
