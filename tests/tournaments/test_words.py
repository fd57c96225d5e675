"""Words that can't be misread, checked over the whole German catalogue.

- A seat is a "Sitz" / "Sitzplatz", a rank a "Platz" / "Rang": a message
  about a seat never says "Platz" ("Platz 4 ist ausgeschieden" reads as 4th
  place), one about a place or rank never says "Sitz".
- A count is said through ngettext ("1 Punkt", "2 Punkte"): a number directly
  followed by a countable noun has plural forms.
- No "his"/"him" for players, in English either.
"""

import re
from pathlib import Path

import polib
import pytest
from django.template import Context, Template
from django.utils import translation

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "tournaments/locale/de/LC_MESSAGES/django.po"

SEAT = re.compile(r"\bseats?\b", re.I)
RANK = re.compile(r"\b(place|places|placing|rank|ranks|ranking)\b", re.I)
PLATZ = re.compile(r"(?<!Sitz)(?<!Sitz-)\b(Platz|Plätze|Plätzen|Platzes)\b")
NOUNS = (
    r"(players?|tables?|cards?|points?|rounds?|turns?|byes?|seats?|minutes?|seconds?|"
    r"tricks?|games?|sheets?|results?|hands?|pairs?|rows?|lines?)"
)
# a number and a noun, not the upper end of a range or a limit ("2 to %(hi)s
# players", "more than %(n)s tables", "tables of %(size)s players")
COUNT = re.compile(r"(?<!\bto )(?<!\bthan )(?<!\bof )(%\(\w+\)[sd]|\{\w+\})\s+" + NOUNS + r"\b")

#: number + noun messages that need no plural form, and why
NOT_COUNTS = {
    # limits and ranges: the number is never 1
    "Rounds with more than %(n)s tables are rendered in the background; the page "
    "shows the progress and a download link.": "a fixed limit of many tables",
    "More than %(n)s players.": "the import limit",
    "Between 1 and %(max)s minutes.": "a range",
    "Between 1 and %(max)s rounds.": "a range",
    "%(game)s is played at tables of %(lo)s to %(hi)s players.": "a range of table sizes",
    "%(size)s players (allowed: %(sizes)s)": "a table size, at least 2",
    "not the state of a game at this table's %(n)s seats": "a table size, at least 2",
}
#: rules engines' messages: their English text lives in games/ (the games
#: engineer's floor); listed so that a new one is noticed
ENGINE_FILES = ("games/",)


def entries():
    return [e for e in polib.pofile(str(PO)) if not e.obsolete]


def translations(e) -> list[str]:
    return [e.msgstr] if not e.msgid_plural else list(e.msgstr_plural.values())


def test_every_message_is_translated():
    missing = [e.msgid for e in entries() if not e.translated() or "fuzzy" in e.flags]
    assert not missing


def test_a_seat_is_never_called_platz():
    wrong = [
        (e.msgid, t)
        for e in entries()
        if SEAT.search(e.msgid + " " + e.msgid_plural)
        for t in translations(e)
        if PLATZ.search(t)
    ]
    assert not wrong


def test_a_place_or_rank_is_never_called_sitz():
    wrong = [
        (e.msgid, t)
        for e in entries()
        if RANK.search(e.msgid) and not SEAT.search(e.msgid)
        for t in translations(e)
        if "Sitz" in t
    ]
    assert not wrong


def test_counted_messages_have_plural_forms():
    singular_only = [
        e.msgid
        for e in entries()
        if COUNT.search(e.msgid)
        and not e.msgid_plural
        and e.msgid not in NOT_COUNTS
        and not all(path.startswith(ENGINE_FILES) for path, _line in e.occurrences)
    ]
    assert not singular_only
    plural = [e for e in entries() if e.msgid_plural]
    assert len(plural) >= 20
    for e in plural:
        assert set(e.msgstr_plural) == {0, 1} and all(e.msgstr_plural.values()), e.msgid


def test_no_his_or_him_for_players():
    gendered = re.compile(r"\b(his|him|himself|he)\b", re.I)
    wrong = [
        e.msgid
        for e in entries()
        if gendered.search(e.msgid + " " + e.msgid_plural)
        and not all(path.startswith(ENGINE_FILES) for path, _line in e.occurrences)
    ]
    assert not wrong


@pytest.mark.parametrize(
    ("points", "english", "german"),
    [(1, "1 point", "1 Punkt"), (2, "2 points", "2 Punkte"), ("6.5", "6.5 points", "6,5 Punkte")],
)
def test_points_are_counted_and_localized(points, english, german):
    from decimal import Decimal

    template = Template(
        "{% load i18n words %}{% blocktranslate count n=p|count_form with points=p %}"
        "{{ points }} point{% plural %}{{ points }} points{% endblocktranslate %}"
    )
    value = Decimal(points) if isinstance(points, str) else points
    with translation.override("en"):
        assert template.render(Context({"p": value})) == english
    with translation.override("de"):
        assert template.render(Context({"p": value})) == german


@pytest.mark.parametrize(
    ("value", "english", "german"),
    [(6.5, "6.5", "6,5"), ("4.125", "4.125", "4,125"), (4, "4", "4"), ("12.00", "12", "12")],
)
def test_numbers_in_pdfs_use_the_readers_decimal_separator(value, english, german):
    from decimal import Decimal

    from scoring.printing.documents import format_value

    value = Decimal(value) if isinstance(value, str) else value
    with translation.override("en"):
        assert format_value(value) == english
    with translation.override("de"):
        assert format_value(value) == german


@pytest.mark.django_db
def test_pages_show_numbers_in_the_readers_language(client, organizer, tournament):
    from django.urls import reverse

    from tests.scoring import handmade
    from tournaments.models import Round

    made = handmade.build(tournament, organizer)
    bernd = made["players"]["B"]
    client.force_login(organizer)
    url = reverse("standings", args=[tournament.pk])
    row = re.compile(rf'<tr id="standing-{bernd.pk}"[^>]*>(.*?)</tr>', re.S)
    english = re.sub(r"<[^>]+>|\s+", " ", row.search(client.get(url).content.decode()).group(1))
    assert " 4.5 " in english and " 2.333 " in english
    client.cookies["django_language"] = "de"
    german = re.sub(r"<[^>]+>|\s+", " ", row.search(client.get(url).content.decode()).group(1))
    assert " 4,5 " in german and " 2,333 " in german
    # the projector's standings slide too
    last = Round.objects.filter(tournament=tournament).order_by("-number").first()
    tournament.public = True
    tournament.save()
    projector = reverse("round_projector", args=[tournament.pk, last.number])
    html = client.get(projector + "?show=standings").content.decode()
    assert re.search(r'<span class="points">\d+,\d+</span>', html)
