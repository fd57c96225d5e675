"""The club import: merges must end at a kept
entry — a cycle or a dangling link is refused with its place —, every value
of the wrong type gets a message instead of a server error, and every walk
along merges ends, even over a cycle that is in the database already. A
broken club export is refused or shows on every page of its organizer."""

from __future__ import annotations

import copy
import json

import pytest
from django.db import transaction
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from scoring.exchange.format import ImportRefused
from scoring.season import selectors as season
from scoring.season.exchange import export_club, import_club
from scoring.season.models import Series
from tests.examples import examples
from tests.scoring import mutate, played
from tournaments.models import Tournament
from tournaments.roster import resolve_merges
from tournaments.roster_models import Person

pytestmark = pytest.mark.django_db

INTERNALS = ("relation", "column", "null value", "constraint", "IntegrityError", "violates")


@pytest.fixture
def club_played(organizer):
    """The organizer's club in the database (roster, two tournaments, a series) and its export."""
    series = played.club(organizer)
    return {"series": series, "doc": json.loads(json.dumps(export_club(organizer)))}


# the club's export, built once per worker: playing its tournaments through the
# services is the expensive part, and most tests only break and import the file
_EXPORT: dict[str, str] = {}


@pytest.fixture
def club(organizer):
    """Only the club's export (a fresh copy per test), for tests that import it elsewhere."""
    if "club" not in _EXPORT:
        played.club(organizer)
        _EXPORT["club"] = json.dumps(export_club(organizer))
    return {"doc": json.loads(_EXPORT["club"])}


def stored(owner):
    return (
        Person.objects.filter(owner=owner).count(),
        Tournament.objects.filter(owner=owner).count(),
        Series.objects.filter(owner=owner).count(),
    )


def refused(doc, owner) -> list[str]:
    with pytest.raises(ImportRefused) as info:
        import_club(data=json.dumps(doc).encode(), owner=owner)
    assert stored(owner) == (0, 0, 0)
    errors = info.value.errors
    assert errors and not any(w in " ".join(errors) for w in INTERNALS), errors
    return errors


def edited(doc, fn):
    doc = copy.deepcopy(doc)
    fn(doc)
    return doc


# -- merges ---------------------------------------------------------------------


def test_a_merge_cycle_is_refused_with_its_place(club, other_user):
    keys = [p["key"] for p in club["doc"]["roster"]]

    def cycle(d):
        d["roster"][0]["merged_into"] = keys[1]
        d["roster"][1]["merged_into"] = keys[0]

    errors = refused(edited(club["doc"], cycle), other_user)
    assert any(
        e.startswith("roster[0].merged_into") and "circle" in e and f"{keys[0]} → {keys[1]}" in e
        for e in errors
    ), errors

    def longer(d):  # 1 → 2 → 3 → 1, and 4 merged into the circle
        for i in range(3):
            d["roster"][i]["merged_into"] = keys[(i + 1) % 3]
        d["roster"][3]["merged_into"] = keys[0]

    errors = refused(edited(club["doc"], longer), other_user)
    assert sum("circle" in e for e in errors) == 1, errors


def test_a_dangling_or_self_merge_is_refused(club, other_user):
    errors = refused(
        edited(club["doc"], lambda d: d["roster"][2].update(merged_into=999)), other_user
    )
    assert errors == ["roster[2].merged_into: no roster entry has the key 999"], errors
    key = club["doc"]["roster"][2]["key"]
    errors = refused(
        edited(club["doc"], lambda d: d["roster"][2].update(merged_into=key)), other_user
    )
    assert errors == ["roster[2].merged_into: an entry can't be merged into itself"], errors


def test_a_merged_entry_imports_and_counts_as_its_kept_person(club_played, other_user):
    """The club's merge comes along: the merged entry points to its kept
    one, and the season is the same."""
    doc = club_played["doc"]
    before = season.series_standings(club_played["series"])[0]
    merged = next(p for p in doc["roster"] if p["merged_into"] is not None)
    assert import_club(data=json.dumps(doc), owner=other_user)["series"] == 1
    mine = Series.objects.get(owner=other_user)
    after = season.series_standings(mine)[0]
    assert [(r.person.name, r.total) for r in after] == [(r.person.name, r.total) for r in before]
    copy_of = Person.objects.get(owner=other_user, name=merged["name"])
    assert copy_of.merged_into is not None


def test_a_kept_person_twice_or_linked_twice_is_refused(club, other_user):
    doc = club["doc"]
    kept = [i for i, p in enumerate(doc["roster"]) if p["merged_into"] is None]
    a, b = kept[0], kept[1]

    def twin(d):
        d["roster"][b].update(name=d["roster"][a]["name"], club=d["roster"][a]["club"])

    errors = refused(edited(doc, twin), other_user)
    assert any(e.startswith(f"roster[{b}]") and "twice" in e for e in errors), errors

    def linked_twice(d):
        players = d["tournaments"][0]["players"]
        players[1]["person"] = players[0]["person"]

    errors = refused(edited(doc, linked_twice), other_user)
    assert any(e.startswith("tournaments[0].players[1].person") for e in errors), errors
    merged_key = next(p["key"] for p in doc["roster"] if p["merged_into"] is not None)

    def to_merged(d):
        d["tournaments"][0]["players"][0]["person"] = merged_key

    errors = refused(edited(doc, to_merged), other_user)
    assert any("was merged into entry" in e for e in errors), errors


# -- values of the wrong type ---------------------------------------------------------

