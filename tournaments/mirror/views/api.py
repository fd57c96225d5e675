"""Online: what a paired laptop calls, with its key as a bearer token. The
key allows publishing its owner's tournaments and reading the entries of
their tournaments, nothing else; every answer is JSON."""

from __future__ import annotations

import logging

from django.core.cache import cache
from django.http import JsonResponse
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from tournaments import limits
from tournaments.mirror import inbox, keys, receive, selectors
from tournaments.models import Tournament

log = logging.getLogger(__name__)

#: publications and reads a key may make per minute
RATE_PER_MINUTE = 120


def _refuse(message: str, status: int, **extra) -> JsonResponse:
    return JsonResponse({"error": message, **extra}, status=status)


def _authorised(request, *, counted: bool = True):
    """(user, None) for a valid key within its rate, else (None, refusal).
    ``counted``: the request counts against the key's rate (asking for an
    outcome, one indexed read, does not)."""
    header = request.headers.get("Authorization", "")
    scheme, _sep, key = header.partition(" ")
    found = keys.key_user(key.strip()) if scheme.lower() == "bearer" else None
    if found is None:
        return None, _refuse(_("No valid publishing key."), 401)
    user, key_id = found
    if not counted:
        return user, None
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
    """Store the publication for the worker and answer "accepted" (202) with
    where its outcome will be (``inbox``): nothing is unpacked or parsed
    here."""
    user, refusal = _authorised(request)
    if refusal:
        return refusal
    body = request.read(limits.MAX_PUBLICATION_BYTES + 1)
    if len(body) > limits.MAX_PUBLICATION_BYTES:
        return _refuse(_("The publication is too large."), 413)
    try:
        row = inbox.accept(owner=user, body=body)
    except receive.Refused as exc:
        return _refuse(str(exc), exc.status, **exc.extra)
    poll = reverse("mirror_api_outcome", args=[row.pk])
    return JsonResponse({"state": row.status, "poll": poll}, status=202)


@require_GET
def outcome(request, received_id: int):
    """A publication's outcome: 202 while the worker has it, then the answer
    (200 applied or acknowledged; 409 sections missing; 4xx refused)."""
    user, refusal = _authorised(request, counted=False)
    if refusal:
        return refusal
    found = inbox.outcome(owner=user, pk=received_id)
    if found is None:
        return _refuse(_("No such publication (any more): send it again."), 404)
    status, answer = found
    return JsonResponse(answer, status=status)
