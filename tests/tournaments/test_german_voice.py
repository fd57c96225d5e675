"""One German voice per audience, checked over the whole German catalogue.

- The organizer and the staff (scorekeepers) are addressed formally: "Sie",
  "Ihr", "Ihnen", "Wählen Sie …". Never "du", "dein", "Archiviere …".
- Players (their seat links, the self-report of a table's result, the
  digital tables, the public pages, the projector and the slips they are
  handed) are addressed with "du": "Du bist ausgeschieden", "dein Sitz".
  Never "Sie", "Ihr", "Nehmen Sie …".
- A text both read (a rules engine's message on the result form and on the
  self-report, an error page, a score sheet) addresses nobody: "Bitte …
  eingeben", "Die Karten von Sitz 2 eingeben".
- No "ihn"/"ihm" anywhere: said of a seat or a line they read as a person
  ("Kreuzen Sie ihn als ausgeschieden an" for Iris Täubner); name the thing.

Who reads a message is decided by where it is used (the catalogue's "#:"
references) through the lists below; a message used by both audiences
addresses nobody.
"""

import re
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "tournaments/locale/de/LC_MESSAGES/django.po"

ORGANIZER, PLAYER, BOTH = "organizer", "player", "both"

#: source paths (prefixes) whose texts players read
PLAYER_SOURCES = (
    # a digital table: the seat page, its board and panel, the spectator view
    "templates/play/board.html",
    "templates/play/card.html",
    "templates/play/link_state.html",
    # a printed sheet's QR code scanned without an account
    "templates/play/sheet_landing.html",
    "tournaments/play/panel.py",
    "templates/play/seat.html",
    "templates/play/watch.html",
    "templates/play/watch_board.html",
    # the games' presentations at a digital table and their card texts
    "tournaments/play/__init__.py",
    "tournaments/play/altruismus.py",
    "tournaments/play/base.py",
    "tournaments/play/deck_texts.py",
    "tournaments/play/monddaemmerung.py",
    "tournaments/play/quartett.py",
    "tournaments/play/screen.py",
    "tournaments/play/terra_trumpf.py",
    "tournaments/play/trumpet.py",
    "tournaments/play/watch.py",
    # a seat link that no longer works says why
    "tournaments/play/views/_refusal.py",
    "tournaments/play/views/seat.py",
    "templates/scoring/entry/link_invalid.html",
    # the self-report of a table's result through a seat link
    "scoring/views/_self_report.py",
    "templates/play/seat_page.html",
    # public pages and the projector
    "templates/tournaments/public.html",
    "templates/tournaments/round_public.html",
    "templates/tournaments/projector/",
    "templates/tournaments/round/find_table.html",
    "templates/scoring/standings_public.html",
    "templates/scoring/season/public.html",
    # the seat slip handed to a player
    "scoring/printing/slips.py",
    # a player's own registration: the announcement and its form, the
    # personal link, leaving from a seat link, the door's check-in
    "templates/registrations/public.html",
    "templates/registrations/_facts.html",
    "templates/registrations/confirm.html",
    "templates/registrations/door.html",
    "templates/registrations/link.html",
    "templates/registrations/seat_leave.html",
    "templates/registrations/poster.html",
    "tournaments/registrations/views/public.py",
    "tournaments/registrations/views/link.py",
    "tournaments/registrations/views/seat.py",
    "tournaments/registrations/views/_shared.py",
    "tournaments/registrations/mail.py",
)

#: source paths whose texts both audiences read: they address nobody
SHARED_SOURCES = (
    # rules engines: their sheet messages show on the organizer's result
    # form and on the players' self-report, the time texts on score sheets
    "games/",
    # the clock partial: the organizer's round page, projector, public page
    "templates/tournaments/round/status.html",
    # the result form and its parts: the staff's entry and a player's self-report
    "templates/scoring/entry/form.html",
    "templates/scoring/entry/players.html",
    "templates/scoring/entry/result.html",
    # standings tables: the organizer's and the public pages
    "templates/scoring/standings/",
    "templates/scoring/season/_table.html",
    # pages anyone can meet
    "templates/base.html",
    "templates/403_csrf.html",
    "templates/404.html",
    "templates/500.html",
    "templates/problem.html",
    # prints that lie on the players' tables
    "scoring/printing/sheets.py",
    "scoring/printing/certificates.py",
)

