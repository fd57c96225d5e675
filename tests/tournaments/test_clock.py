"""The round clock: the deadline derived from the activations (pure), and the
services that start, pause, resume, extend and close a round — without any
Celery worker: the database alone decides what is before time."""

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.factories import PlayerFactory, TournamentFactory, seated_round
from tests.timetravel import travel
from tournaments import clock as pure
from tournaments import tasks
from tournaments.models import Round, SeatingChange, Table
from tournaments.services import ServiceError, clock, deadlines, round_life

T0 = datetime(2026, 10, 3, 14, 0, tzinfo=UTC)


def at(seconds):
    return T0 + timedelta(seconds=seconds)


def act(kind, t, seconds=0, table=None):
    return pure.Activation(kind=kind, at=at(t), seconds=seconds, table=table)


# -- the pure derivation -----------------------------------------------------------


def test_start_sets_the_deadline_from_the_round_length():
    c = pure.derive([act("start", 0, 2700)])
    assert c.status == pure.RUNNING
    assert c.deadline == at(2700)
    assert c.left(at(700)) == 2000


def test_a_pause_stops_the_clock_and_a_resume_moves_the_deadline_by_the_pause():
    c = pure.derive([act("start", 0, 600), act("pause", 100)])
    assert c.status == pure.PAUSED and c.deadline is None and c.remaining == 500
    assert c.left(at(400)) == 500  # paused: no time passes
    c = pure.step(c, act("resume", 400))
    assert c.deadline == at(900)


def test_extensions_add_time_whether_running_paused_or_not_started():
    assert pure.derive([act("start", 0, 600), act("extend", 50, 300)]).deadline == at(900)
    paused = pure.derive([act("start", 0, 600), act("pause", 100), act("extend", 150, 60)])
    assert paused.remaining == 560
    early = pure.derive([act("extend", -50, 120), act("start", 0, 600)])
    assert early.deadline == at(720)


def test_a_table_extension_moves_only_that_tables_deadline_and_follows_pauses():
    c = pure.derive([act("start", 0, 600), act("extend", 10, 120, table=7)])
    assert c.deadline == at(600)
    assert c.table_deadline(7) == at(720)
    assert c.table_deadline(8) is None
    c = pure.derive(
        [
            act("start", 0, 600),
            act("extend", 10, 120, table=7),
            act("pause", 100),
            act("resume", 200),
        ]
    )
    assert c.deadline == at(700) and c.table_deadline(7) == at(820)


def test_time_called_ends_the_clock_but_a_table_can_still_be_extended():
    c = pure.derive([act("start", 0, 60), act("time_called", 60)])
    assert c.status == pure.TIME_CALLED and c.left(at(30)) == 0
    with pytest.raises(pure.ClockError):
        pure.step(c, act("extend", 61, 60))
    assert pure.step(c, act("extend", 61, 60, table=3)).table_deadline(3) == at(120)


@pytest.mark.parametrize(
    "history",
    [
        [act("pause", 0)],
        [act("resume", 0)],
        [act("start", 0, 60), act("start", 1, 60)],
        [act("start", 0, 60), act("resume", 1)],
        [act("start", 0, 60), act("pause", 1), act("pause", 2)],
    ],
)
def test_impossible_activations_are_refused(history):
    with pytest.raises(pure.ClockError):
        pure.derive(history)


# -- the services, with no worker ---------------------------------------------------


@pytest.fixture
def scheduled(monkeypatch):
    """The wake-up calls the services send on commit (no broker needed)."""
    calls = []
    monkeypatch.setattr(
        deadlines, "schedule", lambda task, oid, eta=None: calls.append((task, oid, eta))
    )
    return calls


@pytest.fixture
def tournament(organizer):
    """A Quartett tournament at tables of two, rounds of 45 minutes."""
    return TournamentFactory(
        owner=organizer, name="Herbstturnier", allowed_sizes=[2], table_size=2, round_minutes=45
    )


@pytest.fixture
def rnd(tournament):
    """Round 1: two paper tables of two (P10, P11 at table 1; P20, P21 at
    table 2), seated through the services, the seating still a draft."""
    order = [
        [PlayerFactory(tournament=tournament, name=f"P{n}{pos}") for pos in range(2)]
        for n in (1, 2)
    ]
    return seated_round(tournament, order=order, publish=False)


