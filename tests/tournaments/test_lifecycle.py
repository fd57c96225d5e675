"""A seated tournament with results can be archived or deleted by its owner
(it once failed with ProtectedError from Seat/Bye). Archived: hidden from the
lists, read-only, public pages and seat links off, restorable."""

from __future__ import annotations

from html import unescape

import pytest
from django.urls import reverse

from scoring import services as scoring_services
from scoring.models import Submission
from tests.factories import PlayerFactory, TournamentFactory, seated_round
from tournaments import services
from tournaments.models import Player, Seat, Tournament
from tournaments.play import links
from tournaments.services import deadlines

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_broker(monkeypatch):
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)


@pytest.fixture
def played(organizer):
    """Round 1 played and corrected (versions protect each other), a bye, and
    a keeper: seated (P0 and P1 at a table of two, B on the bye three
    players leave), started and closed through the services."""
    tournament = TournamentFactory(
        owner=organizer, name="Herbstturnier", self_report=True, allowed_sizes=[2], table_size=2
    )
    seated = [PlayerFactory(tournament=tournament, name=f"P{pos}") for pos in range(2)]
    PlayerFactory(tournament=tournament, name="B")
    rnd = seated_round(tournament, order=[seated], time_called=True)
    assert [b.player.name for b in rnd.byes.all()] == ["B"]
    table = rnd.tables.get(number=1)
    sheet = {"s0_cards": 20, "s1_cards": 12}
    scoring_services.result_submit(table=table, sheet=sheet, by=organizer, expected_version=None)
    scoring_services.result_submit(
        table=table,
        sheet={"s0_cards": 12, "s1_cards": 20},
        by=organizer,
        expected_version=1,
        reason="typo",
    )
    return rnd


def test_the_owner_deletes_a_played_tournament_after_typing_its_name(client, organizer, played):
    t = played.tournament
    client.force_login(organizer)
    url = reverse("tournament_delete", args=[t.pk])
    assert "Type the tournament" in unescape(client.get(url).content.decode())
    response = client.post(url, {"confirm_name": "something else"})
    assert response.status_code == 400
    assert Tournament.objects.filter(pk=t.pk).exists()
    response = client.post(url, {"confirm_name": t.name})
    assert response.status_code == 302
    assert not Tournament.objects.filter(pk=t.pk).exists()
    assert not Player.objects.exists() and not Submission.objects.exists()


def test_a_scorekeeper_can_neither_archive_nor_delete(client, organizer, played, django_user_model):
    t = played.tournament
    django_user_model.objects.create_user("keeper", password="pw-keeper-12345")
    services.scorekeeper_add(tournament=t, username="keeper")
    client.login(username="keeper", password="pw-keeper-12345")
    assert (
        client.post(reverse("tournament_delete", args=[t.pk]), {"confirm_name": t.name}).status_code
        == 403
    )
    assert (
        client.post(reverse("tournament_archive", args=[t.pk]), {"action": "archive"}).status_code
        == 403
    )
    t.refresh_from_db()
    assert t.archived_at is None


def test_an_archived_tournament_is_hidden_read_only_and_restorable(client, organizer, played):
    t = played.tournament
    token = links.seat_keys(played.pk, [Seat.objects.first().player_id])
    token = next(iter(token.values()))
    client.force_login(organizer)
    response = client.post(reverse("tournament_archive", args=[t.pk]), {"action": "archive"})
    assert response.status_code == 302
    t.refresh_from_db()
    assert t.archived_at is not None

    # hidden from the lists, but found under "archived"
    assert t.name not in client.get(reverse("tournament_list")).content.decode()
    assert t.name in client.get(reverse("tournament_list") + "?archived=1").content.decode()
    # read-only: a change is refused and changes nothing; reading works
    response = client.post(reverse("player_add", args=[t.pk]), {"name": "Neu"})
    assert response.status_code == 403
    assert not t.players.filter(name="Neu").exists()
    assert client.get(reverse("standings", args=[t.pk])).status_code == 200
    assert client.get(reverse("print_round", args=[t.pk, 1, "seating"])).status_code == 200
    # public pages and seat links are off
    client.logout()
    assert client.get(reverse("home")).content.decode().count(t.name) == 0
    for name, args in [
        ("tournament_public", [t.pk]),
        ("standings_public", [t.pk]),
        ("round_public", [t.pk, 1]),
    ]:
        assert client.get(reverse(name, args=args)).status_code == 404, name
    response = client.get(reverse("seat_link", args=[token]))
    assert response.status_code == 410
    assert "This tournament is archived" in unescape(response.content.decode())

    client.force_login(organizer)
    client.post(reverse("tournament_archive", args=[t.pk]), {"action": "restore"})
    t.refresh_from_db()
    assert t.archived_at is None
    assert client.get(reverse("tournament_public", args=[t.pk])).status_code == 200


def test_a_round_on_the_clock_must_end_before_archiving(client, organizer, tournament):
    seated_round(tournament, players=3, start=True)
    client.force_login(organizer)
    response = client.post(
        reverse("tournament_archive", args=[tournament.pk]), {"action": "archive"}, follow=True
    )
    assert "Round 1 is on the clock: let it end before archiving." in unescape(
        response.content.decode()
    )
    tournament.refresh_from_db()
    assert tournament.archived_at is None
