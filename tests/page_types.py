"""One of every page type of the site, with the data that fills it, for the
checks that walk them all (``tests/browser/test_axe.py`` runs axe-core on
each, ``tests/tournaments/test_html_wellformed.py`` parses each).

``build(organizer)`` makes, through the services as a real evening would:

- a public Quartett tournament at tables of three with long names and
  clubs (two "Thomas Müller"): round 1 played and ended, round 2 running
  with one sheet in, its players linked to roster people, in a public series;
- a public digital tournament of each of the five games, table 1 dealt and
  started, six moves played (cards on the table: a trick, the last one),
  a bot in the last seat;
- a public tournament open for registration with two places: two players
  registered, one withdrew, one waiting, the door's self check-in open;

and returns every page type as a ``Page``: who opens it (the organizer
logged in, or anyone) and its path.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring import services as results
from scoring.season import services as series_services
from scoring.season.models import Series
from scoring.sheet_links import table_token
from tests.factories import (
    DIGITAL_GAMES,
    LONG_CLUBS,
    LONG_NAMES,
    PlayerFactory,
    TournamentFactory,
    UserFactory,
    digital_table,
    play_on,
    seated_round,
)
from tests.seat_tokens import token_for
from tournaments.play import bots
from tournaments.registrations import services as registrations
from tournaments.services import roster, round_life

#: a finished Quartett game at a table of three: two players out, one holds every card
FINISHED = {"s0_cards": 30, "s1_out": True, "s1_out_order": 1, "s2_out": True, "s2_out_order": 2}


@dataclass(frozen=True)
class Page:
    name: str
    path: str
    #: the organizer's session (else anyone, no account)
    staff: bool = True
    #: the answer's status (after redirects)
    status: int = 200


def _paper_tournament(organizer):
    """The Quartett evening: round 1 ended, round 2 running, one sheet in."""
    t = TournamentFactory(
        owner=organizer,
        name="Quartett-Vereinsturnier Januar 2027",
        allowed_sizes=[3],
        table_size=3,
        rounds=4,
        public=True,
        self_report=True,
    )
    players = [
        PlayerFactory(tournament=t, name=name, club=club)
        for name, club in zip(LONG_NAMES, LONG_CLUBS, strict=True)
    ]
    order = [players[k : k + 3] for k in range(0, 9, 3)]
    first = seated_round(t, order=order, start=True)
    for table in first.tables.order_by("number"):
        results.result_submit(table=table, sheet=FINISHED, by=organizer, expected_version=None)
    round_life.round_end_when_done(round_id=first.pk, by=organizer)
    second = seated_round(t, start=True)
    results.result_submit(
        table=second.tables.get(number=1), sheet=FINISHED, by=organizer, expected_version=None
    )
    people = [roster.person_from_player(player=p, by=organizer) for p in players]
    series = series_services.series_save(
        series=Series(owner=organizer, name="Quartett-Jahreswertung 2027", game="quartett")
    )
    series_services.series_add_tournament(series=series, tournament=t, by=organizer)
    Series.objects.filter(pk=series.pk).update(public=True)
    return t, players, second, series, people


def _digital_table(organizer, game, size):
    table = digital_table(
        organizer, game, size, names=LONG_NAMES[:size], name=f"Digitalabend {game}", public=True
    )
    play_on(table, 6)
    bots.seat_to_bot(table=table, position=size - 1)
    return table


def _registration_tournament(organizer):
    """Registration open, two places: the first player withdrew (their row
    is the withdrawn one), the next two took the places, the last waits; the
    door's self check-in is open. Returns the tournament and the personal
    links' tokens of a confirmed player and of the one who withdrew."""
    t = TournamentFactory(owner=organizer, name="Sommerturnier mit Anmeldung", public=True)
    registrations.announcement_save(
        tournament=t, by=organizer, cap=2, public_names=True, venue=LONG_CLUBS[0]
    )
    signed = [
        registrations.register(
            tournament=t,
            entry=registrations.Entry(name, club, consent_public=True),
        )
        for name, club in zip(LONG_NAMES[:4], LONG_CLUBS[:4], strict=True)
    ]
    registrations.registration_withdraw(registration=signed[0].registration)
    registrations.check_in_open(tournament=t, open=True, by=organizer)
    return t, signed[1].token, signed[0].token


