"""The end of an event: finishing a tournament (and taking that back).

After "finish tournament" the standings are final: results change only by
the organizer, with a reason (``scoring.services`` enforces it).
"""

from __future__ import annotations

from django.db import transaction
from django.db.models.functions import Now
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models import Round, Tournament
from tournaments.services.errors import ServiceError


def tournament_finish(*, tournament: Tournament) -> Tournament:
    """Close the event: every seated round must be complete (all its tables
    have a counted result). Fewer rounds than planned is the organizer's
    choice (the final standings say after which round)."""
    with transaction.atomic():
        t = Tournament.objects.select_for_update().get(pk=tournament.pk)
        if t.finished_at is not None:
            raise ServiceError(_("The tournament is finished already."))
        rounds = list(Round.objects.filter(tournament=t).order_by("number"))
        if not rounds:
            raise ServiceError(_("No round has been played yet: there is nothing to finish."))
        open_rounds = [r.number for r in rounds if r.status != Round.COMPLETE]
        if open_rounds:
            raise ServiceError(
                ngettext(
                    "Round %(rounds)s is not complete yet: every table needs its result first.",
                    "Rounds %(rounds)s are not complete yet: every table needs its result first.",
                    len(open_rounds),
                )
                % {"rounds": ", ".join(str(n) for n in open_rounds)}
            )
        Tournament.objects.filter(pk=t.pk).update(finished_at=Now())
        t.refresh_from_db(fields=["finished_at"])
    tournament.finished_at = t.finished_at
    return t


def tournament_reopen(*, tournament: Tournament) -> Tournament:
    """Take "finished" back (e.g. pressed too early): results can be entered
    and corrected as before."""
    with transaction.atomic():
        updated = Tournament.objects.filter(pk=tournament.pk, finished_at__isnull=False).update(
            finished_at=None
        )
        if not updated:
            raise ServiceError(_("The tournament is not finished."))
    tournament.finished_at = None
    return tournament
