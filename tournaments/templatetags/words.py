"""Template filters for wording: the number that picks a plural form."""

from django import template

register = template.Library()


@register.filter
def count_form(value) -> int:
    """The count ngettext chooses the form by: exactly 1 stays 1, any other
    number (0, 2, 6.5, 4.125) counts as "many" — "1 point", "6.5 points"."""
    try:
        return 1 if value == 1 else (int(value) if value == int(value) else 2)
    except (TypeError, ValueError, OverflowError):
        return 2
