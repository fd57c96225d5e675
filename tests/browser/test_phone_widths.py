"""Every page type on a phone (390×844, German) with the longest names the
tournament allows: the document never scrolls sideways. On the check-in
page the search comes first and its first hit shows without scrolling; at a
digital table trump and the game's facts sit near the top; the spectator
view fills a 1920×1080 projector without scrolling, its scores in view.

Each page type is one case, so a failure names the page. The data is built
through the services (``tests/factories.py``) the way an organizer builds it:
a Quartett tournament of three rounds (two complete, the third running with
one sheet in), its players in the roster and in a public series, a digital
table of every game, a draft seating, a print job."""

from __future__ import annotations

from functools import cached_property

import pytest

from games import get_engine
from scoring import services as results
from scoring.printing.models import PrintJob
from scoring.season import services as series_services
from scoring.season.models import Series
from scoring.sheet_links import table_token
from tests.browser.sessions import logged_in_context
from tests.factories import (
    LONG_CLUBS,
    LONG_NAMES,
    PlayerFactory,
    TournamentFactory,
    digital_table,
    play_on,
    seated_round,
)
from tests.seat_tokens import token_for
from tournaments import services
from tournaments.limits import MAX_NAME
from tournaments.models import Round
from tournaments.services import deadlines, roster

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
PROJECTOR = {"width": 1920, "height": 1080}


def longest(*words: str) -> str:
    """A name of exactly ``MAX_NAME`` characters made of ``words``, repeated."""
    text = ""
    while len(text) < MAX_NAME:
        text += words[len(text.split()) % len(words)] + " "
    return text[: MAX_NAME - 1] + "n"


#: the longest name, club and tournament name allowed, beside real long ones
LONGEST_NAME = longest("Maximiliane", "Freifrau", "von", "und", "zu", "Übelacker-Schönbrunn")
LONGEST_CLUB = longest("Spielvereinigung", "Quartettfreunde", "1920", "Köln-Deutz-Mülheim")
TOURNAMENT = longest("Quartett-Vereinsturnier", "Januar", "2027", "Kreismeisterschaft")
#: the club evening's long names, the last one and two clubs the longest allowed
NAMES = [*LONG_NAMES[:-1], LONGEST_NAME]
CLUBS = [LONG_CLUBS[0], LONGEST_CLUB, *LONG_CLUBS[2:-1], LONGEST_CLUB]
GAMES = ["quartett", "terra_trumpf", "trumpet", "monddaemmerung", "altruismus"]
#: the games whose table has trump or facts to show (Quartett has neither)
GAMES_WITH_FACTS = [game for game in GAMES if game != "quartett"]
#: players at a digital table (every game seats four)
SEATS = 4


@pytest.fixture(autouse=True)
def _no_broker(monkeypatch):
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)  # no worker


def sheet(holder: int) -> dict:
    """A finished Quartett game at a table of three: ``holder`` holds every
    card, the two others went out one after the other."""
    out = [seat for seat in range(3) if seat != holder]
    return {
        f"s{holder}_cards": 30,
        **{f"s{seat}_out": True for seat in out},
        **{f"s{seat}_out_order": order for order, seat in enumerate(out, start=1)},
    }


