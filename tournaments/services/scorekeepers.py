"""Writes for a tournament's scorekeepers: accounts the organizer lets enter
results."""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.models import HelperInvite, Tournament
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


#: how long a helper's invitation stays valid
INVITE_DAYS = 7
#: the secret's bytes (URL-safe base64 in the link)
INVITE_BYTES = 18


def invite_hash(token: str) -> str:
    """The stored form of an invitation's secret: its SHA-256 (the secret is
    random, so no salt is needed; a leaked table opens nothing)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@transaction.atomic
def invite_create(*, tournament: Tournament, by, name: str, email: str = "") -> tuple:
    """A new invitation for a helper of ``tournament``: the row and its secret
    (shown once: only its hash is stored)."""
    name = name.strip()
    if not name:
        raise ServiceError(_("Give the helper's name."))
    if tournament.finished:
        raise ServiceError(_("The tournament is finished: it needs no more helpers."))
    token = secrets.token_urlsafe(INVITE_BYTES)
    invite = HelperInvite.objects.create(
        tournament=tournament,
        by=by,
        name=name,
        email=email.strip(),
        token_hash=invite_hash(token),
        expires_at=timezone.now() + timedelta(days=INVITE_DAYS),
    )
    return invite, token


@transaction.atomic
def invite_revoke(*, tournament: Tournament, by, invite_id: int) -> HelperInvite:
    invite = (
        HelperInvite.objects.select_for_update().filter(tournament=tournament, pk=invite_id).first()
    )
    if invite is None:
        raise ServiceError(_("No such invitation in this tournament."))
    if invite.used_at:
        raise ServiceError(
            _("%(name)s has already joined: remove the scorekeeper instead.") % {"name": invite}
        )
    if invite.revoked_at is None:
        invite.revoked_at = timezone.now()
        invite.revoked_by = by
        invite.save(update_fields=["revoked_at", "revoked_by"])
    return invite


def _refusal(invite: HelperInvite | None, tournament_id: int, now) -> str:
    """Why the invitation can't be used, or "" when it can."""
    if invite is None:
        return _("This invitation link is not valid. Ask the organizer for a new one.")
    if invite.tournament_id != tournament_id:
        return _("This invitation is for another tournament.")
    state = invite.state(now)
    if state == "used":
        return _("This invitation has already been used. Ask the organizer for a new one.")
    if state == "revoked":
        return _("The organizer has withdrawn this invitation.")
    if state == "expired":
        return _("This invitation has expired. Ask the organizer for a new one.")
    return ""


def invite_check(*, tournament_id: int, token: str) -> HelperInvite:
    """The open invitation behind ``token`` for the tournament, or ServiceError saying why not."""
    invite = (
        HelperInvite.objects.select_related("tournament")
        .filter(token_hash=invite_hash(token))
        .first()
    )
    why = _refusal(invite, tournament_id, timezone.now())
    if why:
        raise ServiceError(why)
    return invite


@transaction.atomic
def invite_accept(*, tournament_id: int, token: str, user=None, username="", password=""):
    """The helper takes the invitation: ``user`` (logged in) becomes a
    scorekeeper, or a new account ``username``/``password`` is created for him.
    Single use: the row is locked, checked and marked used in one transaction."""
    invite = (
        HelperInvite.objects.select_for_update()
        .select_related("tournament")
        .filter(token_hash=invite_hash(token))
        .first()
    )
    why = _refusal(invite, tournament_id, timezone.now())
    if why:
        raise ServiceError(why)
    tournament = invite.tournament
    if user is None:
        User = get_user_model()
        if User.objects.filter(username__iexact=username).exists():
            raise ServiceError(
                _("The name %(name)s is taken. Choose another, or log in if it is yours.")
                % {"name": username}
            )
        user = User.objects.create_user(username=username, password=password, email=invite.email)
    elif user.pk == tournament.owner_id:
        raise ServiceError(_("The organizer can already do everything a scorekeeper can."))
    tournament.scorekeepers.add(user)
    invite.used_at = timezone.now()
    invite.used_by = user
    invite.save(update_fields=["used_at", "used_by"])
    return user, invite
