"""The client's address: one function reads it (``client_address``) for
every limit, django-axes and a saved result; behind the proxies named in
``TRUSTED_PROXIES`` it is the client's they forwarded, never a header a
client wrote; and the registration limit fits a club: per address a ceiling
a club's Wi-Fi doesn't reach, per name and e-mail address a small one.
The real proxy in front is in ``test_proxy.py``."""

from __future__ import annotations

import asyncio
import ipaddress
import re
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import RequestFactory
from django.urls import reverse
from hypothesis import assume, given
from hypothesis import strategies as st

from tournaments import services
from tournaments.addresses import client_address
from tournaments.registrations import services as registrations
from tournaments.registrations.forms import form_stamp
from tournaments.registrations.models import Registration

ROOT = Path(__file__).resolve().parents[2]


def address_of(remote_addr: str):
    return client_address(RequestFactory().get("/", REMOTE_ADDR=remote_addr))


@given(st.ip_addresses(v=4))
def test_an_ipv4_address_is_the_same_in_any_spelling(address):
    assert address_of(str(address)) == str(address)
    assert address_of(f"::ffff:{address}") == str(address)
    assert address_of(f"::FFFF:{address}") == str(address)


@given(st.ip_addresses(v=6))
def test_an_ipv6_address_is_written_one_way(address):
    assume(address.ipv4_mapped is None)
    assert address_of(address.exploded.upper()) == str(address)
    assert address_of(f"[{address}]") == str(address)


@given(st.text(max_size=60))
def test_anything_else_is_no_address(text):
    try:
        ipaddress.ip_address(text.strip().strip("[]"))
    except ValueError:
        assert address_of(text) is None
    else:
        assert address_of(text) is not None


def test_no_other_code_reads_the_connections_address():
    readers = [
        str(path.relative_to(ROOT))
        for package in ("tournaments", "scoring", "games")
        for path in (ROOT / package).rglob("*.py")
        if re.search(r"REMOTE_ADDR|HTTP_X_FORWARDED_FOR|HTTP_X_REAL_IP", path.read_text())
    ]
    assert readers == ["tournaments/addresses.py"]


def test_django_axes_counts_under_the_same_address():
    from axes.helpers import get_client_ip_address

    request = RequestFactory().get("/", REMOTE_ADDR="::ffff:203.0.113.8")
    assert get_client_ip_address(request) == client_address(request) == "203.0.113.8"


@pytest.mark.parametrize(
    "value,expected",
    [
        ("", []),
        ("10.0.0.5", ["10.0.0.5"]),
        (" 10.0.0.5 , 172.18.0.0/16,::1 ", ["10.0.0.5", "172.18.0.0/16", "::1"]),
    ],
)
def test_trusted_proxies_are_addresses_or_networks(monkeypatch, value, expected):
    from tournaments.settings import trusted_proxies

    monkeypatch.setenv("TRUSTED_PROXIES", value)
    assert trusted_proxies("TRUSTED_PROXIES") == expected


@pytest.mark.parametrize("value", ["*", "proxy.example.org", "10.0.0.5,10.0.0.300", "10.0.0.0/33"])
def test_a_wrong_trusted_proxy_stops_the_start(monkeypatch, value):
    from tournaments.settings import trusted_proxies

    monkeypatch.setenv("TRUSTED_PROXIES", value)
    with pytest.raises(ImproperlyConfigured, match="TRUSTED_PROXIES: .* is not an IP address"):
        trusted_proxies("TRUSTED_PROXIES")


def _seen(proxies: list[str], client: tuple[str, int], forwarded: str | None):
    """The client the application sees for one request behind ``proxies``."""
    from tournaments.asgi import behind_proxies

    seen = {}

    async def app(scope, receive, send):
        seen["client"] = scope["client"]

    headers = [(b"host", b"example.org")]
    if forwarded is not None:
        headers.append((b"x-forwarded-for", forwarded.encode()))
    scope = {"type": "http", "client": client, "headers": headers, "scheme": "http"}
    asyncio.run(behind_proxies(app, proxies)(scope, None, None))
    return seen["client"]


def test_only_a_trusted_proxys_forwarded_address_is_believed():
    proxies = ["127.0.0.2", "10.1.0.0/16"]
    # through the proxy: the nearest address that is not a proxy, never
    # what the client wrote before it
    assert _seen(proxies, ("127.0.0.2", 4000), "6.6.6.6, 203.0.113.5")[0] == "203.0.113.5"
    assert _seen(proxies, ("127.0.0.2", 4000), "203.0.113.5, 10.1.2.3")[0] == "203.0.113.5"
    # anyone else: the connection's address, whatever the header says
    assert _seen(proxies, ("203.0.113.9", 4000), "6.6.6.6") == ("203.0.113.9", 4000)
    assert _seen(proxies, ("10.2.0.1", 4000), "6.6.6.6") == ("10.2.0.1", 4000)
    # no proxy named (the laptop): the connection's address
    assert _seen([], ("127.0.0.2", 4000), "6.6.6.6") == ("127.0.0.2", 4000)


# -- the registration limit: per address and per name / e-mail address --------


@pytest.fixture
def open_tournaments(organizer, settings):
    settings.REGISTRATION_MIN_SECONDS = 0
    made = []
    for n in range(4):
        t = services.tournament_create(owner=organizer, name=f"Abend {n}", game="quartett")
        registrations.announcement_save(tournament=t, by=organizer, cap=64)
        made.append(t)
    return made


def register(client, tournament, name: str, address: str, **extra):
    return client.post(
        reverse("announcement_public", args=[tournament.pk]),
        {"name": name, "club": "", "stamp": form_stamp(), **extra},
        REMOTE_ADDR=address,
        HTTP_ACCEPT_LANGUAGE="de",
    )


@pytest.mark.django_db
def test_the_default_limit_lets_a_whole_club_register_from_one_address(client, open_tournaments):
    answers = [
        register(client, open_tournaments[0], f"Mitglied {n}", "203.0.113.40").status_code
        for n in range(60)
    ]
    assert answers == [302] * 60


@pytest.mark.django_db
def test_one_name_registers_a_few_times_an_hour_from_any_address(
    client, open_tournaments, settings
):
    settings.REGISTRATION_PERSON_LIMIT = 2
    first, second, third, fourth = open_tournaments
    assert register(client, first, "Jürgen Groß", "203.0.113.1").status_code == 302
    assert register(client, second, "juergen  gross", "198.51.100.2").status_code == 302
    refused = register(client, third, "JÜRGEN GROSS", "192.0.2.3")
    assert refused.status_code == 429
    assert "Für diesen Namen oder diese E-Mail-Adresse wurden zu viele Anmeldungen" in (
        refused.content.decode()
    )
    # the refusal cost the address nothing; another name registers from it
    assert register(client, third, "Anna Ahrens", "192.0.2.3").status_code == 302
    assert register(client, fourth, "Anna Ahrens", "192.0.2.3").status_code == 302
    assert Registration.objects.filter(name__icontains="gro").count() == 2


@pytest.mark.django_db
def test_one_email_address_registers_a_few_times_an_hour(client, open_tournaments, settings):
    settings.REGISTRATION_PERSON_LIMIT = 2
    settings.REGISTRATION_MAIL = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    t = open_tournaments[0]
    for n, address in enumerate(["203.0.113.1", "198.51.100.2"]):
        answer = register(client, t, f"Kind {n}", address, email="Familie@example.org")
        assert answer.status_code == 302
    answer = register(client, t, "Kind 2", "192.0.2.3", email="familie@EXAMPLE.org")
    assert answer.status_code == 429
    assert Registration.objects.count() == 2
