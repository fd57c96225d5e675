"""Online: publications received, applied by the worker, never in a request.

A publication's request (``views.api.publish``) only checks the key, reads
the body within its limit and stores it (:func:`accept`): the answer is
"accepted" (202) with where to ask for the outcome. A Celery task
(:func:`process`, ``mirror.apply``) unpacks it within the limits, parses it
bounded (``tournaments.safejson``), checks and applies it
(``receive.unpack``, ``receive.apply``) and keeps the outcome — the answer
the request used to give: 200 with the hashes held, 409 with the sections
missing, 413/422/400 with the refusal's words — which the laptop asks for
(:func:`outcome`). Each publication is its own task: one that fails is
recorded as failed and touches no other. The beat's sweep (:func:`sweep`)
hands out again what a lost worker left and drops old outcomes.
"""

from __future__ import annotations

import datetime as dt
import logging

from celery import current_app
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.mirror import receive
from tournaments.mirror.models import ReceivedPublication

log = logging.getLogger(__name__)

#: publications of one account waiting for the worker at once (a laptop
#: sends one at a time per tournament)
MAX_WAITING = 6
#: a publication taken by a worker that gave no outcome for this long is
#: handed out again, at most MAX_ATTEMPTS times
LOST_AFTER = dt.timedelta(minutes=3)
MAX_ATTEMPTS = 3
#: outcomes are kept this long for the laptop to ask
KEEP = dt.timedelta(hours=1)
GZIP_MAGIC = b"\x1f\x8b"


def accept(*, owner, body: bytes) -> ReceivedPublication:
    """Store ``body`` for the worker (handed out after the commit); a body
    that isn't gzip, or an account with too many waiting, is refused
    (:class:`receive.Refused`) without storing anything."""
    if not body.startswith(GZIP_MAGIC):
        raise receive.Refused(_("The publication is not gzip-compressed JSON."))
    waiting = ReceivedPublication.objects.filter(
        owner=owner, status__in=[ReceivedPublication.QUEUED, ReceivedPublication.RUNNING]
    ).count()
    if waiting >= MAX_WAITING:
        raise receive.Refused(
            _("Publications of this account are still being applied; try again shortly."),
            status=429,
        )
    row = ReceivedPublication.objects.create(owner=owner, body=body)
    transaction.on_commit(lambda: hand_out(row.pk))
    return row


def hand_out(pk: int) -> None:
    """Send the task (``mirror.apply`` in ``tasks.py``, named here so this
    module needs no import of it); a broker away only logs: the sweep
    hands it out again."""
    try:
        current_app.send_task("mirror.apply", args=[pk], expires=3600)
    except Exception:
        log.exception("publication %s not handed to the worker", pk)


def process(pk: int) -> int | None:
    """Apply received publication ``pk`` if it is still waiting; its outcome
    is stored. Returns the outcome's status (None: not this call's to do)."""
    now = timezone.now()
    claimed = ReceivedPublication.objects.filter(pk=pk, status=ReceivedPublication.QUEUED).update(
        status=ReceivedPublication.RUNNING, started_at=now
    )
    if not claimed:
        return None
    row = ReceivedPublication.objects.select_related("owner").get(pk=pk)
    try:
        data = receive.unpack(bytes(row.body))
        status, answer = 200, receive.apply(owner=row.owner, data=data)
    except receive.Refused as exc:
        log.info("publication refused (%s): %s", exc.status, str(exc)[:300])
        status, answer = exc.status, {"error": str(exc), **exc.extra}
    except Exception:  # one publication's failure is its own
        log.exception("publication %s failed", pk)
        status = 500
        answer = {"error": _("The publication could not be applied; send it again.")}
    ReceivedPublication.objects.filter(pk=pk).update(
        status=ReceivedPublication.DONE,
        body=b"",
        done_at=timezone.now(),
        answer_status=status,
        answer=answer,
    )
    return status


def outcome(*, owner, pk: int) -> tuple[int, dict] | None:
    """What the laptop learns of its publication ``pk``: (202, state) while
    it waits, else the outcome's status and answer; None when there is no
    such publication of ``owner`` (any more)."""
    row = (
        ReceivedPublication.objects.filter(pk=pk, owner=owner)
        .only("status", "answer_status", "answer")
        .first()
    )
    if row is None:
        return None
    if row.status != ReceivedPublication.DONE:
        return 202, {"state": row.status}
    return row.answer_status or 500, row.answer


def sweep() -> dict:
    """Hand out again what a lost worker left (or give up with an outcome
    that says so), and drop outcomes nobody asked for within :data:`KEEP`."""
    now = timezone.now()
    out = {"requeued": 0, "failed": 0}
    lost = ReceivedPublication.objects.filter(
        status__in=[ReceivedPublication.QUEUED, ReceivedPublication.RUNNING],
        received_at__lt=now - LOST_AFTER,
    ).exclude(started_at__gte=now - LOST_AFTER)
    for pk, attempts in lost.values_list("pk", "attempts"):
        if attempts + 1 < MAX_ATTEMPTS:
            if ReceivedPublication.objects.filter(pk=pk, attempts=attempts).update(
                status=ReceivedPublication.QUEUED, attempts=attempts + 1, started_at=now
            ):
                hand_out(pk)
                out["requeued"] += 1
            continue
        ReceivedPublication.objects.filter(pk=pk, attempts=attempts).update(
            status=ReceivedPublication.DONE,
            body=b"",
            done_at=now,
            answer_status=503,
            answer={"error": _("The site's worker did not apply the publication; send it again.")},
        )
        out["failed"] += 1
    ReceivedPublication.objects.filter(
        status=ReceivedPublication.DONE, done_at__lt=now - KEEP
    ).delete()
    return out
