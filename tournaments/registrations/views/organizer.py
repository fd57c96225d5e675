"""The organizer's side: the announcement, the registration list with its
log, confirm / move / reject / add by hand / replace a link, self check-in
open or closed, no-shows dropped with one press, the check-in poster."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournaments.addresses import absolute
from tournaments.csvfile import CONTENT_TYPE, write_csv
from tournaments.permissions import tournament_view
from tournaments.registrations import selectors, services
from tournaments.registrations.forms import AnnouncementForm, RegistrationForm
from tournaments.registrations.models import Registration
from tournaments.views._helpers import qr_svg, service_error_as_message


def _list(tournament):
    return redirect("registration_list", tournament.pk)


@tournament_view("view")
def registration_list(request, tournament, add_form=None, status=200):
    announcement = selectors.announcement_of(tournament)
    context = {
        "tournament": tournament,
        "role": request.tournament_role,
        "announcement": announcement,
        "rows": selectors.organizer_list(tournament) if announcement else [],
        "add_form": add_form or RegistrationForm(organizer=True),
    }
    if announcement is not None:
        announcement.tournament = tournament
        context |= {
            "counts": selectors.counts(tournament, announcement),
            "public_url": absolute(reverse("announcement_public", args=[tournament.pk]), request),
            "closed": services.registration_closed(announcement),
        }
    return render(request, "registrations/organizer_list.html", context, status=status)


@tournament_view("manage_players")
@require_http_methods(["GET", "POST"])
def announcement_edit(request, tournament):
    announcement = selectors.announcement_of(tournament)
    form = AnnouncementForm(request.POST or None, instance=announcement, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        fields = {
            name: form.cleaned_data[name]
            for name in ("open", "start_time", "deadline", "cap", "note", "public_names")
        }
        with service_error_as_message(request, form=form):
            services.announcement_save(
                tournament=tournament,
                by=request.user,
                event_date=form.cleaned_data["event_date"],
                venue=form.cleaned_data["venue"],
                **fields,
            )
            messages.success(request, _("The announcement is saved."))
            return _list(tournament)
    return render(
        request,
        "registrations/announcement_form.html",
        {"tournament": tournament, "role": request.tournament_role, "form": form},
        status=400 if request.method == "POST" else 200,
    )


def _ask_about_twin(request, reg: Registration) -> None:
    """A registration made a player of no one yet: the organizer decides."""
    if reg.twin is not None and reg.player_id is None:
        messages.warning(
            request,
            _("Possibly the same person as %(player)s: decide below.") % {"player": reg.twin},
        )


def _registration(tournament, registration_id) -> Registration:
    return get_object_or_404(Registration, pk=registration_id, tournament_id=tournament.pk)


@tournament_view("manage_players")
@require_POST
def registration_action(request, tournament, registration_id, action):
    """Confirm, reject, move on the waitlist, replace the personal link, or
    decide on "possibly the same person": join the registration to the
    organizer's entry or keep them apart."""
    reg = _registration(tournament, registration_id)
    with service_error_as_message(request):
        if action == "confirm":
            reg = services.registration_confirm(registration=reg, by=request.user)
            messages.success(request, _("%(name)s is confirmed.") % {"name": reg.name})
            _ask_about_twin(request, reg)
        elif action == "reject":
            services.registration_reject(registration=reg, by=request.user)
            messages.success(request, _("%(name)s is rejected.") % {"name": reg.name})
        elif action == "join":
            reg = services.registration_join(registration=reg, by=request.user)
            messages.success(
                request,
                _("%(name)s is joined to the entry %(player)s.")
                % {"name": reg.name, "player": reg.player},
            )
        elif action == "separate":
            reg = services.registration_keep_apart(registration=reg, by=request.user)
            messages.success(
                request,
                _("%(name)s is now an entry of its own on the players page.") % {"name": reg.name},
            )
        elif action in ("up", "down"):
            services.registration_move(
                registration=reg, steps=-1 if action == "up" else 1, by=request.user
            )
        elif action == "link":
            token = services.registration_new_link(registration=reg, by=request.user)
            url = absolute(reverse("registration_link", args=[token]), request)
            messages.success(
                request,
                _("New personal link for %(name)s (the old one no longer works): %(url)s")
                % {"name": reg.name, "url": url},
            )
    return _list(tournament)