WRONG = [["a"], {"x": 1}, True, 1.5]


def places(doc):
    player = ("tournaments", 0, "players", 0)
    yield ("roster", 0, "merged_into"), "roster[0].merged_into"
    yield ("roster", 0, "key"), "roster[0].key"
    yield ("roster", 0, "name"), "roster[0].name"
    yield ("roster", 0, "club"), "roster[0].club"
    yield ("roster", 0, "birth_year"), "roster[0].birth_year"
    yield ("roster", 0, "notes"), "roster[0].notes"
    yield (*player, "person"), "tournaments[0].players[0].person"
    yield (*player, "name"), "tournaments[0]"
    yield ("series", 0, "game"), "series[0].game"
    yield ("series", 0, "name"), "series[0].name"
    yield ("series", 0, "scheme"), "series[0].scheme"
    yield ("series", 0, "table"), "series[0].table"
    yield ("series", 0, "best"), "series[0].best"
    yield ("series", 0, "minimum"), "series[0].minimum"
    yield ("series", 0, "public"), "series[0].public"
    yield ("series", 0, "tournaments"), "series[0].tournaments"
    yield ("roster",), "roster"
    yield ("series",), "series"


def test_a_value_of_the_wrong_type_gets_a_message(club, other_user):
    for path, where in places(club["doc"]):
        for value in WRONG:
            doc = copy.deepcopy(club["doc"])
            target = doc
            for key in path[:-1]:
                target = target[key]
            if target.get(path[-1]) == value:
                continue
            target[path[-1]] = value
            errors = refused(doc, other_user)
            assert any(e.startswith(where) for e in errors), (path, value, errors)


def test_the_import_page_answers_every_wrong_type_with_the_problem(client, club, other_user):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(other_user)
    for path, where in list(places(club["doc"]))[:8]:
        doc = copy.deepcopy(club["doc"])
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = {"x": [1]}
        response = client.post(
            reverse("club_import"),
            {"file": SimpleUploadedFile("club.json", json.dumps(doc).encode())},
        )
        assert response.status_code == 200, path
        assert where in response.content.decode()
    assert stored(other_user) == (0, 0, 0)


# -- every walk ends --------------------------------------------------------------------


@given(st.dictionaries(st.integers(0, 12), st.none() | st.integers(0, 14), max_size=13))
def test_the_walk_along_merges_ends_and_agrees_with_itself(links):
    kept, cycles = resolve_merges(links)
    assert set(kept) == set(links)
    for target in kept.values():
        assert kept[target] == target  # the kept one is kept
    on_cycle = {e for c in cycles for e in c}
    for cycle in cycles:
        assert cycle[0] == min(cycle)
        assert all(links[a] == b for a, b in zip(cycle, [*cycle[1:], cycle[0]], strict=True))
    for entry in links:  # an entry that leads nowhere further is its own kept one
        target = links[entry]
        if target is None or target not in links:
            assert kept[entry] == entry
    if not on_cycle:  # without cycles each entry counts as the end of its chain
        for target in kept.values():
            assert links[target] is None or links[target] not in links


def test_a_cycle_in_the_database_still_shows_every_page(client, organizer, club_played):
    """A cycle no import makes (a hand edit, a restored old file) ends every
    walk: the season, the ratings and the person pages answer, and a merged
    person's page leads to one page, not round in a circle."""
    series = club_played["series"]
    linked = Person.objects.filter(owner=organizer, merged_into=None, entries__isnull=False)
    a, b = linked.distinct().order_by("name")[:2]
    Person.objects.filter(pk=a.pk).update(merged_into=b)
    Person.objects.filter(pk=b.pk).update(merged_into=a)
    rows, _ = season.series_standings(series)
    assert len({r.person.person_id for r in rows if r.person.person_id in (a.pk, b.pk)}) == 1
    client.force_login(organizer)
    for person in (a, b):
        response = client.get(reverse("person_detail", args=[person.pk]), follow=True)
        assert response.status_code == 200
        assert len(response.redirect_chain) <= 1
    assert not played.server_errors(organizer)
    assert Client().get(reverse("season_public", args=[series.pk])).status_code == 200


# -- the attack as a property ------------------------------------------------------------


def club_pages(owner) -> list:
    urls = played.owner_urls(owner, 3)
    for t in Tournament.objects.filter(owner=owner):
        urls += [
            reverse(name, args=[t.pk])
            for name in ("standings", "standings_public", "player_list", "tournament_detail")
        ]
    client = Client(raise_request_exception=False)
    client.force_login(owner)
    anonymous = Client(raise_request_exception=False)
    out = [(u, client.get(u, follow=True).status_code) for u in urls]
    out += [(u, anonymous.get(u).status_code) for u in urls if u.startswith(("/t/", "/season/"))]
    return [(u, status) for u, status in out if status >= 500]


@settings(max_examples=examples(40), deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_any_broken_club_export_is_refused_or_every_page_shows_it(club, other_user, data):
    doc, done = data.draw(mutate.mutated(club["doc"]))
    with transaction.atomic():
        try:
            import_club(data=json.dumps(doc).encode(), owner=other_user)
        except ImportRefused as exc:
            event("refused")
            assert stored(other_user) == (0, 0, 0), done
            assert exc.errors and not any(w in " ".join(exc.errors) for w in INTERNALS), done
        else:
            event("accepted")
            Series.objects.filter(owner=other_user).update(public=True)
            errors = club_pages(other_user)
            assert not errors, (done, errors)
        transaction.set_rollback(True)
