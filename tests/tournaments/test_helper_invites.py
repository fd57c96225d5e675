"""Helpers invited in one step (issue 36, point 1): the organizer invites a
helper by name; the one-time link creates the helper's account or adds the
logged-in one; a used, withdrawn, expired or foreign link changes nothing."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from tournaments import services
from tournaments.models import HelperInvite
from tournaments.services.scorekeepers import invite_hash

pytestmark = pytest.mark.django_db


def _invite(tournament, organizer, name="monika"):
    return services.invite_create(tournament=tournament, by=organizer, name=name)


def test_the_secret_is_random_and_only_its_hash_is_stored(tournament, organizer):
    a, token_a = _invite(tournament, organizer)
    b, token_b = _invite(tournament, organizer)
    assert token_a != token_b and len(token_a) >= 24
    stored = HelperInvite.objects.values_list("token_hash", flat=True)
    assert token_a not in stored and invite_hash(token_a) in stored
    assert a.expires_at > timezone.now() + timedelta(days=6)


def test_a_new_helper_gets_an_account_and_becomes_scorekeeper(tournament, organizer):
    invite, token = _invite(tournament, organizer)
    user, _ = services.invite_accept(
        tournament_id=tournament.pk, token=token, username="monika", password="x-Secret-2026"
    )
    assert user.check_password("x-Secret-2026")
    assert list(tournament.scorekeepers.all()) == [user]
    invite.refresh_from_db()
    assert invite.used_by == user and invite.used_at is not None


def test_a_link_works_once(tournament, organizer, other_user):
    _, token = _invite(tournament, organizer)
    services.invite_accept(tournament_id=tournament.pk, token=token, user=other_user)
    with pytest.raises(services.ServiceError, match="already been used"):
        services.invite_accept(
            tournament_id=tournament.pk, token=token, username="second", password="x-Secret-2026"
        )
    assert not get_user_model().objects.filter(username="second").exists()


@pytest.mark.parametrize(
    ("spoil", "why"),
    [
        (
            lambda i, o: services.invite_revoke(tournament=i.tournament, by=o, invite_id=i.pk),
            "withdrawn",
        ),
        (
            lambda i, o: HelperInvite.objects.filter(pk=i.pk).update(expires_at=timezone.now()),
            "expired",
        ),
    ],
)
def test_withdrawn_or_expired_links_change_nothing(tournament, organizer, spoil, why):
    invite, token = _invite(tournament, organizer)
    spoil(invite, organizer)
    with pytest.raises(services.ServiceError, match=why):
        services.invite_accept(
            tournament_id=tournament.pk, token=token, username="monika", password="x-Secret-2026"
        )
    assert not tournament.scorekeepers.exists()
    assert not get_user_model().objects.filter(username="monika").exists()


def test_a_link_for_another_tournament_is_refused(tournament, organizer):
    other = services.tournament_create(owner=organizer, name="Frühjahr", game="quartett")
    _, token = _invite(other, organizer)
    with pytest.raises(services.ServiceError, match="another tournament"):
        services.invite_accept(
            tournament_id=tournament.pk, token=token, username="monika", password="x-Secret-2026"
        )
    assert not tournament.scorekeepers.exists() and not other.scorekeepers.exists()


def test_revoking_another_tournaments_invite_is_refused(tournament, organizer):
    other = services.tournament_create(owner=organizer, name="Frühjahr", game="quartett")
    invite, _ = _invite(other, organizer)
    with pytest.raises(services.ServiceError):
        services.invite_revoke(tournament=tournament, by=organizer, invite_id=invite.pk)
    invite.refresh_from_db()
    assert invite.revoked_at is None


def test_a_taken_name_is_refused_and_the_link_stays_open(tournament, organizer, other_user):
    invite, token = _invite(tournament, organizer)
    with pytest.raises(services.ServiceError, match="taken"):
        services.invite_accept(
            tournament_id=tournament.pk, token=token, username="OTHER", password="x-Secret-2026"
        )
    invite.refresh_from_db()
    assert invite.used_at is None


# --- the pages -----------------------------------------------------------------


def _make_invite_page(client, tournament, name="monika"):
    r = client.post(reverse("scorekeepers", args=[tournament.pk]), {"invite": "1", "name": name})
    assert r.status_code == 302
    page = client.get(r["Location"])
    link = re.search(r'value="(http[^"]+/join/[^"]+)"', page.content.decode())
    return page, link.group(1)


def test_organizer_invites_and_sees_the_link_and_qr_once(client, tournament, organizer):
    client.force_login(organizer)
    page, link = _make_invite_page(client, tournament)
    assert "<svg" in page.content.decode()
    again = client.get(page.wsgi_request.path)
    assert link not in again.content.decode()
    listing = client.get(reverse("scorekeepers", args=[tournament.pk])).content.decode()
    assert "monika" in listing and "invited by orga" in listing


def test_a_new_helper_joins_through_the_link(client, tournament, organizer):
    client.force_login(organizer)
    _, link = _make_invite_page(client, tournament)
    client.logout()
    path = link.split("testserver", 1)[1]
    form = client.get(path)
    assert form.status_code == 200 and 'value="monika"' in form.content.decode()
    r = client.post(
        path, {"username": "monika", "password1": "Kartenspiel-26", "password2": "Kartenspiel-26"}
    )
    assert r.status_code == 302
    assert tournament.scorekeepers.filter(username="monika").exists()
    # logged in as the new helper: the tournament's pages open
    assert client.get(reverse("tournament_detail", args=[tournament.pk])).status_code == 200
    # the same link again: a clear page, nothing changes
    client.logout()
    again = client.get(path)
    assert again.status_code == 410 and "already been used" in again.content.decode()


def test_a_logged_in_account_joins_with_one_press(client, tournament, organizer, other_user):
    _, token = _invite(tournament, organizer)
    client.force_login(other_user)
    path = reverse("helper_join", args=[tournament.pk, token])
    assert "Join as other" in client.get(path).content.decode()
    assert client.post(path).status_code == 302
    assert list(tournament.scorekeepers.all()) == [other_user]


def test_bad_links_answer_a_page_and_change_nothing(client, tournament, organizer):
    other = services.tournament_create(owner=organizer, name="Frühjahr", game="quartett")
    _, token = _invite(other, organizer)
    for path, text in [
        (reverse("helper_join", args=[tournament.pk, token]), "another tournament"),
        (reverse("helper_join", args=[tournament.pk, "nonsense"]), "not valid"),
    ]:
        r = client.post(
            path, {"username": "x", "password1": "Karten-26x", "password2": "Karten-26x"}
        )
        assert r.status_code == 410 and text in r.content.decode()
    assert not get_user_model().objects.filter(username="x").exists()


def test_mismatched_passwords_keep_the_link_open(client, tournament, organizer):
    invite, token = _invite(tournament, organizer)
    r = client.post(
        reverse("helper_join", args=[tournament.pk, token]),
        {"username": "monika", "password1": "Kartenspiel-26", "password2": "Kartenspiel-27"},
    )
    assert r.status_code == 200 and "differ" in r.content.decode()
    invite.refresh_from_db()
    assert invite.used_at is None


def test_withdraw_from_the_page(client, tournament, organizer):
    invite, token = _invite(tournament, organizer)
    client.force_login(organizer)
    client.post(reverse("helper_invite_revoke", args=[tournament.pk, invite.pk]))
    invite.refresh_from_db()
    assert invite.revoked_by == organizer
    client.logout()
    r = client.get(reverse("helper_join", args=[tournament.pk, token]))
    assert r.status_code == 410 and "withdrawn" in r.content.decode()


def test_a_scorekeeper_cannot_invite(client, tournament, other_user):
    tournament.scorekeepers.add(other_user)
    client.force_login(other_user)
    r = client.post(reverse("scorekeepers", args=[tournament.pk]), {"invite": "1", "name": "x"})
    assert r.status_code == 403
    assert not HelperInvite.objects.exists()
