"""The organizer re-issues one seat link: the old link stops at
once with a clear page, the new one works, who/when is kept, and that seat's
slip can be printed again (a one-slip PDF with the new link's QR code)."""

from __future__ import annotations

import io
from html import unescape

import pdfplumber
import pytest
from django.urls import resolve, reverse

from scoring.models import Submission
from tests.play.test_play import decode_qr_codes, make_table
from tests.scoring.test_result_entry import post_data
from tournaments import services
from tournaments.models import Seat, TableAction
from tournaments.play import links
from tournaments.play.models import SeatLink

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_broker(monkeypatch):
    from tournaments.services import deadlines

    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)


def reissue_url(rnd, player):
    return reverse("seat_link_reissue", args=[rnd.tournament_id, rnd.number, player.pk])


def test_a_reissued_link_replaces_the_old_one_at_once(client, organizer):
    rnd, table = make_table(organizer)
    seat = Seat.objects.select_related("player").get(table=table, position=0)
    old = links.seat_token(seat)
    assert client.get(reverse("seat_link", args=[old])).status_code == 200

    client.force_login(organizer)
    response = client.post(reissue_url(rnd, seat.player))
    assert response.status_code == 302
    client.logout()

    response = client.get(reverse("seat_link", args=[old]))
    assert response.status_code == 410
    assert "This link has been replaced" in unescape(response.content.decode())
    engine = rnd.tournament.engine
    state = engine.load(table.state)
    action = engine.legal_actions(state, 0)[0]
    assert client.post(reverse("seat_move", args=[old]), {"action": action}).status_code == 410
    assert not TableAction.objects.exists()

    new = links.seat_token(seat)
    assert new != old
    assert client.get(reverse("seat_link", args=[new])).status_code == 200
    assert client.post(reverse("seat_move", args=[new]), {"action": action}).status_code == 302
    assert TableAction.objects.filter(seat=0).count() == 1

    revoked = SeatLink.objects.get(key=old)
    assert revoked.revoked_by == organizer and revoked.revoked_at is not None
    assert SeatLink.objects.get(key=new).issued_by == organizer


def test_the_slip_is_printed_again_with_the_new_link(client, organizer):
    rnd, table = make_table(organizer, start=False)
    seat = Seat.objects.select_related("player").get(table=table, position=1)
    client.force_login(organizer)
    client.post(reissue_url(rnd, seat.player))
    response = client.get(
        reverse("seat_slip", args=[rnd.tournament_id, rnd.number, seat.player_id])
    )
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    with pdfplumber.open(io.BytesIO(response.content)) as doc:
        assert len(doc.pages) == 1
        text = doc.pages[0].extract_text()
    assert seat.player.name in text and "Round 1 · Table 1 · Seat 2" in text
    (code,) = decode_qr_codes(response.content)
    token = resolve(code.removeprefix("http://testserver")).kwargs["token"]
    assert token == links.seat_token(seat)
    assert links.resolve_seat(token).seat == seat


def test_a_scorekeeper_prints_slips_but_cannot_reissue(client, organizer, django_user_model):
    rnd, table = make_table(organizer)
    seat = Seat.objects.select_related("player").get(table=table, position=0)
    old = links.seat_token(seat)
    django_user_model.objects.create_user("keeper", password="pw-keeper-12345")
    services.scorekeeper_add(tournament=rnd.tournament, username="keeper")
    client.login(username="keeper", password="pw-keeper-12345")
    assert client.post(reissue_url(rnd, seat.player)).status_code == 403
    assert links.seat_token(seat) == old
    slip = reverse("seat_slip", args=[rnd.tournament_id, rnd.number, seat.player_id])
    assert client.get(slip).status_code == 200


def test_reissuing_for_a_player_of_another_round_or_tournament_is_refused(
    client, organizer, other_user
):
    rnd, _table = make_table(organizer)
    other_rnd, other_table = make_table(other_user, game="trumpet", players=3)
    stranger = Seat.objects.get(table=other_table, position=0).player
    client.force_login(organizer)
    url = reverse("seat_link_reissue", args=[rnd.tournament_id, rnd.number, stranger.pk])
    assert client.post(url).status_code == 404
    url = reverse("seat_link_reissue", args=[rnd.tournament_id, 7, stranger.pk])
    assert client.post(url).status_code == 404
    assert not SeatLink.objects.filter(revoked_at__isnull=False).exists()


def test_a_self_report_through_a_replaced_link_is_refused(client, organizer):
    from tests.scoring.test_result_entry import make_table as paper_table

    table = paper_table(organizer, "quartett", self_report=True)
    seat = Seat.objects.select_related("player", "table__round").get(table=table, position=0)
    old = links.seat_token(seat)
    links.seat_link_reissue(round=table.round, player=seat.player, by=organizer)
    response = client.post(
        reverse("seat_link", args=[old]),
        post_data({"s0_cards": 12, "s1_cards": 10, "s2_cards": 8}),
    )
    assert response.status_code == 410 and not Submission.objects.exists()


def test_the_seating_page_shows_the_new_link_and_who_reissued_it(client, organizer):
    rnd, table = make_table(organizer, start=False)
    seat = Seat.objects.select_related("player").get(table=table, position=0)
    old = links.seat_token(seat)
    client.force_login(organizer)
    page = reverse("round_seating", args=[rnd.tournament_id, rnd.number])
    html = unescape(client.get(page).content.decode())
    assert old in html and "data-reissued" not in html
    client.post(reissue_url(rnd, seat.player))
    html = unescape(client.get(page).content.decode())
    assert old not in html and links.seat_token(seat) in html
    assert "re-issued once, by orga at" in html
    client.post(reissue_url(rnd, seat.player))
    html = unescape(client.get(page).content.decode())
    assert "re-issued 2 times, last by orga at" in html


def test_a_slip_for_a_player_without_a_seat_is_not_found(client, organizer):
    rnd, _table = make_table(organizer, start=False)
    outsider = services.player_add(tournament=rnd.tournament, by=organizer, name="Ohne Sitz")
    client.force_login(organizer)
    url = reverse("seat_slip", args=[rnd.tournament_id, rnd.number, outsider.pk])
    assert client.get(url).status_code == 404
    assert not SeatLink.objects.filter(player=outsider).exists()


def test_a_polling_partial_of_a_replaced_link_reloads_the_page(client, organizer):
    rnd, table = make_table(organizer)
    seat = Seat.objects.select_related("player").get(table=table, position=0)
    old = links.seat_token(seat)
    links.seat_link_reissue(round=rnd, player=seat.player, by=organizer)
    response = client.get(reverse("seat_play", args=[old]), HTTP_HX_REQUEST="true")
    assert response.status_code == 410 and response["HX-Refresh"] == "true"