class Venue:
    """What the pages show, each part built when a case first asks for it."""

    def __init__(self, organizer):
        self.organizer = organizer

    @cached_property
    def event(self):
        """Nine players at three tables of three, public; rounds 1 and 2
        complete, round 3 running with table 1's sheet in."""
        t = TournamentFactory(
            owner=self.organizer,
            name=TOURNAMENT,
            allowed_sizes=[3],
            table_size=3,
            rounds=4,
            venue=LONGEST_CLUB,
        )
        self.players = [
            PlayerFactory(tournament=t, name=name, club=club)
            for name, club in zip(NAMES, CLUBS, strict=True)
        ]
        orders = {  # round 3 is seated by the standings
            1: [self.players[k : k + 3] for k in range(0, 9, 3)],
            2: [self.players[k::3] for k in range(3)],
            3: None,
        }
        for number, order in orders.items():
            rnd = seated_round(t, order=order, start=number == 3, time_called=number < 3)
            tables = rnd.tables.order_by("number")
            for k, table in enumerate(tables if number < 3 else tables[:1]):
                results.result_submit(
                    table=table, sheet=sheet((k + number) % 3), by=self.organizer,
                    expected_version=None,
                )  # fmt: skip
        t.refresh_from_db()
        return t

    @cached_property
    def person(self):
        """The longest-named player in the roster, rated from two rounds."""
        self.event  # noqa: B018 — the players exist
        people = [roster.person_from_player(player=p, by=self.organizer) for p in self.players]
        return people[-1]

    @cached_property
    def series(self):
        self.person  # noqa: B018 — linked people count in the season
        series = series_services.series_save(
            series=Series(owner=self.organizer, name=TOURNAMENT, game="quartett", public=True)
        )
        series_services.series_add_tournament(
            series=series, tournament=self.event, by=self.organizer
        )
        return series

    @cached_property
    def draft(self) -> Round:
        t = TournamentFactory(
            owner=self.organizer, name=TOURNAMENT, allowed_sizes=[3], table_size=3
        )
        return seated_round(t, players=9, names=NAMES, club=CLUBS, publish=False)

    @cached_property
    def print_job(self) -> PrintJob:
        return PrintJob.objects.create(
            tournament=self.event, kind="sheets", round_number=3, total=3, done=1,
            status=PrintJob.RUNNING, by=self.organizer, language="de",
        )  # fmt: skip

    @cached_property
    def dropped_seat(self):
        """Table 2 of round 3, whose seat 1 player has dropped out since."""
        table = self.table(3, 2)
        player = table.seats.get(position=1).player
        services.player_drop(player=player, by=self.organizer)
        return table

    def table(self, number: int, table: int):
        return Round.objects.get(tournament=self.event, number=number).tables.get(number=table)

    def digital(self, game: str):
        """Table 1 of a digital tournament of ``game``, dealt and running."""
        return digital_table(
            self.organizer, game, SEATS, name=TOURNAMENT, names=NAMES[-SEATS:], club=LONGEST_CLUB
        )


def _event(path):
    return lambda v: f"/tournaments/{v.event.pk}/{path}"


def _public(path):
    return lambda v: f"/t/{v.event.pk}/{path}"


