"""Writes for a tournament's scorekeepers: accounts the organizer lets enter
results."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models import Tournament
from tournaments.services.errors import ServiceError


@transaction.atomic
def scorekeeper_add(*, tournament: Tournament, username: str):
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise ServiceError(_("No account named %(name)s.") % {"name": username})
    if user.pk == tournament.owner_id:
        raise ServiceError(_("The organizer can already do everything a scorekeeper can."))
    tournament.scorekeepers.add(user)
    return user


@transaction.atomic
def scorekeeper_remove(*, tournament: Tournament, user_id: int) -> None:
    tournament.scorekeepers.remove(user_id)
