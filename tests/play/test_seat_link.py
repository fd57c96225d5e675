"""A player's seat link: his table and seat without an account; with
self-report on, he reports the result and every player of the table (or the
Turnierleitung) confirms it."""

from __future__ import annotations

import html
from datetime import timedelta

import pytest
from django.core import signing
from django.urls import reverse
from django.utils import timezone

from scoring import services, sheet_links
from scoring.models import Submission
from tests.scoring.test_result_entry import NAMES, entry_url, make_table, post_data
from tournaments.models import Round, Seat, Table
from tournaments.play import links

pytestmark = pytest.mark.django_db

SHEET = {"s0_field": 12, "s1_field": 20, "s2_field": 3}  # Trumpet: seat 2 leads


def seat_path(table, position):
    return reverse(
        "seat_link", args=[links.seat_token(Seat.objects.get(table=table, position=position))]
    )


@pytest.fixture
def running(organizer):
    """A Trumpet table of three whose round is running (started by the clock),
    in a tournament where players report results."""
    return make_table(organizer, "trumpet", self_report=True, running=True)


def test_player_page_shows_table_seat_and_players_in_order(client, running):
    response = client.get(seat_path(running, 1))
    assert response.status_code == 200
    content = html.unescape(response.content.decode())
    assert f"{NAMES[1]} 1: round 1, table 1, seat 2" in content
    order = [content.index(f"{name} 1</li>") for name in NAMES[:3]]
    assert order == sorted(order)
    assert 'name="sheet-s0_field"' in content  # self-report on: the form


def test_self_report_counts_when_every_player_confirmed(client, running):
    response = client.post(seat_path(running, 0), post_data(SHEET))
    assert response.status_code == 302
    sub = Submission.objects.get()
    assert sub.status == Submission.PENDING and sub.source == "player" and sub.by_seat == 0
    assert sub.by is None and sub.late is False
    # seat 1 sees it and confirms
    page = client.get(seat_path(running, 1)).content.decode()
    assert "This result is correct" in page
    client.post(seat_path(running, 1), {"action": "confirm", "version": 1})
    sub.refresh_from_db()
    assert sub.status == Submission.PENDING
    # the author's page says he has confirmed already
    assert "You have confirmed this result" in client.get(seat_path(running, 0)).content.decode()
    response = client.post(seat_path(running, 2), {"action": "confirm", "version": 1})
    assert response.status_code == 302
    sub.refresh_from_db()
    assert sub.status == Submission.CONFIRMED
    assert sorted(sub.confirmations.values_list("by_seat", flat=True)) == [0, 1, 2]
    running.refresh_from_db()
    assert running.status == Table.DONE
    assert sub.ranks == [2, 1, 3]


def test_organizer_confirms_a_self_report(client, running, organizer):
    client.post(seat_path(running, 2), post_data(SHEET))
    sub = Submission.objects.get()
    client.force_login(organizer)
    page = client.get(entry_url(running)).content.decode()
    author = Seat.objects.get(table=running, position=2).player.name
    assert "Confirm version 1" in page and f"version 1 by {author}" in html.unescape(page)
    assert "seat 3" not in page  # the player is named, not the seat
    tid = running.round.tournament_id
    client.post(reverse("result_confirm", args=[tid, 1, 1, 1]))
    sub.refresh_from_db()
    assert sub.status == Submission.CONFIRMED


def test_self_report_with_a_wrong_sheet_shows_the_problem(client, running):
    response = client.post(
        seat_path(running, 0), post_data({"s0_field": 12, "s1_field": 12, "s2_field": 3})
    )
    assert response.status_code == 200
    assert "Only one figure can stand on field 12." in response.content.decode()
    assert not Submission.objects.exists()


def test_self_report_refused_when_the_tournament_does_not_allow_it(client, organizer):
    table = make_table(organizer, "trumpet")  # self_report off
    page = client.get(seat_path(table, 0))
    assert page.status_code == 200
    content = page.content.decode()
    assert "Results are entered by the Turnierleitung" in content
    assert 'name="sheet-s0_field"' not in content
    response = client.post(seat_path(table, 0), post_data(SHEET))
    assert response.status_code == 403
    assert "Players don't report results in this tournament" in html.unescape(
        response.content.decode()
    )
    assert not Submission.objects.exists()
    with pytest.raises(services.ServiceError):
        services.result_submit(table=table, sheet=SHEET, by_seat=0, expected_version=None)


