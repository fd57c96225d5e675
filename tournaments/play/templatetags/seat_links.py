"""``{% seat_url round player as url %}``: a player's private seat link for
that round (absolute, on the address of the current request). The links of
the whole round are issued and read in one go, once per page."""

from django import template

from tournaments.addresses import absolute
from tournaments.models import Seat
from tournaments.play.links import seat_keys, seat_path
from tournaments.play.models import SeatLink

register = template.Library()


@register.simple_tag(takes_context=True)
def seat_url(context, rnd, player):
    cache = context.render_context.setdefault("seat_keys", {})
    if rnd.pk not in cache:
        pids = Seat.objects.filter(table__round=rnd, player__isnull=False).values_list(
            "player_id", flat=True
        )
        cache[rnd.pk] = seat_keys(rnd.pk, pids)
    keys = cache[rnd.pk]
    if player.pk not in keys:  # seated after the page began: issue it alone
        keys.update(seat_keys(rnd.pk, [player.pk]))
    return absolute(seat_path(keys[player.pk]), context.get("request"))


@register.simple_tag(takes_context=True)
def seat_link_reissues(context, rnd, player) -> list:
    """The re-issues of a player's link in that round, oldest first: each
    ``{"by": user or None, "at": when}`` (the revoked links' who and when)."""
    cache = context.render_context.setdefault("seat_link_reissues", {})
    if rnd.pk not in cache:
        rows: dict[int, list] = {}
        for link in (
            SeatLink.objects.filter(round=rnd, revoked_at__isnull=False)
            .select_related("revoked_by")
            .order_by("revoked_at", "pk")
        ):
            rows.setdefault(link.player_id, []).append(
                {"by": link.revoked_by, "at": link.revoked_at}
            )
        cache[rnd.pk] = rows
    return cache[rnd.pk].get(player.pk, [])
