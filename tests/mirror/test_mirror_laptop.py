"""The laptop's side of "follow from home": pairing, publishing in the
background (and when the internet fails), fetching registrations. The online
site is this same test server, reached through httpx's WSGI transport."""

from __future__ import annotations

import logging

import httpx
import pytest
from django.test import Client
from django.urls import reverse

from scoring.exchange.export import export_json
from tests.mirror.mirror_helpers import (
    approved_key,
    clock_pause,
    laptop_tournament,
    play_round,
)
from tournaments import services as tournament_services
from tournaments.mirror import dirty, inbox, publish, selectors, services
from tournaments.mirror.models import (
    MirroredTournament,
    MirrorLink,
    MirrorPublication,
    ReceivedPublication,
)
from tournaments.services.errors import ServiceError

pytestmark = pytest.mark.django_db

SITE = "http://127.0.0.1"


def _through_django(request: httpx.Request) -> httpx.Response:
    """An httpx request answered by this test's Django (its test client keeps
    the test's database connection open)."""
    headers = {
        f"HTTP_{k.upper().replace('-', '_')}": v
        for k, v in request.headers.items()
        if k.lower() not in ("content-type", "content-length", "host")
    }
    response = Client().generic(
        request.method,
        request.url.raw_path.decode(),
        data=request.content,
        content_type=request.headers.get("content-type", ""),
        **headers,
    )
    if response.status_code == 202 and request.method == "POST":
        # the online site's worker: the accepted publication applied now
        inbox.process(ReceivedPublication.objects.order_by("-pk").first().pk)
    return httpx.Response(response.status_code, content=response.content)


@pytest.fixture
def site(monkeypatch):
    """The online site answers in-process; ``site.down = True`` cuts it off."""

    class Site:
        down = False
        queued: list = []

    def client():
        if Site.down:

            def refuse(request):
                raise httpx.ConnectError("connection refused", request=request)

            return httpx.Client(transport=httpx.MockTransport(refuse))
        return httpx.Client(transport=httpx.MockTransport(_through_django))

    monkeypatch.setattr(publish, "client", client)
    monkeypatch.setattr(publish, "PAUSE_FROM", 60.0)  # no pause between sends here
    Site.queued = []
    monkeypatch.setattr(dirty, "queue", Site.queued.append)
    dirty.forget()
    yield Site
    dirty.forget()


@pytest.fixture
def paired(site, organizer, other_user):
    _row, key = approved_key(user=other_user)
    link, _hello = services.link_save(user=organizer, site_url=SITE, key=key)
    return link


def test_pairing_checks_the_key_with_the_site(site, organizer, other_user, client):
    with pytest.raises(ServiceError, match="does not accept this key"):
        services.link_save(user=organizer, site_url=SITE, key="tlk_wrong")
    with pytest.raises(ServiceError, match="HTTPS"):
        services.link_save(user=organizer, site_url="http://turnier.example.org", key="x")
    assert not MirrorLink.objects.exists()
    _row, key = approved_key(user=other_user)
    client.force_login(organizer)
    response = client.post(reverse("mirror_link"), {"site_url": SITE, "key": key}, follow=True)
    page = response.content.decode()
    assert "Connected to the online site as other" in page
    assert key not in page
    assert MirrorLink.objects.get(owner=organizer).online_user == "other"


def test_the_key_never_shows_in_pages_logs_or_exports(paired, organizer, client, caplog, site):
    t = laptop_tournament(organizer)
    services.publication_start(tournament=t, link=paired)
    site.down = True
    with caplog.at_level(logging.DEBUG):
        publish.send(MirrorPublication.objects.get().pk)
    client.force_login(organizer)
    pages = [
        client.get(reverse(name, args=args)).content.decode()
        for name, args in [
            ("mirror_link", []),
            ("tournament_mirror", [t.pk]),
            ("tournament_detail", [t.pk]),
        ]
    ]
    for text in [*pages, caplog.text, export_json(t), repr(paired), str(paired)]:
        assert paired.key not in text


@pytest.mark.django_db(transaction=True)
def test_changes_are_published_after_commit_only_what_changed(paired, organizer, other_user, site):
    t = laptop_tournament(organizer)
    pub = services.publication_start(tournament=t, link=paired)
    assert site.queued == [pub.pk]
    assert publish.send(pub.pk) == "sent"
    mirror = MirroredTournament.objects.get(owner=other_user)
    pub.refresh_from_db()
    assert pub.published_version == pub.version and pub.online_url.endswith(
        f"/t/{mirror.tournament_id}/"
    )
    assert selectors.status(t)["state"] == "online"
    # the clock is paused: one bump after the commit, a send queued
    rnd2 = play_round(t, results_in=False)
    clock_pause(rnd2)
    pub.refresh_from_db()
    assert pub.version > pub.published_version and pub.pk in site.queued
    assert publish.send(pub.pk) == "sent"
    mirror.refresh_from_db()
    assert mirror.tournament.round_set.get(number=2).status == "paused"
    assert publish.send(pub.pk) == "nothing"


