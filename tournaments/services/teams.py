"""Writes for teams of two in a team tournament."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.models import Player, Team, Tournament
from tournaments.services.errors import ServiceError


@transaction.atomic
def team_register(*, tournament: Tournament, name: str, members: list[Player]) -> Team:
    if not tournament.team_mode:
        raise ServiceError(_("This tournament is not played in teams."))
    if len(members) != 2 or members[0].pk == members[1].pk:
        raise ServiceError(_("A team has two different players."))
    if any(m.tournament_id != tournament.pk for m in members):
        raise ServiceError(_("Both players must be registered in this tournament."))
    taken = [m.name for m in members if m.team_id]
    if taken:
        raise ServiceError(_("Already in a team: %(names)s") % {"names": ", ".join(sorted(taken))})
    if Team.objects.filter(tournament=tournament, name__iexact=name).exists():
        raise ServiceError(_("A team named %(name)s exists already.") % {"name": name})
    team = Team.objects.create(tournament=tournament, name=name)
    Player.objects.filter(pk__in=[m.pk for m in members]).update(team=team)
    return team
