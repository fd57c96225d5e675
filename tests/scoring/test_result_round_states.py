"""Results in every state of a round: many clubs never start the
clock, so a sheet must go in whether the round was never started, runs, is
paused, had its time called or is complete. Only while a table still plays on
the clock (running or paused, before its deadline) does a sheet that is not a
finished game ask whether the game really ended before time — and answering
yes saves it."""

from __future__ import annotations

import html

import pytest
from django.urls import reverse
from django.utils import translation

from games import get_engine
from scoring import services
from scoring.models import Submission
from tests.factories import PlayerFactory, TournamentFactory, seated_round
from tests.scoring.test_result_entry import entry_url, post_data
from tests.scoring.test_sheet_entry_flow import token
from tests.timetravel import past_deadline, travel
from tournaments.models import Round, Seat, Table
from tournaments.play import links
from tournaments.services import deadlines, round_life

pytestmark = pytest.mark.django_db

#: Quartett at a table of three: the unfinished sheet is the normal result at
#: time (everyone still holds cards); the finished one has two players out
UNFINISHED = {"s0_cards": 12, "s1_cards": 10, "s2_cards": 8}


def finished_sheet() -> dict:
    cards = get_engine("quartett").in_play_count(3, None)
    return {"s0_cards": cards, "s1_out": True, "s1_out_order": 1, "s2_out": True, "s2_out_order": 2}


SHEETS = {"finished": finished_sheet(), "unfinished": UNFINISHED}


@pytest.fixture(autouse=True)
def _no_broker(monkeypatch):
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)


def quartett_round(owner, *, tables=1, **fields) -> Round:
    """Round 1 of a Quartett tournament at tables of three, seated and its
    seating published; the clock not started."""
    t = TournamentFactory(
        owner=owner, name="Quartett-Vereinsturnier", allowed_sizes=[3], table_size=3, **fields
    )
    order = [
        [PlayerFactory(tournament=t, name=f"Spieler {k}{s}") for s in "abc"]
        for k in range(1, tables + 1)
    ]
    return seated_round(t, order=order, publish=True)


def in_state(owner, state: str) -> Table:
    """Table 1 of a round in ``state``."""
    rnd = quartett_round(owner, tables=2)
    table = rnd.tables.get(number=1)
    if state == "not started":
        return table
    round_life.round_start(round=rnd, by=owner)
    if state == "running":
        return table
    if state == "paused":
        round_life.round_pause(round=rnd, by=owner)
    elif state == "running, deadline passed":  # before the clock's sweep closed it
        past_deadline(rnd)
    elif state == "time called":
        past_deadline(rnd)
        round_life.round_time_up(rnd.pk, via="test")
    elif state == "time called, table has extra time":
        round_life.table_extend(table=table, by=owner, minutes=5)
        past_deadline(rnd)
        round_life.round_time_up(rnd.pk, via="test")
    elif state == "complete":
        past_deadline(rnd)
        round_life.round_time_up(rnd.pk, via="test")
        for t in rnd.tables.order_by("number"):
            services.result_submit(table=t, sheet=finished_sheet(), by=owner, expected_version=None)
        rnd.refresh_from_db()
        assert rnd.status == Round.COMPLETE
    table.refresh_from_db()
    return table


#: state -> whether an unfinished sheet asks "did it really end before time?"
STATES = {
    "not started": False,
    "running": True,
    "paused": True,
    "running, deadline passed": False,
    "time called": False,
    "time called, table has extra time": True,
    "complete": False,
}


