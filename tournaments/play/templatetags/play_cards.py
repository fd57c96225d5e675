"""``{{ card|card_face }}``: a card's title and lines as the play partial
shows them (what ``play/card.html`` renders), built in Python: a seat's
screen shows a dozen cards or more, and an ``{% include %}`` per card was a
good part of drawing it (issue 37: every seat redrawn after every move)."""

from django import template
from django.utils.html import format_html, format_html_join

register = template.Library()


@register.filter
def card_face(card) -> str:
    # the same text as the template's, its closing newline included
    return format_html(
        '<span class="play-card-title">{}</span>{}\n',
        card.get("title", ""),
        format_html_join(
            "",
            '<span class="play-card-line">{}</span>',
            ((line,) for line in card.get("lines") or ()),
        ),
    )
