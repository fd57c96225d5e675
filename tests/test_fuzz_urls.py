"""Every URL of the site, with malformed values in every URL parameter and
every form field, as the organizer, a scorekeeper and an anonymous visitor:
never a 5xx, and a refused request changes no row.

The URL list comes from Django's resolver (admin excluded: Django's own); the
form fields from the forms the organizer's pages render (each page's forms,
keyed by where they post). Two parts:

- a sweep: every URL × role × method once with every field malformed, and
  every URL parameter of every URL replaced by each malformed value;
- a hypothesis search composing malformed fields, parameters and headers.

The number of requests is printed (``-s``) and asserted to stay above a floor.
"""

from __future__ import annotations

import hashlib
import itertools
import re
from html.parser import HTMLParser

import pytest
from django.apps import apps
from django.contrib import messages as messages_api
from django.db import connection
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.printing import documents
from scoring.printing.models import PrintJob
from scoring.sheet_links import table_token
from tests.examples import examples
from tests.scoring import handmade
from tests.seat_tokens import token_for
from tournaments import services
from tournaments.models import Round, Seat, Table
from tournaments.services import deadlines, round_life

pytestmark = pytest.mark.django_db

NASTY = [
    "",
    "²",
    "٣",
    "１２",
    "-1",
    "0",
    "99999999999999999999999",
    "1e309",
    "NaN",
    "a\x00b",
    "x" * 3000,
    "<script>alert(1)</script>",
    "=cmd|' /C calc'!A0",
    "[]",
    '{"a": [[[[]]]]}',
    "null",
    "true",
    "2026-13-45T25:61",
    "0001-01-01T00:00",
    "9999-12-31T23:59",
    "../../etc/passwd",
    "Ω≈ç√∫˜µ≤≥÷ 🂡",
    " 7 ",
    "1,5",
]
BAD_INTS = [0, 2**63, 10**25]
BAD_TOKENS = ["x", "1.0:abc", "1" * 300]
BAD_SLUGS = ["x", "a" * 200]
ROLES = ["organizer", "scorekeeper", "anonymous"]
FLOOR = 1200  # requests the sweep must make at least

COUNT = {"requests": 0}


def url_patterns():
    """(route with converters, name) of every URL but the admin's."""

    def walk(patterns, prefix=""):
        for p in patterns:
            if isinstance(p, URLResolver):
                if str(p.pattern).startswith("admin"):
                    continue
                yield from walk(p.url_patterns, prefix + str(p.pattern))
            elif isinstance(p, URLPattern):
                yield prefix + str(p.pattern), p.name

    return sorted(set(walk(get_resolver().url_patterns)))


PARAM = re.compile(r"<(?:(\w+):)?(\w+)>")


class FormParser(HTMLParser):
    """The forms of a page: action → {field: a value the page offers}."""

    def __init__(self, page_path):
        super().__init__()
        self.page_path = page_path
        self.forms: dict[str, dict[str, str]] = {}
        self.current = None
        self.select = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            action = a.get("action") or self.page_path
            self.current = self.forms.setdefault(action.split("?")[0], {})
        elif self.current is None or not a.get("name"):
            return
        elif tag == "input":
            if a.get("type") in ("checkbox", "radio") and "checked" not in a:
                return
            if a["name"] != "csrfmiddlewaretoken":
                self.current.setdefault(a["name"], a.get("value") or "")
        elif tag == "textarea":
            self.current.setdefault(a["name"], "")
        elif tag == "select":
            self.select = a["name"]
        elif tag == "button" and a.get("value") is not None:
            self.current.setdefault(a["name"], a["value"])

    def handle_endtag(self, tag):
        if tag == "form":
            self.current = None
        elif tag == "select":
            self.select = None

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)


