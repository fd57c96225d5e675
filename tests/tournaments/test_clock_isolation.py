"""The sweep handles every round on its own: one failure — any
exception, not only a refusal — is logged, marked on that round for its
organizer, and never stops the others."""

from __future__ import annotations

from datetime import timedelta
from html import unescape

import pytest
from django.urls import reverse

from tests.factories import one_table
from tournaments.models import Round, Tournament
from tournaments.services import clock, deadlines, round_life

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_broker(monkeypatch):
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)


def seated(owner, name, *, digital=False) -> Round:
    """Round 1 of a new tournament ``name``: one table of four seated and
    published through the services."""
    table = one_table(
        owner,
        "quartett",
        4,
        digital=digital,
        name=name,
        names=[f"{name} {pos}" for pos in range(4)],
    )
    return table.round


def overdue(rnd: Round, owner) -> Round:
    round_life.round_start(round=rnd, by=owner, seconds=60)
    Round.objects.filter(pk=rnd.pk).update(deadline=clock.db_now() - timedelta(seconds=1))
    return rnd


def poison_deck(rnd: Round) -> None:
    t = rnd.tournament
    deck = t.engine.deck_data()
    tiny = {"name": "Mini", "attributes": deck["attributes"], "cards": deck["cards"][:2]}
    Tournament.objects.filter(pk=t.pk).update(game_options={"deck": tiny})


def test_a_start_that_fails_is_marked_and_the_others_still_close(organizer, other_user):
    poisoned = seated(other_user, "Gift", digital=True)
    poison_deck(poisoned)
    Round.objects.filter(pk=poisoned.pk).update(starts_at=clock.db_now())
    healthy = overdue(seated(organizer, "Gesund"), organizer)

    done = round_life.sweep()
    assert done["rounds"] == 1 and done["started"] == 0
    healthy.refresh_from_db()
    assert healthy.status == Round.TIME_CALLED
    poisoned.refresh_from_db()
    assert poisoned.status == Round.SEATED
    assert poisoned.starts_at is None  # cancelled: not retried every second
    assert poisoned.clock_problem["code"] == clock.START_FAILED
    assert round_life.sweep()["started"] == 0


def test_a_close_that_raises_is_marked_and_retried_without_blocking(
    organizer, other_user, monkeypatch, client
):
    broken = overdue(seated(other_user, "Kaputt"), other_user)
    healthy = overdue(seated(organizer, "Gesund"), organizer)
    real = round_life._table_time_called

    def explode(table):
        if table.round_id == broken.pk:
            raise RuntimeError("disk on fire")
        real(table)

    monkeypatch.setattr(round_life, "_table_time_called", explode)
    round_life.sweep()
    healthy.refresh_from_db()
    broken.refresh_from_db()
    assert healthy.status == Round.TIME_CALLED
    assert broken.status == Round.RUNNING  # rolled back whole: nothing half-closed
    assert not broken.activations.filter(kind="time_called").exists()
    assert broken.clock_problem["code"] == clock.CLOSE_FAILED
    assert "disk on fire" in broken.clock_problem["detail"]

    client.force_login(other_user)
    html = unescape(
        client.get(reverse("round_detail", args=[broken.tournament_id, 1])).content.decode()
    )
    assert "The clock could not close this round at its deadline" in html

    monkeypatch.setattr(round_life, "_table_time_called", real)
    round_life.sweep()  # the cause is gone: the next sweep closes it and clears the mark
    broken.refresh_from_db()
    assert broken.status == Round.TIME_CALLED and broken.clock_problem == {}


def test_starting_a_round_that_cannot_be_dealt_says_why_and_changes_nothing(client, organizer):
    rnd = seated(organizer, "Handstart", digital=True)
    poison_deck(rnd)
    client.force_login(organizer)
    response = client.post(
        reverse("round_start", args=[rnd.tournament_id, rnd.number]), follow=True
    )
    assert response.status_code == 200
    html = unescape(response.content.decode())
    assert "Table 1 can't be dealt" in html and "the round was not started" in html
    rnd.refresh_from_db()
    assert rnd.status == Round.SEATED and not rnd.activations.exists()
    assert rnd.tables.get().state is None