#: messages written in organizer code that a player reads, and why
PLAYER_MESSAGES = {
    # the registration form (its module also holds the organizer's
    # announcement form) and the refusals a player's own link meets
    (
        "Optional: a number for your playing strength, if the organizer asks for one. "
        "The number counts only once the organizer has confirmed it: then it may seed "
        "round 1 and decide a tie that nothing else decides."
    ): "the registration form",
    "We send your personal link there once; the address is not stored.": ("the registration form"),
    "This form has expired. Please check your entries and send it again.": (
        "the registration form"
    ),
    "That was very quick. Please check your entries and send the form again.": (
        "the registration form"
    ),
    "Check-in is not open. Ask at the desk.": "self check-in from a personal link",
    "Your registration still waits for the organizer. Ask at the desk.": (
        "self check-in while the organizer decides on a possible twin"
    ),
    "You have left the tournament.": "a personal link after leaving",
    "You have left the tournament. Ask at the desk.": "self check-in after leaving",
    "Round %(n)s is being played: you can leave once it has ended.": (
        "leaving from a personal or seat link"
    ),
    "The bot plays this seat now; ask the organizer to hand it back.": (
        "refuses a move on the seat page"
    ),
    "Your move was already played. Choose again on the new screen.": (
        "refuses a move on the seat page"
    ),
    "This move is not allowed now: the game may have moved on. Choose again.": (
        "refuses a move on the seat page"
    ),
}

#: messages written in organizer code that both audiences read, and why
SHARED_MESSAGES = {
    "The result of this table was removed meanwhile; nothing of yours was saved.": (
        "a conflict on the staff's result form and on a player's self-report"
    ),
    "%(who)s saved version %(version)s of this table's result meanwhile (shown below). "
    "Nothing of yours was saved: compare, then save again to replace it.": (
        "a conflict on the staff's result form and on a player's self-report"
    ),
    "Version %(version)s was replaced meanwhile by version %(other)s (shown below); "
    "it can't be confirmed any more.": "a confirmation by the staff or through a seat link",
    "This table's result is confirmed; only the Turnierleitung can correct it.": (
        "a correction by a scorekeeper or a player's report"
    ),
}

DU = re.compile(
    r"\b(du|dich|dir|dein|deine|deinen|deinem|deiner|deines|euch|euer|eure|euren|eurem|eurer|"
    r"bist|hast|kannst|musst|willst|wirst|darfst|sollst|solltest|siehst|weißt|spielst)\b",
    re.I,
)
#: du-imperatives; not after an article, where some are nouns ("die Drucke")
DU_IMPERATIVE = re.compile(
    r"(?<!\bder )(?<!\bdie )(?<!\bdas )(?<!\bden )(?<!\bdem )(?<!\ban )(?<!\bzur )"
    r"\b(archiviere|behebe|bestätige|drucke|entferne|erlaube|frag|frage|füge|geh|gehe|gib|"
    r"hol|hole|kreuze|lade|lass|leg|lege|lies|melde|nimm|nutze|öffne|plane|prüfe|scanne|"
    r"schau|schicke|setz|setze|sieh|speichere|sprich|starte|stelle|suche|tausche|tippe|"
    r"trag|trage|verwende|wähle|warte|zähle)\b",
    re.I,
)
#: formal address: capitalised, anywhere. At the start of a sentence "Sie"
#: may be "they" and "Ihr" "their": in a text for players write it otherwise.
FORMAL = re.compile(r"\b(Sie|Ihnen|Ihr|Ihre|Ihren|Ihrem|Ihrer|Ihres)\b")
HIM = re.compile(r"\b(ihn|ihm)\b", re.I)


