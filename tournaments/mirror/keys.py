"""Online: publishing keys — made, shown once, kept hashed, revoked, and
found again from what a laptop sends — for confirmed organizer accounts
only: confirmed by a mailed link or by the site admin's approval
(``settings.ORGANIZER_CONFIRMATION``), so that an account made a minute ago
can't publish anything. The laptop needs neither: it pairs with a key the
online site showed."""

from __future__ import annotations

import hashlib
import logging
import secrets

from celery import current_app
from django.conf import settings
from django.core import signing
from django.core.mail import send_mail
from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from tournaments.mirror.models import PublisherConfirmation, PublishingKey
from tournaments.services.errors import ServiceError

log = logging.getLogger(__name__)

#: a mailed confirmation link holds this long (seconds)
LINK_AGE = 3 * 24 * 3600
_SALT = "tournaments.mirror.confirm"

#: keys look like "tlk_…" so that one pasted in the wrong place is recognised
PREFIX = "tlk_"


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def confirmation_mode() -> str:
    return getattr(settings, "ORGANIZER_CONFIRMATION", PublisherConfirmation.ADMIN)


def is_confirmed(user) -> bool:
    """Whether ``user`` may have publishing keys (the site's admins may)."""
    if user.is_superuser:
        return True
    return PublisherConfirmation.objects.filter(user=user, confirmed_at__isnull=False).exists()


def confirmation_of(user) -> PublisherConfirmation | None:
    return PublisherConfirmation.objects.filter(user=user).first()


def confirmation_request(*, user, email: str = "", link_for=None, language: str = "") -> None:
    """Ask for ``user``'s confirmation: by mail, a link to ``email``
    (``link_for(token)`` makes its address) sent by the worker; else
    marked for the site admin to approve."""
    now = timezone.now()
    if confirmation_mode() == PublisherConfirmation.MAIL:
        email = (email or "").strip()
        if "@" not in email or len(email) > 254:
            raise ServiceError(_("Enter the mail address the confirmation link goes to."))
        token = signing.dumps({"u": user.pk, "e": email}, salt=_SALT)
        url = link_for(token)
        transaction.on_commit(
            lambda: _mail_later(email=email, url=url, language=language or settings.LANGUAGE_CODE)
        )
    PublisherConfirmation.objects.update_or_create(
        user=user, defaults={"email": email, "requested_at": now}
    )


def _mail_later(**kwargs) -> None:
    try:
        current_app.send_task("mirror.confirm_mail", kwargs=kwargs, expires=3600)
    except Exception:  # the broker is away: the organizer asks again
        log.exception("confirmation mail not queued")


def send_confirmation(*, email: str, url: str, language: str) -> None:
    """The confirmation mail (the worker's task calls this)."""
    with translation.override(language):
        send_mail(
            _("Confirm your organizer account"),
            _(
                "To publish tournaments from your laptop to this site, confirm your "
                "organizer account with this link (valid for 3 days):\n%(url)s"
            )
            % {"url": url},
            None,
            [email],
        )


def confirm_by_link(token: str):
    """The account a mailed link confirms (now), or None for a link that is
    wrong, too old or for another address than the one last asked for."""
    try:
        data = signing.loads(token, salt=_SALT, max_age=LINK_AGE)
    except signing.BadSignature:
        return None
    with transaction.atomic():
        row = (
            PublisherConfirmation.objects.select_for_update()
            .select_related("user")
            .filter(user_id=data.get("u"), email=data.get("e"))
            .first()
        )
        if row is None:
            return None
        if row.confirmed_at is None:
            row.confirmed_at, row.via = timezone.now(), PublisherConfirmation.MAIL
            row.save(update_fields=["confirmed_at", "via"])
    return row.user


def approve(*, user) -> None:
    """The site admin's approval of ``user`` as an organizer who publishes."""
    PublisherConfirmation.objects.update_or_create(
        user=user,
        defaults={"confirmed_at": timezone.now(), "via": PublisherConfirmation.ADMIN},
    )


def key_create(*, user, name: str = "") -> tuple[PublishingKey, str]:
    """A new key for ``user``: the row and the key itself, which is shown
    once and never stored. Refused for an account not confirmed."""
    if not is_confirmed(user):
        raise ServiceError(_("Your account is not confirmed yet: it can't have publishing keys."))
    key = PREFIX + secrets.token_urlsafe(32)
    row = PublishingKey.objects.create(
        user=user, name=name.strip()[:80], prefix=key[:10], digest=_digest(key)
    )
    return row, key


def key_revoke(*, user, key_id: int) -> bool:
    """Revoke one of ``user``'s keys (another's is not found: False)."""
    with transaction.atomic():
        return bool(
            PublishingKey.objects.filter(pk=key_id, user=user, revoked_at=None).update(
                revoked_at=timezone.now()
            )
        )


def key_user(key: str):
    """The user a valid, unrevoked key belongs to, or None."""
    if not isinstance(key, str) or not key.startswith(PREFIX) or len(key) > 100:
        return None
    row = (
        PublishingKey.objects.select_related("user")
        .filter(digest=_digest(key), revoked_at=None)
        .first()
    )
    if row is None or not row.user.is_active or not is_confirmed(row.user):
        return None
    PublishingKey.objects.filter(pk=row.pk).update(last_used_at=timezone.now())
    return row.user, row.pk
