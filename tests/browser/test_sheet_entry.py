"""Typing a pile of paper sheets in without the mouse, on a
desktop and on a phone: focus starts in the first field, Tab follows the
sheet, Enter saves and opens the next table without a result. A correction
is saved by one press after its preview."""

from __future__ import annotations

import pytest

from games import get_engine
from scoring import services
from scoring.models import Submission
from tests.browser.sessions import login_with_form
from tests.scoring.test_result_entry import make_table, make_tables
from tournaments.models import Round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {"desktop": (1280, 800), "phone": (390, 844)}
SHEETS = [[12, 10, 8], [20, 10, 0], [11, 12, 7], [5, 15, 10], [30, 0, 0]]  # 30 cards in play


@pytest.fixture
def tables(organizer):
    return make_tables(organizer, "quartett", count=5)


def entry_path(table) -> str:
    return f"/tournaments/{table.round.tournament_id}/rounds/1/tables/{table.number}/result/"


def focused(page) -> str:
    return page.evaluate("document.activeElement && document.activeElement.name || ''")


def no_sideways_scroll(page) -> bool:
    return page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )


@pytest.mark.parametrize("size", list(SIZES))
def test_five_sheets_by_keyboard_with_save_and_next(page, live_server, organizer, tables, size):
    page.set_viewport_size(dict(zip(("width", "height"), SIZES[size], strict=True)))
    schema = get_engine("quartett").sheet_schema(3, None)
    order = [f"sheet-{spec['name']}" for spec in schema]
    login_with_form(page, live_server.url)
    page.goto(live_server.url + entry_path(tables[0]))
    assert no_sideways_scroll(page)
    if size == "phone":
        page.screenshot(path="/tmp/dayb-entry-phone.png", full_page=True)
    for k, cards in enumerate(SHEETS):
        table = tables[k]
        page.wait_for_url(f"**{entry_path(table)}")
        assert focused(page) == order[0], f"table {table.number}: focus not on the first field"
        seen = [focused(page)]
        for seat, n in enumerate(cards):
            target = f"sheet-s{seat}_cards"
            while focused(page) != target:
                page.keyboard.press("Tab")
                seen.append(focused(page))
                assert len(seen) <= len(order), f"Tab never reached {target}: {seen}"
            if n == 0:
                # out of cards: tick "out" with the space bar, enter the order
                page.keyboard.press("Tab")
                assert focused(page) == f"sheet-s{seat}_out"
                page.keyboard.press("Space")
                page.keyboard.press("Tab")
                assert focused(page) == f"sheet-s{seat}_out_order"
                page.keyboard.type("2" if seat == 1 else "1")
                seen += [f"sheet-s{seat}_out", f"sheet-s{seat}_out_order"]
            else:
                page.keyboard.type(str(n))
        assert seen == [name for name in order if name in seen], "Tab order is not sheet order"
        page.keyboard.press("Enter")
        page.wait_for_load_state()
        if k < len(SHEETS) - 1:
            page.wait_for_url(f"**{entry_path(tables[k + 1])}")
            page.get_by_text(f"Table {table.number}: version 1 saved and counted.").wait_for()
    page.get_by_text("Every table of round 1 has a result now.").wait_for()
    assert Submission.objects.filter(status=Submission.CONFIRMED).count() == 5
    assert Round.objects.get(pk=tables[0].round_id).status == Round.COMPLETE


@pytest.mark.parametrize("size", list(SIZES))
def test_a_correction_is_saved_with_one_press_after_its_preview(
    page, live_server, organizer, tables, size
):
    page.set_viewport_size(dict(zip(("width", "height"), SIZES[size], strict=True)))
    table = tables[0]
    sheet = {"s0_cards": 12, "s1_cards": 10, "s2_cards": 8}
    services.result_submit(table=table, sheet=sheet, by=organizer, expected_version=None)
    login_with_form(page, live_server.url)
    page.goto(live_server.url + entry_path(table))
    page.fill('input[name="sheet-s0_cards"]', "8")
    page.fill('input[name="sheet-s2_cards"]', "12")
    page.get_by_role("button", name="Save correction", exact=True).click()
    page.locator("#preview").wait_for()
    assert Submission.objects.filter(table=table).count() == 1
    # time was called: the reason has the focus; typing it and one press saves
    assert focused(page) == "reason"
    page.keyboard.type("cards of seats 1 and 3 swapped")
    if size == "phone":
        page.screenshot(path="/tmp/dayb-preview-phone.png", full_page=True)
        assert no_sideways_scroll(page)
    page.get_by_role("button", name="Save correction", exact=True).click()
    page.get_by_text("Table 1: version 2 saved and counted.").wait_for()
    current = Submission.objects.get(table=table, status=Submission.CONFIRMED)
    assert current.version == 2 and current.ranks == [3, 2, 1]
    assert current.reason == "cards of seats 1 and 3 swapped"


def test_every_games_result_form_fits_a_phone(page, live_server, organizer):
    from tests.scoring.test_result_entry import GAMES

    page.set_viewport_size({"width": 390, "height": 844})
    login_with_form(page, live_server.url)
    for game, spec in GAMES.items():
        table = make_table(organizer, game, options=spec["options"])
        page.goto(live_server.url + entry_path(table))
        page.locator("#sheet-form").wait_for()
        page.screenshot(path=f"/tmp/dayb-form-{game}.png", full_page=True)
        assert no_sideways_scroll(page), game


def test_an_unfinished_game_while_the_round_runs_asks_first(page, live_server, organizer):
    tables = make_tables(organizer, "quartett", count=5, running=True)  # started by the clock
    table = tables[0]
    page.set_viewport_size({"width": 390, "height": 844})
    login_with_form(page, live_server.url)
    page.goto(live_server.url + entry_path(table))
    for seat, cards in enumerate([12, 10, 8]):
        page.fill(f'input[name="sheet-s{seat}_cards"]', str(cards))
    page.keyboard.press("Enter")
    page.get_by_text("Did this game really end before time?").wait_for()
    page.get_by_text("3 players still hold cards.").wait_for()
    assert not Submission.objects.exists()
    # the answer has the focus: Enter confirms and saves
    page.keyboard.press("Enter")
    page.wait_for_url(f"**{entry_path(tables[1])}")
    assert Submission.objects.get(table=table).status == Submission.CONFIRMED
