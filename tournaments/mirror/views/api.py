"""Online: what a paired laptop calls, with its key as a bearer token. The
key allows publishing its owner's tournaments and reading the entries of
their tournaments, nothing else; every answer is JSON."""

from __future__ import annotations

import logging

from django.core.cache import cache
from django.http import JsonResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from tournaments import limits
from tournaments.mirror import keys, receive, selectors
from tournaments.models import Tournament

log = logging.getLogger(__name__)

#: publications and reads a key may make per minute
RATE_PER_MINUTE = 120


def _refuse(message: str, status: int, **extra) -> JsonResponse:
    return JsonResponse({"error": message, **extra}, status=status)


def _authorised(request):
    """(user, None) for a valid key within its rate, else (None, refusal)."""
    header = request.headers.get("Authorization", "")
    scheme, _sep, key = header.partition(" ")
    found = keys.key_user(key.strip()) if scheme.lower() == "bearer" else None
    if found is None:
        return None, _refuse(_("No valid publishing key."), 401)
    user, key_id = found
    bucket = f"mirror-rate-{key_id}"
    cache.add(bucket, 0, 60)
    try:
        used = cache.incr(bucket)
    except ValueError:  # the bucket expired in between
        cache.add(bucket, 1, 60)
        used = 1
    if used > RATE_PER_MINUTE:
        return None, _refuse(_("Too many requests with this key; try again in a minute."), 429)
    return user, None


@require_GET
def hello(request):
    user, refusal = _authorised(request)
    if refusal:
        return refusal
    return JsonResponse(
        {"user": user.get_username(), "tournaments": selectors.tournaments_for_laptop(user)}
    )


@require_GET
def entries(request, online_id: int):
    user, refusal = _authorised(request)
    if refusal:
        return refusal
    tournament = get_object_or_404(Tournament, pk=online_id, owner=user)
    return JsonResponse(
        {
            "tournament": {"id": tournament.pk, "name": tournament.name},
            "entries": selectors.entries_for_laptop(tournament),
        }
    )


@csrf_exempt
@require_POST
def publish(request):
    user, refusal = _authorised(request)
    if refusal:
        return refusal
    body = request.read(limits.MAX_PUBLICATION_BYTES + 1)
    try:
        data = receive.unpack(body)
        answer = receive.apply(owner=user, data=data)
    except receive.Refused as exc:
        log.info("publication refused (%s): %s", exc.status, str(exc)[:300])
        return _refuse(str(exc), exc.status, **exc.extra)
    return JsonResponse(answer)