class World:
    def __init__(self, tournament, organizer, scorekeeper, stranger_tournament):
        self.t = tournament
        self.users = {"organizer": organizer, "scorekeeper": scorekeeper, "anonymous": None}
        rnd = Round.objects.get(tournament=tournament, number=1)
        self.table = Table.objects.get(round=rnd, number=1)
        self.player = tournament.players.order_by("pk").first()
        self.job = PrintJob.objects.create(tournament=tournament, kind="sheets", by=organizer)
        self.stranger = stranger_tournament
        self.stranger_table = Table.objects.filter(round__tournament=stranger_tournament).first()
        self.forms: dict[str, dict[str, str]] = {}
        self.field_pool: set[str] = set()

    def good(self, route: str, name: str, kind: str | None):
        values = {
            "tournament_id": self.t.pk,
            "number": 1,
            "table": 1,
            "player_id": self.player.pk,
            "user_id": self.users["scorekeeper"].pk,
            "job_id": self.job.pk,
            "version": 1,
            "what": "players",
            "fmt": "csv",
            "kind": "standings" if "print/" in route and "rounds" not in route else "sheets",
        }
        if name == "token":
            return (
                table_token(self.table.pk) if route.startswith("s/") else token_for(self.table, 0)
            )
        return values.get(name, 1 if kind == "int" else "x")

    def bad(self, route: str, name: str, kind: str | None):
        if name == "token":
            good = self.good(route, name, kind)
            return [*BAD_TOKENS, good + "x", token_for(self.stranger_table, 0)]
        if name == "tournament_id":
            return [self.stranger.pk, *BAD_INTS]
        if name == "number":
            return [4, *BAD_INTS]  # 4: the running round (clock actions act on it)
        if kind == "int":
            return BAD_INTS
        return BAD_SLUGS

    def path(self, route: str, override: dict | None = None) -> str:
        override = override or {}

        def fill(m):
            kind, name = m.group(1), m.group(2)
            return str(override.get(name, self.good(route, name, kind)))

        return "/" + PARAM.sub(fill, route)


def _snapshot_sql() -> str:
    """One statement that returns every row of the site's own tables and the
    users as text, table by table (one round trip per request)."""
    models = [
        *apps.get_app_config("tournaments").get_models(),
        *apps.get_app_config("scoring").get_models(),
        apps.get_model("auth", "User"),
    ]
    parts = []
    for model in models:
        table = connection.ops.quote_name(model._meta.db_table)
        pk = connection.ops.quote_name(model._meta.pk.column)
        if connection.vendor == "postgresql":
            rows = f"(SELECT md5(coalesce(string_agg(t::text, '|' ORDER BY t.{pk}), '')) FROM {table} t)"
        else:
            cols = "||','||".join(
                f"quote({connection.ops.quote_name(f.column)})" for f in model._meta.concrete_fields
            )
            rows = f"(SELECT group_concat(x, '|') FROM (SELECT {cols} AS x FROM {table} ORDER BY {pk}))"
        parts.append(f"SELECT '{model._meta.label}', {rows}")
    return " UNION ALL ".join(parts)


def snapshot() -> str:
    """A hash of every row of the site's own tables and the users."""
    with connection.cursor() as cursor:
        if SNAPSHOT["sql"] is None:
            SNAPSHOT["sql"] = _snapshot_sql()
        cursor.execute(SNAPSHOT["sql"])
        return hashlib.sha256(repr(cursor.fetchall()).encode()).hexdigest()


SNAPSHOT: dict[str, str | None] = {"sql": None}
CLIENTS: dict[str, Client] = {}
STATE = {"rows": None}


def client_for(world: World, role: str) -> Client:
    """One client per role, logged in again when a request logged it out."""
    client = CLIENTS.get(role)
    if client is None:
        client = CLIENTS[role] = Client(REMOTE_ADDR="198.51.100.23")
    user = world.users[role]
    if user is not None and client.session.get("_auth_user_id") != str(user.pk):
        client.force_login(user)
        STATE["rows"] = None
    elif user is None and client.session.get("_auth_user_id"):
        client.logout()
    return client


def refused(response, method: str) -> bool:
    if response.status_code >= 400:
        return True
    queued = getattr(getattr(response.wsgi_request, "_messages", None), "_queued_messages", [])
    if any(m.level >= messages_api.ERROR for m in queued):
        return True
    return method == "POST" and response.status_code == 200 and b"errorlist" in response.content


def send(world, role, method, path, data, headers=None):
    client = client_for(world, role)
    # the rows as the previous request left them (one snapshot per request)
    before = STATE["rows"] or snapshot()
    if method == "GET":
        response = client.get(path, data, **(headers or {}))
    else:
        response = client.post(path, data, **(headers or {}))
    COUNT["requests"] += 1
    assert response.status_code < 500, (role, method, path, data, response.status_code)
    after = STATE["rows"] = snapshot()
    if refused(response, method):
        assert after == before, ("a refused request changed rows", role, method, path, data)
    return response


