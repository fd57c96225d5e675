"""Links and QR codes players can reach: a phone on the venue's Wi-Fi never
gets a loopback address, whatever address the organizer used on the laptop."""

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from django.test import RequestFactory
from hypothesis import given
from hypothesis import strategies as st

from scoring.sheet_links import table_sheet_url
from tournaments import addresses
from tournaments.management.commands.runall import web_command
from tournaments.play.links import seat_path

LAN = "192.168.1.20"


def request_to(host: str):
    return RequestFactory().get("/", HTTP_HOST=host)


@pytest.fixture
def venue(settings, monkeypatch):
    """A laptop on the club's Wi-Fi at 192.168.1.20, no SITE_URL."""
    settings.SITE_URL = ""
    settings.ALLOWED_HOSTS = ["*"]
    monkeypatch.setattr(addresses, "lan_addresses", lambda: [LAN])


def test_links_for_a_request_to_the_lan_address_point_there(venue):
    request = request_to(f"{LAN}:8000")
    assert addresses.absolute(seat_path("K" * 22), request).startswith(f"http://{LAN}:8000/p/")
    assert table_sheet_url(7, request).startswith(f"http://{LAN}:8000/")


@pytest.mark.parametrize("host", ["127.0.0.1:8000", "localhost:8000", "[::1]:8000"])
def test_links_for_a_request_to_loopback_carry_the_lan_address(venue, host):
    request = request_to(host)
    for url in (
        addresses.absolute(seat_path("K" * 22), request),
        table_sheet_url(7, request),
    ):
        assert url.startswith(f"http://{LAN}:8000/")
    assert addresses.join_url(request) == f"http://{LAN}:8000/"
    assert addresses.join_url(request, 12) == f"http://{LAN}:8000/t/12/"


def test_site_url_wins_when_set(venue, settings):
    settings.SITE_URL = "https://turnier.example.org"
    assert addresses.absolute(seat_path("K" * 22), request_to("127.0.0.1:8000")).startswith(
        "https://turnier.example.org/p/"
    )
    assert table_sheet_url(7).startswith("https://turnier.example.org/")


def test_links_printed_without_a_request_carry_the_lan_address(venue, monkeypatch):
    monkeypatch.setenv("TURNIERLEITER_PORT", "8000")
    assert table_sheet_url(7).startswith(f"http://{LAN}:8000/")


@given(
    host=st.one_of(
        st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(1, 254)).map(
            lambda t: "127.{}.{}.{}".format(*t)
        ),
        st.sampled_from(["localhost", "[::1]", "LOCALHOST", "app.localhost"]),
    ),
    port=st.one_of(st.just(""), st.integers(1024, 65535).map(lambda p: f":{p}")),
)
def test_no_link_ever_carries_a_loopback_host(host, port):
    # the real machine: its own LAN address or its mDNS name, never loopback
    from django.conf import settings

    saved = settings.SITE_URL, settings.ALLOWED_HOSTS
    settings.SITE_URL, settings.ALLOWED_HOSTS = "", ["*"]
    try:
        url = addresses.absolute(seat_path("K" * 22), request_to(host + port))
    finally:
        settings.SITE_URL, settings.ALLOWED_HOSTS = saved
    linked_host = url.split("://", 1)[1].split("/", 1)[0].rsplit(":", 1)[0]
    assert not addresses.is_loopback(linked_host)


def test_the_lan_address_is_found_without_sending_anything():
    for address in addresses.lan_addresses():
        assert not addresses.is_loopback(address)
        socket.inet_aton(address)  # an IPv4 address


def free_port() -> int:
    for port in range(8130, 8140):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    pytest.skip("no free port in 8130-8139")  # pragma: no cover


def test_make_runs_server_accepts_the_lan_host(tmp_path):
    """The server ``make run`` starts answers a request whose Host is the
    laptop's LAN address (a phone's request), not 400 "DisallowedHost"."""
    root = Path(__file__).resolve().parents[2]
    port = free_port()
    env = os.environ | {"TURNIERLEITER_VAR": str(tmp_path), "DEBUG": "1"}
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=root,
        env=env,
        check=True,
    )
    cmd = web_command(f"127.0.0.1:{port}")
    server = subprocess.Popen(cmd, cwd=root, env=env, stderr=subprocess.DEVNULL)
    try:
        status = None
        for _ in range(100):
            request = urllib.request.Request(
                f"http://127.0.0.1:{port}/", headers={"Host": f"{LAN}:{port}"}
            )
            try:
                with urllib.request.urlopen(request, timeout=5) as response:
                    status = response.status
                break
            except urllib.error.HTTPError as exc:
                status = exc.code
                break
            except OSError:
                time.sleep(0.1)
        assert status == 200
    finally:
        server.terminate()
        server.wait(timeout=10)
