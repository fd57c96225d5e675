"""A round ends when every table has its result: one press on the
round page or the overview — or by itself with the tournament's setting —
whether the clock runs, is paused or never started; the clock's tasks and
sweep never touch it again; the pages say "Round 1 ended" and the overview
names the next step. A round does not start while an earlier one still runs,
unless the tournament runs rounds side by side."""

from __future__ import annotations

import html
import re
import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import translation

from games import get_engine
from scoring import services
from scoring.models import Submission
from scoring.selectors import event_overview
from tests.factories import PlayerFactory, TournamentFactory, seated_round
from tests.scoring.test_result_entry import post_data
from tests.timetravel import travel
from tournaments import clock as pure
from tournaments import tasks
from tournaments.models import ClockActivation, Round
from tournaments.services import ServiceError, clock, deadlines, round_life

pytestmark = pytest.mark.django_db


def done_sheet() -> dict:
    """A finished Quartett game at a table of three (two players out)."""
    cards = get_engine("quartett").in_play_count(3, None)
    return {"s0_cards": cards, "s1_out": True, "s1_out_order": 1, "s2_out": True, "s2_out_order": 2}


@pytest.fixture(autouse=True)
def _no_broker(monkeypatch):
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)


@pytest.fixture
def tournament(organizer):
    """Quartett at tables of three, two rounds of 45 minutes, nine players."""
    t = TournamentFactory(
        owner=organizer,
        name="Quartett-Vereinsturnier",
        allowed_sizes=[3],
        table_size=3,
        rounds=2,
        round_minutes=45,
    )
    for k in range(9):
        PlayerFactory(tournament=t, name=f"Spieler {k + 1}", checked_in=True)
    return t


def seated(tournament, *, start=False) -> Round:
    return seated_round(tournament, publish=True, start=start)


def enter_all(rnd: Round, by, *, but: int = 0) -> None:
    """A finished sheet for every table of the round without one (but the
    last ``but`` of them)."""
    tables = list(rnd.tables.filter(submissions__isnull=True).order_by("number"))
    for table in tables[: len(tables) - but]:
        services.result_submit(table=table, sheet=done_sheet(), by=by, expected_version=None)


def refreshed(obj):
    obj.refresh_from_db()
    return obj


# -- one press ---------------------------------------------------------------------


def test_a_running_round_with_every_result_ends_at_one_press(tournament, organizer):
    rnd = seated(tournament, start=True)
    enter_all(rnd, organizer)
    assert refreshed(rnd).status == Round.RUNNING  # the clock alone would wait
    round_life.round_end(round=rnd, by=organizer)
    rnd.refresh_from_db()
    assert rnd.status == Round.COMPLETE and rnd.completed_at is not None
    closed = rnd.activations.get(kind=ClockActivation.TIME_CALLED)
    assert closed.by == organizer and closed.reason == pure.EARLY
    assert closed.at == rnd.time_called_at
    assert 44 * 60 < closed.seconds <= 45 * 60  # the time that was left
    assert not rnd.tables.filter(time_called_at__isnull=True).exists()


@pytest.mark.parametrize("state", ["not started", "paused"])
def test_a_round_ends_whether_its_clock_never_started_or_is_paused(tournament, organizer, state):
    rnd = seated(tournament, start=state == "paused")
    if state == "paused":
        round_life.round_pause(round=rnd, by=organizer)
    enter_all(rnd, organizer)
    round_life.round_end(round=rnd, by=organizer)
    assert refreshed(rnd).status == Round.COMPLETE


def test_ending_is_refused_while_a_table_has_no_result(tournament, organizer):
    rnd = seated(tournament, start=True)
    enter_all(rnd, organizer, but=1)
    with pytest.raises(ServiceError) as exc:
        round_life.round_end(round=rnd, by=organizer)
    assert "Table 3 has no result yet" in str(exc.value)
    rnd.refresh_from_db()
    assert rnd.status == Round.RUNNING
    assert not rnd.activations.filter(kind=ClockActivation.TIME_CALLED).exists()


def test_a_result_waiting_for_confirmation_is_not_yet_a_result(tournament, organizer):
    tournament.confirmation_required = True
    tournament.save()
    rnd = seated(tournament, start=True)
    enter_all(rnd, organizer)
    with pytest.raises(ServiceError):
        round_life.round_end(round=rnd, by=organizer)
    assert refreshed(rnd).status == Round.RUNNING


