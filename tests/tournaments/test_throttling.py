"""Login lockout (django-axes), signup rate limit, and oversized bodies
refused from their headers before the body is read."""

import io

import pytest
from django.core.cache import cache
from django.urls import reverse

from tournaments import limits

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_counters():
    cache.clear()
    yield
    cache.clear()


def login(client, username, password, address="203.0.113.7"):
    return client.post(
        reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address
    )


def test_thirty_wrong_passwords_then_the_right_one_is_refused_with_when(client, organizer):
    for _ in range(30):
        response = login(client, "orga", "wrong-password")
        assert response.status_code in (200, 429)
    response = login(client, "orga", "pw-orga-12345")
    assert response.status_code == 429
    text = response.content.decode()
    assert "Too many failed logins" in text and "Try again at" in text
    assert "_auth_user_id" not in client.session


def test_the_lockout_is_the_names_from_that_address_only(client, organizer, other_user, settings):
    """A club's members share one address: wrong passwords for one name lock
    that name from that address, not the name from elsewhere (its owner at
    home) nor the others at that address."""
    for _ in range(settings.AXES_FAILURE_LIMIT):
        login(client, "orga", "wrong", address="203.0.113.7")
    assert login(client, "orga", "pw-orga-12345", address="203.0.113.7").status_code == 429
    client.logout()
    assert login(client, "orga", "pw-orga-12345", address="198.51.100.9").status_code == 302
    client.logout()
    assert login(client, "other", "pw-other-12345", address="203.0.113.7").status_code == 302


def test_failed_logins_of_others_at_the_same_address_lock_no_one_else(client, organizer, settings):
    for n in range(settings.AXES_FAILURE_LIMIT + 5):
        login(client, f"guess{n}", "wrong", address="203.0.113.7")
    assert login(client, "orga", "pw-orga-12345", address="203.0.113.7").status_code == 302


def test_the_lockout_message_is_german_in_german(client, organizer, settings):
    client.cookies["django_language"] = "de"
    for _ in range(settings.AXES_FAILURE_LIMIT + 1):
        response = login(client, "orga", "wrong")
    assert response.status_code == 429
    assert "Zu viele fehlgeschlagene Anmeldungen" in response.content.decode()


def test_a_few_mistakes_then_the_right_password_logs_in(client, organizer):
    for _ in range(3):
        assert login(client, "orga", "wrong").status_code == 200
    assert login(client, "orga", "pw-orga-12345").status_code == 302


def test_a_signup_flood_from_one_address_is_refused(client, django_user_model, settings):
    settings.SIGNUP_LIMIT = 3
    statuses = []
    for n in range(10):
        client.logout()
        response = client.post(
            reverse("signup"),
            {"username": f"flood{n}", "password1": "Kx9!long-pass", "password2": "Kx9!long-pass"},
            REMOTE_ADDR="203.0.113.50",
        )
        statuses.append(response.status_code)
    assert statuses[:3] == [302, 302, 302]
    assert set(statuses[3:]) == {429}
    assert django_user_model.objects.filter(username__startswith="flood").count() == 3
    assert "Too many accounts" in response.content.decode()


class TrapInput(io.RawIOBase):
    """A request body that counts what is read from it."""

    def __init__(self):
        self.read_bytes = 0

    def readable(self):
        return True

    def read(self, size=-1):
        size = 65536 if size is None or size < 0 else size
        self.read_bytes += size
        return b"x" * size

    def readline(self, size=-1):
        return self.read(size)


@pytest.mark.parametrize(
    "path,content_type,size",
    [
        ("tournament_import", "multipart/form-data; boundary=xyz", 100 * 1024 * 1024),
        ("login", "application/x-www-form-urlencoded", 3 * 1024 * 1024),
        ("signup", "application/x-www-form-urlencoded", 100 * 1024 * 1024),
    ],
)
def test_an_oversized_body_is_refused_before_it_is_read(
    client, organizer, path, content_type, size
):
    client.force_login(organizer)
    trap = TrapInput()
    response = client.generic(
        "POST",
        reverse(path),
        b"",
        content_type=content_type,
        CONTENT_LENGTH=str(size),
        **{"wsgi.input": trap},
    )
    assert response.status_code == 413
    assert trap.read_bytes == 0
    assert "too large" in response.content.decode()
    assert response["Connection"] == "close"


def test_a_body_within_the_limit_is_read(client, organizer):
    client.force_login(organizer)
    response = client.post(reverse("tournament_import"), {"file": io.BytesIO(b"{}")})
    assert response.status_code == 302  # stored for the worker
    assert limits.MAX_IMPORT_BYTES < limits.MAX_BODY_BYTES


def test_client_login_without_a_request_still_works(client, organizer):
    assert client.login(username="orga", password="pw-orga-12345")
