"""What the organizer's pages say about ratings players typed themselves
(the players page, the standings, seating round 1 by rating): one sentence,
so every page says it the same way."""

from __future__ import annotations

from django.utils.translation import ngettext


def unconfirmed_text(count: int) -> str:
    """``count`` ratings are the players' own word: they count as none."""
    return ngettext(
        "%(n)s rating a player entered themselves is not confirmed yet: until you confirm "
        "it, it breaks no tie and seeds no round.",
        "%(n)s ratings players entered themselves are not confirmed yet: until you confirm "
        "them, they break no tie and seed no round.",
        count,
    ) % {"n": count}
