"""The push streams (Server-Sent Events): a seat's own screen through its
seat link (``p/<token>/stream/``) and a digital table's spectator board
(``t/<id>/rounds/<n>/tables/<t>/stream/``).

Async views: the link is checked in a request thread, then the stream is a
coroutine in the server's event loop (:mod:`tournaments.push.hub`) that holds
no thread and makes no query while nothing changes. A request that does not
come through the ASGI server (Django's development server, the test client)
gets 204: the browser's EventSource then stops, and the page keeps polling.
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.middleware.csrf import get_token
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from tournaments.play import links, poll_cache, screen
from tournaments.push import redraw
from tournaments.push.hub import hub
from tournaments.selectors import public_round

#: a version the browser says it shows (anything longer is not one of ours)
_MAX_VERSION = 64


def _shown(request) -> str:
    """The version the browser shows: the last event's id when it reconnects
    (newer than the page's), else the page's own."""
    shown = request.headers.get("Last-Event-ID") or request.GET.get("v") or ""
    return shown[:_MAX_VERSION]


def _streaming(request, conn: redraw.Conn) -> HttpResponse:
    response = StreamingHttpResponse(hub().stream(conn), content_type="text/event-stream")
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


def _seat_conn(request, token: str) -> redraw.Conn | None:
    access = links.resolve_seat(token)
    if not access.ok or not access.seat.table.digital:
        return None
    seat = access.seat
    now = screen.seat_key(seat.table_id, seat.position)
    # the redraws check where the link leads from the shared cache (as the polls do)
    poll_cache.remember_seat_table(token, seat.table_id, seat.table.round_id, now, seat.player_id)
    return redraw.Conn(
        kind=redraw.SEAT,
        table_id=seat.table_id,
        round_id=seat.table.round_id,
        position=seat.position,
        token=token,
        # the seat the page shows: another than the link's now (a re-seat
        # since the page was drawn) has the page reloaded at once
        seat=(request.GET.get("s") or now)[:_MAX_VERSION],
        csrf_token=get_token(request),
        language=get_language(),
        version=_shown(request),
        clock=redraw.initial_clock(seat.table.round_id),
    )


@require_GET
async def seat_stream(request, token):
    """A seat's own play partial, pushed after every change of its table,
    and the round's clock partial after every change of the round. 204 for
    a link that can't act (the page's poll then shows why)."""
    if not isinstance(request, ASGIRequest):
        return HttpResponse(status=204)
    conn = await sync_to_async(_seat_conn)(request, token)
    if conn is None:
        return HttpResponse(status=204)
    return _streaming(request, conn)


def _watch_conn(request, tournament_id: int, number: int, table: int) -> redraw.Conn | None:
    try:
        _tournament, rnd, _staff = public_round(request.user, tournament_id, number)
    except Http404:
        return None
    found = rnd.tables.filter(number=table, digital=True).values_list("pk", flat=True).first()
    if found is None:
        return None
    return redraw.Conn(
        kind=redraw.WATCH,
        table_id=found,
        round_id=rnd.pk,
        language=get_language(),
        version=_shown(request),
    )


@require_GET
async def table_watch_stream(request, tournament_id, number, table):
    """The spectator board (the public view: nobody's cards), pushed after
    every change of the table. 204 where the spectator view is 404."""
    if not isinstance(request, ASGIRequest):
        return HttpResponse(status=204)
    conn = await sync_to_async(_watch_conn)(request, tournament_id, number, table)
    if conn is None:
        return HttpResponse(status=204)
    return _streaming(request, conn)
