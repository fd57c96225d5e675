"""A write whose database connection is killed after it was stored, before
the answer: the answer says it was saved. PostgreSQL; the
request's own connection is terminated (``pg_terminate_backend``) from
another one between the view and the session middleware, as a database
restart or a killed backend does.

Django's database sessions saved the session on that dead connection, read
the failure as "the session was deleted by a concurrent logout" and answered
400 — for a signup whose account was stored, a login that had gone through."""

from __future__ import annotations

import time

import psycopg
import pytest
from django.conf import settings as django_settings
from django.contrib.sessions.middleware import SessionMiddleware
from django.db import connection
from django.urls import reverse

from tournaments.sessions import SessionStore

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

KILLER = "tests.tournaments.test_session_after_kill.KillTheConnection"
KILLED = []


class KillTheConnection:
    """After the view, before the session is saved: the request's database
    connection is terminated from another connection."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if request.method == "POST":
            KILLED.append(terminate(connection))
        return response


def terminate(conn) -> int:
    with conn.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    params = conn.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    with psycopg.connect(**params, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
        for _ in range(100):  # until the backend is gone
            gone = other.execute(
                "SELECT NOT EXISTS (SELECT 1 FROM pg_stat_activity WHERE pid = %s)", [pid]
            ).fetchone()[0]
            if gone:
                break
            time.sleep(0.02)
    return pid


@pytest.fixture
def killer(require_postgres, settings):
    session = django_settings.MIDDLEWARE.index(
        "django.contrib.sessions.middleware.SessionMiddleware"
    )
    settings.MIDDLEWARE = [
        *django_settings.MIDDLEWARE[: session + 1],
        KILLER,
        *django_settings.MIDDLEWARE[session + 1 :],
    ]
    KILLED.clear()
    return KILLED


def test_the_project_saves_sessions_with_the_engine_that_survives_it():
    assert django_settings.SESSION_ENGINE == "tournaments.sessions"
    assert SessionMiddleware(lambda r: None).SessionStore is SessionStore


@pytest.mark.parametrize("n", range(5))
def test_a_signup_stored_before_the_connection_died_answers_signed_up(
    client, killer, django_user_model, n
):
    password = "Kx9!long-pass-word"
    response = client.post(
        reverse("signup"),
        {"username": f"neu{n}", "password1": password, "password2": password},
        REMOTE_ADDR=f"198.51.100.{n}",
    )
    assert len(killer) == 1  # the connection was killed after the account was stored
    assert response.status_code == 302 and response.url == reverse("tournament_list")
    user = django_user_model.objects.get(username=f"neu{n}")
    # the new session is stored and logs the new organizer in
    assert client.get(reverse("tournament_list")).status_code == 200
    assert int(client.session["_auth_user_id"]) == user.pk


def test_a_login_whose_connection_died_afterwards_is_logged_in(client, killer, organizer):
    response = client.post(
        reverse("login"), {"username": "orga", "password": "pw-orga-12345"}, REMOTE_ADDR="::1"
    )
    assert len(killer) == 1
    assert response.status_code == 302
    assert client.get(reverse("tournament_list")).status_code == 200


def test_a_session_deleted_meanwhile_is_still_refused():
    """The retry is for a lost connection only: a session whose row is gone
    (a logout in another tab) is not written back."""
    from django.contrib.sessions.backends.base import UpdateError

    store = SessionStore()
    store["x"] = 1
    store.create()
    SessionStore(store.session_key).delete()
    store["x"] = 2
    with pytest.raises(UpdateError):
        store.save()


def test_a_signup_whose_connection_dies_before_its_session_stores_no_account(
    require_postgres, monkeypatch, django_user_model
):
    """Killed between the account and its session: an error page, and no
    account either (before, the account stayed behind a 500)."""
    from django.test import Client

    from tournaments.views import accounts

    login = accounts.login

    def killed_first(request, user, **kwargs):
        terminate(connection)
        return login(request, user, **kwargs)

    monkeypatch.setattr(accounts, "login", killed_first)
    client = Client(raise_request_exception=False)
    password = "Kx9!long-pass-word"
    response = client.post(
        reverse("signup"),
        {"username": "halb", "password1": password, "password2": password},
        REMOTE_ADDR="198.51.100.77",
    )
    assert response.status_code == 500
    assert not django_user_model.objects.filter(username="halb").exists()
