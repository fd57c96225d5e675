"""A tournament's end of life: archive (hidden, read-only), restore, delete.

Archived means: hidden from the organizer's list (shown under "Archived") and
from the public list; its public pages and seat links are off; every change
is refused until its owner restores it (``tournaments.permissions``). A round
on the clock must end first, and scheduled starts are cancelled.

Deleting removes the tournament with everything in it after the owner typed
its name. Seats and byes protect their players from accidental deletion, so
they go first, inside the same transaction.
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import signals
from tournaments.models import Bye, Round, Seat, Tournament
from tournaments.services.errors import ServiceError

ON_THE_CLOCK = (Round.RUNNING, Round.PAUSED)


def _locked(tournament: Tournament) -> Tournament:
    return Tournament.objects.select_for_update().get(pk=tournament.pk)


@transaction.atomic
def tournament_archive(*, tournament: Tournament, by) -> Tournament:
    t = _locked(tournament)
    if t.archived_at is not None:
        return t
    running = t.round_set.filter(status__in=ON_THE_CLOCK).values_list("number", flat=True).first()
    if running is not None:
        raise ServiceError(
            _("Round %(n)s is on the clock: let it end before archiving.") % {"n": running}
        )
    t.round_set.filter(starts_at__isnull=False).update(starts_at=None)
    t.archived_at = timezone.now()
    t.save(update_fields=["archived_at"])
    return t


@transaction.atomic
def tournament_restore(*, tournament: Tournament, by) -> Tournament:
    t = _locked(tournament)
    if t.archived_at is not None:
        t.archived_at = None
        t.save(update_fields=["archived_at"])
    return t


@transaction.atomic
def tournament_delete(*, tournament: Tournament, by, confirm_name: str) -> None:
    """Delete the tournament and everything in it; ``confirm_name`` must be
    its name as typed by the owner."""
    t = _locked(tournament)
    if (confirm_name or "").strip() != t.name.strip():
        raise ServiceError(_("Type the tournament's name exactly to delete it."))
    # the apps above clear what protects their rows (a correction its version)
    signals.tournament_deleting.send(sender=Tournament, tournament=t)
    Seat.objects.filter(table__round__tournament=t).delete()
    Bye.objects.filter(round__tournament=t).delete()
    t.delete()