@pytest.mark.parametrize("sheet", list(SHEETS))
@pytest.mark.parametrize("state", list(STATES))
def test_a_sheet_goes_in_in_every_round_state(organizer, state, sheet):
    table = in_state(organizer, state)
    before = Submission.objects.filter(table=table).order_by("-version").first()
    asks = STATES[state] and sheet == "unfinished"
    step = services.staff_entry_step(
        table=table,
        sheet=SHEETS[sheet],
        wants_check=False,
        previewed=False,
        before_time_confirmed=False,
    )
    assert (step.step == services.ASK_BEFORE_TIME) == asks, step
    if asks:  # the scorekeeper answers yes: saved as ended before time
        step = services.staff_entry_step(
            table=table,
            sheet=SHEETS[sheet],
            wants_check=False,
            previewed=False,
            before_time_confirmed=True,
        )
        assert step.step == services.SAVE and step.ended_before_time
    if state == "complete":  # a correction: its preview first, then a reason
        assert step.step == services.PREVIEW and step.reason_needed
    sub = services.result_submit(
        table=table,
        sheet=SHEETS[sheet],
        by=organizer,
        expected_version=before.version if before else None,
        ended_before_time=step.ended_before_time,
        reason="Blatt falsch abgetippt" if step.reason_needed else "",
    )
    assert sub.status == Submission.CONFIRMED
    assert Submission.objects.get(table=table, status=Submission.CONFIRMED).pk == sub.pk


def test_not_started_unfinished_sheet_through_the_page_in_german(client, organizer):
    """The old dead end: no question, no "Die Runde läuft nicht.",
    the sheet is saved with one press."""
    table = in_state(organizer, "not started")
    client.force_login(organizer)
    with translation.override("de"):
        response = client.post(
            entry_url(table), post_data(UNFINISHED, action="next"), HTTP_ACCEPT_LANGUAGE="de"
        )
    assert response.status_code == 302, html.unescape(response.content.decode())[:3000]
    assert Submission.objects.get(table=table).status == Submission.CONFIRMED
    page = html.unescape(client.get(response.url, HTTP_ACCEPT_LANGUAGE="de").content.decode())
    assert "Die Runde läuft nicht" not in page
    assert "Tisch 1: Version 1 gespeichert und gewertet." in page


def test_paused_round_unfinished_sheet_yes_saves_through_the_page(client, organizer):
    table = in_state(organizer, "paused")
    client.force_login(organizer)
    content = html.unescape(client.post(entry_url(table), post_data(UNFINISHED)).content.decode())
    assert "Did this game really end before time?" in content
    response = client.post(
        entry_url(table),
        post_data(UNFINISHED, action="early", early_answer=token(content, "early_answer")),
    )
    assert response.status_code == 302
    assert Submission.objects.get(table=table).status == Submission.CONFIRMED


def test_the_yes_is_refused_once_the_deadline_passed_meanwhile(organizer):
    """Asked while the round ran, answered after its deadline: refused,
    nothing saved; saved again, the sheet counts as the state at time."""
    table = in_state(organizer, "running")
    step = services.staff_entry_step(
        table=table, sheet=UNFINISHED, wants_check=False, previewed=False,
        before_time_confirmed=True,
    )  # fmt: skip
    assert step.ended_before_time
    past_deadline(table.round)
    with pytest.raises(deadlines.TimeIsUp):
        services.result_submit(
            table=table, sheet=UNFINISHED, by=organizer, expected_version=None,
            ended_before_time=True,
        )  # fmt: skip
    assert not Submission.objects.exists()
    again = services.staff_entry_step(
        table=table, sheet=UNFINISHED, wants_check=False, previewed=False,
        before_time_confirmed=False,
    )  # fmt: skip
    assert again.step == services.SAVE and not again.ended_before_time


@pytest.mark.parametrize("state", ["not started", "running", "paused"])
def test_players_report_an_unfinished_game_in_an_open_round(client, organizer, state):
    """Self-report through the seat link: in a round whose clock never
    started, or that runs or is paused, the report is taken."""
    table = in_state(organizer, state)
    table.round.tournament.self_report = True
    table.round.tournament.save()
    seat = Seat.objects.get(table=table, position=0)
    response = client.post(
        reverse("seat_link", args=[links.seat_token(seat)]), post_data(UNFINISHED)
    )
    assert response.status_code == 302, html.unescape(response.content.decode())[:2000]
    assert Submission.objects.get(table=table).status == Submission.PENDING


def test_the_table_with_extra_time_asks_only_before_its_own_deadline(organizer):
    table = in_state(organizer, "time called, table has extra time")
    travel(table.round, 6 * 60)  # its five extra minutes are over too
    step = services.staff_entry_step(
        table=table, sheet=UNFINISHED, wants_check=False, previewed=False,
        before_time_confirmed=False,
    )  # fmt: skip
    assert step.step == services.SAVE
