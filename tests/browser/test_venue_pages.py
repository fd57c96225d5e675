"""The venue's screens: the projector at 1920×1080 shows every one of 150
players with their table within one rotation, nothing overflowing; "check in
all" at the door; a phone (390×844) enters a result without sideways
scrolling."""

import time

import pytest

from tests.browser.sessions import login_with_form
from tests.factories import PlayerFactory, digital_table, one_table, seated_round
from tests.timetravel import past_deadline
from tournaments import services
from tournaments.collation import sort_by_name
from tournaments.models import Round, Seat
from tournaments.services import deadlines, round_life

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FIRST = ["Anna", "Łukasz", "Şahin", "Ümit", "Maximiliane", "Jörg", "Zoë", "Bartholomäus", "Ida"]
LAST = ["Müller-Lüdenscheidt", "Özdemir", "Łapiński", "Schmidt", "Yılmaz", "Weiß", "Nowak"]


def big_round(tournament, organizer, n=150) -> Round:
    """Round 1 of ``n`` players seated and published through the services
    (150 at tables of 3 to 5: 36 tables of four and two of three)."""
    for i in range(n):
        PlayerFactory(
            tournament=tournament,
            name=f"{FIRST[i % len(FIRST)]} {LAST[(i // len(FIRST)) % len(LAST)]} {i:03d}",
            club="SK Nord" if i % 3 else "",
        )
    rnd = seated_round(tournament, by=organizer)
    assert rnd.tables.count() == 38 and rnd.minutes == 45
    return rnd


def no_overflow(page) -> list[str]:
    """What sticks out of the screen or is cut: every element of the header
    and the visible slide inside the window, table numbers never clipped or
    wrapped."""
    return page.evaluate(
        """() => {
        const bad = [];
        const els = document.querySelectorAll(
          '.projector-head *, .slide:not([hidden]) *:not(li[hidden]):not(li[hidden] *):not(.who *)');
        for (const el of els) {
          const r = el.getBoundingClientRect();
          if (r.width === 0 && r.height === 0) continue;
          if (r.right > innerWidth + 1 || r.bottom > innerHeight + 1 || r.left < -1)
            bad.push(el.tagName + '.' + el.className + ' ' + el.textContent.slice(0, 30));
        }
        document.querySelectorAll('.slide:not([hidden]) li:not([hidden]) .where').forEach(el => {
          if (el.scrollWidth > el.clientWidth + 1 || el.getClientRects().length !== 1
              || el.getBoundingClientRect().height > 1.6 * parseFloat(getComputedStyle(el).fontSize))
            bad.push('table number cut: ' + el.textContent);
        });
        return bad;
      }"""
    )


def test_projector_shows_all_150_names_within_one_cycle(
    browser, live_server, tournament, organizer, monkeypatch
):
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)
    tournament.public = True
    tournament.save()
    rnd = big_round(tournament, organizer)
    round_life.round_start(round=rnd, by=organizer)
    table7 = rnd.tables.get(number=7)
    round_life.table_extend(table=table7, by=organizer, seconds=300)
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="en-GB")
    page = context.new_page()
    url = f"{live_server.url}/t/{tournament.pk}/rounds/1/projector/?show=clock,seating&seconds=3"
    page.goto(url)
    page.wait_for_selector("[data-slide=clock]:not([hidden])")
    assert "Table 7: +5:00" in page.inner_text("[data-slide=clock]")
    assert page.locator(".qr--big svg").count() == 1
    assert not no_overflow(page)
    page.screenshot(path="/tmp/projector-clock.png")

    expected = [
        (s.player.name, s.table.number)
        for s in sort_by_name(
            Seat.objects.filter(table__round=rnd).select_related("player", "table"),
            lambda s: s.player.name,
        )
    ]
    seen: list[tuple[str, int]] = []
    pages_seen = set()
    deadline = time.monotonic() + 40
    while time.monotonic() < deadline:
        state = page.evaluate(
            """() => { const s = document.querySelector('[data-slide=seating]');
            return {shown: !s.hidden, page: s.dataset.page, pages: s.dataset.pages,
              rows: [...s.querySelectorAll('li:not([hidden])')].map(li =>
                [li.querySelector('.who').firstChild.textContent.trim(),
                 Number(li.querySelector('.where').textContent)])}; }"""
        )
        if state["shown"] and state["page"] not in pages_seen:
            pages_seen.add(state["page"])
            seen.extend(tuple(r) for r in state["rows"])
            assert not no_overflow(page)
            if len(pages_seen) == 1:
                page.screenshot(path="/tmp/projector-seating.png")
            if len(pages_seen) == int(state["pages"]):
                break
        time.sleep(0.3)
    # every player once, in German alphabetical order, with the right table
    assert seen == expected
    assert len(pages_seen) <= 4  # large type, but not a slide show of 20 pages
    assert "Table 7: +5:00" in page.inner_text("[data-slide=seating]")

    # time is called: "Time!", table 7 plays its extra time, the 37 others
    # owe their sheet — and all of it fits
    past_deadline(rnd)
    round_life.round_time_up(rnd.pk, via="test")
    page.goto(url.replace("show=clock,seating", "show=tables,seating"))
    page.wait_for_selector("[data-slide=tables]:not([hidden])")
    page.wait_for_selector("[data-clock][data-status=time_called]")
    slide = page.inner_text("[data-slide=tables]")
    assert "1 table still playing" in slide and "Score sheets missing from 37 tables" in slide
    assert page.locator("[data-slide=tables] ul.table-numbers li").count() == 38
    page.screenshot(path="/tmp/projector-tables.png")
    assert not no_overflow(page)
    page.wait_for_selector("[data-slide=seating]:not([hidden])", timeout=8000)
    assert not no_overflow(page)
    context.close()


