"""The pages keep their Content-Security-Policy: the organizer's round page,
the projector, a digital seat page and the result form load with no CSP
violation, htmx polls the clock's status and the clock counts down."""

import time

import pytest

from tests.browser import sessions
from tests.factories import deal_secret
from tests.seat_tokens import token_for
from tournaments import services
from tournaments.live import POLL_SECONDS
from tournaments.models import ClockActivation, Round, Seat, Table
from tournaments.services import deadlines, round_life

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

WATCH = """
window.__cspViolations = [];
document.addEventListener('securitypolicyviolation', function (e) {
  window.__cspViolations.push(e.violatedDirective + ' ' + e.blockedURI + ' ' + e.sourceFile + ':' + e.lineNumber + ' ' + e.sample);
});
"""


def logged_in_context(browser, live_server, user):
    context = sessions.logged_in_context(browser, live_server, user)
    context.add_init_script(WATCH)
    return context


def open_page(context, url, problems):
    page = context.new_page()
    page.set_default_timeout(15_000)
    page.on(
        "console",
        lambda m: (
            problems.append(f"{url}: {m.text}") if "Content Security Policy" in m.text else None
        ),
    )
    status_polls = []
    page.on("request", lambda r: status_polls.append(r.url) if "/status/" in r.url else None)
    response = page.goto(url)
    assert response.status == 200
    assert "default-src 'self'" in response.headers["content-security-policy"]
    return page, status_polls


def test_pages_work_under_the_content_security_policy(browser, live_server, organizer, monkeypatch):
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)  # no worker
    t = services.tournament_create(
        owner=organizer, name="CSP-Abend", game="quartett", digital_tables=True
    )
    rnd = Round.objects.create(tournament=t, number=1, minutes=30)
    digital = Table.objects.create(round=rnd, number=1, digital=True, secret=deal_secret(7))
    paper = Table.objects.create(round=rnd, number=2)
    for n, name in enumerate(["Ayşe", "Bernd", "Clara", "Dora"]):
        p = services.player_add(tournament=t, by=organizer, name=name)
        Seat.objects.create(table=digital if n < 2 else paper, player=p, position=n % 2)
    round_life.round_start(round=rnd, by=organizer, seconds=600)

    problems: list[str] = []
    context = logged_in_context(browser, live_server, organizer)
    base = live_server.url

    # the organizer's round page: htmx polls the status, the clock counts down
    page, polls = open_page(context, f"{base}/tournaments/{t.pk}/rounds/1/", problems)
    shown = page.locator("[data-clock-time]")
    first = shown.inner_text()
    time.sleep(POLL_SECONDS + 1)
    assert shown.inner_text() != first
    assert len(polls) >= 1, polls
    violations = page.evaluate("window.__cspViolations")
    # the one-table extension form works without inline script
    page.select_option("#table-extend select[name=table]", "2")
    page.fill("#table-extend input[name=minutes]", "3")
    page.click("#table-extend button[type=submit]")
    page.wait_for_url(f"{base}/tournaments/{t.pk}/rounds/1/")
    extra = ClockActivation.objects.get(table__isnull=False)
    assert (extra.table_id, extra.seconds) == (paper.pk, 180)

    # the projector
    page, polls = open_page(context, f"{base}/t/{t.pk}/rounds/1/projector/", problems)
    first = page.locator("[data-clock-time]").inner_text()
    time.sleep(POLL_SECONDS + 1)
    assert page.locator("[data-clock-time]").inner_text() != first
    assert len(polls) >= 1

    # a digital seat page (no login: its own context), of the player who waits: it polls
    phone = browser.new_context(locale="en-GB")
    phone.add_init_script(WATCH)
    page, _ = open_page(phone, f"{base}/p/{token_for(digital, 1)}/", problems)
    play_polls = []
    page.on("request", lambda r: play_polls.append(r.url) if "/play/" in r.url else None)
    page.wait_for_selector("#play")
    page.wait_for_timeout(3500)  # (lets Playwright deliver the request events)
    assert len(play_polls) >= 2, play_polls  # the seat page polls its game under the policy
    seat_violations = page.evaluate("window.__cspViolations")

    # the result form of the paper table
    page2, _ = open_page(context, f"{base}/tournaments/{t.pk}/rounds/1/tables/2/result/", problems)
    page2.wait_for_selector("form")
    violations += seat_violations + page2.evaluate("window.__cspViolations")
    phone.close()
    context.close()
    assert problems == [] and violations == []
