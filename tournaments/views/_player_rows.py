"""The rows of the players page, formatted once in Python.

At the door the page lists every player (1,200 at a big open); through the
template engine each row costs some 60 template nodes, here one string
format: the page renders in a fraction of the time. The markup is lean on
purpose — links are the players' base URL plus the id, htmx's target and
swap are inherited from the tbody, the drop confirmation is asked by
``static/js/players.js`` — and the same function answers an htmx change of
one row, so the page and its updates never differ.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _


def labels() -> dict[str, str]:
    """The row's words, translated and escaped once per page."""
    words = {
        "late": _("late entry"),
        "dropped": _("dropped"),
        "readd": _("Re-add"),
        "checked_in": _("checked in"),
        "undo": _("Undo check-in"),
        "drop": _("Drop"),
        "check_in": _("Check in"),
        "edit": _("edit"),
        "unconfirmed": _("not confirmed"),
        "unconfirmed_title": _(
            "Typed by the player on the registration form: breaks no tie and seeds no round "
            "until you confirm it."
        ),
        "confirm": _("Confirm"),
    }
    return {k: escape(v) for k, v in words.items()}


def player_rows(
    players: Iterable,
    *,
    base: str,
    owner: bool,
    team_mode: bool,
    error: str | None = None,
    words: dict[str, str] | None = None,
) -> SafeString:
    """The ``<tr>`` of each player (``base``: the players page's URL)."""
    t = words or labels()
    base = escape(base)
    out = []
    for p in players:
        pk = p.pk
        name = escape(p.name)
        link = f"{base}{pk}/"
        if p.dropped:
            cls = ' class="dropped"'
            who = name
            actions = f'<span class="state">{t["dropped"]}</span>'
            if owner:  # dropping and re-adding are the organizer's (permissions.py)
                actions += (
                    f' <button class="secondary" hx-post="{link}readd/">{t["readd"]}</button>'
                )
        elif p.checked_in:
            cls = ' class="in"'
            who = name
            actions = (
                f'<span class="state">✓ {t["checked_in"]}</span> '
                f'<button class="undo" hx-post="{link}check-out/">{t["undo"]}</button>'
            )
        else:
            cls = ""
            who = (
                f'<label><input type="checkbox" name="player" value="{pk}" form="bulk"> '
                f"{name}</label>"
            )
            actions = f'<button class="check-in" hx-post="{link}check-in/">{t["check_in"]}</button>'
        if owner and not p.dropped:
            actions += f' <button class="drop" hx-post="{link}drop/">{t["drop"]}</button>'
            actions += f' <a href="{link}edit/">{t["edit"]}</a>'
        late = f' <span class="tag">{t["late"]}</span>' if p.first_round > 1 else ""
        problem = f'<p class="error">{escape(error)}</p>' if error else ""
        rating = "" if p.rating is None else str(p.rating)
        if p.rating is not None and not p.rating_confirmed:
            rating += (
                f' <span class="tag tag-unconfirmed" title="{t["unconfirmed_title"]}">'
                f"{t['unconfirmed']}</span>"
            )
            if owner:
                rating += (
                    f' <button class="secondary confirm-rating" hx-post="{link}rating-confirm/">'
                    f"{t['confirm']}</button>"
                )
        team = f"<td>{escape(p.team or '')}</td>" if team_mode else ""
        out.append(
            f'<tr id="p{pk}"{cls}><td>{who}{late}{problem}</td><td>{escape(p.club)}</td>'
            f'<td class="num">{rating}</td>{team}<td class="actions">{actions}</td></tr>'
        )
    return mark_safe("\n".join(out))