@pytest.fixture
def world(tournament, organizer, other_user, django_user_model, monkeypatch):
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)  # no worker
    handmade.build(tournament, organizer)
    # a running round 4 for the clock's actions, beside round 3 still open
    tournament.rounds_side_by_side = True
    tournament.save(update_fields=["rounds_side_by_side"])
    running = Round.objects.create(tournament=tournament, number=4, published=True)
    table4 = Table.objects.create(round=running, number=1)
    for pos, player in enumerate(tournament.players.filter(dropped=False).order_by("pk")[:4]):
        Seat.objects.create(table=table4, player=player, position=pos)
    round_life.round_start(round=running, by=organizer)
    scorekeeper = django_user_model.objects.create_user("keeper", password="pw-keeper-123")
    tournament.scorekeepers.add(scorekeeper)
    stranger = services.tournament_create(owner=other_user, name="Fremd", game="quartett")
    rnd = Round.objects.create(tournament=stranger, number=1, published=True)
    table = Table.objects.create(round=rnd, number=1)
    for pos, name in enumerate(["Xaver", "Yvonne"]):
        p = services.player_add(tournament=stranger, by=other_user, name=name)
        Seat.objects.create(table=table, player=p, position=pos)
    CLIENTS.clear()
    STATE["rows"] = None
    SNAPSHOT["sql"] = None
    w = World(tournament, organizer, scorekeeper, stranger)
    # the forms the organizer's pages render, keyed by where they post
    owner = client_for(w, "organizer")
    for route, _name in url_patterns():
        path = w.path(route)
        response = owner.get(path)
        if response.status_code == 200 and "html" in response.get("Content-Type", ""):
            parser = FormParser(path)
            parser.feed(response.content.decode())
            for action, fields in parser.forms.items():
                w.forms.setdefault(action, {}).update(fields)
    w.field_pool = {name for fields in w.forms.values() for name in fields} | {
        "round",
        "v",
        "via",
        "part",
        "big",
        "table",
        "version",
        "action",
        "kind",
        "next",
        "language",
        "username",
        "password",
        "file",
    }
    return w


def malformed_form(world, path, values):
    fields = dict(world.forms.get(path, {}))
    names = sorted(set(fields) | {"round", "version", "action", "table", "kind"})
    return {name: next(values) for name in names}


def test_sweep_every_url_parameter_and_field(world, settings):
    settings.SIGNUP_LIMIT = 10_000
    assert documents.ROUND_KINDS  # the print kinds exist (a good value above)
    routes = url_patterns()
    assert len(routes) > 50
    values = itertools.cycle(NASTY)
    for route, _name in routes:
        path = world.path(route)
        for role in ROLES:
            send(world, role, "GET", path, {k: next(values) for k in ("round", "v", "part", "via")})
            send(world, role, "POST", path, malformed_form(world, path, values))
            # each field of the page's form malformed on its own, the others valid
            if role == "organizer":
                base = world.forms.get(path, {})
                for field in sorted(base):
                    send(world, role, "POST", path, {**base, field: next(values)})
        for m in PARAM.finditer(route):
            kind, name = m.group(1), m.group(2)
            for bad in world.bad(route, name, kind):
                bad_path = world.path(route, {name: bad})
                send(world, "organizer", "GET", bad_path, {})
                send(world, "organizer", "POST", bad_path, {})
                send(world, "anonymous", "GET", bad_path, {})
    print(f"\nURL fuzz sweep: {COUNT['requests']} requests over {len(routes)} URLs")
    assert COUNT["requests"] >= FLOOR


def test_hypothesis_over_the_url_list(world, settings):
    settings.SIGNUP_LIMIT = 10_000
    routes = [route for route, _name in url_patterns()]
    start = COUNT["requests"]

    @settings_hyp
    @given(
        role=st.sampled_from(ROLES),
        route=st.sampled_from(routes),
        method=st.sampled_from(["GET", "POST"]),
        fields=st.dictionaries(
            st.sampled_from(sorted(world.field_pool)),
            st.sampled_from(NASTY) | st.text(max_size=20),
            max_size=6,
        ),
        keep=st.booleans(),
        param=st.one_of(st.none(), st.sampled_from(BAD_INTS), st.sampled_from(BAD_TOKENS)),
        htmx=st.booleans(),
    )
    def run(role, route, method, fields, keep, param, htmx):
        override = {}
        if param is not None:
            names = [m.group(2) for m in PARAM.finditer(route)]
            if names:
                override[names[0]] = param
        path = world.path(route, override)
        data = {**(world.forms.get(path, {}) if keep else {}), **fields}
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        send(world, role, method, path, data, headers)

    run()
    print(f"\nURL fuzz: {COUNT['requests'] - start} hypothesis requests")


settings_hyp = settings(
    max_examples=examples(300),
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,
)
