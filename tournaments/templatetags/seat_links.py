"""``{% seat_url table_id position as url %}``: a player's signed seat link
(absolute, on the address of the current request)."""

from django import template

from scoring.links import seat_url as _seat_url

register = template.Library()


@register.simple_tag(takes_context=True)
def seat_url(context, table_id, position):
    return _seat_url(table_id, position, context.get("request"))
