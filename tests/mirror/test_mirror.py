"""The online site's side of "follow from home": publishing keys, and
publications applied (or refused, changing nothing)."""

from __future__ import annotations

import gzip
import json
import uuid

import pytest
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.exchange.export import export_tournament
from scoring.standings import selectors as standings_selectors
from tests.examples import examples
from tests.mirror.mirror_helpers import (
    approved_key,
    body,
    clock_pause,
    envelope,
    laptop_tournament,
    play_round,
)
from tournaments import limits
from tournaments import services as tournament_services
from tournaments.mirror import inbox, keys, publish, snapshot
from tournaments.mirror.models import MirroredTournament, PublishingKey, ReceivedPublication
from tournaments.models import Round, Tournament
from tournaments.services import round_life

pytestmark = pytest.mark.django_db

PUBLISH = "/mirror/api/publish/"


def post(client, data: bytes, key: str | None):
    """Send a publication as the laptop does; when the site accepts it (202),
    its worker's task runs here and the answer is the outcome the laptop
    then asks for."""
    headers = {"HTTP_AUTHORIZATION": f"Bearer {key}"} if key else {}
    response = client.post(PUBLISH, data=data, content_type="application/gzip", **headers)
    if response.status_code != 202:
        return response
    received = ReceivedPublication.objects.order_by("-pk").first()
    inbox.process(received.pk)
    return client.get(response.json()["poll"], **headers)


def standings_rows(tournament):
    return [
        (r.place, r.shared, str(r.name), r.points, r.figures, r.opponents, r.wins)
        for r in standings_selectors.standings(tournament)
    ]


def public_state(tournament) -> dict:
    return snapshot.public_sections(export_tournament(tournament))


@pytest.fixture
def online_key(other_user):
    _row, key = approved_key(user=other_user, name="laptop")
    return key


def test_a_key_is_shown_once_and_kept_only_hashed(client, other_user):
    keys.approve(user=other_user)
    client.force_login(other_user)
    page = client.post(reverse("mirror_keys"), {"name": "Laptop"}).content.decode()
    row = PublishingKey.objects.get(user=other_user)
    shown = page.split('class="new-key">')[1].split("<")[0]
    assert shown.startswith("tlk_") and len(shown) > 40
    assert shown not in (row.digest, row.prefix) and row.prefix in shown
    assert shown not in client.get(reverse("mirror_keys")).content.decode()
    assert keys.key_user(shown)[0] == other_user


def test_a_publication_mirrors_the_public_pages(client, organizer, other_user, online_key):
    laptop = laptop_tournament(organizer, rounds=2)
    source = uuid.uuid4()
    response = post(client, body(envelope(laptop, source=source, version=3)), online_key)
    assert response.status_code == 200, response.content
    mirror = MirroredTournament.objects.get(owner=other_user, source=source)
    online = mirror.tournament
    assert online.owner == other_user and online.pk != laptop.pk
    assert standings_rows(online) == standings_rows(laptop)
    assert public_state(online) == public_state(laptop)
    # the public round page shows the same seating
    laptop_page = client.get(reverse("round_public", args=[laptop.pk, 2])).content.decode()
    online_page = client.get(reverse("round_public", args=[online.pk, 2])).content.decode()
    for name in laptop.players.values_list("name", flat=True):
        assert (name in laptop_page) == (name in online_page)


def test_only_changed_sections_travel_and_a_replay_changes_nothing(client, organizer, online_key):
    laptop = laptop_tournament(organizer, rounds=1)
    source = uuid.uuid4()
    first = post(client, body(envelope(laptop, source=source, version=1)), online_key).json()
    online = Tournament.objects.get(pk=first["tournament"])
    round1 = online.round_set.get(number=1).pk
    rnd2 = play_round(laptop, results_in=False)
    clock_pause(rnd2)
    delta = envelope(laptop, source=source, version=2, held=first["hashes"])
    assert set(delta["sections"]) == {"round:2", "clock:2"}
    answer = post(client, body(delta), online_key).json()
    assert answer["applied"] and answer["version"] == 2
    assert online.round_set.get(number=2).status == Round.PAUSED
    assert online.round_set.get(number=1).pk == round1  # only round 2 was rebuilt
    assert public_state(online) == public_state(laptop)
    # the clock goes on: only the small clock section travels
    round_life.round_resume(round=rnd2, by=organizer)
    resumed = envelope(laptop, source=source, version=3, held=answer["hashes"])
    assert set(resumed["sections"]) == {"clock:2"}
    assert len(body(resumed)) < 1500
    answer = post(client, body(resumed), online_key).json()
    assert online.round_set.get(number=2).status == Round.RUNNING
    assert public_state(online) == public_state(laptop)
    before = public_state(online)
    # the same publication again, and an older one: acknowledged, nothing applied
    again = post(client, body(delta), online_key).json()
    older = post(client, body(envelope(laptop, source=source, version=1)), online_key).json()
    assert not again["applied"] and not older["applied"] and older["version"] == 3
    assert public_state(online) == before
    assert MirroredTournament.objects.get(source=source).publications == 3


