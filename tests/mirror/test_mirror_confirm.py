"""A publishing key needs a confirmed organizer account on the online site:
an account made a minute ago gets none. It is confirmed by a mailed link or
by the site admin's approval, as ``ORGANIZER_CONFIRMATION`` says."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.urls import reverse

from tournaments.mirror import keys
from tournaments.mirror.models import PublisherConfirmation, PublishingKey
from tournaments.services.errors import ServiceError

pytestmark = pytest.mark.django_db


def signed_up(client, name="neu-verein"):
    """An account just made (as the signup makes it), logged in."""
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.create_user(name, password="pw-neu-verein-42")
    client.force_login(user)
    return user


def test_an_account_made_a_minute_ago_gets_no_publishing_key(client, settings):
    settings.ORGANIZER_CONFIRMATION = "admin"
    user = signed_up(client)
    page = client.post(reverse("mirror_keys"), {"name": "Laptop"}, follow=True)
    text = page.content.decode()
    assert not PublishingKey.objects.filter(user=user).exists()
    assert "Your account is not confirmed yet: it can&#x27;t have publishing keys." in text
    assert "Confirm your organizer account" in text
    with pytest.raises(ServiceError):
        keys.key_create(user=user)


def test_a_mailed_link_confirms_the_account(client, settings, monkeypatch):
    settings.ORGANIZER_CONFIRMATION = "mail"
    monkeypatch.setattr(keys, "_mail_later", lambda **kw: keys.send_confirmation(**kw))
    user = signed_up(client)
    response = client.post(reverse("mirror_keys"), {"action": "confirm", "email": "x"}, follow=True)
    assert "Enter the mail address" in response.content.decode()
    with pytest.raises(ServiceError):
        keys.key_create(user=user)

    client.post(reverse("mirror_keys"), {"action": "confirm", "email": "verein@example.org"})
    # the mail goes after the commit (the test's transaction never commits)
    row = PublisherConfirmation.objects.get(user=user)
    assert row.confirmed_at is None and row.email == "verein@example.org"
    link = _link_sent(client, user)
    assert client.get(link.replace("/confirm/", "/confirm/x")).status_code == 302
    assert not keys.is_confirmed(user)
    client.get(link)
    assert keys.is_confirmed(user)
    page = client.post(reverse("mirror_keys"), {"name": "Laptop"}).content.decode()
    assert 'class="new-key">tlk_' in page


def _link_sent(client, user) -> str:
    """The confirmation mail as the worker sends it after the commit."""
    row = PublisherConfirmation.objects.get(user=user)
    from django.core import signing

    token = signing.dumps({"u": user.pk, "e": row.email}, salt=keys._SALT)
    keys.send_confirmation(
        email=row.email,
        url="http://testserver" + reverse("mirror_confirm", args=[token]),
        language="en",
    )
    [sent] = mail.outbox
    assert sent.to == [row.email] and "organizer account" in sent.subject + sent.body
    return re.search(r"http://testserver(\S+)", sent.body).group(1)


def test_the_site_admin_approves_an_account(client, settings, django_user_model):
    settings.ORGANIZER_CONFIRMATION = "admin"
    user = signed_up(client)
    page = client.post(reverse("mirror_keys"), {"action": "confirm"}, follow=True)
    assert "the site&#x27;s admin confirms your account" in page.content.decode()
    admin = django_user_model.objects.create_superuser("admin", password="pw-admin-12345")
    staff = client.__class__()
    staff.force_login(admin)
    row = PublisherConfirmation.objects.get(user=user)
    response = staff.post(
        reverse("admin:mirror_publisherconfirmation_changelist"),
        {"action": "approve", "_selected_action": [row.pk]},
    )
    assert response.status_code == 302
    assert keys.is_confirmed(user)
    _row, key = keys.key_create(user=user)
    hello = client.get(reverse("mirror_api_hello"), HTTP_AUTHORIZATION=f"Bearer {key}")
    assert hello.status_code == 200
    # a confirmation withdrawn: the key no longer works
    PublisherConfirmation.objects.filter(user=user).delete()
    hello = client.get(reverse("mirror_api_hello"), HTTP_AUTHORIZATION=f"Bearer {key}")
    assert hello.status_code == 401
