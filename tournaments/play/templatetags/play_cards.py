"""The play partial's repeated parts, built in Python: ``{{ card|card_face }}``
(a card's title and lines, as ``play/card.html`` renders them), the hand, the
other rows of cards, a trick's plays, the move buttons and the players' rows.

A seat's screen is drawn after every move for every seat that shows it (issue
37), and each ``{% for %}`` of the template language costs a few microseconds
per variable and tag: a hand of a dozen cards with the players' table was two
thirds of drawing a screen. Built here they cost a fraction of that and read
exactly as the template wrote them (``tests/play/test_move_cost.py``)."""

from html import escape

from django import template
from django.conf import settings
from django.utils.formats import localize
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_noop

from tournaments.play.base import translated

register = template.Library()


def _e(value) -> str:
    """``value`` escaped for HTML as the template's autoescape does it (safe
    text as it is): ``django.utils.html.conditional_escape`` without its
    lazy-string wrapper, which was most of the cost here."""
    if hasattr(value, "__html__"):
        return value.__html__()
    return escape(str(value))


def _number(value) -> str | None:
    """``localize(value)`` for a whole number when numbers are written
    without a thousands separator (``USE_THOUSAND_SEPARATOR`` off): its
    digits in every language, without looking up the language's formats (a
    screen shows a few dozen such numbers). None for any other value."""
    if type(value) is int and not settings.USE_THOUSAND_SEPARATOR:
        return str(value)
    return None


def _text(value) -> str:
    """A value as a template variable shows it: None as "", numbers as the
    language writes them (``default_if_none`` of the template's cells)."""
    if value is None:
        return ""
    if type(value) is str:
        return escape(value)
    number = _number(value)
    return number if number is not None else _e(localize(value))


def _face(card) -> str:
    lines = "".join(
        f'<span class="play-card-line">{_e(line)}</span>' for line in card.get("lines") or ()
    )
    return f'<span class="play-card-title">{_e(card.get("title", ""))}</span>{lines}\n'


@register.filter
def card_face(card) -> str:
    # the same text as the template's, its closing newline included
    return mark_safe(_face(card))


def _card(card) -> str:
    """A card shown, not played: its box with its face."""
    return (
        f'<div class="play-card {_e(card.get("css", ""))}" data-card="{_e(card.get("id", ""))}">'
        f"{_face(card)}</div>"
    )


@register.filter
def hand_items(hand) -> str:
    """The seat's cards as list items: a card a legal move plays is a button
    that sends that move, the others are shown idle."""
    items = []
    for held in hand:
        card = held["card"]
        css, cid = _e(card.get("css", "")), _e(card.get("id", ""))
        if held.get("action"):
            items.append(
                f'<li><button type="submit" name="action" value="{_e(held["action"])}" '
                f'class="play-card {css}" data-card="{cid}" title="{_e(held.get("label", ""))}">'
                f"{_face(card)}</button></li>"
            )
        else:
            items.append(
                f'<li><div class="play-card play-card--idle {css}" data-card="{cid}">'
                f"{_face(card)}</div></li>"
            )
    return mark_safe("".join(items))


@register.filter
def card_items(cards) -> str:
    """Cards shown (the table's, a pile's) as list items."""
    return mark_safe("".join(f"<li>{_card(card)}</li>" for card in cards))


@register.filter
def play_items(plays) -> str:
    """A trick's plays as list items: who played, then the card."""
    return mark_safe(
        "".join(
            f"<li><small>{_e(play.get('name', ''))}</small>{_card(play['card'])}</li>"
            for play in plays
        )
    )


@register.filter
def action_buttons(actions) -> str:
    """The moves that are not a card of the hand, one button each."""
    return mark_safe(
        "".join(
            f'<button type="submit" name="action" value="{_e(a["action"])}">{_e(a["label"])}</button>'
            for a in actions
        )
    )


@register.simple_tag
def player_rows(play) -> str:
    """The players' table's rows: seat, name (with the bot's and the turn's
    tags), the cards in hand where the game shows them, the score and the
    note."""
    over = play.get("over")
    show_hand = play.get("show_hand")
    seat_label = _e(translated(gettext_noop("Seat")))
    hand_label = _text(play.get("hand_label"))
    score_label = _text(play.get("score_label"))
    bot, to_play = _e(translated(gettext_noop("bot"))), _e(translated(gettext_noop("to play")))
    bot_tag = f' <span class="tag tag-bot">{bot}</span>'
    turn_tag = f' <span class="tag">{to_play}</span>'
    rows = []
    for p in play.get("players") or ():
        to_act = p.get("to_act") and not over
        hand = f'<td data-label="{hand_label}">{_text(p.get("hand"))}</td>' if show_hand else ""
        rows.append(
            f'<tr class="{"me" if p.get("me") else ""}{" to-act" if to_act else ""}">'
            f'<td data-label="{seat_label}">{_text(p.get("number"))}</td>'
            f'<td class="main">{_e(p.get("name", ""))}{bot_tag if p.get("bot") else ""}'
            f"{turn_tag if to_act else ''}</td>{hand}"
            f'<td data-label="{score_label}">{_text(p.get("score"))}</td>'
            f"<td><small>{_e(p.get('note', ''))}</small></td></tr>"
        )
    return mark_safe("".join(rows))
