"""The online site behind its proxy, as the README sets it up: nginx (Debian's
package, started here) in front of the web server as ``docker/`` starts it
(uvicorn, PostgreSQL, Redis), with ``TRUSTED_PROXIES`` naming the proxy.

Every address is a loopback address of its own (Linux answers all of
127.0.0.0/8): nginx connects to the site from 127.0.0.2, the one trusted
proxy; visitors connect from 127.0.0.x, through nginx or straight to the
site. The site sees each visitor's own address, and only the proxy's
``X-Forwarded-For`` is believed:

- a spoofed ``X-Forwarded-For`` (sent straight to the site, or through the
  proxy) changes nothing: the visitor is counted under its own address;
- 40 members of a club behind one address all register;
- an attacker's wrong passwords lock the attacked account from the
  attacker's address only: its owner logs in from elsewhere, other
  accounts from the attacker's address.
"""

from __future__ import annotations

import http.client
import os
import re
import shutil
import subprocess
import sys
import uuid
from http.cookies import SimpleCookie
from urllib.parse import urlencode

import pytest

from tests import serverproc
from tests.conftest import missing_service
from tests.proxy_site import PASSWORDS

pytestmark = pytest.mark.services

PROXY = "127.0.0.2"
SIGNUP_LIMIT = 5
FAILURE_LIMIT = 20  # the site's AXES_FAILURE_LIMIT


def _nginx() -> str:
    path = shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/sbin")
    if not path:
        missing_service("nginx (apt-get install nginx-light)")
    return path


def _services() -> tuple[str, str]:
    base, redis_url = os.environ.get("DATABASE_URL", ""), os.environ.get("REDIS_URL", "")
    if not base.startswith("postgres") or not redis_url:
        missing_service("PostgreSQL and Redis for the online site (DATABASE_URL, REDIS_URL)")
    server, name = base.rsplit("/", 1)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    return f"{server}/{name}_proxysite_{worker}", redis_url


