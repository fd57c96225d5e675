"""Push in a real browser, for every game: two phones (390×844, a browser
context each) at one digital table, served by the ASGI web server the site
runs (uvicorn with ``tournaments.asgi``'s handler, in a thread of this test
process). With the phones' polls blocked, a move on one phone appears on the
other within 1 s: only the push can have brought it (under the site's
Content-Security-Policy, as strict as before). Then the other phone's
push connection is cut (the server ends its stream, the browser can't open
a new one): the page falls back to its poll, and the next move appears
there too."""

from __future__ import annotations

import threading
import time

import pytest

from games import get_engine
from tests import serverproc
from tests.factories import deal_secret
from tests.seat_tokens import token_for
from tournaments import bus, services
from tournaments.models import Round, Seat, Table
from tournaments.play import bots
from tournaments.services import round_life

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
GAMES = ["quartett", "terra_trumpf", "trumpet", "monddaemmerung", "altruismus"]
#: a move shows on the other phone within this long by push …
PUSH_S = 1.0
#: … and by the fallback poll (every 0.8 s) within this long
POLL_S = 1.0


@pytest.fixture
def asgi_server(require_postgres):
    """The site's ASGI application under uvicorn in a thread, on 127.0.0.1.
    PostgreSQL only: the server's request threads open connections of their
    own, which an in-memory SQLite test database can't share."""
    import uvicorn
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler

    from tournaments.asgi import PooledHandler, RequestGuard

    port = serverproc.free_port()
    app = ASGIStaticFilesHandler(RequestGuard(PooledHandler(4)))
    config = uvicorn.Config(
        app, host="127.0.0.1", port=port, lifespan="off", log_level="warning", workers=1
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    end = time.monotonic() + 20
    while not server.started and time.monotonic() < end:
        time.sleep(0.05)
    assert server.started, "the ASGI server did not start"
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)


