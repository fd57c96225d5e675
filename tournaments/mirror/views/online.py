"""Online: the organizer's publishing keys (made, shown once, revoked)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournaments.mirror import keys, selectors
from tournaments.mirror.models import PublishingKey


@login_required
@require_http_methods(["GET", "POST"])
def key_list(request):
    shown = None
    if request.method == "POST":
        _row, shown = keys.key_create(user=request.user, name=request.POST.get("name", ""))
    return render(
        request,
        "mirror/keys.html",
        {"keys": selectors.keys_of(request.user), "new_key": shown},
    )


@login_required
@require_POST
def key_revoke(request, key_id: int):
    mine = get_object_or_404(PublishingKey, pk=key_id, user=request.user)
    if keys.key_revoke(user=request.user, key_id=mine.pk):
        messages.success(
            request, _("The key is revoked: a laptop using it can't publish any more.")
        )
    else:
        messages.error(request, _("This key is revoked already."))
    return redirect("mirror_keys")