#: page type → (who looks: "organizer" logged in or "anyone", its path)
PAGES = {
    "home": ("anyone", lambda v: "/"),
    "login": ("anyone", lambda v: "/accounts/login/"),
    "signup": ("anyone", lambda v: "/accounts/signup/"),
    "not-found": ("anyone", lambda v: "/no-such-page/"),
    "tournament-list": ("organizer", lambda v: v.event and "/tournaments/"),
    "tournament-new": ("organizer", lambda v: "/tournaments/new/"),
    "tournament-import": ("organizer", lambda v: "/tournaments/import/"),
    "overview": ("organizer", _event("")),
    "settings": ("organizer", _event("edit/")),
    "scorekeepers": ("organizer", _event("scorekeepers/")),
    "archive": ("organizer", _event("archive/")),
    "delete": ("organizer", _event("delete/")),
    "players": ("organizer", _event("players/")),
    "player-add": ("organizer", _event("players/add/")),
    "player-edit": (
        "organizer",
        lambda v: f"/tournaments/{v.event.pk}/players/{v.players[-1].pk}/edit/",
    ),
    "player-import": ("organizer", _event("players/import/")),
    "team-add": ("organizer", _event("teams/add/")),
    "player-history": (
        "organizer",
        lambda v: f"/tournaments/{v.event.pk}/players/{v.players[-1].pk}/history/",
    ),
    "roster-people": ("organizer", _event("players/roster/")),
    "rounds": ("organizer", _event("rounds/")),
    "seating": ("organizer", _event("rounds/3/seating/")),
    "seating-draft": (
        "organizer",
        lambda v: f"/tournaments/{v.draft.tournament_id}/rounds/1/seating/",
    ),
    "round-running": ("organizer", _event("rounds/3/")),
    "round-complete": ("organizer", _event("rounds/1/")),
    "big-clock": ("organizer", _event("rounds/3/?big=1")),
    "round-results": ("organizer", _event("rounds/1/results/")),
    "result-find": ("organizer", _event("rounds/3/results/enter/")),
    "result-entry": ("organizer", _event("rounds/3/tables/2/result/")),
    "result-correction": ("organizer", _event("rounds/1/tables/1/result/")),
    "sheet-link": ("organizer", lambda v: f"/s/{table_token(v.table(3, 2).pk)}/"),
    "standings": ("organizer", _event("standings/")),
    "exports": ("organizer", _event("export/")),
    "printing": ("organizer", _event("print/")),
    "print-job": ("organizer", lambda v: f"/tournaments/{v.event.pk}/print/jobs/{v.print_job.pk}/"),
    "digital-round": (
        "organizer",
        lambda v: f"/tournaments/{v.digital('altruismus').round.tournament_id}/rounds/1/",
    ),
    "review": (
        "organizer",
        lambda v: (
            f"/tournaments/{v.digital('monddaemmerung').round.tournament_id}"
            "/rounds/1/tables/1/review/"
        ),
    ),
    "roster": ("organizer", lambda v: v.person and "/roster/"),
    "person": ("organizer", lambda v: f"/roster/{v.person.pk}/"),
    "club-import": ("organizer", lambda v: "/roster/import/"),
    "series-list": ("organizer", lambda v: v.series and "/series/"),
    "series": ("organizer", lambda v: f"/series/{v.series.pk}/"),
    "series-person": ("organizer", lambda v: f"/series/{v.series.pk}/people/{v.person.pk}/"),
    "public-tournament": ("anyone", _public("")),
    "public-round": ("anyone", _public("rounds/3/")),
    "public-standings": ("anyone", _public("standings/")),
    "projector": ("anyone", _public("rounds/3/projector/")),
    "public-season": ("anyone", lambda v: f"/season/{v.series.pk}/"),
    "public-review": (
        "anyone",
        lambda v: f"/t/{v.digital('trumpet').round.tournament_id}/rounds/1/tables/1/review/",
    ),
    "seat-dropped": ("anyone", lambda v: f"/p/{token_for(v.dropped_seat, 1)}/"),
    "sheet-link-invalid": ("organizer", lambda v: "/s/not-a-sheet/"),
    "seat-paper": (
        "anyone",
        lambda v: f"/p/{token_for(v.table(3, 2), 0)}/",
    ),
    **{
        f"seat-{game}": ("anyone", lambda v, game=game: f"/p/{token_for(v.digital(game), 0)}/")
        for game in GAMES
    },
    **{
        f"watch-{game}": (
            "anyone",
            lambda v, game=game: f"/t/{v.digital(game).round.tournament_id}/rounds/1/tables/1/",
        )
        for game in GAMES
    },
}


#: the page types that refuse, with the status they answer (their page must fit too)
REFUSED = {"not-found": 404, "sheet-link-invalid": 404, "seat-dropped": 403}


def sideways(page) -> dict:
    """The document's width against the window's, and the elements that
    reach past the window's right edge (to name the culprit)."""
    return page.evaluate(
        """() => {
        const out = [];
        for (const el of document.body.querySelectorAll('*')) {
          const r = el.getBoundingClientRect();
          if (r.width && r.right > innerWidth + 1) {
            let hidden = false;
            for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
              const o = getComputedStyle(p).overflowX;
              if (o !== 'visible') { hidden = true; break; }
            }
            if (!hidden) out.push(el.tagName.toLowerCase() + '.' + el.className + ' → '
                                  + Math.round(r.right));
          }
        }
        return {scroll: document.documentElement.scrollWidth, inner: innerWidth,
                culprits: out.slice(0, 8)};
      }"""
    )


