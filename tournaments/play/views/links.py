"""Seat links under the organizer's control, and the page a link shows when
it can't act (replaced, the player left, a draft seating, …).

Views are thin: the seat comes from :func:`tournaments.play.links.resolve_seat`; the
re-issue is :func:`tournaments.play.links.seat_link_reissue`.
"""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from scoring.printing.slips import render_seat_slip
from tournaments.addresses import absolute
from tournaments.models import Seat
from tournaments.permissions import tournament_view
from tournaments.play import links
from tournaments.selectors import round_or_404
from tournaments.views._helpers import service_error_as_message


def _round_and_player(tournament, number, player_id):
    rnd = round_or_404(tournament, number)
    player = get_object_or_404(tournament.players, pk=player_id)
    return rnd, player


@tournament_view("reissue_links")
@require_POST
def seat_link_reissue(request, tournament, number, player_id):
    """A new link for one player in one round; the old one stops at once."""
    rnd, player = _round_and_player(tournament, number, player_id)
    with service_error_as_message(request):
        links.seat_link_reissue(round=rnd, player=player, by=request.user)
        messages.success(
            request,
            _("New seat link for %(name)s issued; the old one no longer works. Print the new slip.")
            % {"name": player.name},
        )
    return redirect("round_seating", tournament.pk, rnd.number)


@tournament_view("print")
@require_GET
def seat_slip(request, tournament, number, player_id):
    """One player's slip for one round (PDF): name, table, seat, QR code of
    the current link — reprinted after a re-issue or a lost slip."""
    rnd, player = _round_and_player(tournament, number, player_id)
    seat = Seat.objects.select_related("table").filter(table__round=rnd, player=player).first()
    if seat is None:
        raise Http404(
            _("%(name)s has no seat in round %(n)s.") % {"name": player.name, "n": rnd.number}
        )
    key = links.seat_keys(rnd.pk, [player.pk], by=request.user)[player.pk]
    pdf = render_seat_slip(
        {"name": tournament.name},
        round_number=rnd.number,
        table_number=seat.table.number,
        seat_number=seat.position + 1,
        player_name=player.name,
        url=absolute(links.seat_path(key), request),
        gettext=_,
        round_name=rnd.get_stage_display() if rnd.stage else "",
    )
    response = HttpResponse(pdf, content_type="application/pdf")
    filename = f"slip-r{rnd.number}-{player.pk}.pdf"
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    response["Cache-Control"] = "no-store"
    return response