def test_a_draft_or_an_ended_round_is_not_ended_again(tournament, organizer):
    rnd = seated_round(tournament, publish=False)
    with pytest.raises(ServiceError, match="draft"):
        round_life.round_end(round=rnd, by=organizer)
    round_life.round_start(round=rnd, by=organizer)
    enter_all(rnd, organizer)
    round_life.round_end(round=rnd, by=organizer)
    with pytest.raises(ServiceError, match="has ended already"):
        round_life.round_end(round=rnd, by=organizer)
    assert rnd.activations.filter(kind=ClockActivation.TIME_CALLED).count() == 1


# -- nothing of the clock re-opens it ---------------------------------------------


def test_no_late_task_or_sweep_touches_a_round_ended_early(tournament, organizer):
    rnd = seated(tournament, start=True)
    extra = rnd.tables.get(number=2)
    round_life.table_extend(table=extra, by=organizer, minutes=5)
    enter_all(rnd, organizer)
    round_life.round_end(round=rnd, by=organizer)
    logged = rnd.activations.count()
    ended = refreshed(rnd).time_called_at
    travel(rnd, 60 * 60)  # the round's deadline and the table's are long past
    assert tasks.close_round.apply(args=[rnd.pk]).get() is False
    assert tasks.close_table.apply(args=[extra.pk]).get() is False
    assert round_life.sweep() == {
        "started": 0,
        "rounds": 0,
        "tables": 0,
        "finished": 0,
        "failed": 0,
    }
    rnd.refresh_from_db()
    assert rnd.status == Round.COMPLETE and rnd.activations.count() == logged
    assert rnd.time_called_at < ended  # only moved by the time travel
    assert not rnd.clock_problem


def test_a_scheduled_start_is_cancelled_when_the_round_ends_unstarted(tournament, organizer):
    rnd = seated(tournament)
    round_life.round_schedule_start(
        round=rnd, at=clock.db_now() + timedelta(minutes=10), by=organizer
    )
    enter_all(rnd, organizer)  # a club that plays without the clock
    round_life.round_end(round=rnd, by=organizer)
    assert refreshed(rnd).starts_at is None
    travel(rnd, 20 * 60)
    assert tasks.start_round.apply(args=[rnd.pk]).get() is False
    assert round_life.sweep()["started"] == 0
    assert refreshed(rnd).status == Round.COMPLETE


# -- by itself (the tournament's setting) --------------------------------------------


@pytest.mark.parametrize("setting", [True, False])
def test_with_the_setting_the_last_result_ends_the_round(
    tournament, organizer, setting, django_capture_on_commit_callbacks
):
    tournament.close_when_done = setting
    tournament.save()
    rnd = seated(tournament, start=True)
    with django_capture_on_commit_callbacks(execute=True):
        enter_all(rnd, organizer, but=1)
    assert refreshed(rnd).status == Round.RUNNING  # two of three: on it goes
    with django_capture_on_commit_callbacks(execute=True):
        enter_all(rnd, organizer)  # the last one
    rnd.refresh_from_db()
    if not setting:
        assert rnd.status == Round.RUNNING
        return
    assert rnd.status == Round.COMPLETE
    closed = rnd.activations.get(kind=ClockActivation.TIME_CALLED)
    assert closed.reason == pure.LAST_RESULT and closed.by is None


def test_with_the_setting_a_round_without_the_clock_ends_with_its_last_sheet(
    tournament, organizer, django_capture_on_commit_callbacks
):
    tournament.close_when_done = True
    tournament.save()
    rnd = seated(tournament)  # the clock is never started
    with django_capture_on_commit_callbacks(execute=True):
        enter_all(rnd, organizer)
    assert refreshed(rnd).status == Round.COMPLETE


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("attempt", range(2))
def test_two_last_results_at_once_end_the_round_once(require_postgres, organizer, attempt):
    t = TournamentFactory(
        owner=organizer, allowed_sizes=[3], table_size=3, rounds=2, close_when_done=True
    )
    for k in range(6):
        PlayerFactory(tournament=t, name=f"Spieler {k + 1}", checked_in=True)
    rnd = seated(t, start=True)
    tables = list(rnd.tables.order_by("number"))
    barrier = threading.Barrier(2)
    errors = []

    def save(table):
        try:
            barrier.wait(timeout=10)
            services.result_submit(
                table=table, sheet=done_sheet(), by=organizer, expected_version=None
            )
        except Exception as exc:  # the outcome under test
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=save, args=(table,)) for table in tables]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=30)
    assert not errors
    rnd.refresh_from_db()
    assert rnd.status == Round.COMPLETE
    assert rnd.activations.filter(kind=ClockActivation.TIME_CALLED).count() == 1


