"""A seat's play partial as HTML, built in Python: the screen of
:func:`tournaments.play.screen.seat_part` (the seat's own view, hand and
moves) with the seat link's addresses and the form's token.

Every poll that finds a new version draws it, and the push draws it for
every stream of a table after each move (issue 37): through the template
language the partial's tags and variables were a third of such a poll's
CPU. It reads exactly as the template ``play/panel.html`` drew it before, for
every game and any text a deck, a name or a game's label holds
(``tests/play/test_panel.py``). Its repeated parts (the cards, the trick,
the buttons, the players' rows) are
:mod:`tournaments.play.templatetags.play_cards`'.
"""

from __future__ import annotations

from functools import lru_cache
from html import escape

from django.urls import get_script_prefix, reverse
from django.utils.dateformat import time_format
from django.utils.formats import localize
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import capfirst
from django.utils.timezone import template_localtime
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tournaments.play.base import translated
from tournaments.play.templatetags.play_cards import (
    _e,
    _number,
    action_buttons,
    card_items,
    hand_items,
    play_items,
    player_rows,
)


def _t(message: str) -> str:
    """``{% translate message %}``: the message (marked with gettext_noop
    where it is written) translated, then escaped."""
    return _e(translated(message))


def _v(value) -> str:
    """A value as ``{{ value }}`` shows it: numbers as the language writes
    them, escaped (None as "None", as the template language writes it)."""
    if type(value) is str:  # most of a screen: plain text, escaped
        return escape(value)
    number = _number(value)
    return number if number is not None else _e(localize(template_localtime(value)))


@lru_cache(maxsize=8192)
def _addresses(token: str, prefix: str) -> tuple[str, str, str]:
    """The seat link's stream, poll and move addresses (a phone polls the
    same link all round: reversed once per process)."""
    return (
        _e(reverse("seat_stream", args=[token])),
        _e(reverse("seat_play", args=[token])),
        _e(reverse("seat_move", args=[token])),
    )


def panel_html(play: dict, token: str, csrf_token: str | None) -> SafeString:
    """The play partial of ``play`` (a seat's screen) for the seat link
    ``token``; ``csrf_token``: the form's token (None: no token field)."""
    stream, poll, move = _addresses(token, get_script_prefix())
    seat_key, version = _v(play.get("seat_key")), _v(play.get("version"))
    out = [f'<section id="play" class="play card" data-version="{version}" data-seat="{seat_key}"']
    if play.get("polling"):
        out.append(
            f' data-stream="{stream}?s={seat_key}" hx-get="{poll}?v={version}&amp;s={seat_key}"'
            ' hx-trigger="every 800ms" hx-swap="outerHTML"'
        )
    out.append(">\n")
    if play.get("error"):
        out.append(f'<p class="errors-box play-error" role="alert">{_v(play["error"])}</p>')
    if not play.get("started"):
        wait = _t(gettext_noop("The game starts when the organizer starts the round."))
        out.append(f'\n<p class="play-wait lead" role="status">{wait}</p>\n</section>')
        return mark_safe("".join(out))
    out.append("\n")
    _clock_note(out, play)
    over = play.get("over")
    if play.get("bot") and not over:
        note = _t(
            gettext_noop("The bot plays your seat now. The organizer can hand it back to you.")
        )
        out.append(f'<p class="play-bot" role="status">{note}</p>\n')
    if over:
        _result(out, play.get("result") or {})
    else:
        mine = play.get("my_turn")
        turn = "<strong>" + _t(gettext_noop("Your turn.")) + "</strong> " if mine else ""
        out.append(
            f'<p class="play-status{" play-status--mine" if mine else ""}" role="status">\n'
            f"{turn}{_v(play.get('status', ''))}\n</p>\n"
        )
    facts = play.get("facts")
    if facts:
        out.append(
            '<dl class="facts play-facts">'
            + "".join(f"<dt>{_v(label)}</dt><dd>{_v(value)}</dd>" for label, value in facts)
            + "</dl>\n"
        )
    _form(out, play, move, csrf_token)
    for group in play.get("extra_cards") or ():
        out.append(
            f"<h3>{_v(group.get('title', ''))}</h3>\n"
            f'<ul class="play-cards">{card_items(group.get("cards") or ())}</ul>\n'
        )
    for key, css in (("trick", "play-trick"), ("last_trick", "play-trick play-last")):
        trick = play.get(key)
        if trick:
            # the trick under way has no outcome yet: only the last one's shows
            outcome = trick.get("outcome") if key == "last_trick" else None
            out.append(
                f'<section class="{css}">\n<h3>{_v(trick.get("title", ""))}</h3>\n'
                f'<ul class="play-cards">{play_items(trick.get("plays") or ())}</ul>\n'
                f"{f'<p>{_v(outcome)}</p>' if outcome else ''}</section>\n"
            )
    hand_head = f"<th>{_v(play.get('hand_label', ''))}</th>" if play.get("show_hand") else ""
    players = _t(gettext_noop("Players"))
    seat, player, note = (
        _t(gettext_noop("Seat")),
        _t(gettext_noop("Player")),
        _t(gettext_noop("Note")),
    )
    out.append(
        f'<section class="play-players">\n<h3>{players}</h3>\n'
        f'<table class="result stack">\n<thead><tr><th>{seat}</th><th>{player}</th>'
        f"{hand_head}<th>{_v(play.get('score_label', ''))}</th>"
        f'<th><span class="visually-hidden">{note}</span></th></tr></thead>\n'
        f"<tbody>{player_rows(play)}</tbody>\n</table>\n</section>\n</section>"
    )
    return mark_safe("".join(out))


