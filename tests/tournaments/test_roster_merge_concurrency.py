"""Two opposite roster merges at the same moment: A into B and B
into A. PostgreSQL, a connection per thread, a barrier so they meet, and
each lock held a moment longer so the two always overlap. One merge goes
through, the other is refused with the reason — no deadlock, no error page —
and the roster is whole: no merge cycle, every entry with the kept person,
one merge logged."""

from __future__ import annotations

import time

import pytest
from django.db.models import QuerySet
from django.test import Client
from django.urls import reverse

from tests import concurrency
from tournaments import services
from tournaments.models import Player
from tournaments.roster_models import Person, PersonMerge
from tournaments.services import ServiceError, roster

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def slow_locks(monkeypatch):
    """Each roster row lock is held 0.2 s before the merge goes on: opposite
    merges that lock in their own order then always deadlock."""
    get = QuerySet.get

    def slow_get(self, *args, **kwargs):
        row = get(self, *args, **kwargs)
        if self.model is Person and self.query.select_for_update:
            time.sleep(0.2)
        return row

    monkeypatch.setattr(QuerySet, "get", slow_get)


def at_once(*calls):
    return concurrency.at_once(list(calls), timeout=10)


def two_entries_of_one_person(organizer, n):
    """The same player under two spellings, in two tournaments, each in the roster."""
    people = []
    for name in (f"Jürgen Groß {n}", f"Juergen Gross {n}"):
        t = services.tournament_create(owner=organizer, name=f"{name} Cup", game="quartett")
        player = services.player_add(tournament=t, name=name, by=organizer)
        people.append(roster.person_from_player(player=player, by=organizer))
    return people


def assert_roster_whole(a, b):
    a.refresh_from_db()
    b.refresh_from_db()
    assert not (a.merged_into_id and b.merged_into_id), "a merge cycle"
    kept, merged = (b, a) if a.merged_into_id else (a, b)
    assert merged.merged_into_id == kept.pk
    assert Player.objects.filter(person=merged).count() == 0
    assert Player.objects.filter(person=kept).count() == 2
    log = PersonMerge.objects.filter(kept__in=[a, b])
    assert [(m.kept_id, m.merged_id) for m in log] == [(kept.pk, merged.pk)]


@pytest.mark.parametrize("attempt", range(3))
def test_opposite_merges_at_once_one_goes_through_the_other_is_refused(
    require_postgres, organizer, attempt
):
    a, b = two_entries_of_one_person(organizer, attempt)
    outcomes = at_once(
        lambda: roster.person_merge(kept=a, merged=b, by=organizer),
        lambda: roster.person_merge(kept=b, merged=a, by=organizer),
    )
    done = [o for o in outcomes if isinstance(o, PersonMerge)]
    refused = [o for o in outcomes if isinstance(o, ServiceError)]
    assert len(done) == 1 and len(refused) == 1, outcomes
    assert "was merged into another entry; use that one." in str(refused[0])
    assert_roster_whole(a, b)


def test_opposite_merges_from_two_pages_answer_no_error_page(require_postgres, organizer):
    a, b = two_entries_of_one_person(organizer, "pages")

    def press(kept, merged):
        client = Client()
        client.force_login(organizer)

        def call():
            response = client.post(
                reverse("person_merge"),
                {"kept": kept.pk, "merged": merged.pk},
                follow=True,
                HTTP_ACCEPT_LANGUAGE="de",
            )
            return response.redirect_chain[0][1], response.content.decode()

        return call

    outcomes = at_once(press(a, b), press(b, a))
    assert [status for status, _ in outcomes] == [302, 302], outcomes
    pages = " ".join(html for _, html in outcomes)
    said = [f"{m} mit {k} zusammengeführt." in pages for k, m in ((a, b), (b, a))]
    assert sorted(said) == [False, True]  # the one that went through says so
    assert "wurde mit einem anderen Eintrag zusammengeführt; bitte jenen" in pages  # the other why
    assert_roster_whole(a, b)
