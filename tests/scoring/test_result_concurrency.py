"""Two sessions write the same table at the same moment (PostgreSQL, real
connections, a barrier so they really meet): exactly one confirmed result, and
the other one is told about the conflict."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from scoring import services
from scoring.models import Submission
from tests.concurrency import at_once
from tests.scoring.test_result_entry import make_table

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

SHEETS = [
    {"s0_field": 12, "s1_field": 20, "s2_field": 3},
    {"s0_field": 3, "s1_field": 2, "s2_field": 1},
]


def race(*jobs):
    """The jobs in threads released together (``tests.concurrency.at_once``)."""
    return at_once(list(jobs), timeout=10)


def split(outcomes):
    won = [o for o in outcomes if isinstance(o, Submission)]
    lost = [o for o in outcomes if isinstance(o, Exception)]
    return won, lost


@pytest.mark.parametrize("attempt", range(3))
def test_two_scorekeepers_save_the_same_table_at_once(
    require_postgres, organizer, django_user_model, attempt
):
    table = make_table(organizer, "trumpet")
    keepers = [
        django_user_model.objects.create_user(f"k{i}", password="pw-keeper-12345") for i in range(2)
    ]
    table.round.tournament.scorekeepers.add(*keepers)
    outcomes = race(
        *[
            lambda k=k, s=s: services.result_submit(
                table=table, sheet=s, by=k, expected_version=None
            )
            for k, s in zip(keepers, SHEETS, strict=True)
        ]
    )
    won, lost = split(outcomes)
    assert len(won) == 1 and len(lost) == 1, outcomes
    conflict = lost[0]
    assert isinstance(conflict, services.ResultConflict)
    assert conflict.other.pk == won[0].pk  # he is shown the winner's entry
    assert f"{won[0].by.username} saved version 1" in str(conflict)
    assert Submission.objects.filter(table=table).count() == 1
    assert Submission.objects.filter(table=table, status=Submission.CONFIRMED).count() == 1


@pytest.mark.parametrize("attempt", range(3))
def test_two_sessions_confirm_the_same_pending_result_at_once(
    require_postgres, organizer, django_user_model, attempt
):
    table = make_table(organizer, "trumpet", confirmation_required=True)
    author, *checkers = [
        django_user_model.objects.create_user(f"k{i}", password="pw-keeper-12345") for i in range(3)
    ]
    table.round.tournament.scorekeepers.add(author, *checkers)
    pending = services.result_submit(table=table, sheet=SHEETS[0], by=author, expected_version=None)
    assert pending.status == Submission.PENDING
    outcomes = race(
        *[lambda c=c: services.result_confirm(submission=pending, by=c) for c in checkers]
    )
    won, lost = split(outcomes)
    assert len(won) == 1 and len(lost) == 1, outcomes
    assert isinstance(lost[0], services.ResultConflict)
    assert "Version 1 is already confirmed." in str(lost[0])
    assert Submission.objects.filter(table=table, status=Submission.CONFIRMED).count() == 1
    assert pending.confirmations.count() == 1


def test_a_correction_and_a_confirmation_meet(require_postgres, organizer, django_user_model):
    """One scorekeeper confirms version 1 while another saves version 2 from
    it: whichever is second learns it, and one version is confirmed."""
    table = make_table(organizer, "trumpet", confirmation_required=True)
    a, b, c = [
        django_user_model.objects.create_user(f"k{i}", password="pw-keeper-12345") for i in range(3)
    ]
    table.round.tournament.scorekeepers.add(a, b, c)
    v1 = services.result_submit(table=table, sheet=SHEETS[0], by=a, expected_version=None)
    outcomes = race(
        lambda: services.result_confirm(submission=v1, by=b),
        lambda: services.result_submit(table=table, sheet=SHEETS[1], by=c, expected_version=1),
    )
    assert all(isinstance(o, Submission | services.ServiceError) for o in outcomes), outcomes
    confirmed = Submission.objects.filter(table=table, status=Submission.CONFIRMED)
    assert confirmed.count() <= 1
    if isinstance(outcomes[0], Exception):  # the correction came first: v1 is replaced
        assert isinstance(outcomes[0], services.ResultConflict)
        assert Submission.objects.get(version=1).status == Submission.SUPERSEDED
    else:
        assert confirmed.get().version == 1


def test_the_database_itself_refuses_a_second_confirmed_result(require_postgres, organizer):
    """Without the service's row lock, two sessions inserting a confirmed
    result for one table at once: the constraint lets exactly one through."""
    table = make_table(organizer, "trumpet")

    def insert(version):
        with transaction.atomic():
            return Submission.objects.create(
                table=table, version=version, status=Submission.CONFIRMED, sheet={}
            )

    outcomes = race(lambda: insert(1), lambda: insert(2))
    won, lost = split(outcomes)
    assert len(won) == 1 and len(lost) == 1, outcomes
    assert isinstance(lost[0], IntegrityError)
    assert "one_confirmed_result_per_table" in str(lost[0])
    assert Submission.objects.filter(table=table, status=Submission.CONFIRMED).count() == 1