def build(organizer) -> list[Page]:
    t, players, running, series, people = _paper_tournament(organizer)
    person = people[0].pk
    other = TournamentFactory(owner=UserFactory(), name="Fremdes Turnier")
    draft = seated_round(
        TournamentFactory(owner=organizer, name="Sitzplan-Entwurf", allowed_sizes=[3, 4]),
        players=7,
        names=LONG_NAMES[:7],
        club=LONG_CLUBS[:7],
        publish=False,
    )
    announced, token, withdrawn = _registration_tournament(organizer)
    tid, n = t.pk, running.number
    org = f"/tournaments/{tid}"
    pages = [
        # the organizer's pages of one tournament
        Page("tournament list", "/tournaments/"),
        Page("new tournament", "/tournaments/new/"),
        Page("overview", f"{org}/"),
        Page("settings", f"{org}/edit/"),
        Page("scorekeepers", f"{org}/scorekeepers/"),
        Page("archive", f"{org}/archive/"),
        Page("delete", f"{org}/delete/"),
        Page("players and check-in", f"{org}/players/"),
        Page("add a player", f"{org}/players/add/"),
        Page("import players", f"{org}/players/import/"),
        Page("tournament roster", f"{org}/players/roster/"),
        Page("edit a player", f"{org}/players/{players[0].pk}/edit/"),
        Page("player history", f"{org}/players/{players[0].pk}/history/"),
        Page("rounds", f"{org}/rounds/"),
        Page("seating", f"{org}/rounds/{n}/seating/"),
        Page("seating draft", f"/tournaments/{draft.tournament_id}/rounds/1/seating/"),
        Page("round", f"{org}/rounds/{n}/"),
        Page("round ended", f"{org}/rounds/1/"),
        Page("find a table's sheet", f"{org}/rounds/{n}/results/enter/"),
        Page("result entry", f"{org}/rounds/{n}/tables/2/result/"),
        Page("result entered", f"{org}/rounds/{n}/tables/1/result/"),
        Page("round results", f"{org}/rounds/1/results/"),
        Page("standings", f"{org}/standings/"),
        Page("print", f"{org}/print/"),
        Page("export", f"{org}/export/"),
        Page("tournament import", "/tournaments/import/"),
        Page("final stage", f"{org}/final/"),
        Page("add a team", f"{org}/teams/add/"),
        Page("follow from home", f"{org}/mirror/"),
        Page("mirror keys", "/mirror/keys/"),
        Page("mirror link", "/mirror/link/"),
        # registration before the day, and the door
        Page("registrations", f"/tournaments/{announced.pk}/registrations/"),
        Page("announcement", f"/tournaments/{announced.pk}/registrations/announcement/"),
        Page("check-in poster", f"/tournaments/{announced.pk}/registrations/poster/"),
        Page("register", f"/t/{announced.pk}/register/", staff=False),
        Page("door check-in", f"/t/{announced.pk}/check-in/", staff=False),
        Page("registration link", f"/r/{token}/", staff=False),
        Page("withdrawn registration link", f"/r/{withdrawn}/", staff=False),
        # the club
        Page("roster", "/roster/"),
        Page("person", f"/roster/{person}/"),
        Page("roster import", "/roster/import/"),
        Page("series list", "/series/"),
        Page("series", f"/series/{series.pk}/"),
        Page("series person", f"/series/{series.pk}/people/{person}/"),
        # anyone
        Page("home", "/", staff=False),
        Page("login", "/accounts/login/", staff=False),
        Page("signup", "/accounts/signup/", staff=False),
        Page("not found", "/t/987654/", staff=False, status=404),
        Page("forbidden", f"/tournaments/{other.pk}/", status=403),
        Page("public tournament", f"/t/{tid}/", staff=False),
        Page("public round", f"/t/{tid}/rounds/{n}/", staff=False),
        Page("projector", f"/t/{tid}/rounds/{n}/projector/", staff=False),
        Page("projector: seating", f"/t/{tid}/rounds/{n}/projector/?show=seating", staff=False),
        Page("projector: standings", f"/t/{tid}/rounds/{n}/projector/?show=standings", staff=False),
        Page("projector: tables", f"/t/{tid}/rounds/{n}/projector/?show=tables", staff=False),
        Page("public standings", f"/t/{tid}/standings/", staff=False),
        Page("public season", f"/season/{series.pk}/", staff=False),
        Page("public tournament season", f"/t/{tid}/season/", staff=False),
        Page(
            "seat at a paper table (self-report)",
            f"/p/{token_for(running.tables.get(number=2), 0)}/",
            staff=False,
        ),
        Page(
            "sheet link",
            f"/s/{table_token(running.tables.get(number=2).pk)}/",
            staff=False,
        ),
    ]
    for game, size in DIGITAL_GAMES:
        table = _digital_table(organizer, game, size)
        dt = table.round.tournament_id
        pages += [
            Page(f"seat {game}", f"/p/{token_for(table, 0)}/", staff=False),
            Page(f"spectator {game}", f"/t/{dt}/rounds/1/tables/1/", staff=False),
            Page(f"public review {game}", f"/t/{dt}/rounds/1/tables/1/review/", staff=False),
        ]
        if game == "quartett":
            pages += [
                Page("digital round", f"/tournaments/{dt}/rounds/1/"),
                Page("review", f"/tournaments/{dt}/rounds/1/tables/1/review/"),
                Page("review at the deal", f"/tournaments/{dt}/rounds/1/tables/1/review/?step=0"),
            ]
    return pages
