"""Leaving the tournament from a seat link ``p/<token>/leave/`` (the seat
page links here): asked once, then dropped through the player services, from
the next round not yet started."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from tournaments.play import links
from tournaments.problems import problem
from tournaments.registrations import services
from tournaments.views._helpers import service_error_as_message

#: the seat link's states that still name the player who may leave
_MAY_ASK = (links.OK, links.NOT_SEATED, links.NOT_PUBLISHED, links.LEFT)


@require_http_methods(["GET", "POST"])
def seat_leave(request, token):
    access = links.resolve_seat(token)
    if access.state not in _MAY_ASK:
        return problem(
            request,
            _("This link is not valid: it is damaged, or it was replaced. Ask the organizer."),
            status=404,
            title=_("Link not valid"),
        )
    player = access.seat.player if access.seat is not None else access.link.player
    refusal = services.leave_refusal(player)
    if request.method == "POST" and request.POST.get("sure") == "1" and not refusal:
        with service_error_as_message(request):
            services.player_leave(player=player)
            messages.success(
                request, _("You have left the tournament. You will not be seated again.")
            )
        return redirect("seat_leave", token)
    return render(
        request,
        "registrations/seat_leave.html",
        {"player": player, "tournament": player.tournament, "token": token, "refusal": refusal},
        status=400 if request.method == "POST" and refusal else 200,
    )