def audience_of(msgid: str, paths) -> str:
    if msgid in PLAYER_MESSAGES:
        return PLAYER
    if msgid in SHARED_MESSAGES:
        return BOTH
    kinds = set()
    for path in paths:
        if path.startswith(SHARED_SOURCES):
            kinds.add(BOTH)
        elif path.startswith(PLAYER_SOURCES):
            kinds.add(PLAYER)
        else:
            kinds.add(ORGANIZER)
    if kinds == {PLAYER}:
        return PLAYER
    if kinds <= {ORGANIZER} and kinds:
        return ORGANIZER
    return BOTH


def voice_problems(text: str, audience: str) -> list[str]:
    """What is wrong with ``text`` for ``audience`` (empty when nothing)."""
    problems = []
    if audience in (ORGANIZER, BOTH):
        problems += [f"“{m.group(0)}” (du) in a text for {audience}" for m in DU.finditer(text)]
        problems += [
            f"“{m.group(0)}” (du-imperative) in a text for {audience}"
            for m in DU_IMPERATIVE.finditer(text)
        ]
    if audience in (PLAYER, BOTH):
        problems += [
            f"“{m.group(0)}” (Sie) in a text for {audience}" for m in FORMAL.finditer(text)
        ]
    problems += [f"“{m.group(0)}”: name the thing or the person" for m in HIM.finditer(text)]
    return problems


def entries():
    return [e for e in polib.pofile(str(PO)) if not e.obsolete]


def translations(e) -> list[str]:
    return [e.msgstr] if not e.msgid_plural else list(e.msgstr_plural.values())


# the checker itself, on the texts the issue found


@pytest.mark.parametrize(
    ("text", "audience"),
    [
        ("Nehmen Sie die Setzliste als Entwurf zurück.", PLAYER),
        ("Der Bot spielt jetzt auf Ihrem Sitz.", PLAYER),
        ("Die Zahl neben Ihrem Namen ist Ihr Tisch.", PLAYER),
        (
            "Archiviere das Turnier, wenn es vorbei ist: … und du kannst es jederzeit "
            "wiederherstellen.",
            ORGANIZER,
        ),
        ("Behebe die Ursache und starte die Runde dann von Hand.", ORGANIZER),
        (
            "Dieses Turnier ist archiviert: Es kann nur gelesen werden, bis du es wiederherstellst.",
            ORGANIZER,
        ),
        ("Sitz 3 hat keine Karten: Kreuzen Sie ihn als ausgeschieden an.", ORGANIZER),
        ("Die Turnierleitung kann ihn zurückgeben.", PLAYER),
        ("Geben Sie eine ganze Zahl ein.", BOTH),
        ("Du bist ausgeschieden.", BOTH),
        ("Du bist aus dem Turnier ausgeschieden.", ORGANIZER),
    ],
)
def test_the_checker_finds_the_wrong_voice(text, audience):
    assert voice_problems(text, audience)


@pytest.mark.parametrize(
    ("text", "audience"),
    [
        ("Nehmen Sie die Veröffentlichung zurück, um den Sitzplan zu ändern.", ORGANIZER),
        ("Dieses Turnier ist archiviert: Stellen Sie es wieder her, um es zu ändern.", ORGANIZER),
        ("Du bist aus dem Turnier ausgeschieden.", PLAYER),
        ("Die Zahl neben deinem Namen ist dein Tisch.", PLAYER),
        ("Die Turnierleitung kann den Sitz zurückgeben.", PLAYER),
        ("Bitte eine ganze Zahl eingeben.", BOTH),
        ("Sitz 3 hat keine Karten: den Sitz als ausgeschieden ankreuzen.", BOTH),
        # "sie" (she, they, it) is no address
        ("Die Runde läuft: sie endet um 14:30.", PLAYER),
        # nouns that look like imperatives
        ("Die Drucke der Runde liegen bereit.", ORGANIZER),
        ("an der Stelle des Spielers", ORGANIZER),
    ],
)
def test_the_checker_accepts_the_right_voice(text, audience):
    assert voice_problems(text, audience) == []


