"""A Quartett championship with a final table, in the browser: 20 players,
3 qualifying rounds (played through the services), then the organizer sets
up a final table of 4 on the final page, sees who qualified and why, seats
the final (the leader at table 1 seat 1), starts its clock, the projector at
1920×1080 says "Finale", the paper sheet of the final is entered, and the
standings page, the final standings PDF and the certificates put the
finalists first, in the final's order."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pdfplumber
import pytest

from scoring import services as results
from scoring.standings.selectors import standings
from tests.browser.sessions import login_with_form
from tests.factories import PlayerFactory, TournamentFactory, seated_round
from tests.timetravel import past_deadline
from tournaments.models import Round, Seat
from tournaments.services import deadlines, round_life

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SHOTS = Path("/tmp/finals")
NAMES = [
    "Anna Şahin", "Bernd Łukasz", "Clara Weiß", "Dieter Groß", "Emil Öztürk",
    "Frieda Nagy", "Gustav Ahn", "Hanna Berg", "Ida Krause", "Jonas Ulrich",
    "Karla Fuchs", "Lena Roth", "Mats Vogel", "Nora Stein", "Otto Lind",
    "Paula Brandt", "Quirin Hahn", "Rosa Keller", "Sven Dahl", "Tilda Moser",
]  # fmt: skip


def quartett_sheet(tournament, order: list[int]) -> dict:
    """Seats finish in ``order`` (best first): 14, 9, 6 and 3 cards."""
    sheet = {f"s{seat}_cards": cards for seat, cards in zip(order, (14, 9, 6, 3), strict=True)}
    tournament.engine.check_sheet(4, sheet, tournament.game_options or {})
    return sheet


def qualifying_rounds(tournament, rng: random.Random) -> None:
    for number in (1, 2, 3):
        rnd = seated_round(tournament, seed=number, time_called=True)
        for table in rnd.tables.order_by("number"):
            order = [0, 1, 2, 3]
            rng.shuffle(order)
            results.result_submit(
                table=table,
                sheet=quartett_sheet(tournament, order),
                by=tournament.owner,
                expected_version=None,
            )
        rnd.refresh_from_db()
        assert rnd.status == Round.COMPLETE


def pdf_text(data: bytes) -> str:
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        return "\n".join(p.extract_text() or "" for p in pdf.pages)


def in_order(text: str, names: list[str]) -> bool:
    at = [text.index(n) for n in names]
    return at == sorted(at)


def test_a_final_table_on_paper_from_its_settings_to_the_certificates(
    page, browser, live_server, organizer, monkeypatch
):
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)  # no worker
    SHOTS.mkdir(parents=True, exist_ok=True)
    t = TournamentFactory(
        owner=organizer,
        name="Quartett-Meisterschaft",
        game="quartett",
        rounds=3,
        table_size=4,
        allowed_sizes=[4],
    )
    for name in NAMES:
        PlayerFactory(tournament=t, name=name)
    qualifying_rounds(t, random.Random(26))
    qualifying = [r.player_id for r in standings(t)]
    names = dict(t.players.values_list("pk", "name"))
    base = live_server.url
    page.set_viewport_size({"width": 1280, "height": 900})
    login_with_form(page, base)

    # the overview's next step leads to the final page; set up a final table of 4
    page.goto(f"{base}/tournaments/{t.pk}/")
    page.get_by_role("link", name="Final", exact=True).first.click()
    page.wait_for_url(f"**/tournaments/{t.pk}/final/")
    page.select_option('select[name="format"]', "table")
    page.fill('input[name="final_size"]', "4")
    page.fill('input[name="minutes"]', "30")
    page.select_option('select[name="mode"]', "replace")
    page.get_by_role("button", name="Save").click()
    page.get_by_text("The final stage's settings are saved.").wait_for()
    qualified = page.locator("#final-qualification tr.qualified")
    assert qualified.count() == 4
    assert "Qualified: place 1 on points." in qualified.first.inner_text()
    assert names[qualifying[0]] in qualified.first.inner_text()
    page.screenshot(path=str(SHOTS / "final-page.png"), full_page=True)

    # seat the final: the leader at table 1 seat 1, the round page says "Final"
    page.get_by_role("button", name="Seat the final").click()
    page.wait_for_url(f"**/tournaments/{t.pk}/rounds/4/")
    assert "Final" in page.locator("h2").first.inner_text()
    seats = list(
        Seat.objects.filter(table__round__tournament=t, table__round__number=4)
        .order_by("position")
        .values_list("player_id", flat=True)
    )
    assert seats == qualifying[:4]
    page.get_by_role("button", name="Start the round").click()
    page.wait_for_load_state()
    final = Round.objects.get(tournament=t, number=4)
    assert final.status == Round.RUNNING and final.minutes == 30

    # the projector on the big screen during the final, in German
    screen = browser.new_context(
        locale="de-DE", bypass_csp=True, viewport={"width": 1920, "height": 1080}
    )
    projector = screen.new_page()
    projector.goto(f"{base}/t/{t.pk}/rounds/4/projector/")
    assert projector.locator(".projector-round").inner_text().strip() == "Finale"
    projector.locator("[data-clock-time]").wait_for()
    projector.screenshot(path=str(SHOTS / "projector-final-1920.png"))
    fits = projector.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    screen.close()
    assert fits

    # time is called; the final's paper sheet goes in: the fourth seed wins
    past_deadline(final)
    round_life.round_time_up(final.pk, via="test")
    page.goto(f"{base}/tournaments/{t.pk}/rounds/4/tables/1/result/")
    for seat, cards in enumerate((3, 6, 9, 14)):
        page.fill(f'input[name="sheet-s{seat}_cards"]', str(cards))
    page.get_by_role("button", name="Save result").click()
    page.get_by_text("version 1 saved and counted").wait_for()
    final.refresh_from_db()
    assert final.status == Round.COMPLETE
    finalists = [names[p] for p in reversed(qualifying[:4])]
    rest = [names[p] for p in qualifying[4:]]

    # the final page says what decided each place; the standings page
    page.goto(f"{base}/tournaments/{t.pk}/final/")
    assert in_order(page.locator("#final-results").inner_text(), finalists)
    assert "by the rank at the table" in page.locator("#final-results").inner_text()
    page.screenshot(path=str(SHOTS / "final-results.png"), full_page=True)
    page.goto(f"{base}/tournaments/{t.pk}/standings/")
    body = page.locator("main").inner_text()
    assert in_order(body, finalists + rest[:3])
    page.screenshot(path=str(SHOTS / "standings.png"), full_page=True)

    # finish; the final standings and the certificates: finalists first
    page.goto(f"{base}/tournaments/{t.pk}/")
    page.get_by_role("button", name="Finish tournament").click()
    page.wait_for_load_state()
    final_pdf = page.request.get(f"{base}/tournaments/{t.pk}/print/final.pdf")
    assert final_pdf.ok and final_pdf.headers["content-type"] == "application/pdf"
    text = pdf_text(final_pdf.body())
    assert in_order(text, finalists + rest)
    # the finalists' stage and place as the pages say it; the rounds as rounds
    assert "Final, place 1" in text and "after 3 rounds and the final" in text
    assert "4 of 4" not in text
    certificates = page.request.get(f"{base}/tournaments/{t.pk}/print/certificates.pdf?places=4")
    assert certificates.ok
    text = pdf_text(certificates.body())
    assert in_order(text, finalists)
    assert all(n not in text for n in rest)
