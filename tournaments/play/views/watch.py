"""Digital tables seen from outside a seat: the organizer's bot and idle
seats (a partial of the round page), handing a seat to the bot and back, the
review of a table's record move by move (organizer: every hand, a
scorekeeper too once the table is over; public: the public information
only) and the spectator view (public, for the projector).

Views are thin: parse → :mod:`tournaments.play.bots` /
:mod:`tournaments.play.watch` → render.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournaments.models import Round, Table
from tournaments.permissions import OWNER, STAFF, tournament_view
from tournaments.play import bots as bot_services
from tournaments.play import watch
from tournaments.selectors import public_round, round_or_404
from tournaments.services import ServiceError
from tournaments.views._helpers import service_error_as_message


def _table(rnd: Round, number: int) -> Table:
    return get_object_or_404(Table, round=rnd, number=number, digital=True)


def _step(request) -> int | None:
    raw = request.GET.get("step", "")
    if raw == "":
        return None
    try:
        return max(0, int(raw))
    except ValueError:
        return None  # a bad number shows the end of the record


def _public(request, tournament_id: int, number: int, table: int) -> Table:
    """A digital table of a published round of a public tournament that is
    not archived, as the other public pages (``selectors.public_round``: its
    staff may look before that too); else 404."""
    _tournament, rnd, _staff = public_round(request.user, tournament_id, number)
    return _table(rnd, table)


# -- the organizer ------------------------------------------------------------------


@tournament_view(STAFF)
@require_GET
def round_digital(request, tournament, number):
    """The digital tables of the round page: who plays, who is a bot, who
    has been idle; the organizer hands seats to the bot here."""
    return _digital_partial(request, tournament, round_or_404(tournament, number))


def _digital_partial(request, tournament, rnd):
    return render(
        request,
        "play/round_digital.html",
        {
            "tournament": tournament,
            "round": rnd,
            "tables": watch.digital_seats(rnd),
            "owner": request.tournament_role == "owner",
            "idle_limit": settings.DIGITAL_IDLE_SECONDS,
        },
    )


@tournament_view(OWNER)
@require_POST
def seat_bot(request, tournament, number, table, position):
    """Give a seat to the bot (``to=bot``) or back to its player (``to=player``)."""
    rnd = round_or_404(tournament, number)
    t = _table(rnd, table)
    to = request.POST.get("to", "")
    with service_error_as_message(request):
        if to == "bot":
            seat = bot_services.seat_to_bot(table=t, position=position, by=request.user)
            done = _("The bot plays for %(name)s at table %(table)s now.")
        elif to == "player":
            seat = bot_services.seat_to_player(table=t, position=position, by=request.user)
            done = _("%(name)s plays at table %(table)s again.")
        else:
            raise ServiceError(_("Choose the bot or the player."))
        messages.success(request, done % {"name": seat.name, "table": t.number})
    if request.htmx:
        return _digital_partial(request, tournament, rnd)
    return redirect("round_detail", tournament.pk, number)


@tournament_view(STAFF)
@require_GET
def table_review(request, tournament, number, table):
    """The staff's replay: every seat's hand at every step for the
    organizer, and for a scorekeeper once the table is over; while it runs a
    scorekeeper gets the public replay (``watch.review_shows_hands``; the
    page says which). A paper table has no record: the page says so."""
    rnd = round_or_404(tournament, number)
    t = get_object_or_404(Table, round=rnd, number=table)
    if not t.digital:
        context = {"tournament": tournament, "round": rnd, "table": t, "paper": True}
        return render(request, "play/review.html", context)
    context = watch.review(t, _step(request), role=request.tournament_role)
    return render(request, "play/review.html", context)


# -- public ---------------------------------------------------------------------------


@require_GET
def table_review_public(request, tournament_id, number, table):
    """The same replay with the public information only (also for the
    tournament's staff: this page shows what the public sees)."""
    t = _public(request, tournament_id, number, table)
    context = watch.review(t, _step(request), role=None)
    return render(request, "play/review.html", context)


@require_GET
def table_watch(request, tournament_id, number, table):
    """The spectator view (projector size) of one table."""
    t = _public(request, tournament_id, number, table)
    return render(request, "play/watch.html", {"screen": watch.spectator_screen(t)})


@require_GET
def table_watch_board(request, tournament_id, number, table):
    """The spectator view's polled part: 204 while nothing changed."""
    t = _public(request, tournament_id, number, table)
    shown = request.GET.get("v")
    if shown and shown == watch.spectator_version(t):
        return HttpResponse(status=204)
    return render(request, "play/watch_board.html", {"screen": watch.spectator_screen(t)})