@tournament_view("manage_players")
@require_POST
def registration_add(request, tournament):
    """Add a player by hand (also after the deadline); the link is shown once."""
    form = RegistrationForm(request.POST, organizer=True)
    if form.is_valid():
        with service_error_as_message(request, form=form):
            signed = services.register(tournament=tournament, entry=form.entry(), by=request.user)
            url = absolute(reverse("registration_link", args=[signed.token]), request)
            messages.success(
                request,
                _("%(name)s is registered (%(status)s). Personal link: %(url)s")
                % {
                    "name": signed.registration.name,
                    "status": signed.registration.get_status_display(),
                    "url": url,
                },
            )
            _ask_about_twin(request, signed.registration)
            return _list(tournament)
    return registration_list.__wrapped__(request, tournament, add_form=form, status=400)


@tournament_view("check_in")
@require_POST
def self_check_in_switch(request, tournament):
    open_ = request.POST.get("open") == "1"
    with service_error_as_message(request):
        services.check_in_open(tournament=tournament, open=open_, by=request.user)
        messages.success(
            request,
            _("Self check-in is open.") if open_ else _("Self check-in is closed."),
        )
    return _list(tournament)


@tournament_view("drop_players")
@require_POST
def no_shows_drop(request, tournament):
    """Asks once, naming who will be dropped; nobody to drop: just closes."""
    absent = selectors.no_shows(tournament)
    if absent and request.POST.get("sure") != "1":
        return render(
            request,
            "registrations/no_shows_confirm.html",
            {"tournament": tournament, "role": request.tournament_role, "absent": absent},
        )
    with service_error_as_message(request):
        dropped, moved = services.drop_no_shows(tournament=tournament, by=request.user)
        if not dropped:
            text = _(
                "Check-in and registration are closed. Everybody has checked in: nobody is dropped."
            )
        else:
            text = ngettext(
                "Check-in and registration are closed: %(n)s player who did not check in "
                "is dropped.",
                "Check-in and registration are closed: %(n)s players who did not check in "
                "are dropped.",
                len(dropped),
            ) % {"n": len(dropped)}
        if moved:
            text += " " + ngettext(
                "%(n)s waiting player takes a free place.",
                "%(n)s waiting players take free places.",
                len(moved),
            ) % {"n": len(moved)}
        messages.success(request, text)
    return _list(tournament)


@tournament_view("print")
def check_in_poster(request, tournament):
    """A page to print or show on the projector: the check-in QR code."""
    url = absolute(reverse("registration_door", args=[tournament.pk]), request)
    return render(
        request,
        "registrations/poster.html",
        {"tournament": tournament, "url": url, "qr": mark_safe(qr_svg(url))},
    )


@tournament_view("export")
def registrations_json(request, tournament):
    """The registrations as the laptop takes them (also a file to carry)."""
    response = JsonResponse(
        {"tournament": tournament.name, "registrations": selectors.entries_for_laptop(tournament)},
        json_dumps_params={"ensure_ascii": False, "indent": 1},
    )
    response["Content-Disposition"] = f'attachment; filename="registrations-{tournament.pk}.json"'
    return response


@tournament_view("export")
def registrations_csv(request, tournament):
    """The confirmed registrations as a player list the laptop's player
    import reads (name, club, rating, birth year; its preview links the
    roster)."""
    rows = [e for e in selectors.entries_for_laptop(tournament) if e["status"] == "confirmed"]
    header = ["name", "club", "rating", "birth_year"]
    # the titles in the file's language, as every CSV export writes them
    # ("Name;Verein;Spielstärke;Geburtsjahr"); the player import reads both
    titles = [
        pgettext("CSV column", "name"),
        pgettext("CSV column", "club"),
        pgettext("CSV column", "rating"),
        pgettext("CSV column", "birth_year"),
    ]
    body = write_csv(rows, header, language=get_language(), titles=titles)
    response = HttpResponse(body, content_type=CONTENT_TYPE)
    response["Content-Disposition"] = f'attachment; filename="registrations-{tournament.pk}.csv"'
    return response
