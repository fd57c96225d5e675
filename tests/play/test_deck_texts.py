"""The built-in decks' display texts are translatable: every word a player
reads from a shipped deck is a msgid (``tournaments.play.deck_texts``), the
seat page, the result form and the score sheet show it in the reader's
language, and an uploaded deck's own words show as written."""

from __future__ import annotations

import copy
import io
import json
from html import unescape
from pathlib import Path

import pdfplumber
import pytest
from django.urls import reverse
from django.utils import translation

from games import get_engine
from scoring import forms as scoring_forms
from scoring.printing.sheets import render_score_sheets
from tests.factories import digital_table
from tournaments.models import Seat
from tournaments.play import deck_texts
from tournaments.play.altruismus import SYMBOLS
from tournaments.play.base import COLOURS
from tournaments.play.deck_texts import DECK_TEXTS, deck_text
from tournaments.play.links import seat_token
from tournaments.play.monddaemmerung import MOONS
from tournaments.services import deadlines

GAMES_DIR = Path(__file__).resolve().parents[2] / "games"

#: deck texts that are no words of a language: invented names and symbols
NOT_WORDS = {
    "g",  # Quartett: the unit of gravity, a symbol
    "NGZ",  # Quartett: the invented era of the space deck's years
    "Der Allereinzigste",  # Monddämmerung: the One's name (the presentation's own msgid)
    "tiere",  # Terra Trumpf: the deck's file name, German already
}


def deck(game: str, name: str) -> dict:
    return json.loads((GAMES_DIR / game / "decks" / f"{name}.json").read_text("utf-8"))


def shown_texts() -> set[str]:
    """Every text of the shipped decks that a player or organizer reads.

    Quartett: attribute labels and units, the era of year values ("2150 AD")
    and the word values; card names are invented star systems and stay as
    they are. Terra Trumpf: set names, category labels, animal names.
    Every game: the deck file names offered when setting up. Colours, moons
    and symbols are keys (tested against the presentation's maps below)."""
    texts: set[str] = set()
    for path in GAMES_DIR.glob("*/decks/*.json"):
        texts.add(path.stem)
    space = deck("quartett", "space")
    for attr in space["attributes"]:
        texts.update(t for t in (attr["label"], attr.get("unit")) if t)
    for card in space["cards"]:
        for value in card["values"].values():
            if not isinstance(value, str):
                continue
            number, sep, era = value.rpartition(" ")
            if sep and number.isdigit():
                texts.add(era)
            else:
                texts.add({"unbekannt": "unknown", "nicht definierbar": "not definable"}[value])
    tiere = deck("terra_trumpf", "tiere")
    for card_set in tiere["sets"]:
        texts.add(card_set["name"])
        for cat in card_set["categories"]:
            texts.add(cat["label"])
            texts.update(c["name"] for c in cat["cards"])
    mond = deck("monddaemmerung", "standard")
    texts.update((mond["name"], mond["one"]["name"]))
    return texts


def test_every_word_of_the_shipped_decks_is_a_msgid():
    texts = shown_texts()
    assert "Fjord Bear" in texts and "Distance to Earth" in texts and "light years" in texts
    missing = texts - NOT_WORDS - DECK_TEXTS
    assert not missing, sorted(missing)
    # nothing listed that no deck has, and no invented name listed
    assert not DECK_TEXTS - texts, sorted(DECK_TEXTS - texts)
    assert not DECK_TEXTS & NOT_WORDS
    assert "Veyra Prime" not in DECK_TEXTS and "Ostrava Halo" not in DECK_TEXTS


def test_colours_moons_and_symbols_of_the_shipped_decks_have_their_msgids():
    colours = set(deck("trumpet", "standard")["colours"])
    colours |= set(deck("altruismus", "standard")["colours"])
    colours |= set(deck("monddaemmerung", "standard")["colours"])
    assert colours <= set(COLOURS)
    assert set(deck("monddaemmerung", "standard")["moons"]) <= set(MOONS)
    symbols = {s for row in deck("altruismus", "standard")["symbols"].values() for s in row}
    assert symbols <= set(SYMBOLS)


