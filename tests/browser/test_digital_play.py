"""Two players at a digital Quartett table, each on his own phone (a browser
context of its own) through his seat link: the page waits for the round,
the moves appear on both pages, a move out of turn is refused with its
message, and when time is called both pages say so."""

import re

import pytest

from games import get_engine
from tests.factories import digital_table
from tests.timetravel import past_deadline
from tournaments.models import Seat, TableAction
from tournaments.play.links import seat_token
from tournaments.services import deadlines, round_life

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = ["Ayşe Şahin", "Łukasz Wróbel"]


def state_of(table):
    table.refresh_from_db()
    return get_engine("quartett").load(table.state)


def test_two_players_play_quartett_through_their_seat_links(
    browser, live_server, organizer, monkeypatch
):
    from playwright.sync_api import expect

    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)  # no worker
    table = digital_table(
        organizer, "quartett", 2, start=False, name="Digitalabend", names=NAMES, round_minutes=30
    )
    rnd = table.round

    pages = []
    for pos in range(2):
        context = browser.new_context(locale="en-GB")
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.goto(f"{live_server.url}/p/{seat_token(Seat.objects.get(table=table, position=pos))}/")
        expect(page.locator("#play")).to_contain_text(
            "The game starts when the organizer starts the round."
        )
        pages.append(page)

    # the organizer starts the round: both pages deal themselves in by polling
    round_life.round_start(round=rnd, by=organizer)
    expect(pages[0].locator("#play")).to_contain_text("Your turn.")
    expect(pages[1].locator("#play")).to_contain_text("Ayşe Şahin names an attribute.")
    assert pages[1].locator("#play button[name=action]").count() == 0

    # a few moves, each by the player whose turn it is, through his page
    engine = get_engine("quartett")
    for move in range(3):
        state = state_of(table)
        seat = engine.to_act(state)[0]
        page = pages[seat]
        expect(page.locator("#play")).to_contain_text("Your turn.")
        version = page.locator("#play").get_attribute("data-version")
        button = page.locator("#play .play-actions button").first
        label = button.inner_text()
        assert label.startswith("Announce ")
        button.click()
        expect(page.locator("#play")).not_to_have_attribute("data-version", version)
        expect(page.locator("#play")).to_contain_text("Last comparison:")
        assert TableAction.objects.filter(table=table).count() == move + 1
        # the other player's page shows the move without a reload
        other = pages[1 - seat]
        attribute = label.removeprefix("Announce ").rsplit(" (", 1)[0]
        expect(other.locator("#play .play-last h3")).to_have_text(f"Last comparison: {attribute}")

    # out of turn: the move is refused with its message, nothing changes
    state = state_of(table)
    waiting = 1 - engine.to_act(state)[0]
    page = pages[waiting]
    page.evaluate(
        """url => htmx.ajax('POST', url, {source: '#play', target: '#play', swap: 'outerHTML',
                                           values: {action: 'announce:distance'}})""",
        f"/p/{seat_token(Seat.objects.get(table=table, position=waiting))}/move/",
    )
    expect(page.locator("#play .play-error")).to_contain_text(
        f"It is not your turn: waiting for {NAMES[1 - waiting]}."
    )
    assert state_of(table) == state
    assert TableAction.objects.filter(table=table).count() == 3

    # time: the round is closed (as the sweep would); both pages learn it
    past_deadline(rnd)
    assert round_life.round_time_up(rnd.pk)
    for page in pages:
        expect(page.locator("#play .play-time")).to_contain_text("Time called")
        # "Time!", or — when calling time ended the game and its result is
        # in — the round is over
        expect(page.locator("#round-clock")).to_contain_text(re.compile("Time!|Round 1 ended"))
    for page in pages:
        page.context.close()
