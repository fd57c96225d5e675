"""Online: publishing keys — made, shown once, kept hashed, revoked, and
found again from what a laptop sends."""

from __future__ import annotations

import hashlib
import secrets

from django.db import transaction
from django.utils import timezone

from tournaments.mirror.models import PublishingKey

#: keys look like "tlk_…" so that one pasted in the wrong place is recognised
PREFIX = "tlk_"


def _digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def key_create(*, user, name: str = "") -> tuple[PublishingKey, str]:
    """A new key for ``user``: the row and the key itself, which is shown
    once and never stored."""
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
    if row is None or not row.user.is_active:
        return None
    PublishingKey.objects.filter(pk=row.pk).update(last_used_at=timezone.now())
    return row.user, row.pk