def _fresh_database(url: str) -> None:
    import psycopg

    server, name = url.rsplit("/", 1)
    with psycopg.connect(server + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{name}"')


def _drop_database(url: str) -> None:
    import psycopg

    server, name = url.rsplit("/", 1)
    with psycopg.connect(server + "/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _forget_counts(redis_url: str) -> None:
    """The site's counts of these loopback visitors and of the names they
    registered in the shared Redis."""
    import redis

    client = redis.Redis.from_url(redis_url)
    for pattern in ("tl:*-count:127.0.0.*", "tl:*:registration-person:*"):
        for key in client.scan_iter(pattern):
            client.delete(key)


NGINX_CONF = """
worker_processes 1;
{user}
pid {tmp}/nginx.pid;
error_log {tmp}/nginx-error.log warn;
events {{ worker_connections 256; }}
http {{
  access_log off;
  client_body_temp_path {tmp}/nginx-body;
  proxy_temp_path {tmp}/nginx-proxy;
  fastcgi_temp_path {tmp}/nginx-fastcgi;
  uwsgi_temp_path {tmp}/nginx-uwsgi;
  scgi_temp_path {tmp}/nginx-scgi;
  upstream turnierleiter {{ server 127.0.0.1:{site}; keepalive 8; }}
  server {{
    listen 127.0.0.1:{port};
    location / {{
      proxy_pass http://turnierleiter;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_bind {proxy};
    }}
  }}
}}
"""


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The site and nginx in front of it: (site's port, proxy's port, env)."""
    nginx = _nginx()
    database_url, redis_url = _services()
    tmp = tmp_path_factory.mktemp("proxy")
    _fresh_database(database_url)
    _forget_counts(redis_url)
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("CACHE_URL", "CELERY_BROKER_URL", "TURNIERLEITER_LAPTOP", "DEBUG")
    } | {
        "DJANGO_SETTINGS_MODULE": "tournaments.settings",
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "DEBUG": "0",
        "SECRET_KEY": "proxy-test-secret-key-not-for-production",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "SESSION_COOKIE_SECURE": "0",
        "CSRF_COOKIE_SECURE": "0",
        "TRUSTED_PROXIES": PROXY,
        "SIGNUP_LIMIT": str(SIGNUP_LIMIT),
        "REGISTRATION_MIN_SECONDS": "0",
        "TURNIERLEITER_VAR": str(tmp),
        "STATIC_ROOT": str(tmp / "static"),
        "LOG_LEVEL": "WARNING",
        "PYTHONPATH": str(serverproc.ROOT),
    }
    procs: list[subprocess.Popen] = []
    try:
        setup = serverproc.run_step("tests.proxy_site", env, "setup")
        subprocess.run(
            [sys.executable, "manage.py", "collectstatic", "--noinput", "-v", "0"],
            cwd=serverproc.ROOT,
            env=env,
            check=True,
        )
        site_port = serverproc.free_port()
        procs.append(
            serverproc.start(serverproc.docker_web_command(site_port), env, tmp / "web.log")
        )
        serverproc.wait_until_up(site_port, procs[-1], log=tmp / "web.log")
        proxy_port = serverproc.free_port()
        user = "user root root;" if os.geteuid() == 0 else ""
        conf = NGINX_CONF.format(user=user, tmp=tmp, site=site_port, port=proxy_port, proxy=PROXY)
        (tmp / "nginx.conf").write_text(conf)
        procs.append(
            serverproc.start(
                [nginx, "-p", str(tmp), "-c", str(tmp / "nginx.conf"), "-g", "daemon off;"],
                env,
                tmp / "nginx.log",
            )
        )
        serverproc.wait_until_up(proxy_port, procs[-1], log=tmp / "nginx-error.log")
        yield {
            "site": site_port,
            "proxy": proxy_port,
            "tournament": setup["tournament"],
            "env": env,
        }
    finally:
        for proc in reversed(procs):
            serverproc.stop(proc)
        _forget_counts(redis_url)
        _drop_database(database_url)


class Visitor:
    """A browser at one address: its own cookies, each request on a new
    connection from ``address`` to ``port`` (the proxy, or the site itself),
    with an ``X-Forwarded-For`` of its own making when given."""

    def __init__(self, port: int, address: str, *, spoof=None):
        self.port, self.address, self.spoof = port, address, spoof
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, fields: dict | None = None):
        headers = {"Host": "127.0.0.1", "Accept-Language": "en"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if self.spoof is not None:
            headers["X-Forwarded-For"] = self.spoof()
        body = None
        if fields is not None:
            body = urlencode(fields)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        conn = http.client.HTTPConnection(
            "127.0.0.1", self.port, timeout=60, source_address=(self.address, 0)
        )
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            text = response.read().decode("utf-8", "replace")
            for value in response.headers.get_all("Set-Cookie") or []:
                for name, morsel in SimpleCookie(value).items():
                    self.cookies[name] = morsel.value
            return response.status, response.getheader("Location", ""), text
        finally:
            conn.close()

    def send_form(self, path: str, fields: dict) -> tuple[int, str, str]:
        """Open the page of a form, then send it (CSRF token and the form's
        hidden fields as the page gave them)."""
        status, _, page = self.request("GET", path)
        assert status == 200, page[:2000]
        hidden = dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', page))
        hidden["csrfmiddlewaretoken"] = self.cookies["csrftoken"]
        return self.request("POST", path, hidden | fields)


def _spoofed():
    """A different made-up address in ``X-Forwarded-For`` each time."""
    return f"198.51.100.{uuid.uuid4().int % 250 + 1}, 10.0.0.{uuid.uuid4().int % 250 + 1}"


def _signup(visitor: Visitor) -> int:
    password = f"Kx9!{uuid.uuid4().hex}"
    status, _, _ = visitor.send_form(
        "/accounts/signup/",
        {"username": f"u{uuid.uuid4().hex[:12]}", "password1": password, "password2": password},
    )
    return status


def _login(visitor: Visitor, username: str, password: str) -> int:
    status, _, _ = visitor.send_form(
        "/accounts/login/", {"username": username, "password": password}
    )
    return status


def test_a_spoofed_forwarded_for_is_ignored_and_each_visitor_counted_alone(site):
    """Signups (at most SIGNUP_LIMIT per address): a visitor who makes up an
    ``X-Forwarded-For`` for each request — straight to the site, or through
    the proxy — is refused after the limit all the same; another visitor
    behind the same proxy still signs up."""
    direct = [_signup(Visitor(site["site"], "127.0.0.11", spoof=_spoofed)) for _ in range(8)]
    proxied = [_signup(Visitor(site["proxy"], "127.0.0.12", spoof=_spoofed)) for _ in range(8)]
    neighbour = _signup(Visitor(site["proxy"], "127.0.0.13"))
    print(f"direct with spoof: {direct}\nproxied with spoof: {proxied}\nneighbour: {neighbour}")
    assert direct == [302] * SIGNUP_LIMIT + [429] * (8 - SIGNUP_LIMIT)
    assert proxied == [302] * SIGNUP_LIMIT + [429] * (8 - SIGNUP_LIMIT)
    assert neighbour == 302


def test_forty_members_behind_one_address_register(site):
    """A club's evening: 40 members on the club's Wi-Fi (one address) register
    through the proxy, each with its own name."""
    path = f"/t/{site['tournament']}/register/"
    answers = []
    for n in range(40):
        status, location, page = Visitor(site["proxy"], "127.0.0.40").send_form(
            path, {"name": f"Mitglied {n:02d}", "club": "SK Wlan"}
        )
        answers.append(status)
        assert status in (302, 429), page[:2000]
        assert status != 302 or location.startswith("/r/")
    registered = serverproc.run_step("tests.proxy_site", site["env"], "state")["registered"]
    members = [name for name in registered if name.startswith("Mitglied")]
    print(f"registered {answers.count(302)} of 40; refused {answers.count(429)}")
    assert answers == [302] * 40
    assert len(members) == 40


def test_wrong_passwords_lock_the_attacked_account_from_the_attackers_address_only(site):
    """An attacker (making up ``X-Forwarded-For`` as well) tries 25 wrong
    passwords for ``orga`` through the proxy. The attacker is locked out of
    ``orga`` even with the right password; ``orga`` logs in from home, and
    ``other`` from the attacker's address (the club's network)."""
    attacker = "127.0.0.66"
    tries = [
        _login(Visitor(site["proxy"], attacker, spoof=_spoofed), "orga", "wrong-password")
        for _ in range(FAILURE_LIMIT + 5)
    ]
    assert set(tries) <= {200, 429} and tries[-1] == 429
    assert _login(Visitor(site["proxy"], attacker), "orga", PASSWORDS["orga"]) == 429
    at_home = _login(Visitor(site["proxy"], "127.0.0.77"), "orga", PASSWORDS["orga"])
    neighbour = _login(Visitor(site["proxy"], attacker), "other", PASSWORDS["other"])
    print(f"orga from home: {at_home}; other from the attacker's address: {neighbour}")
    assert at_home == 302
    assert neighbour == 302
