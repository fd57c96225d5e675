"""Template filters for wording: the number that picks a plural form."""

from django import template

from tournaments.collation import fold
from tournaments.numbers import number_text

register = template.Library()


@register.filter
def count_form(value) -> int:
    """The count ngettext chooses the form by: exactly 1 stays 1, any other
    number (0, 2, 6.5, 4.125) counts as "many" — "1 point", "6.5 points"."""
    try:
        return 1 if value == 1 else (int(value) if value == int(value) else 2)
    except (TypeError, ValueError, OverflowError):
        return 2


@register.filter
def with_labels(cells, cols) -> list:
    """Pairs (cell, column label) of a grid row, for a label on each cell
    when the grid is shown as a card per row on a phone."""
    return list(zip(cells, [c["label"] for c in cols], strict=False))


@register.filter
def drop_prefix(label: str, prefix: str) -> str:
    """``label`` without a leading "``prefix`` · " (a group's name repeated in
    each of its cells)."""
    head = f"{prefix} · "
    return label[len(head) :] if label.startswith(head) else label


@register.filter(name="fold")
def fold_filter(text) -> str:
    """``text`` as names are compared ("Şahin" → "sahin"), for search boxes
    that match what is typed without its accents."""
    return fold(str(text))


@register.filter
def number(value) -> str:
    """A standings number (points, a tiebreak figure, a seating's score) as
    the standings page and the prints write it, in the reader's language:
    "1,5", "2,333", "4" in German ("1.5" in English), never "1,50"."""
    return number_text(value)