# -- the pages ------------------------------------------------------------------------


def overview_text(client, tournament, lang="en") -> str:
    page = client.get(reverse("tournament_detail", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE=lang)
    content = html.unescape(page.content.decode())
    return content[content.index('id="next-step"') :]


def test_the_overview_offers_to_end_the_round_then_names_the_next_step(
    client, tournament, organizer
):
    client.force_login(organizer)
    rnd = seated(tournament, start=True)
    enter_all(rnd, organizer)
    assert event_overview(tournament)["next"].code == "end_round"
    with translation.override("de"):
        text = overview_text(client, tournament, "de")
    assert "Alle Tische der Runde 1 haben ihr Ergebnis: Runde jetzt beenden." in text
    assert "Runde 1 beenden" in text and "Spielberichte fehlen" not in text
    response = client.post(reverse("round_end", args=[tournament.pk, 1]), {"next": "overview"})
    assert response.status_code == 302 and response.url == tournament.get_absolute_url()
    assert refreshed(rnd).status == Round.COMPLETE
    assert event_overview(tournament)["next"].code == "seat"
    assert "Seat round 2." in overview_text(client, tournament)
    # the last round: a final fits this field, so the next step names it,
    # finishing beside it (issue 36)
    rnd2 = seated(tournament, start=True)
    enter_all(rnd2, organizer)
    client.post(reverse("round_end", args=[tournament.pk, 2]))
    assert event_overview(tournament)["next"].code == "final_possible"
    with translation.override("de"):
        text = overview_text(client, tournament, "de")
    assert "teilen Sie das Finale ein" in text and "Turnier beenden" in text


def test_the_round_page_offers_the_press_to_its_owner_only(
    client, tournament, organizer, django_user_model
):
    rnd = seated(tournament, start=True)
    enter_all(rnd, organizer)
    keeper = django_user_model.objects.create_user("keeper", password="pw-keeper-12345")
    tournament.scorekeepers.add(keeper)
    url = reverse("round_detail", args=[tournament.pk, 1])
    client.force_login(keeper)
    assert 'id="end-round"' not in client.get(url).content.decode()
    assert client.post(reverse("round_end", args=[tournament.pk, 1])).status_code == 403
    assert refreshed(rnd).status == Round.RUNNING
    client.force_login(organizer)
    page = html.unescape(client.get(url).content.decode())
    assert 'id="end-round"' in page and "End round 1" in page
    response = client.post(reverse("round_end", args=[tournament.pk, 1]), follow=True)
    page = html.unescape(response.content.decode())
    assert "Round 1 has ended." in page
    assert "round ended: every table has its result" in page  # the clock log, with who
    assert 'id="end-round"' not in page


def test_the_last_sheet_leads_to_the_press(client, tournament, organizer):
    rnd = seated(tournament, start=True)
    enter_all(rnd, organizer, but=1)
    client.force_login(organizer)
    last = rnd.tables.get(number=3)
    response = client.post(
        reverse("result_entry", args=[tournament.pk, 1, 3]),
        post_data(done_sheet(), action="next"),
        follow=True,
    )
    page = html.unescape(response.content.decode())
    assert Submission.objects.get(table=last).status == Submission.CONFIRMED
    assert "Every table of round 1 has a result now." in page
    assert 'id="end-round"' in page and "End round 1" in page
    response = client.post(reverse("round_end", args=[tournament.pk, 1]), {"next": "overview"})
    assert response.url == tournament.get_absolute_url()
    assert refreshed(rnd).status == Round.COMPLETE


def test_the_public_clock_says_the_round_ended_and_stops_polling(client, tournament, organizer):
    rnd = seated(tournament, start=True)
    enter_all(rnd, organizer)
    url = reverse("round_public_status", args=[tournament.pk, 1])
    assert "Round 1 ended" not in client.get(url, HTTP_HX_REQUEST="true").content.decode()
    round_life.round_end(round=rnd, by=organizer)
    with translation.override("de"):
        response = client.get(url, HTTP_HX_REQUEST="true", HTTP_ACCEPT_LANGUAGE="de")
    body = html.unescape(response.content.decode())
    assert response.status_code == 286  # nothing left to wait for: the poll stops
    assert response["HX-Trigger"] == "roundClosed"
    assert "Runde 1 beendet" in body
    assert re.search(r"data-clock-signal[^>]*></div>", body)  # no "Zeit!"
    assert 'data-status="complete"' in body and "clock--ended" in body


# -- a round does not start while an earlier one runs --------------------------------


def test_a_round_does_not_start_while_the_one_before_runs(client, tournament, organizer):
    rnd1 = seated(tournament, start=True)
    enter_all(rnd1, organizer)  # every result in: round 2 can be seated meanwhile
    rnd2 = seated(tournament)
    with pytest.raises(ServiceError) as exc:
        round_life.round_start(round=rnd2, by=organizer)
    assert "Round 1 has not ended yet" in str(exc.value)
    assert refreshed(rnd2).status == Round.SEATED and not rnd2.activations.exists()
    # the round page says so before the press, and the press says it again
    client.force_login(organizer)
    with translation.override("de"):
        page = client.get(
            reverse("round_detail", args=[tournament.pk, 2]), HTTP_ACCEPT_LANGUAGE="de"
        )
        content = html.unescape(page.content.decode())
    assert "Runde 1 ist noch nicht beendet" in content
    response = client.post(reverse("round_start", args=[tournament.pk, 2]), follow=True)
    assert "Round 1 has not ended yet" in html.unescape(response.content.decode())
    assert refreshed(rnd2).status == Round.SEATED
    # round 1 ended: round 2 starts
    round_life.round_end(round=rnd1, by=organizer)
    round_life.round_start(round=rnd2, by=organizer)
    assert refreshed(rnd2).status == Round.RUNNING


def test_a_scheduled_start_while_the_round_before_runs_fails_with_the_reason(tournament, organizer):
    rnd1 = seated(tournament, start=True)
    enter_all(rnd1, organizer)
    rnd2 = seated(tournament)
    Round.objects.filter(pk=rnd2.pk).update(starts_at=clock.db_now())
    assert round_life.sweep()["started"] == 0
    rnd2.refresh_from_db()
    assert rnd2.status == Round.SEATED and rnd2.starts_at is None
    assert "Round 1 has not ended yet" in clock.problem_text(rnd2)
    assert refreshed(rnd1).status == Round.RUNNING


def test_rounds_run_side_by_side_when_the_organizer_allows_it(tournament, organizer):
    tournament.rounds_side_by_side = True
    tournament.save()
    rnd1 = seated(tournament, start=True)
    enter_all(rnd1, organizer)
    rnd2 = seated(tournament)
    round_life.round_start(round=rnd2, by=organizer)
    assert refreshed(rnd1).status == Round.RUNNING and refreshed(rnd2).status == Round.RUNNING


def test_the_settings_offer_both_switches(client, tournament, organizer):
    client.force_login(organizer)
    with translation.override("de"):
        page = client.get(
            reverse("tournament_edit", args=[tournament.pk]), HTTP_ACCEPT_LANGUAGE="de"
        )
    content = html.unescape(page.content.decode())
    assert 'name="close_when_done"' in content and 'name="rounds_side_by_side"' in content
    assert "Runde beenden, sobald ihr letztes Ergebnis da ist" in content
    data = {
        "name": tournament.name,
        "game": "quartett",
        "rounds": 2,
        "round_minutes": 45,
        "table_size": 3,
        "allowed_sizes": [3],
        "round1_seating": "random",
        "points_scheme": tournament.points_scheme,
        "grace_seconds": 60,
        "close_when_done": "on",
        "rounds_side_by_side": "on",
    }
    response = client.post(reverse("tournament_edit", args=[tournament.pk]), data)
    assert response.status_code == 302, html.unescape(response.content.decode())[-3000:]
    tournament.refresh_from_db()
    assert tournament.close_when_done and tournament.rounds_side_by_side
