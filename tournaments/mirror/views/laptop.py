"""Laptop: pairing with the online site, publishing a tournament, fetching
its registrations."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from tournaments.mirror import selectors, services
from tournaments.permissions import tournament_view
from tournaments.services.errors import ServiceError
from tournaments.views._helpers import service_error_as_message


@login_required
@require_http_methods(["GET", "POST"])
def link(request):
    """Enter the site's address and key; the laptop checks them and says
    "connected". The key is never shown again."""
    context = {"link": selectors.link_of(request.user), "site_url": ""}
    if request.method == "POST" and request.POST.get("remove"):
        services.link_remove(user=request.user)
        messages.success(request, _("The laptop is no longer paired with the online site."))
        return redirect("mirror_link")
    if request.method == "POST":
        context["site_url"] = request.POST.get("site_url", "")[:300]
        try:
            _link, hello = services.link_save(
                user=request.user,
                site_url=request.POST.get("site_url", ""),
                key=request.POST.get("key", ""),
            )
        except ServiceError as exc:
            context["error"] = str(exc)
        else:
            messages.success(
                request,
                _("Connected to the online site as %(user)s.") % {"user": hello.get("user", "")},
            )
            return redirect("mirror_link")
    elif context["link"] is not None and request.GET.get("check"):
        try:
            services.link_check(link=context["link"])
            context["checked"] = True
        except ServiceError as exc:
            context["error"] = str(exc)
    return render(request, "mirror/link.html", context)


@tournament_view("manage")
@require_http_methods(["GET", "POST"])
def tournament_mirror(request, tournament):
    """Publishing this tournament: on, off, its state; fetching entries."""
    link_ = selectors.link_of(tournament.owner)
    if request.method == "POST":
        if request.POST.get("stop"):
            services.publication_stop(tournament=tournament)
            messages.success(request, _("This tournament is no longer published."))
        elif link_ is None:
            messages.error(request, _("Pair the laptop with the online site first."))
        else:
            services.publication_start(tournament=tournament, link=link_)
            messages.success(request, _("Publishing: the online site follows within seconds."))
        return redirect("tournament_mirror", tournament.pk)
    online = None
    error = None
    if link_ is not None and request.GET.get("list"):
        try:
            online = services.link_check(link=link_).get("tournaments", [])
        except ServiceError as exc:
            error = str(exc)
    return render(
        request,
        "mirror/tournament.html",
        {
            "tournament": tournament,
            "link": link_,
            "mirror": selectors.status(tournament),
            "online": online,
            "error": error,
            "role": request.tournament_role,
        },
    )


@tournament_view("manage_players")
@require_POST
def entries_fetch(request, tournament):
    """The online tournament's new entries, to go through the player import's
    preview (roster matching, then save)."""
    link_ = selectors.link_of(tournament.owner)
    raw = request.POST.get("online", "")
    if link_ is None or not raw.isdigit() or len(raw) > 9:
        messages.error(request, _("Choose the online tournament to fetch the entries of."))
        return redirect("tournament_mirror", tournament.pk)
    with service_error_as_message(request):
        found = services.entries_fetch(tournament=tournament, link=link_, online_id=int(raw))
        return render(
            request,
            "mirror/entries.html",
            {"tournament": tournament, "role": request.tournament_role, **found},
        )
    return redirect("tournament_mirror", tournament.pk)