def test_game_over_before_time_is_refused_after_the_deadline(client, running):
    rnd = running.round
    rnd.deadline = timezone.now() - timedelta(seconds=1)  # no worker closed the round yet
    rnd.save()
    response = client.post(seat_path(running, 0), post_data(SHEET))
    assert response.status_code == 400
    assert "Time is up for table 1." in response.content.decode()
    assert not Submission.objects.exists()


def test_a_player_report_within_the_grace_period_is_on_time(client, running):
    rnd = running.round
    rnd.status, rnd.deadline = Round.TIME_CALLED, timezone.now() - timedelta(seconds=20)
    rnd.save()
    assert running.round.tournament.grace_seconds == 60
    assert client.post(seat_path(running, 0), post_data(SHEET)).status_code == 302
    assert not Submission.objects.get().late


def test_after_the_grace_period_a_player_report_is_taken_and_flagged_late(client, running):
    rnd = running.round
    rnd.status, rnd.deadline = Round.TIME_CALLED, timezone.now() - timedelta(minutes=2)
    rnd.save()
    assert client.post(seat_path(running, 0), post_data(SHEET)).status_code == 302
    assert Submission.objects.get().late


def test_a_confirmed_result_is_not_replaced_through_a_seat_link(client, running, organizer):
    services.result_submit(table=running, sheet=SHEET, by=organizer, expected_version=None)
    page = client.get(seat_path(running, 0)).content.decode()
    assert 'name="sheet-s0_field"' not in page  # nothing to report any more
    response = client.post(
        seat_path(running, 0), post_data({"s0_field": 3, "s1_field": 2, "s2_field": 1}, version=1)
    )
    assert response.status_code == 400
    assert Submission.objects.count() == 1


def test_two_players_report_from_the_same_state_second_sees_the_first(client, running):
    client.post(seat_path(running, 0), post_data(SHEET))
    response = client.post(
        seat_path(running, 1), post_data({"s0_field": 3, "s1_field": 2, "s2_field": 1})
    )
    assert response.status_code == 409
    content = html.unescape(response.content.decode())
    author = Seat.objects.get(table=running, position=0).player.name
    assert f"{author} saved version 1 of this table's result meanwhile" in content
    assert Submission.objects.count() == 1


def test_tampered_seat_link_is_refused(client, running):
    token = links.seat_token(Seat.objects.get(table=running, position=0))
    for bad in [
        token[:-2] + "xx",
        f"{running.pk}.0",
        # the old format (table.position:signature) is refused cleanly
        signing.Signer(salt="turnierleiter.seat").sign(f"{running.pk}.1"),
        sheet_links.table_token(running.pk),  # a table's token is not a seat's
    ]:
        response = client.get(reverse("seat_link", args=[bad]))
        assert response.status_code == 404
        assert "This seat link is damaged" in response.content.decode()
    response = client.post(reverse("seat_link", args=[token[:-2] + "xx"]), post_data(SHEET))
    assert response.status_code == 404 and not Submission.objects.exists()


def test_the_link_of_a_player_no_longer_seated_is_refused(client, running):
    """A link belongs to the player, not to a chair: once the player has no
    seat in the round, the link shows why and can't report anything."""
    seat = Seat.objects.get(table=running, position=2)
    path = seat_path(running, 2)
    seat.delete()
    response = client.get(path)
    assert response.status_code == 403
    assert "You have no seat in this round" in html.unescape(response.content.decode())
    response = client.post(path, post_data(SHEET))
    assert response.status_code == 403 and not Submission.objects.exists()


def test_confirming_an_unknown_version_is_not_found(client, running):
    client.post(seat_path(running, 0), post_data(SHEET))
    for version in ["7", "abc", ""]:
        response = client.post(seat_path(running, 1), {"action": "confirm", "version": version})
        assert response.status_code == 404
    assert Submission.objects.get().confirmations.count() == 1