@pytest.mark.django_db(transaction=True)
def test_when_the_site_is_unreachable_changes_wait_and_follow_in_order(
    paired, organizer, other_user, site
):
    t = laptop_tournament(organizer)
    pub = services.publication_start(tournament=t, link=paired)
    assert publish.send(pub.pk) == "sent"
    site.down = True
    rnd2 = play_round(t, results_in=False)
    clock_pause(rnd2)
    assert publish.send(pub.pk) == "failed"
    state = selectors.status(t)
    assert state["state"] == "offline" and state["waiting"] >= 2
    assert "can't be reached" in state["last_error"]
    pub.refresh_from_db()
    assert pub.next_try_at is not None and pub.pk not in publish.due()  # backoff
    site.down = False
    MirrorPublication.objects.filter(pk=pub.pk).update(next_try_at=None)
    assert publish.due() == [pub.pk]
    assert publish.send(pub.pk) == "sent"
    state = selectors.status(t)
    assert state["state"] == "online" and state["waiting"] == 0 and not state["last_error"]
    online = MirroredTournament.objects.get(owner=other_user)
    assert online.version == pub.version
    assert online.tournament.round_set.get(number=2).status == "paused"


def test_the_overview_says_offline_since_and_how_many_changes_wait(paired, organizer, client, site):
    t = laptop_tournament(organizer)
    services.publication_start(tournament=t, link=paired)
    site.down = True
    publish.send(MirrorPublication.objects.get().pk)
    MirrorPublication.objects.update(version=24, published_version=1)
    client.force_login(organizer)
    page = client.get(reverse("tournament_detail", args=[t.pk])).content.decode()
    assert "offline since" in page and "23 changes waiting" in page
    assert "can&#x27;t be reached" in page or "can't be reached" in page


def test_fetching_registrations_adds_only_new_ones_and_lists_withdrawals(
    paired, organizer, other_user, client
):
    online = tournament_services.tournament_create(owner=other_user, name="Online", game="quartett")
    for name in ("Anna Berg", "Bernd Weiß", "Cem Şahin"):
        tournament_services.player_add(tournament=online, by=other_user, name=name, club="SK Nord")
    t = tournament_services.tournament_create(owner=organizer, name="Laptop", game="quartett")
    client.force_login(organizer)
    fetch = reverse("mirror_entries_fetch", args=[t.pk])
    page = client.post(fetch, {"online": online.pk}).content.decode()
    assert "3 new entries" in page
    text = services.entries_fetch(tournament=t, link=paired, online_id=online.pk)["text"]
    preview = client.post(reverse("player_import", args=[t.pk]), {"text": text})
    assert "Save 3 players" in preview.content.decode()
    client.post(reverse("player_import", args=[t.pk]), {"text": text, "confirm": "1"})
    assert sorted(t.players.values_list("name", flat=True)) == [
        "Anna Berg",
        "Bernd Weiß",
        "Cem Şahin",
    ]
    # one more registers online, one withdraws: fetched again, nobody twice
    tournament_services.player_add(tournament=online, by=other_user, name="Dora Quast", club="")
    bernd = online.players.get(name="Bernd Weiß")
    tournament_services.player_drop(player=bernd, by=other_user)
    found = services.entries_fetch(tournament=t, link=paired, online_id=online.pk)
    assert [e["name"] for e in found["new"]] == ["Dora Quast"]
    assert [e["name"] for e in found["withdrawn"]] == ["Bernd Weiß"]
    assert len(found["known"]) == 2
    page = client.post(fetch, {"online": online.pk}).content.decode()
    assert "1 withdrawal" in page and "1 new entry" in page
    # renamed online after it came down: the same entry (its key), not a new one
    anna = online.players.get(name="Anna Berg")
    anna.name = "Anna Berg-Quast"
    anna.save()
    found = services.entries_fetch(tournament=t, link=paired, online_id=online.pk)
    assert [e["name"] for e in found["new"]] == ["Dora Quast"]
    assert "Anna Berg-Quast" in [e["name"] for e in found["known"]]
    assert selectors.status(t) is None  # fetching is not publishing


def test_entries_of_another_organizers_tournament_are_not_fetched(
    paired, organizer, django_user_model
):
    stranger = django_user_model.objects.create_user("stranger", password="pw-stranger-1")
    theirs = tournament_services.tournament_create(owner=stranger, name="Fremd", game="quartett")
    t = tournament_services.tournament_create(owner=organizer, name="Laptop", game="quartett")
    with pytest.raises(ServiceError, match="no such tournament"):
        services.entries_fetch(tournament=t, link=paired, online_id=theirs.pk)


def test_entries_for_laptop_format(other_user):
    online = tournament_services.tournament_create(owner=other_user, name="Online", game="quartett")
    p = tournament_services.player_add(
        tournament=online, by=other_user, name="Anna", club="SK", rating=1500, birth_year=1990
    )
    [entry] = selectors.entries_for_laptop(online)
    assert entry == {
        "key": f"p{p.pk}",
        "name": "Anna",
        "club": "SK",
        "birth_year": 1990,
        "rating": 1500,
        "status": "confirmed",
        "position": 1,
    }


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_change_publishes_nothing_and_the_next_commit_still_does(
    paired, organizer, site
):
    from django.db import transaction

    t = laptop_tournament(organizer)
    pub = services.publication_start(tournament=t, link=paired)
    publish.send(pub.pk)
    pub.refresh_from_db()
    version = pub.version
    with pytest.raises(RuntimeError), transaction.atomic():
        tournament_services.player_add(tournament=t, by=organizer, name="Nie Da")
        raise RuntimeError("the organizer's request failed")
    pub.refresh_from_db()
    assert pub.version == version
    tournament_services.player_add(tournament=t, by=organizer, name="Doch Da")
    pub.refresh_from_db()
    assert pub.version == version + 1
