"""A player's personal link ``r/<token>/``: see the registration, change it,
withdraw, check in at the door, leave the tournament between rounds. A link
acts only for its own registration: every action loads the registration
from the token alone. Every answer is ``no-store``: a page or a redirect that
names the link is never kept by a browser's or a proxy's cache."""

from __future__ import annotations

from functools import lru_cache

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from tournaments.addresses import absolute
from tournaments.registrations import selectors, services
from tournaments.registrations.forms import RegistrationForm
from tournaments.registrations.models import Registration
from tournaments.registrations.views import _shared
from tournaments.views._helpers import qr_svg, service_error_as_message


def _context(request, token: str, reg: Registration, form=None) -> dict:
    announcement = reg.tournament.announcement
    announcement.tournament = reg.tournament
    url = absolute(request.path if request.method == "GET" else _path(token), request)
    if form is None and reg.active:
        form = RegistrationForm(
            initial={
                "name": reg.name,
                "club": reg.club,
                "birth_year": reg.birth_year,
                "rating": reg.rating,
                "consent_public": reg.consent_public,
            }
        )
    return {
        "reg": reg,
        "tournament": reg.tournament,
        "announcement": announcement,
        "token": token,
        "url": url,
        "qr": mark_safe(_qr(url)),
        "new": request.GET.get("new") == "1",
        "waiting_place": selectors.waiting_place(reg),
        "counts": selectors.counts(reg.tournament, announcement),
        "closed": services.registration_closed(announcement),
        "may_leave": selectors.may_leave_now(reg),
        "form": form,
    }


@lru_cache(maxsize=512)
def _qr(url: str) -> str:
    """A link's QR code, drawn once per process (a phone comes back to it)."""
    return qr_svg(url)


def _path(token: str) -> str:
    return reverse("registration_link", args=[token])


@never_cache
def registration_link(request, token):
    reg = selectors.by_token(token)
    if reg is None:
        return _shared.bad_link(request)
    _shared.remember_link(request, reg.tournament_id, token)
    return render(request, "registrations/link.html", _context(request, token, reg))


@never_cache
@require_POST
def registration_change(request, token):
    reg = selectors.by_token(token)
    if reg is None:
        return _shared.bad_link(request)
    form = RegistrationForm(request.POST)
    if form.is_valid():
        with service_error_as_message(request, form=form):
            services.registration_change(registration=reg, entry=form.entry())
            messages.success(request, _("Your registration is changed."))
            return redirect("registration_link", token)
    return render(
        request, "registrations/link.html", _context(request, token, reg, form), status=400
    )


@never_cache
@require_http_methods(["POST"])
def registration_withdraw(request, token):
    """Asked once: the first press shows the question, the second withdraws."""
    reg = selectors.by_token(token)
    if reg is None:
        return _shared.bad_link(request)
    if request.POST.get("sure") != "1":
        return render(
            request, "registrations/confirm.html", {"reg": reg, "token": token, "what": "withdraw"}
        )
    with service_error_as_message(request):
        services.registration_withdraw(registration=reg)
        messages.success(
            request, _("You have withdrawn. Your place goes to the next on the waitlist.")
        )
    return redirect("registration_link", token)


@never_cache
@require_POST
def registration_check_in(request, token):
    reg = selectors.by_token(token)
    if reg is None:
        return _shared.bad_link(request)
    with service_error_as_message(request):
        reg = services.self_check_in(registration=reg)
        if reg.status == Registration.WAITLISTED:
            messages.success(
                request,
                _(
                    "You are here: if a place becomes free at the start, it is yours in your order on the waitlist."
                ),
            )
        else:
            messages.success(request, _("You are checked in. Have fun!"))
    return redirect("registration_link", token)


@never_cache
@require_POST
def registration_leave(request, token):
    """Leave the tournament between rounds (asked once)."""
    reg = selectors.by_token(token)
    if reg is None:
        return _shared.bad_link(request)
    if reg.player is None:
        messages.error(request, _("You are not playing in this tournament."))
        return redirect("registration_link", token)
    if request.POST.get("sure") != "1":
        return render(
            request, "registrations/confirm.html", {"reg": reg, "token": token, "what": "leave"}
        )
    with service_error_as_message(request):
        services.player_leave(player=reg.player)
        messages.success(request, _("You have left the tournament. You will not be seated again."))
    return redirect("registration_link", token)