def test_a_drop_during_the_day_updates_the_player_and_rebuilds_no_round(
    client, organizer, online_key
):
    laptop = laptop_tournament(organizer, rounds=2)
    source = uuid.uuid4()
    first = post(client, body(envelope(laptop, source=source, version=1)), online_key).json()
    online = Tournament.objects.get(pk=first["tournament"])
    rounds_before = list(online.round_set.order_by("number").values_list("pk", flat=True))
    leaving = laptop.players.order_by("name").first()
    tournament_services.player_drop(player=leaving, by=organizer)
    delta = envelope(laptop, source=source, version=2, held=first["hashes"])
    assert set(delta["sections"]) == {"tournament"}
    assert post(client, body(delta), online_key).json()["applied"]
    assert online.players.get(name=leaving.name).dropped
    assert list(online.round_set.order_by("number").values_list("pk", flat=True)) == rounds_before
    assert public_state(online) == public_state(laptop)
    assert standings_rows(online) == standings_rows(laptop)
    # a forged flag is refused like an import's, and changes nothing
    forged = envelope(laptop, source=source, version=3)
    forged["sections"]["tournament"]["players"][1]["dropped"] = "ja"
    forged["hashes"]["tournament"] = snapshot.digest(forged["sections"]["tournament"])
    response = post(client, body(forged), online_key)
    assert response.status_code == 422 and "players[1].dropped" in response.json()["error"]
    assert public_state(online) == public_state(laptop)


def test_a_delta_the_site_cannot_complete_asks_for_everything(client, organizer, online_key):
    laptop = laptop_tournament(organizer)
    data = envelope(laptop, source=uuid.uuid4(), version=1)
    data["sections"] = {"tournament": data["sections"]["tournament"]}
    response = post(client, body(data), online_key)
    assert response.status_code == 409
    assert set(response.json()["missing"]) == {"round:1", "clock:1"}
    assert not MirroredTournament.objects.exists()


@pytest.mark.parametrize("kind", ["none", "wrong", "revoked"])
def test_a_publication_without_a_valid_key_changes_nothing(
    client, organizer, other_user, online_key, kind
):
    laptop = laptop_tournament(organizer)
    if kind == "revoked":
        keys.key_revoke(user=other_user, key_id=PublishingKey.objects.get().pk)
    key = {"none": None, "wrong": "tlk_" + "x" * 43, "revoked": online_key}[kind]
    response = post(client, body(envelope(laptop, source=uuid.uuid4(), version=1)), key)
    assert response.status_code == 401
    assert not MirroredTournament.objects.exists()
    assert Tournament.objects.count() == 1


def test_another_organizers_key_never_touches_my_mirror(
    client, organizer, other_user, online_key, django_user_model
):
    laptop = laptop_tournament(organizer)
    source = uuid.uuid4()
    mine = post(client, body(envelope(laptop, source=source, version=1)), online_key).json()
    before = public_state(Tournament.objects.get(pk=mine["tournament"]))
    intruder = django_user_model.objects.create_user("intruder", password="pw-intruder-1")
    _row, their_key = approved_key(user=intruder)
    forged = envelope(laptop, source=source, version=99)
    forged["sections"]["tournament"]["tournament"]["name"] = "Gekapert"
    forged["hashes"]["tournament"] = snapshot.digest(forged["sections"]["tournament"])
    theirs = post(client, body(forged), their_key).json()
    assert theirs["tournament"] != mine["tournament"]
    assert Tournament.objects.get(pk=theirs["tournament"]).owner == intruder
    mirror = MirroredTournament.objects.get(owner=other_user)
    assert mirror.version == 1 and mirror.tournament.name == laptop.name
    assert public_state(mirror.tournament) == before
    # nor can they read my entries
    response = client.get(
        reverse("mirror_api_entries", args=[mine["tournament"]]),
        HTTP_AUTHORIZATION=f"Bearer {their_key}",
    )
    assert response.status_code == 404