def test_deck_text_translates_and_leaves_unknown_words_as_written(monkeypatch):
    german = {"Fjord Bear": "Fjordbär"}
    monkeypatch.setattr(deck_texts, "gettext", lambda t: german.get(t, t))
    assert deck_text("Fjord Bear") == "Fjordbär"
    assert deck_text("Mein eigener Hirsch") == "Mein eigener Hirsch"
    assert deck_text(None) == ""
    monkeypatch.undo()  # the real catalogue: an uploaded deck's words stay as written
    with translation.override("de"):
        assert deck_text("Abstand zum Heimatplaneten (eigenes Deck)") == (
            "Abstand zum Heimatplaneten (eigenes Deck)"
        )


# -- the seat page ---------------------------------------------------------------

GERMAN = {
    "Distance to Earth": "Entfernung zur Erde",
    "Number of planets": "Anzahl der Planeten",
    "light years": "Lichtjahre",
    "planets": "Planeten",
    "First contact": "Erstkontakt",
    "First mention": "Erste Erwähnung",
    "Gravity": "Schwerkraft",
    "novel no.": "Roman Nr.",
    "AD": "n. Chr.",
}


@pytest.fixture(autouse=True)
def no_broker(monkeypatch):
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)


def quartett_table(organizer, **options):
    """A started digital Quartett table of Ayşe Şahin (seat 0) and Jürgen
    Weiß, seated and dealt through the services."""
    return digital_table(
        organizer,
        "quartett",
        2,
        name="Digital Quartett",
        names=["Ayşe Şahin", "Jürgen Weiß"],
        game_options=options,
        round_minutes=30,
    )


def seat_page(client, table, position=0) -> str:
    url = reverse("seat_link", args=[seat_token(Seat.objects.get(table=table, position=position))])
    return unescape(client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode())


@pytest.mark.django_db
def test_a_german_quartett_seat_page_names_the_attributes_in_german(client, organizer, monkeypatch):
    asked = []

    def german_gettext(text):
        asked.append(text)
        return GERMAN.get(text, translation.gettext(text))

    monkeypatch.setattr(deck_texts, "gettext", german_gettext)
    table = quartett_table(organizer)
    with translation.override("de"):
        html = seat_page(client, table)
    assert "Distance to Earth" in asked
    assert "Entfernung zur Erde" in html
    assert "Distance to Earth" not in html
    top = get_engine("quartett").view(table.round.tournament.engine.load(table.state), 0)["top"]
    distance = top["values"]["distance"]
    if isinstance(distance, (int, float)):
        assert "Lichtjahre" in html and "light years" not in html
    # the star system keeps its invented name
    assert top["name"] in html


@pytest.mark.django_db
def test_the_rendered_label_is_the_catalogues_translation(client, organizer):
    table = quartett_table(organizer)
    with translation.override("de"):
        html = seat_page(client, table)
        expected = translation.gettext("Number of planets")
    assert f"{expected}:" in html


@pytest.mark.django_db
def test_an_uploaded_decks_own_label_shows_as_written(client, organizer):
    own = copy.deepcopy(deck("quartett", "space"))
    own["name"] = "Vereinsdeck"
    own["attributes"][0]["label"] = "Abstand zum Heimatplaneten"
    own["attributes"][0]["unit"] = "Sprünge"
    table = quartett_table(organizer, deck=own)
    with translation.override("de"):
        html = seat_page(client, table)
    assert "Abstand zum Heimatplaneten" in html
    assert "Distance to Earth" not in html


# -- result form and score sheet: Terra Trumpf's categories ----------------------


def test_the_result_form_offers_the_categories_in_the_readers_language(monkeypatch):
    monkeypatch.setattr(scoring_forms, "gettext", lambda t: {"Big cats": "Großkatzen"}.get(t, t))
    engine = get_engine("terra_trumpf")
    form = scoring_forms.SheetForm(schema=engine.sheet_schema(2), names=["A", "B"])
    labels = [
        label
        for name, f in form.fields.items()
        if name.endswith("_alpha")
        for _value, label in f.choices
    ]
    assert "Großkatzen" in labels and "Big cats" not in labels


def test_the_score_sheet_prints_the_categories_in_the_readers_language():
    engine = get_engine("terra_trumpf")
    pdf = render_score_sheets(
        {"name": "Herbstturnier"},
        1,
        [{"number": 1, "players": [{"name": "Anna"}, {"name": "Bernd"}]}],
        engine_id=engine.id,
        gettext=lambda t: {"Big cats": "Großkatzen"}.get(t, t),
    )
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        text = "".join(page.extract_text() or "" for page in doc.pages)
    assert "Großkatzen" in text and "Big cats" not in text