def open_page(browser, live_server, who, organizer, viewport=PHONE):
    options = {"locale": "de-DE", "viewport": viewport, "bypass_csp": True}
    if who == "organizer":
        context = logged_in_context(browser, live_server, organizer, **options)
    else:
        context = browser.new_context(**options)
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


@pytest.mark.parametrize("kind", list(PAGES))
def test_no_page_scrolls_sideways_on_a_phone(browser, live_server, organizer, kind):
    who, path = PAGES[kind]
    venue = Venue(organizer)
    url = live_server.url + path(venue)
    page = open_page(browser, live_server, who, organizer)
    try:
        response = page.goto(url)
        assert response.status == REFUSED.get(kind, 200), response.status
        page.wait_for_load_state("networkidle")
        assert page.locator("html").get_attribute("lang") == "de"
        page.screenshot(path=f"/tmp/phones/{kind}.png", full_page=True)
        width = sideways(page)
        assert width["scroll"] <= width["inner"], width
    finally:
        page.context.close()


def page_top(page, selector: str) -> dict:
    """Where the first element matching ``selector`` sits in the document
    (not the window: a fill scrolls), and how far the window is scrolled."""
    return page.evaluate(
        """(selector) => { const r = document.querySelector(selector).getBoundingClientRect();
        return {top: r.top + scrollY, bottom: r.bottom + scrollY}; }""",
        selector,
    )


def test_the_check_in_search_comes_first_and_its_first_hit_shows(browser, live_server, organizer):
    venue = Venue(organizer)
    t = venue.event
    for k in range(40):  # a full door: the list is long
        PlayerFactory(tournament=t, name=f"Spielerin {k:02d} Übelacker", checked_in=False)
    page = open_page(browser, live_server, "organizer", organizer)
    try:
        page.goto(f"{live_server.url}/tournaments/{t.pk}/players/")
        search = page_top(page, "[data-player-search]")
        first_row = page_top(page, "table.players tbody tr")
        assert search["bottom"] < first_row["top"]
        assert search["bottom"] < PHONE["height"] / 2, search
        page.fill("[data-player-search]", "wisniewski")  # marks ignored
        assert page.locator("table.players tbody tr:visible").count() == 1
        hit = page_top(page, "table.players tbody tr:not([hidden])")
        # above an open on-screen keyboard (the screen's lower 300 px)
        assert hit["bottom"] <= PHONE["height"] - 300, hit
        assert "Wiśniewski" in page.locator("table.players tbody tr:visible").inner_text()
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path="/tmp/phones/check-in-search.png")
    finally:
        page.context.close()


@pytest.mark.parametrize("game", GAMES_WITH_FACTS)
def test_trump_and_the_game_facts_are_near_the_top_at_a_digital_table(
    browser, live_server, organizer, game
):
    table = Venue(organizer).digital(game)
    page = open_page(browser, live_server, "anyone", organizer)
    try:
        page.goto(f"{live_server.url}/p/{token_for(table, 0)}/")
        page.wait_for_selector("#play .play-facts")
        facts = page_top(page, "#play .play-facts")
        moves = page_top(page, "#play .play-actions, #play .play-hand")
        players = page_top(page, "#play .play-players")
        # trump and the facts in the upper half, then the moves, then the players
        assert facts["top"] < PHONE["height"] / 2, facts
        assert facts["bottom"] <= moves["top"] < players["top"]
        # the first row of moves (a button or a card, 2.5 rem) on the first screen
        assert moves["top"] + 40 <= PHONE["height"], moves
        page.screenshot(path=f"/tmp/phones/facts-{game}.png")
    finally:
        page.context.close()


