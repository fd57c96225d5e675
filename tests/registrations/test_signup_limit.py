"""The signup limit holds when the signups come at the same moment:
40 simultaneous signups from one address make at most ``SIGNUP_LIMIT``
accounts on every cache the project runs on — Redis (production), the file
cache (the laptop's processes) and local memory — and every other one is told
why, in its language. PostgreSQL: every thread its own connection."""

from __future__ import annotations

import uuid

import pytest
from django.test import Client
from django.urls import reverse

from tests.concurrency import at_once

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

ADDRESS = "203.0.113.40"
REFUSED_DE = "Von dieser Adresse wurden zu viele Konten angelegt. Bitte in 60 Minuten"


def signup(username: str):
    password = f"Kx9!{uuid.uuid4().hex}"

    def call():
        response = Client().post(
            reverse("signup"),
            {"username": username, "password1": password, "password2": password},
            REMOTE_ADDR=ADDRESS,
            HTTP_ACCEPT_LANGUAGE="de",
        )
        return response.status_code, response.content.decode()

    return call


@pytest.fixture(params=["redis", "file", "locmem"])
def shared_cache(request, settings, tmp_path):
    """The cache the web processes share, as the project configures it."""
    request.getfixturevalue("require_postgres")
    if request.param == "redis":
        url = request.getfixturevalue("require_redis")
        settings.CACHES = {
            "default": {
                "BACKEND": "django.core.cache.backends.redis.RedisCache",
                "LOCATION": url,
                "KEY_PREFIX": f"test-signup-{uuid.uuid4().hex[:8]}",
            }
        }
    elif request.param == "file":
        settings.CACHES = {
            "default": {"BACKEND": "tournaments.cache.FileCache", "LOCATION": str(tmp_path)}
        }
    from django.core.cache import cache

    yield cache
    cache.delete(f"signup-count:{ADDRESS}")


def test_forty_simultaneous_signups_from_one_address_make_ten_accounts(
    shared_cache, settings, django_user_model
):
    settings.SIGNUP_LIMIT, settings.SIGNUP_WINDOW = 10, 3600
    names = [f"flood{n:02d}" for n in range(40)]
    answers = at_once([signup(name) for name in names])
    assert not [a for a in answers if isinstance(a, Exception)], answers
    made = sorted(
        django_user_model.objects.filter(username__in=names).values_list("username", flat=True)
    )
    welcomed = sorted(
        name for name, (status, _) in zip(names, answers, strict=True) if status == 302
    )
    assert len(made) == 10
    assert welcomed == made  # every account made was told so, and only those
    refused = [html for status, html in answers if status != 302]
    assert len(refused) == 30
    assert {status for status, _ in answers if status != 302} == {429}
    assert all(REFUSED_DE in html for html in refused)
    # the window is not reset by the refused ones: the next one is refused too
    status, html = signup("late")()
    assert status == 429 and REFUSED_DE in html


def test_the_same_name_twice_at_once_makes_one_account_and_keeps_the_count(
    shared_cache, settings, django_user_model
):
    settings.SIGNUP_LIMIT = 10
    (first, second) = at_once([signup("twin"), signup("twin")])
    assert sorted([first[0], second[0]]) == [200, 302]
    loser = first if first[0] == 200 else second
    assert "Dieser Benutzername ist bereits vergeben." in loser[1]
    assert django_user_model.objects.filter(username="twin").count() == 1
    # only the account that was made counts against the address
    assert shared_cache.get(f"signup-count:{ADDRESS}") == 1