def phone(browser, url, problems: list[str]):
    """A phone under the site's real Content-Security-Policy (its refusals
    are collected in ``problems``)."""
    context = browser.new_context(locale="en-GB", viewport=PHONE, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.on(
        "console",
        lambda m: problems.append(m.text) if "Content Security Policy" in m.text else None,
    )
    response = page.goto(url)
    assert "default-src 'self'" in response.headers["content-security-policy"]
    return page


def _human_to_act(table, engine, humans: int) -> int | None:
    table.refresh_from_db()
    state = engine.load(table.state)
    if engine.is_over(state):
        return None
    acting = [s for s in engine.to_act(state) if s < humans]
    return acting[0] if acting else None


def _move_and_time_the_other(expect, pages, seat: int, within: float) -> float:
    """Play the first offered move on ``seat``'s phone; how long until the
    other phone shows a newer screen (asserted within ``within`` s)."""
    other = pages[1 - seat]
    before = other.locator("#play").get_attribute("data-version")
    mine = pages[seat].locator("#play").get_attribute("data-version")
    pages[seat].locator("#play button[name=action]").first.click()
    # the mover's own screen: its move is committed
    expect(pages[seat].locator("#play")).not_to_have_attribute("data-version", mine)
    start = time.monotonic()
    expect(other.locator("#play")).not_to_have_attribute(
        "data-version", before, timeout=within * 1000
    )
    return time.monotonic() - start


@pytest.mark.parametrize("game", GAMES)
def test_a_move_reaches_the_other_phone_by_push_and_by_poll_once_push_is_cut(
    browser, asgi_server, organizer, inline_bots, game
):
    from playwright.sync_api import expect

    engine = get_engine(game)
    size = max(2, engine.min_players)
    t = services.tournament_create(
        owner=organizer, name=f"Push {game}", game=game, digital_tables=True
    )
    rnd = Round.objects.create(tournament=t, number=1, minutes=30, published=True)
    table = Table.objects.create(round=rnd, number=1, digital=True, secret=deal_secret(31))
    for pos in range(size):
        p = services.player_add(tournament=t, by=organizer, name=f"Spieler {pos}")
        Seat.objects.create(table=table, player=p, position=pos)
    for pos in range(2, size):
        bots.seat_to_bot(table=table, position=pos)
    round_life.round_start(round=rnd, by=organizer)
    tokens = [token_for(table, pos) for pos in (0, 1)]
    problems: list[str] = []
    pages = [phone(browser, f"{asgi_server}/p/{token}/", problems) for token in tokens]

    # polling disabled: every poll of the play partial fails
    for page in pages:
        page.route("**/play/?v=*", lambda route: route.abort())
        expect(page.locator("html")).to_have_attribute("data-push", "live")

    pushed = []
    for _ in range(3):
        seat = _human_to_act(table, engine, 2)
        if seat is None:
            break
        pushed.append(_move_and_time_the_other(expect, pages, seat, PUSH_S))
    assert pushed, "a human phone had a move to make"

    # the push connection is cut for both phones: the server ends the streams
    # and the browsers can't open new ones; the polls are allowed again
    for page in pages:
        page.route("**/stream/**", lambda route: route.abort())
        page.unroute("**/play/?v=*")
    bus.publish_now([f"k:{token}" for token in tokens])
    for page in pages:
        expect(page.locator("html")).to_have_attribute("data-push", "off")
    polled = []
    for _ in range(2):
        seat = _human_to_act(table, engine, 2)
        if seat is None:
            break
        polled.append(_move_and_time_the_other(expect, pages, seat, POLL_S))
    table.refresh_from_db()
    assert polled or engine.is_over(engine.load(table.state))
    assert not problems, problems  # the push works under the policy as strict as before
    pages[1].screenshot(path=f"/tmp/push/{game}-after-fallback.png")
    print(
        f"{game}: push {', '.join(f'{s * 1000:.0f}' for s in pushed)} ms; "
        f"after the cut, by poll {', '.join(f'{s * 1000:.0f}' for s in polled)} ms"
    )
    for page in pages:
        page.context.close()


def test_a_pause_shows_on_the_phone_from_the_clock_alone(browser, asgi_server, organizer):
    """With the phone's polls blocked, the organizer pauses the round: the
    phone says "paused" and greys its moves within a second, its play
    partial not drawn anew (the same version); a resume undoes both."""
    from playwright.sync_api import expect

    t = services.tournament_create(
        owner=organizer, name="Push pause", game="quartett", digital_tables=True
    )
    rnd = Round.objects.create(tournament=t, number=1, minutes=30, published=True)
    table = Table.objects.create(round=rnd, number=1, digital=True, secret=deal_secret(31))
    for pos in range(2):
        p = services.player_add(tournament=t, by=organizer, name=f"Spieler {pos}")
        Seat.objects.create(table=table, player=p, position=pos)
    round_life.round_start(round=rnd, by=organizer)
    table.refresh_from_db()
    engine = get_engine("quartett")
    seat = engine.to_act(engine.load(table.state))[0]
    problems: list[str] = []
    page = phone(browser, f"{asgi_server}/p/{token_for(table, seat)}/", problems)
    page.route("**/play/?v=*", lambda route: route.abort())
    page.route("**/clock/**", lambda route: route.abort())
    expect(page.locator("html")).to_have_attribute("data-push", "live")
    note = page.locator("[data-paused-note]")
    moves = page.locator("#play button[name=action]")
    expect(note).to_be_hidden()
    expect(moves.first).to_be_enabled()
    version = page.locator("#play").get_attribute("data-version")

    rnd.refresh_from_db()
    round_life.round_pause(round=rnd, by=organizer)
    expect(note).to_be_visible(timeout=PUSH_S * 1000)
    expect(moves.first).to_be_disabled()
    expect(page.locator("[data-clock]")).to_have_attribute("data-status", "paused")
    assert page.locator("#play").get_attribute("data-version") == version

    rnd.refresh_from_db()
    round_life.round_resume(round=rnd, by=organizer)
    expect(note).to_be_hidden(timeout=PUSH_S * 1000)
    expect(moves.first).to_be_enabled()
    assert page.locator("#play").get_attribute("data-version") == version
    assert not problems, problems
    page.context.close()
