"""The addresses phones reach this site at: every printed QR code and every
link a player opens carries :func:`origin` — ``SITE_URL`` when set, else the
host the organizer used, a loopback host replaced by this laptop's LAN
address (README, "At the venue").

And the address a request came from, :func:`client_address`: the one every
limit (signups, registrations, django-axes' login lockout) counts under and
a saved result keeps."""

from __future__ import annotations

import ipaddress
import os
import socket

from django.conf import settings
from django.http.request import split_domain_port
from django.urls import reverse

LOOPBACK_NAMES = {"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"}


def client_address(request) -> str | None:
    """The address the request came from, the one reader of it: the
    connection's, or behind a proxy named in ``TRUSTED_PROXIES`` the client's
    that proxy forwarded (uvicorn's proxy-headers middleware puts it in the
    request's scope: ``tournaments/asgi.py``). Written the one way (an IPv4
    address in IPv6 clothes as IPv4), so no spelling of it counts apart;
    None when it is not an IP address."""
    raw = request.META.get("REMOTE_ADDR") or ""
    try:
        address = ipaddress.ip_address(raw.strip().strip("[]"))
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return str(address)


def is_loopback(host: str) -> bool:
    """127.0.0.0/8, ::1 and the names for them: addresses no phone reaches."""
    host = host.strip("[]").lower()
    if host in LOOPBACK_NAMES or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


#: addresses whose route tells which local address the LAN sees (a UDP
#: connect() only picks the route: nothing is sent)
_PROBES = ("10.255.255.255", "172.31.255.255", "192.168.255.255", "192.0.2.1")


def lan_addresses() -> list[str]:
    """This machine's own non-loopback IPv4 addresses, the default route's
    first, found without any network traffic."""
    found: list[str] = []
    for probe in _PROBES:
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
                sock.connect((probe, 9))
                address = sock.getsockname()[0]
        except OSError:
            continue
        if address not in found and not is_loopback(address) and address != "0.0.0.0":
            found.append(address)
    return found


def lan_host() -> str:
    """The host phones on the venue's network use to reach this laptop: its
    LAN address, else its mDNS name (never a loopback address)."""
    addresses = lan_addresses()
    if addresses:
        return addresses[0]
    return f"{socket.gethostname().split('.')[0]}.local"


def origin(request=None) -> str:
    """Scheme and host every printed link and QR code carries: ``SITE_URL``
    when set; else the host the organizer reached the app on — except a
    loopback host (``127.0.0.1``, ``localhost``, ``::1``), replaced by this
    laptop's LAN address with the same port; without a request, the LAN
    address and the port ``make run`` serves (``TURNIERLEITER_PORT``)."""
    if settings.SITE_URL:
        return settings.SITE_URL
    if request is None:
        scheme, host, port = "http", lan_host(), os.environ.get("TURNIERLEITER_PORT", "8000")
    else:
        scheme = request.scheme
        host, port = split_domain_port(request.get_host())  # IPv6 keeps its brackets
        if is_loopback(host):
            host = lan_host()
    default = {"http": "80", "https": "443"}.get(scheme)
    return f"{scheme}://{host}" + (f":{port}" if port and port != default else "")


def absolute(path: str, request=None) -> str:
    """An absolute URL players can open: :func:`origin` + ``path``."""
    return origin(request) + path


def join_url(request=None, tournament_id: int | None = None) -> str:
    """The address players open (or scan on the projector) to join: the
    tournament's public page, or the site's start page."""
    if tournament_id is not None:
        return absolute(reverse("tournament_public", args=[tournament_id]), request)
    return absolute(reverse("home"), request)
