"""Laptop: every commit that changes what a visitor could see bumps the
version of the tournament's publication and asks Celery to send it.

Saves through the models are caught by their signals (a series' too: the
season section of its tournaments); the clock's bulk
updates (a close, a table's time called) by ``tournaments.live``'s
``round_changed``. Within a transaction the tournaments and rounds touched
are collected and bumped once, after the commit (a rolled-back change
publishes nothing). Where no tournament is published at all (the online
site, most laptops) this costs one cached look every few seconds.
"""

from __future__ import annotations

import logging
import time

from celery import current_app
from django.db import connection, transaction
from django.db.models import F, Q
from django.db.models.signals import m2m_changed, post_delete, post_save

from scoring.models import Submission
from scoring.season.models import Series
from tournaments import live
from tournaments.mirror.models import MirrorPublication
from tournaments.models import Bye, ClockActivation, Player, Round, Table, Team, Tournament

log = logging.getLogger(__name__)

TASK = "mirror.publish"
_ANY_FOR = 5.0  # seconds the "is anything published here" answer is kept
_any = {"value": False, "until": 0.0}


def anything_published() -> bool:
    now = time.monotonic()
    if now >= _any["until"]:
        _any["value"] = MirrorPublication.objects.filter(active=True).exists()
        _any["until"] = now + _ANY_FOR
    return _any["value"]


def forget() -> None:
    """A publication was switched on or off here: look again."""
    _any["until"] = 0.0


def mark(*, tournament_id: int | None = None, round_id: int | None = None) -> None:
    if not anything_published():
        return
    pending = getattr(connection, "_mirror_pending", None)
    # a flush is registered for this transaction unless it was rolled back
    # (Django then drops its on-commit callbacks, and with them ours)
    registered = pending is not None and any(
        entry[1] is _flush for entry in connection.run_on_commit
    )
    if not registered:
        pending = connection._mirror_pending = (set(), set())
    if tournament_id is not None:
        pending[0].add(tournament_id)
    if round_id is not None:
        pending[1].add(round_id)
    if not registered:  # outside a transaction: at once
        transaction.on_commit(_flush)


def _flush() -> None:
    tids, rids = getattr(connection, "_mirror_pending", None) or (set(), set())
    connection._mirror_pending = None
    bump(tournament_ids=tids, round_ids=rids)


def bump(*, tournament_ids=(), round_ids=()) -> list[int]:
    """One more version for the publications of these tournaments (or of
    these rounds' tournaments), and a send queued for each."""
    if not tournament_ids and not round_ids:
        return []
    ids = list(
        MirrorPublication.objects.filter(active=True)
        .filter(
            Q(tournament_id__in=list(tournament_ids)) | Q(tournament__round__id__in=list(round_ids))
        )
        .values_list("pk", flat=True)
        .distinct()
    )
    if ids:
        MirrorPublication.objects.filter(pk__in=ids).update(version=F("version") + 1)
        for pk in ids:
            try:
                queue(pk)
            except Exception:  # the broker is down: the sweep sends it
                log.exception("could not queue the publication %s", pk)
    return ids


def queue(publication_id: int) -> None:
    """Ask a worker to send the publication now."""
    current_app.send_task(TASK, args=[publication_id])


def _tournament_saved(sender, instance, **kwargs):
    mark(tournament_id=instance.pk)


def _of_tournament(sender, instance, **kwargs):
    mark(tournament_id=instance.tournament_id)


def _of_round(sender, instance, **kwargs):
    mark(round_id=instance.round_id)


def _of_table(sender, instance, **kwargs):
    if anything_published():
        round_id = Table.objects.filter(pk=instance.table_id).values_list("round_id", flat=True)
        mark(round_id=round_id.first())


def _series_saved(sender, instance, **kwargs):
    """A series renamed, made public or private: its tournaments' season
    sections change."""
    if anything_published():
        for tournament_id in instance.tournaments.values_list("pk", flat=True):
            mark(tournament_id=tournament_id)


def _series_tournaments(sender, instance, action, pk_set, **kwargs):
    """A tournament added to or removed from a series."""
    if action not in ("post_add", "post_remove", "post_clear") or not anything_published():
        return
    if isinstance(instance, Series):
        for tournament_id in pk_set or instance.tournaments.values_list("pk", flat=True):
            mark(tournament_id=tournament_id)
    else:
        mark(tournament_id=instance.pk)


def _round_changed(sender, round_id, **kwargs):
    mark(round_id=round_id)


def connect() -> None:
    """Called once from the app config."""
    for signal in (post_save, post_delete):
        signal.connect(_tournament_saved, sender=Tournament, dispatch_uid=f"mirror-t-{signal}")
        for model in (Player, Team, Round):
            signal.connect(_of_tournament, sender=model, dispatch_uid=f"mirror-{model}-{signal}")
        for model in (Table, Bye, ClockActivation):
            signal.connect(_of_round, sender=model, dispatch_uid=f"mirror-{model}-{signal}")
        signal.connect(_of_table, sender=Submission, dispatch_uid=f"mirror-sub-{signal}")
    post_save.connect(_series_saved, sender=Series, dispatch_uid="mirror-series")
    m2m_changed.connect(
        _series_tournaments, sender=Series.tournaments.through, dispatch_uid="mirror-series-t"
    )
    live.round_changed.connect(_round_changed, dispatch_uid="mirror-live")