def test_check_in_all_at_the_door(page, live_server, tournament, organizer):
    for name in ["Uwe", "Łukasz", "Şahin", "Anna"]:
        services.player_add(tournament=tournament, by=organizer, name=name)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill('input[name="username"]', "orga")
    page.fill('input[name="password"]', "pw-orga-12345")
    page.get_by_role("button", name="Log in").click()
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/players/")
    names = page.locator("table.players tbody tr td:first-child").all_inner_texts()
    assert [n.strip() for n in names] == ["Anna", "Łukasz", "Şahin", "Uwe"]
    # search as you type, marks ignored
    page.fill("[data-player-search]", "lukasz")
    assert page.locator("table.players tbody tr:visible").count() == 1
    page.fill("[data-player-search]", "")
    page.screenshot(path="/tmp/players-phone.png", full_page=True)
    assert page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    # one by its own button: the row and the counts above follow
    page.locator("table.players tbody tr").first.get_by_role("button", name="Check in").click()
    page.wait_for_selector("table.players tr.in")
    assert "1 checked in · 3 not yet checked in" in page.inner_text("#player-counts")
    page.once("dialog", lambda d: d.accept())
    page.get_by_role("button", name="Check in all (3)").click()
    page.wait_for_selector("text=3 players checked in.")
    assert page.locator("table.players tr.in").count() == 4
    assert tournament.players.filter(checked_in=True).count() == 4


@pytest.mark.parametrize(
    "game", ["quartett", "terra_trumpf", "trumpet", "monddaemmerung", "altruismus"]
)
def test_result_form_fits_a_phone_without_sideways_scrolling(
    page, live_server, organizer, game, monkeypatch
):
    from games import ENGINES

    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)
    engine = ENGINES[game]
    size = min(max(4, engine.min_players), engine.max_players)
    table = one_table(
        organizer,
        game,
        size,
        name="Abend",
        names=[f"{FIRST[pos]} {LAST[pos]}" for pos in range(size)],
        club="SK Nord",
        start=True,
    )
    t = table.round.tournament
    page.set_viewport_size({"width": 390, "height": 844})
    login_with_form(page, live_server.url)
    page.goto(f"{live_server.url}/tournaments/{t.pk}/rounds/1/tables/1/result/")
    page.wait_for_selector("form.sheet-form")
    page.screenshot(path=f"/tmp/result-{game}.png", full_page=True)
    widths = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert widths[0] <= widths[1], widths
    # nothing inside scrolls sideways on its own either
    # (a text only for screen readers is clipped to a pixel on purpose)
    inner = page.evaluate(
        """[...document.querySelectorAll('main *')].filter(el =>
            el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible'
            && el.clientWidth > 0 && !el.classList.contains('visually-hidden'))
            .map(el => el.tagName + '.' + el.className)"""
    )
    assert not inner, inner


@pytest.mark.parametrize("game", ["trumpet", "terra_trumpf", "quartett", "monddaemmerung"])
def test_a_digital_table_on_a_phone_shows_the_hand_first_and_fits(
    browser, live_server, organizer, game, monkeypatch
):
    from games import ENGINES
    from tests.seat_tokens import token_for

    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)
    engine = ENGINES[game]
    size = min(max(4, engine.min_players), engine.max_players)
    table = digital_table(
        organizer,
        game,
        size,
        name="Digital",
        names=[f"{FIRST[pos]} {LAST[pos]}" for pos in range(size)],
        round_minutes=30,
    )
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    page = context.new_page()
    page.goto(f"{live_server.url}/p/{token_for(table, 0)}/")
    page.wait_for_selector("#play .play-hand, #play .play-actions")
    page.screenshot(path=f"/tmp/play-{game}.png", full_page=True)
    widths = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert widths[0] <= widths[1], widths
    # the player's moves (a decision to take, or the cards to play) start on
    # the first screen, before the players table and the seat order
    top = page.evaluate(
        "document.querySelector('#play .play-actions, #play .play-hand')"
        ".getBoundingClientRect().top"
    )
    assert top < 844 * 0.6, top
    order = page.evaluate(
        "[...document.querySelectorAll('.play-hand, .play-players, .seat-order')]"
        ".map(el => [el.className, el.getBoundingClientRect().top])"
    )
    tops = dict(order)
    assert tops["play-cards play-hand"] < tops["play-players"] < tops["seat-order"], order
    context.close()