def test_a_malformed_value_refuses_the_publication_and_changes_nothing(
    client, organizer, online_key
):
    laptop = laptop_tournament(organizer, rounds=2)
    source = uuid.uuid4()
    first = post(client, body(envelope(laptop, source=source, version=1)), online_key).json()
    online = Tournament.objects.get(pk=first["tournament"])
    before = public_state(online)
    bad = envelope(laptop, source=source, version=2)
    sheet = bad["sections"]["round:2"]["tables"][0]["submissions"][0]["sheet"]
    sheet["s0_cards"] = 999  # more cards than the game has
    bad["hashes"]["round:2"] = snapshot.digest(bad["sections"]["round:2"])
    response = post(client, body(bad), online_key)
    assert response.status_code == 422
    assert "tables[0].submissions[0].sheet.s0_cards" in response.json()["error"]
    online.refresh_from_db()
    assert public_state(online) == before
    assert MirroredTournament.objects.get().version == 1


def test_a_section_that_does_not_match_its_hash_is_refused(client, organizer, online_key):
    laptop = laptop_tournament(organizer)
    data = envelope(laptop, source=uuid.uuid4(), version=1)
    data["sections"]["tournament"]["players"][0]["name"] = "Untergeschoben"
    response = post(client, body(data), online_key)
    assert response.status_code == 400
    assert not MirroredTournament.objects.exists()


def test_oversized_bodies_and_gzip_bombs_are_refused(client, organizer, online_key, monkeypatch):
    monkeypatch.setattr(limits, "MAX_PUBLICATION_UNPACKED", 1024 * 1024)
    bomb = gzip.compress(b" " * (8 * 1024 * 1024))  # 8 MB of blanks, a few KB packed
    assert len(bomb) < 64 * 1024
    assert post(client, bomb, online_key).status_code == 413
    too_big = b"\0" * (limits.MAX_PUBLICATION_BYTES + 1)
    assert post(client, too_big, online_key).status_code == 413
    assert post(client, b"not gzip at all", online_key).status_code == 400
    assert not MirroredTournament.objects.exists()


def test_a_mirrored_tournament_is_read_only_online(client, organizer, other_user, online_key):
    laptop = laptop_tournament(organizer)
    answer = post(client, body(envelope(laptop, source=uuid.uuid4(), version=1)), online_key)
    online_id = answer.json()["tournament"]
    client.force_login(other_user)
    assert client.get(reverse("tournament_detail", args=[online_id])).status_code == 200
    response = client.post(reverse("round_seat", args=[online_id]))
    assert response.status_code == 403


@settings(max_examples=examples(25), deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=20),
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
        ),
        max_leaves=12,
    ),
    st.sampled_from(["tournament", "round:1", "clock:1"]),
)
def test_any_value_in_a_section_is_refused_or_applied_never_a_crash(value, name):
    """Whatever a forged section holds, the answer is an acknowledgement or a
    refusal with a message: never a server error."""
    from django.test import Client

    from tournaments.mirror import receive

    user = (
        Tournament.objects.none()
        .model._meta.get_field("owner")
        .related_model.objects.get_or_create(username="fuzz-online")[0]
    )
    data = {
        "format": receive.FORMAT,
        "source": str(uuid.uuid4()),
        "version": 1,
        "hashes": {"tournament": snapshot.digest({}), name: snapshot.digest(value)},
        "sections": {"tournament": {}, name: value},
    }
    if name == "tournament":
        data["hashes"] = {"tournament": snapshot.digest(value)}
        data["sections"] = {"tournament": value}
    try:
        receive.apply(owner=user, data=json.loads(json.dumps(data)))
    except receive.Refused as exc:
        assert str(exc) and exc.status in (400, 409, 413, 422)
    del Client


def test_only_https_or_this_machine():
    assert publish.check_url("https://turnier.example.org/") == "https://turnier.example.org"
    assert publish.check_url("http://127.0.0.1:8000") == "http://127.0.0.1:8000"
    assert publish.check_url("http://localhost:8000") == "http://localhost:8000"
    for bad in ("http://turnier.example.org", "ftp://x.org", "turnier.example.org", ""):
        with pytest.raises(publish.LinkRefused):
            publish.check_url(bad)


def test_a_key_past_its_rate_is_told_to_wait(client, online_key, monkeypatch):
    from tournaments.mirror.views import api

    monkeypatch.setattr(api, "RATE_PER_MINUTE", 3)
    hello = reverse("mirror_api_hello")
    auth = {"HTTP_AUTHORIZATION": f"Bearer {online_key}"}
    assert [client.get(hello, **auth).status_code for _ in range(4)] == [200, 200, 200, 429]
    assert post(client, body({"format": "x"}), online_key).status_code == 429
