"""The organizer's pages: his tournaments, creating and editing them, scorekeepers."""

import logging

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.mail import send_mail
from django.db import transaction
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournaments import limits, panels, selectors, services
from tournaments.forms import InviteForm, ScorekeeperForm, TournamentForm
from tournaments.permissions import STAFF, tournament_view
from tournaments.services import event
from tournaments.views._helpers import qr_svg, service_error_as_message

log = logging.getLogger(__name__)


@login_required
def tournament_list(request):
    archived = request.GET.get("archived") == "1"
    tournaments = selectors.tournaments_of(request.user, archived=archived)
    return render(
        request, "tournaments/list.html", {"tournaments": tournaments, "archived": archived}
    )


@login_required
@require_http_methods(["GET", "POST"])
def tournament_create(request):
    form = TournamentForm(request.POST or None, request.FILES or None, game=request.GET.get("game"))
    full = limits.tournaments_message(request.user.owned_tournaments.count())
    if request.method == "POST" and full:
        form.is_valid()
        form.add_error(None, full)
    elif request.method == "POST" and form.is_valid():
        tournament = form.save(commit=False)
        tournament.owner = request.user
        tournament.save()
        messages.success(request, _("Tournament created."))
        return redirect(tournament)
    return render(request, "tournaments/form.html", {"form": form, "creating": True})


@tournament_view("settings")
@require_http_methods(["GET", "POST"])
def tournament_edit(request, tournament):
    form = TournamentForm(
        request.POST or None,
        request.FILES or None,
        instance=tournament,
        game=request.GET.get("game"),
    )
    if tournament.has_started:
        form.fields["game"].disabled = True
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _("Tournament saved."))
        return redirect(tournament)
    return render(request, "tournaments/form.html", {"form": form, "tournament": tournament})


@tournament_view(STAFF)
def tournament_detail(request, tournament):
    """The overview: where the event stands and the next step."""
    counts = selectors.player_counts(tournament)
    return render(
        request,
        "tournaments/detail.html",
        {
            "tournament": tournament,
            "counts": counts,
            "role": request.tournament_role,
            # the results' next step, registrations left, the mirror's state
            **panels.panels("overview", tournament),
            "background": selectors.background_processes(),
        },
    )


@tournament_view("manage")
@require_POST
def tournament_finish(request, tournament):
    with service_error_as_message(request):
        if request.POST.get("undo"):
            event.tournament_reopen(tournament=tournament)
            messages.success(request, _("The tournament is open again: results can be changed."))
        else:
            missing = selectors.rounds_not_played(tournament)
            if missing and request.POST.get("sure") != "1" and not tournament.finished:
                return render(
                    request,
                    "tournaments/finish_confirm.html",
                    {
                        "tournament": tournament,
                        "role": request.tournament_role,
                        "missing": ", ".join(str(n) for n in missing),
                        "count": len(missing),
                        "played": tournament.planned_rounds - len(missing),
                    },
                )
            event.tournament_finish(tournament=tournament)
            messages.success(
                request,
                _("The tournament is finished. Results now change only by you, with a reason."),
            )
    return redirect(tournament)


def _invite_url(request, tournament, token: str) -> str:
    return request.build_absolute_uri(reverse("helper_join", args=[tournament.pk, token]))


def _mail_invite(*, email: str, url: str, tournament, by) -> None:
    """After the commit, where the site sends mail: the link to the helper
    (a mail that can't be sent is logged; the link is on the page anyway)."""
    if not email or not getattr(settings, "REGISTRATION_MAIL", False):
        return

    subject = _("Help at %(tournament)s") % {"tournament": tournament.name}
    body = _(
        "%(by)s invites you to help at %(tournament)s as a scorekeeper.\n\n"
        "Open this link to take part (it works once):\n%(url)s"
    ) % {"by": by, "tournament": tournament.name, "url": url}

    def send():
        try:
            send_mail(subject, body, None, [email])
        except Exception:
            log.exception("helper invitation mail not sent")

    transaction.on_commit(send)


@tournament_view("scorekeepers")
@require_http_methods(["GET", "POST"])
def scorekeepers(request, tournament):
    mail = getattr(settings, "REGISTRATION_MAIL", False)
    is_invite = request.method == "POST" and "invite" in request.POST
    form = ScorekeeperForm(request.POST if request.method == "POST" and not is_invite else None)
    invite_form = InviteForm(request.POST if is_invite else None, mail=mail)
    if is_invite and invite_form.is_valid():
        with service_error_as_message(request, form=invite_form, field="name"):
            invite, token = services.invite_create(
                tournament=tournament,
                by=request.user,
                name=invite_form.cleaned_data["name"],
                email=invite_form.cleaned_data.get("email", ""),
            )
            url = _invite_url(request, tournament, token)
            _mail_invite(email=invite.email, url=url, tournament=tournament, by=request.user)
            # shown once, on the next page: only the secret's hash is stored
            request.session[f"invite-{invite.pk}"] = token
            return redirect("helper_invite", tournament.pk, invite.pk)
    elif request.method == "POST" and not is_invite and form.is_valid():
        with service_error_as_message(request, form=form, field="username"):
            user = services.scorekeeper_add(
                tournament=tournament, username=form.cleaned_data["username"]
            )
            messages.success(request, _("%(name)s is now a scorekeeper.") % {"name": user})
            return redirect("scorekeepers", tournament.pk)
    return render(
        request,
        "tournaments/scorekeepers.html",
        {
            "tournament": tournament,
            "form": form,
            "invite_form": invite_form,
            "scorekeepers": tournament.scorekeepers.all(),
            "invites": selectors.helper_invites(tournament),
        },
    )


@tournament_view("scorekeepers")
def helper_invite(request, tournament, invite_id):
    """The invitation just made: its link and QR code, once (then only its log)."""
    invite = get_object_or_404(tournament.invites, pk=invite_id)
    token = request.session.pop(f"invite-{invite.pk}", None)
    url = _invite_url(request, tournament, token) if token else ""
    return render(
        request,
        "tournaments/helper_invite.html",
        {
            "tournament": tournament,
            "invite": invite,
            "url": url,
            "qr": qr_svg(url) if url else "",
            "state": invite.state(timezone.now()),
        },
    )


@tournament_view("scorekeepers")
@require_POST
def helper_invite_revoke(request, tournament, invite_id):
    with service_error_as_message(request):
        invite = services.invite_revoke(tournament=tournament, by=request.user, invite_id=invite_id)
        messages.success(
            request, _("The invitation for %(name)s is withdrawn.") % {"name": invite.name}
        )
    return redirect("scorekeepers", tournament.pk)


@tournament_view("scorekeepers")
@require_POST
def scorekeeper_remove(request, tournament, user_id):
    get_object_or_404(tournament.scorekeepers, pk=user_id)
    services.scorekeeper_remove(tournament=tournament, user_id=user_id)
    return redirect("scorekeepers", tournament.pk)