def test_where_a_message_is_used_decides_who_reads_it():
    assert audience_of("x", ["tournaments/play/panel.py"]) == PLAYER
    assert audience_of("x", ["templates/tournaments/round_seating.html"]) == ORGANIZER
    assert audience_of("x", ["tournaments/play/panel.py", "tournaments/views/seating.py"]) == BOTH
    assert audience_of("x", ["games/quartett/sheet.py"]) == BOTH
    assert (
        audience_of("The bot plays this seat now; ask the organizer to hand it back.", ["x.py"])
        == PLAYER
    )


# the catalogue


def test_every_message_speaks_to_its_reader_in_one_voice():
    wrong = []
    for e in entries():
        audience = audience_of(e.msgid, [path for path, _line in e.occurrences])
        for text in translations(e):
            wrong += [(e.msgid, text, problem) for problem in voice_problems(text, audience)]
    assert not wrong


def test_the_catalogue_has_both_audiences():
    """The lists above still match the code: both audiences have many texts."""
    counts = {ORGANIZER: 0, PLAYER: 0, BOTH: 0}
    for e in entries():
        counts[audience_of(e.msgid, [path for path, _line in e.occurrences])] += 1
    assert counts[PLAYER] >= 150 and counts[ORGANIZER] >= 600 and counts[BOTH] >= 50, counts
    assert all(any(e.occurrences) for e in entries()), (
        "run makemessages: every message has its source"
    )


def test_player_messages_named_here_exist():
    ids = {e.msgid for e in entries()}
    assert set(PLAYER_MESSAGES) <= ids and set(SHARED_MESSAGES) <= ids


# one word for one thing


def texts_from(*sources):
    for e in entries():
        paths = [path for path, _line in e.occurrences]
        if paths and all(path.startswith(sources) for path in paths):
            yield e, translations(e)


def test_the_seating_is_a_sitzplan_and_a_round_is_eingeteilt():
    """A seating list is a "Sitzplan" on every page and print, and a round is
    "eingeteilt": "Setzliste" and "Runde 1 setzen" read as seeding, and
    "Sitzordnung" was a third word for the same list."""
    seeding = re.compile(r"Setzliste|Setzung|Sitzordnung|Setzmodus|Setzart")
    wrong = [(e.msgid, t) for e in entries() for t in translations(e) if seeding.search(t)]
    assert not wrong
    # the verb, where a message is about seats ("setzt die Figur zurück" is a move)
    seat_verb = re.compile(r"\b(setzen|gesetzt|setzt)\b|^Setzen\b")
    about_seats = re.compile(r"\bseat(s|ed|ing)?\b", re.I)
    wrong = [
        (e.msgid, t)
        for e in entries()
        if about_seats.search(e.msgid)
        for t in translations(e)
        if seat_verb.search(t)
    ]
    assert not wrong
    seating = re.compile(r"\bseatings?\b")
    named = re.compile(r"Sitzplan|Sitzpläne|Einteilung|einteil|eingeteilt")
    unnamed = [
        (e.msgid, t)
        for e in entries()
        if seating.search(e.msgid) and "re-seating" not in e.msgid
        for t in translations(e)
        if not named.search(t)
    ]
    assert not unnamed
    german = {e.msgid: translations(e) for e in entries()}
    assert german["Seat round %(n)s"] == ["Runde %(n)s einteilen"]
    assert german["Seating"] == ["Sitzplan"]
    assert german["Seating by table"] == ["Sitzplan nach Tischen"]


