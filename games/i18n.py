"""The translation marker of the pure modules (the engines, the seating, the
points, tiebreaks and season schemes): ``_("text")`` returns the text as it
is, and Django's ``makemessages`` extracts it; the web side translates the
text where it is shown. The one copy: the pure floor imports no Django."""


def _(text: str) -> str:
    """Mark a string for translation (a no-op)."""
    return text