@pytest.mark.parametrize("game", GAMES)
def test_the_spectator_view_fits_the_projector(browser, live_server, organizer, game):
    table = Venue(organizer).digital(game)
    play_on(table, 6)  # cards on the table: a trick, the last one
    page = open_page(browser, live_server, "anyone", organizer, viewport=PROJECTOR)
    try:
        page.goto(f"{live_server.url}/t/{table.round.tournament_id}/rounds/1/tables/1/")
        page.wait_for_selector("#watch")
        page.screenshot(path=f"/tmp/phones/watch-projector-{game}.png")
        height = page.evaluate("document.documentElement.scrollHeight")
        assert height <= PROJECTOR["height"], height
        scores = page.locator("#watch .play-players")
        assert scores.count() == 1
        box = scores.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= PROJECTOR["height"], box
        width = sideways(page)
        assert width["scroll"] <= width["inner"], width
        # no score or note cut off at the table's edge (the players' column)
        assert clipped(page, "#watch .play-players td, #watch .play-players th") == []
    finally:
        page.context.close()


#: every game at every size from two to six players that it allows
GAME_SIZES = [
    (game, n)
    for game in GAMES
    for n in range(2, 7)
    if get_engine(game).min_players <= n <= get_engine(game).max_players
]


@pytest.mark.parametrize("game", GAMES)
def test_the_spectator_view_fits_the_projector_at_every_table_size_with_the_longest_names(
    browser, live_server, organizer, game
):
    """Two to six players (as many as the game allows), each name and club
    the longest allowed: every score and the note column stay whole."""
    sizes = [n for g, n in GAME_SIZES if g == game]
    page = open_page(browser, live_server, "anyone", organizer, viewport=PROJECTOR)
    try:
        for n in sizes:
            names = [f"{k + 1} {LONGEST_NAME}"[:MAX_NAME] for k in range(n)]
            table = digital_table(
                organizer, game, n, name=TOURNAMENT, names=names, club=LONGEST_CLUB
            )
            play_on(table, 2 * n)  # a trick on the table, points and notes to show
            page.goto(f"{live_server.url}/t/{table.round.tournament_id}/rounds/1/tables/1/")
            page.wait_for_selector("#watch")
            page.screenshot(path=f"/tmp/phones/watch-projector-{game}-{n}.png")
            height = page.evaluate("document.documentElement.scrollHeight")
            assert height <= PROJECTOR["height"], (n, height)
            width = sideways(page)
            assert width["scroll"] <= width["inner"], (n, width)
            cut = clipped(page, "#watch .play-players td, #watch .play-players th")
            assert cut == [], (n, cut)
            # the long names above the cards leave room for the cards on the table
            assert hidden_cards(page) == [], (n, hidden_cards(page))
    finally:
        page.context.close()


def hidden_cards(page) -> list[str]:
    """The headings of the card groups on the spectator's board (the trick,
    the cards played) whose heading or first card is not wholly in view."""
    return page.evaluate(
        """() => {
            const board = document.querySelector('#watch');
            const bottom = Math.min(innerHeight, board.getBoundingClientRect().bottom);
            return [...document.querySelectorAll('#watch .board-cards .play-cards')]
              .filter(ul => {
                const heading = ul.previousElementSibling || ul.parentElement;
                const card = ul.querySelector('.play-card');
                return [heading, card].some(el => el && el.getBoundingClientRect().bottom > bottom + 1);
              })
              .map(ul => (ul.previousElementSibling || ul).textContent.trim().slice(0, 40));
        }"""
    )


def clipped(page, selector: str) -> list[str]:
    """The cells whose text reaches past their own box, or past the box of
    the first ancestor that hides what overflows it (or the window)."""
    return page.evaluate(
        """(sel) => [...document.querySelectorAll(sel)].filter(el => {
            const r = el.getBoundingClientRect();
            let right = innerWidth, bottom = innerHeight;
            for (let p = el.parentElement; p; p = p.parentElement) {
              if (getComputedStyle(p).overflowX !== 'visible') {
                const b = p.getBoundingClientRect();
                right = Math.min(right, b.right); bottom = Math.min(bottom, b.bottom);
                break;
              }
            }
            return el.scrollWidth > el.clientWidth + 1 || r.right > right + 1
              || r.bottom > bottom + 1;
        }).map(el => el.textContent.trim().slice(0, 40))""",
        selector,
    )