def test_a_score_sheet_is_a_spielbericht():
    """Not "Spielbogen", "Spielberichtsbogen" or "Bogen" beside it."""
    other = re.compile(r"Bogen|Bögen|bogen\b|bögen\b")
    wrong = [(e.msgid, t) for e in entries() for t in translations(e) if other.search(t)]
    assert not wrong
    german = {e.msgid: translations(e) for e in entries()}
    assert german["Score sheets"] == ["Spielberichte"]


def test_a_scorekeeper_is_a_schreiber():
    wrong = [
        (e.msgid, t)
        for e in entries()
        if re.search(r"scorekeeper", e.msgid, re.I)
        for t in translations(e)
        if "Schreiber" not in t
    ]
    assert not wrong
    others = re.compile(r"Ergebnisdienst|Ergebniserfassung")
    assert not [t for e in entries() for t in translations(e) if others.search(t)]


def test_an_altruismus_turn_is_a_stich():
    """Its turn is a trick: "Zug" is what a player makes ("Am Zug")."""
    found = list(texts_from("games/altruismus/", "tournaments/play/altruismus.py"))
    assert len(found) >= 40
    wrong = [(e.msgid, t) for e, ts in found for t in ts if re.search(r"\bZ[uü]g", t)]
    assert not wrong
    assert [t for e, ts in found if e.msgid == "Turn" for t in ts] == ["Stich"]


def test_a_game_says_the_same_word_on_the_sheet_and_at_the_digital_table():
    """Trumpet's Great Hall is the "Große Wappensaal", a Terra Trumpf hand a
    "Durchgang", an Altruismus mission card an "Auftragskarte" — on the score
    sheet, in the time-call instructions and at the digital table alike."""
    words = [
        (("games/trumpet/", "tournaments/play/trumpet.py"), r"Great Hall", r"Wappensaal", r"Halle"),
        (
            ("games/terra_trumpf/", "tournaments/play/terra_trumpf.py"),
            r"\bhands?\b|^Hand$",
            r"Durchg[aä]ng",
            r"\b(diese[ms]?|nächste[ns]?|des) Spiels?\b",  # "im Spiel" is "in play"
        ),
        (
            ("games/altruismus/", "tournaments/play/altruismus.py"),
            r"[Mm]ission card",
            r"Auftragskarte",
            r"Mission",
        ),
    ]
    for sources, english, german, other in words:
        found = [(e, ts) for e, ts in texts_from(*sources) if re.search(english, e.msgid)]
        assert found, english
        wrong = [
            (e.msgid, t)
            for e, ts in found
            for t in ts
            if not re.search(german, t) or re.search(other, t)
        ]
        assert not wrong


def test_a_monddaemmerung_round_of_play_is_no_tournament_round():
    found = list(texts_from("games/monddaemmerung/", "tournaments/play/monddaemmerung.py"))
    assert len(found) >= 40
    wrong = [(e.msgid, t) for e, ts in found for t in ts if re.search(r"\b(Runde|Letzte)\b", t)]
    assert not wrong


def test_play_screens_say_spielrunde_vorige_and_capitalised_colours(db):
    from django.utils import translation

    from games import get_engine
    from tournaments.play.base import Ctx, colour_name
    from tournaments.play.monddaemmerung import Monddaemmerung

    view = {"round": 2, "starter": 0, "trump": "red", "stock_size": 10, "high_wins": False}
    ctx = Ctx(
        engine=get_engine("monddaemmerung"),
        view=view,
        legal=[],
        seat=0,
        names=["Iris", "Ole"],
        cards={},
    )
    with translation.override("de"):
        facts = dict(Monddaemmerung().facts(ctx))
        assert facts["Spielrunde"] == "2" and facts["Trumpf"] == "Rot"
        assert [colour_name(c) for c in ("red", "yellow", "green", "blue")] == [
            "Rot",
            "Gelb",
            "Grün",
            "Blau",
        ]
    with translation.override("en"):
        facts = dict(Monddaemmerung().facts(ctx))
        assert facts["Round"] == "2" and facts["Trump"] == "red"