def _clock_note(out: list[str], play: dict) -> None:
    clock = play.get("clock") or {}
    if clock.get("time_called"):
        if play.get("over"):
            note = _t(gettext_noop("Time called."))
            if play.get("bot_finished"):
                note += " " + _t(gettext_noop("The bot played out what was left open."))
        elif clock.get("in_grace"):
            end = clock.get("grace_end")
            at = "" if end in (None, "") else _e(time_format(template_localtime(end), "H:i:s"))
            note = _(
                "Time called — finish the open trick. At %(at)s the bot plays out what is left."
            ) % {"at": at}
        else:
            note = _t(gettext_noop("Time called — the bot is playing out what is left."))
        out.append(f'<p class="play-time" role="status">\n{note}\n</p>\n')
    elif clock.get("time_up"):
        note = _t(gettext_noop("Time is up."))
        out.append(f'<p class="play-time" role="status">{note}</p>\n')


def _result(out: list[str], result: dict) -> None:
    me = ' class="me"'
    rows = "".join(
        f"<tr{me if r.get('me') else ''}><td>{_v(r.get('rank', ''))}</td>"
        f"<td>{_v(r.get('name', ''))}</td><td>{_v(r.get('figure', ''))}</td></tr>"
        for r in result.get("rows") or ()
    )
    heading = _t(gettext_noop("Result"))
    rank, player = _t(gettext_noop("Rank")), _t(gettext_noop("Player"))
    out.append(
        f'<section class="play-result">\n<h2>{heading}</h2>\n<table class="result">\n'
        f"<thead><tr><th>{rank}</th><th>{player}</th>"
        f"<th>{_e(capfirst(str(result.get('figure_label', ''))))}</th></tr></thead>\n"
        f"<tbody>{rows}</tbody>\n</table>\n</section>\n"
    )


def _form(out: list[str], play: dict, move: str, csrf_token: str | None) -> None:
    token = (
        f'<input type="hidden" name="csrfmiddlewaretoken" value="{_e(csrf_token)}">'
        if csrf_token and csrf_token != "NOTPROVIDED"
        else ""
    )
    out.append(
        f'<form method="post" action="{move}" hx-post="{move}" hx-target="#play"'
        f' hx-swap="outerHTML" class="play-form">{token}'
        f'<input type="hidden" name="seen" value="{_v(play.get("seen", ""))}">'
        f'<input type="hidden" name="s" value="{_v(play.get("seat_key", ""))}">\n'
    )
    actions = play.get("actions")
    if actions:
        label = _t(gettext_noop("Your moves"))
        out.append(
            f'<div class="play-actions" role="group" aria-label="{label}">\n'
            f"{action_buttons(actions)}\n</div>\n"
        )
    if play.get("hand"):
        heading = _t(gettext_noop("Your cards"))
        out.append(
            f'<h3>{heading}</h3>\n<ul class="play-cards play-hand">\n'
            f"{hand_items(play['hand'])}\n</ul>\n"
        )
    elif not play.get("over"):
        none = _t(gettext_noop("You hold no cards."))
        out.append(f"<p>{none}</p>\n")
    out.append("</form>\n")
