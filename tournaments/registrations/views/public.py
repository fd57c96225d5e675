"""The public side: the announcement with its registration form, and the
page the check-in poster's QR code opens."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from tournaments.addresses import absolute
from tournaments.models import Tournament
from tournaments.registrations import selectors, services
from tournaments.registrations.forms import SignUpForm
from tournaments.registrations.mail import mail_link_later
from tournaments.registrations.views import _shared
from tournaments.services.errors import ServiceError


def _announced(tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    announcement = selectors.announcement_of(tournament)
    if announcement is None or tournament.archived_at is not None:
        raise Http404
    announcement.tournament = tournament
    return tournament, announcement


@never_cache
@require_http_methods(["GET", "POST"])
def announcement_public(request, tournament_id):
    """The announcement: when, where, places left, who is registered (with
    consent), and the form. A registration answers with the personal link.
    Never stored (``no-store``): the form carries its own stamp, and the
    answer leads to the link. The browser's key (a cookie) makes the same
    form sent twice from this browser one registration with one link; its
    stamp sent from elsewhere gets no link."""
    tournament, announcement = _announced(tournament_id)
    browser, _new = _shared.browser_key(request)
    response = _announcement_public(request, tournament, announcement, browser)
    _shared.keep_browser_key(response, browser)
    return response


def _announcement_public(request, tournament, announcement, browser):
    closed = services.registration_closed(announcement)
    form = SignUpForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if closed:
            form.is_valid()
            form.add_error(None, closed)
        elif not _shared.LIMIT.left(request):
            return _shared.LIMIT.refused(request)
        elif form.is_valid():
            refused = _shared.LIMIT.take(request, form)
            if refused is not None:
                return refused
            token = _shared.token_for_form(form.nonce, browser)
            try:
                signed = services.register(
                    tournament=tournament, entry=form.entry(), nonce=form.nonce, token=token
                )
            except services.SentAlready:
                _shared.LIMIT.give_back(request, form)
                form.add_error(
                    None,
                    _("This form was sent already. Please check your entries and send it again."),
                )
                form.renew_stamp()  # a fresh one-time id: sending again registers
            except ServiceError as exc:
                _shared.LIMIT.give_back(request, form)
                form.add_error(None, str(exc))
            except BaseException:
                _shared.LIMIT.give_back(request, form)
                raise
            else:
                if signed.again:
                    _shared.LIMIT.give_back(request, form)
                path = reverse("registration_link", args=[signed.token])
                mail_link_later(
                    email=form.cleaned_data.get("email") or "",
                    url=absolute(path, request),
                    tournament=tournament.name,
                    language=get_language(),
                )
                return redirect(path + "?new=1")
    return render(
        request,
        "registrations/public.html",
        {
            "tournament": tournament,
            "announcement": announcement,
            "counts": selectors.counts(tournament, announcement),
            "names": selectors.public_names(tournament, announcement),
            "closed": closed,
            "form": form,
        },
        status=status,
    )


@never_cache
def door(request, tournament_id):
    """The check-in poster's QR code: a phone that opened its personal link
    before goes straight back to it; anyone else is told what to do."""
    tournament, announcement = _announced(tournament_id)
    token = _shared.remembered_link(request, tournament.pk)
    if token and selectors.by_token(token) is not None:
        return redirect("registration_link", token)
    return render(
        request,
        "registrations/door.html",
        {"tournament": tournament, "announcement": announcement},
    )
