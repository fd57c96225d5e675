"""The clock's last five minutes in German, counted by the browser: the
minutes it says are the time it shows rounded up ("Noch 3 Minuten" at 2:54,
never "Noch 5 Minuten"), on the projector (1920×1080) and on a player's
phone (the public round page, 390×844)."""

import re

import pytest

from tests import factories
from tests.factories import PlayerFactory, TournamentFactory
from tournaments.services import deadlines, round_life

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PROJECTOR = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}

SAYS = """() => {
  const el = document.querySelector('[data-clock]');
  return [el.querySelector('[data-clock-time]').textContent,
          el.querySelector('[data-clock-signal]').textContent];
}"""


def minutes_said(signal: str) -> int:
    match = re.fullmatch(r"Noch (\d) Minuten?", signal)
    assert match, signal
    return int(match.group(1))


def minutes_shown(time_text: str) -> int:
    minutes, seconds = map(int, time_text.split(":"))
    return minutes + (seconds > 0)


@pytest.mark.parametrize(
    ("viewport", "path"),
    [(PROJECTOR, "projector/"), (PHONE, "")],
    ids=["projector", "phone"],
)
def test_the_minutes_said_follow_the_time_shown(
    browser, live_server, organizer, monkeypatch, viewport, path
):
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)  # no worker needed
    t = TournamentFactory(
        owner=organizer, name="Herbstturnier", public=True, allowed_sizes=[2], table_size=2
    )
    names = [["Iris Täubner", "Ole Brandt"], ["Şahin Yılmaz", "Lena Groß"]]
    order = [[PlayerFactory(tournament=t, name=n) for n in pair] for pair in names]
    rnd = factories.seated_round(t, order=order, publish=False)
    round_life.round_start(round=rnd, by=organizer, seconds=183)
    context = browser.new_context(locale="de-DE", viewport=viewport, bypass_csp=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(f"{live_server.url}/t/{t.pk}/rounds/1/{path}")
        time_text, signal = page.evaluate(SAYS)
        assert time_text.startswith("3:0"), time_text
        assert signal == "Noch 4 Minuten"
        # as the time passes 3:00 the browser itself says one minute less
        page.wait_for_function(
            "document.querySelector('[data-clock-signal]').textContent === 'Noch 3 Minuten'",
            timeout=8000,
        )
        for _ in range(5):
            time_text, signal = page.evaluate(SAYS)
            assert minutes_said(signal) == minutes_shown(time_text), (time_text, signal)
            page.wait_for_timeout(300)
        assert "Noch 5 Minuten" not in page.inner_text("body")
    finally:
        context.close()
