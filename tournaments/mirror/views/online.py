"""Online: the organizer's publishing keys (made, shown once, revoked)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from tournaments.mirror import keys, selectors
from tournaments.mirror.models import PublishingKey
from tournaments.views._helpers import service_error_as_message


@login_required
@require_http_methods(["GET", "POST"])
def key_list(request):
    """The account's keys; a new one (shown once) for a confirmed account,
    else the way to confirm it (a mailed link or the admin's approval)."""
    shown = None
    if request.method == "POST" and request.POST.get("action") == "confirm":
        with service_error_as_message(request):
            keys.confirmation_request(
                user=request.user,
                email=request.POST.get("email", ""),
                link_for=lambda token: request.build_absolute_uri(
                    reverse("mirror_confirm", args=[token])
                ),
                language=get_language(),
            )
            messages.success(
                request,
                _("The confirmation link is on its way: open it from your mail.")
                if keys.confirmation_mode() == "mail"
                else _("Asked: the site's admin confirms your account."),
            )
        return redirect("mirror_keys")
    if request.method == "POST":
        with service_error_as_message(request):
            _row, shown = keys.key_create(user=request.user, name=request.POST.get("name", ""))
    return render(
        request,
        "mirror/keys.html",
        {
            "keys": selectors.keys_of(request.user),
            "new_key": shown,
            "confirmed": keys.is_confirmed(request.user),
            "confirmation": keys.confirmation_of(request.user),
            "mode": keys.confirmation_mode(),
        },
    )


@require_GET
def confirm(request, token: str):
    """A mailed confirmation link: the account may have publishing keys."""
    user = keys.confirm_by_link(token)
    if user is None:
        messages.error(request, _("This confirmation link is wrong or too old: ask for a new one."))
    else:
        messages.success(request, _("Your organizer account is confirmed."))
    return redirect("mirror_keys")


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