def refreshed(obj):
    obj.refresh_from_db()
    return obj


@pytest.mark.django_db
def test_start_publishes_the_draft_and_schedules_the_close(
    rnd, organizer, scheduled, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        round_life.round_start(round=rnd, by=organizer)
    rnd.refresh_from_db()
    assert rnd.status == Round.RUNNING and rnd.published
    assert SeatingChange.objects.filter(round=rnd, kind="publish", by=organizer).count() == 1
    start = rnd.activations.get()
    assert (start.kind, start.seconds, start.by) == ("start", 45 * 60, organizer)
    assert rnd.deadline == start.at + timedelta(minutes=45)
    assert scheduled == [("clock.close_round", rnd.pk, rnd.deadline)]
    with pytest.raises(ServiceError):
        round_life.round_start(round=rnd, by=organizer)


@pytest.mark.django_db
def test_pause_resume_and_extend_move_the_deadline_and_reschedule_the_close(
    rnd, organizer, scheduled, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        round_life.round_start(round=rnd, by=organizer, seconds=600)
    travel(rnd, 100)
    round_life.round_pause(round=rnd, by=organizer)
    rnd.refresh_from_db()
    assert rnd.status == Round.PAUSED and rnd.deadline is None
    assert rnd.remaining_seconds == pytest.approx(500, abs=1)
    travel(rnd, 300)
    with django_capture_on_commit_callbacks(execute=True):
        round_life.round_resume(round=rnd, by=organizer)
    rnd.refresh_from_db()
    resumed = rnd.activations.get(kind="resume").at
    assert rnd.deadline - resumed == pytest.approx(timedelta(seconds=500), abs=timedelta(seconds=1))
    before = rnd.deadline
    with django_capture_on_commit_callbacks(execute=True):
        round_life.round_extend(round=rnd, by=organizer, minutes=5)
    assert refreshed(rnd).deadline == before + timedelta(minutes=5)
    assert [eta for task, _id, eta in scheduled if task == "clock.close_round"][-2:] == [
        before,
        before + timedelta(minutes=5),
    ]
    kinds = list(rnd.activations.values_list("kind", "by"))
    assert kinds == [(k, organizer.pk) for k in ("start", "pause", "resume", "extend")]


@pytest.mark.django_db
def test_bad_clock_requests_are_refused_and_change_nothing(rnd, organizer):
    with pytest.raises(ServiceError):
        round_life.round_pause(round=rnd, by=organizer)
    with pytest.raises(ServiceError):
        round_life.round_extend(round=rnd, by=organizer, minutes=0)
    with pytest.raises(ServiceError):
        round_life.round_extend(round=rnd, by=organizer, minutes=-5)
    assert not rnd.activations.exists()


@pytest.mark.django_db
def test_closing_twice_runs_the_side_effects_once(rnd, organizer):
    round_life.round_start(round=rnd, by=organizer, seconds=60)
    assert round_life.round_time_up(rnd.pk) is False  # not yet
    travel(rnd, 61)
    assert round_life.round_time_up(rnd.pk, via="task") is True
    assert round_life.round_time_up(rnd.pk, via="task") is False
    tasks.close_round.apply(args=[rnd.pk])  # a duplicate delivery
    assert round_life.sweep()["rounds"] == 0  # two sweeps
    assert round_life.sweep()["rounds"] == 0
    rnd.refresh_from_db()
    assert rnd.status == Round.TIME_CALLED and rnd.time_called_at >= rnd.deadline
    assert rnd.activations.filter(kind="time_called").count() == 1
    assert set(rnd.tables.values_list("status", flat=True)) == {Table.WAITING}


@pytest.mark.django_db
def test_tables_done_before_time_complete_the_round_when_it_closes(
    rnd, organizer, django_capture_on_commit_callbacks
):
    from scoring import services as results

    round_life.round_start(round=rnd, by=organizer, seconds=60)
    for table in rnd.tables.all():  # Quartett, two players: both finished early
        results.result_submit(
            table=table, sheet={"s0_cards": 20, "s1_cards": 12}, by=organizer, expected_version=None
        )
    assert refreshed(rnd).status == Round.RUNNING
    travel(rnd, 61)
    with django_capture_on_commit_callbacks(execute=True):
        assert round_life.round_time_up(rnd.pk) is True
    assert refreshed(rnd).status == Round.COMPLETE


@pytest.mark.django_db
def test_a_sweep_closes_an_overdue_round_by_itself(rnd, organizer):
    round_life.round_start(round=rnd, by=organizer, seconds=60)
    assert round_life.sweep()["rounds"] == 0
    travel(rnd, 60)
    assert round_life.sweep()["rounds"] == 1
    closing = rnd.activations.get(kind="time_called")
    assert closing.reason == "sweep" and closing.by is None


@pytest.mark.django_db
def test_a_stale_close_after_a_pause_does_nothing(rnd, organizer):
    round_life.round_start(round=rnd, by=organizer, seconds=60)
    travel(rnd, 30)
    round_life.round_pause(round=rnd, by=organizer)
    travel(rnd, 120)  # the close scheduled for the old deadline arrives now
    assert tasks.close_round.apply(args=[rnd.pk]).get() is False
    assert refreshed(rnd).status == Round.PAUSED


@pytest.mark.django_db
def test_with_no_worker_a_write_after_the_deadline_is_refused(rnd, organizer):
    table = rnd.tables.get(number=1)
    round_life.round_start(round=rnd, by=organizer, seconds=60)
    assert clock.lock_before_time(table).pk == table.pk  # before time: fine
    travel(rnd, 61)
    with pytest.raises(clock.TimeIsUp):
        clock.lock_before_time(table)
    # nobody closed the round: it still says running, and the cut still holds
    assert refreshed(rnd).status == Round.RUNNING
    with pytest.raises(clock.TimeIsUp):
        round_life.round_extend(round=rnd, by=organizer, minutes=5)


@pytest.mark.django_db
def test_a_paused_round_refuses_writes_before_time(rnd, organizer):
    round_life.round_start(round=rnd, by=organizer, seconds=60)
    round_life.round_pause(round=rnd, by=organizer)
    with pytest.raises(clock.TimeIsUp):
        clock.lock_before_time(rnd.tables.get(number=1))


@pytest.mark.django_db
def test_a_table_extension_closes_that_table_later(
    rnd, organizer, scheduled, django_capture_on_commit_callbacks
):
    t1, t2 = rnd.tables.order_by("number")
    round_life.round_start(round=rnd, by=organizer, seconds=60)
    with django_capture_on_commit_callbacks(execute=True):
        round_life.table_extend(table=t2, by=organizer, minutes=2, reason="judge call")
    rnd.refresh_from_db()
    t2.refresh_from_db()
    assert t2.deadline == rnd.deadline + timedelta(minutes=2) and t2.extra_seconds == 120
    assert ("clock.close_table", t2.pk, t2.deadline) in scheduled
    assert rnd.activations.get(kind="extend").reason == "judge call"
    travel(rnd, 61)
    assert round_life.round_time_up(rnd.pk) is True
    assert refreshed(t1).status == Table.WAITING and t1.time_called_at is not None
    assert refreshed(t2).status == Table.PLAYING and t2.time_called_at is None
    assert clock.lock_before_time(t2).pk == t2.pk  # table 2 still plays
    with pytest.raises(clock.TimeIsUp):
        clock.lock_before_time(t1)
    assert round_life.table_time_up(t2.pk) is False  # its own deadline is later
    travel(rnd, 120)
    assert round_life.table_time_up(t2.pk) is True
    assert round_life.table_time_up(t2.pk) is False
    assert round_life.sweep()["tables"] == 0
    assert refreshed(t2).status == Table.WAITING
    assert rnd.activations.filter(kind="time_called", table=t2).count() == 1
    with pytest.raises(ServiceError):
        round_life.table_extend(table=t2, by=organizer, minutes=2)


@pytest.mark.django_db
def test_a_scheduled_start_starts_the_round_by_itself(
    rnd, organizer, scheduled, django_capture_on_commit_callbacks
):
    starts = clock.db_now() + timedelta(minutes=10)
    with django_capture_on_commit_callbacks(execute=True):
        round_life.round_schedule_start(round=rnd, at=starts, by=organizer)
    assert scheduled == [("clock.start_round", rnd.pk, starts)]
    assert round_life.sweep()["started"] == 0
    travel(rnd, 600)
    assert tasks.start_round.apply(args=[rnd.pk]).get() is True
    rnd.refresh_from_db()
    assert rnd.status == Round.RUNNING and rnd.published
    assert rnd.activations.get().by is None
    assert round_life.sweep()["started"] == 0
    with pytest.raises(ServiceError):
        round_life.round_schedule_start(round=rnd, at=starts, by=organizer)


# -- pages ------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_organizer_runs_the_clock_from_the_round_page(client, rnd, organizer, scheduled):
    client.force_login(organizer)
    url = reverse("round_detail", args=[rnd.tournament_id, 1])
    page = client.get(url).content.decode()
    assert "Start the round" in page and "Starting publishes the seating." in page
    args = [rnd.tournament_id, 1]
    assert client.post(reverse("round_start", args=args)).status_code == 302
    assert refreshed(rnd).status == Round.RUNNING
    client.post(reverse("round_extend", args=args), {"minutes": "10"})
    assert refreshed(rnd).activations.filter(kind="extend", seconds=600).exists()
    client.post(reverse("table_extend", args=[*args, 2]), {"minutes": "3", "reason": "late start"})
    assert rnd.tables.get(number=2).extra_seconds == 180
    client.post(reverse("round_pause", args=args))
    assert refreshed(rnd).status == Round.PAUSED
    page = client.get(url).content.decode()
    assert "Resume" in page and "late start" in page and "55:00" in page
    response = client.post(reverse("round_extend", args=args), {"minutes": "abc"}, follow=True)
    assert "Give a whole number of minutes" in response.content.decode()
    client.post(reverse("round_resume", args=args))
    assert refreshed(rnd).status == Round.RUNNING


@pytest.mark.django_db
def test_the_status_partial_signals_the_close(client, rnd, organizer):
    client.force_login(organizer)
    round_life.round_start(round=rnd, by=organizer, seconds=120)
    url = reverse("round_status", args=[rnd.tournament_id, 1])
    response = client.get(url, HTTP_HX_REQUEST="true")
    assert "HX-Trigger" not in response
    body = response.content.decode()
    assert 'data-status="running"' in body and "Tables done: 0 of 2" in body
    travel(rnd, 121)
    round_life.sweep()
    response = client.get(url, HTTP_HX_REQUEST="true")
    assert response["HX-Trigger"] == "roundClosed"
    assert "Time!" in response.content.decode()


@pytest.mark.django_db
def test_the_polled_clock_costs_the_same_queries_for_2_or_40_tables(
    client, rnd, organizer, django_assert_max_num_queries
):
    """Every open clock polls each second: its cost must not grow with the round."""
    round_life.round_start(round=rnd, by=organizer, seconds=120)
    url = reverse("round_public_status", args=[rnd.tournament_id, 1])
    with CaptureQueriesContext(connection) as small:
        assert "Tables done: 0 of 2" in client.get(url).content.decode()
    # the same tournament's settings, its round seated at 40 tables
    big = TournamentFactory(owner=organizer, allowed_sizes=[2], table_size=2, round_minutes=45)
    big_round = seated_round(big, players=80)
    round_life.round_start(round=big_round, by=organizer, seconds=120)
    url = reverse("round_public_status", args=[big.pk, 1])
    with django_assert_max_num_queries(len(small)):
        assert "Tables done: 0 of 40" in client.get(url).content.decode()


@pytest.mark.django_db
def test_public_pages_show_only_published_rounds_of_public_tournaments(
    client, rnd, organizer, other_user
):
    urls = [
        reverse(name, args=[rnd.tournament_id, 1])
        for name in (
            "round_public",
            "round_projector",
            "round_public_status",
            "round_projector_tables",
        )
    ]
    for url in urls:  # a draft seating is not shown
        assert client.get(url).status_code == 404
    round_life.round_start(round=rnd, by=organizer)
    for url in urls:
        assert client.get(url).status_code == 200
    projector = client.get(urls[1]).content.decode()
    assert "Find your table" in projector and "P10" in projector
    assert '<span class="where" title="Table">2</span>' in projector
    rnd.tournament.public = False
    rnd.tournament.save()
    client.force_login(other_user)
    for url in urls:
        assert client.get(url).status_code == 404
    # the organizer may still put the projector of a hidden tournament on the wall
    client.force_login(organizer)
    for url in urls:
        assert client.get(url).status_code == 200
