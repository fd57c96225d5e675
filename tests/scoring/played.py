"""A small tournament played the way a club plays it, through the services
(``tests/factories.py``), and every page that shows it: what the import
tests export, break and import again.

- ``paper_tournament``: Quartett on paper, 9 players at tables of 4 (or 2)
  and a bye each round (one player late, one dropped); rounds 1 and 2
  complete (round 2 with a corrected sheet), round 3 running: table 1
  extended, its result reported by a player and confirmed by another one
  (waiting for the rest), the last table's result entered.
- ``digital_tournament``: Monddämmerung at a digital table of 4; round 1
  played out by the bots (called here, as the worker would), round 2 dealt
  and running.
- ``club``: an organizer's roster linked to two paper tournaments in a
  public series.
- ``pages``: every page of a tournament (organizer, scorekeeper-free public
  pages, seat links, exports, prints), of its organizer's roster people and
  of the series it is in, as ``(url, status)``.
"""

from __future__ import annotations

import random

from django.test import Client, override_settings
from django.urls import reverse

from scoring import services as results
from scoring.exchange.views import FORMATS
from scoring.printing import documents
from scoring.season import services as series_services
from scoring.season.models import Series
from scoring.sheet_links import table_token
from scoring.standings import listings
from tests.factories import PlayerFactory, TournamentFactory, seated_round
from tournaments.models import Round, Table, Tournament
from tournaments.play.links import seat_keys, seat_token
from tournaments.roster_models import Person
from tournaments.services import players, roster, round_life


def quartett_sheet(tournament, n: int, rng: random.Random) -> dict:
    """A Quartett sheet the engine accepts: the cards in play held in
    different counts, in an order drawn by ``rng``."""
    engine = tournament.engine
    in_play = len(engine.deck(n, tournament.game_options or {})) // n * n
    cards = [in_play // n - i for i in range(1, n)]
    cards.append(in_play - sum(cards))
    rng.shuffle(cards)
    sheet = {f"s{i}_cards": c for i, c in enumerate(cards)}
    engine.check_sheet(n, sheet, tournament.game_options or {})
    return sheet


def _enter_all(rnd: Round, by, rng: random.Random) -> None:
    for table in rnd.tables.order_by("number"):
        n = table.seats.count()
        results.result_submit(
            table=table,
            sheet=quartett_sheet(rnd.tournament, n, rng),
            by=by,
            expected_version=None,
        )


def paper_tournament(owner, *, name: str = "Herbstturnier", seed: int = 1) -> Tournament:
    rng = random.Random(seed)
    t = TournamentFactory(
        owner=owner,
        name=name,
        game="quartett",
        rounds=4,
        table_size=4,
        allowed_sizes=[2, 4],
        self_report=True,
    )
    clubs = ["SC Köln", "", "TV Bonn"]
    for k in range(9):
        PlayerFactory(
            tournament=t,
            name=f"Spieler {k} Ø",
            club=clubs[k % 3],
            rating=1200 + 37 * k,
            birth_year=1960 + 5 * k,
        )
    r1 = seated_round(t, seed=seed, time_called=True)
    _enter_all(r1, owner, rng)
    r2 = seated_round(t, seed=seed + 1, time_called=True)
    _enter_all(r2, owner, rng)
    first = r2.tables.get(number=1)
    results.result_submit(
        table=first,
        sheet=quartett_sheet(t, first.seats.count(), rng),
        by=owner,
        expected_version=1,
        reason="Seats 1 and 2 swapped on the sheet",
    )
    dropped = t.players.order_by("name").first()
    players.player_drop(player=dropped, by=owner)
    late = PlayerFactory(tournament=t, name="Zoë Spät", club="TV Bonn")
    assert late.first_round == 3
    r3 = seated_round(t, seed=seed + 2, start=True)
    first = r3.tables.get(number=1)
    round_life.table_extend(table=first, by=owner, minutes=5, reason="Schiedsrichter")
    report = results.result_submit(  # a player reports, another one agrees
        table=first,
        sheet=quartett_sheet(t, first.seats.count(), rng),
        by_seat=0,
        from_address="192.0.2.7",
        expected_version=None,
        ended_before_time=True,
    )
    results.result_confirm(submission=report, by_seat=1)
    last = r3.tables.order_by("-number").first()
    results.result_submit(
        table=last,
        sheet=quartett_sheet(t, last.seats.count(), rng),
        by=owner,
        expected_version=None,
        ended_before_time=True,
    )
    return t


def digital_tournament(owner, *, name: str = "Monddämmerung digital", seed: int = 1):
    from tournaments.play import bots

    t = TournamentFactory(
        owner=owner,
        name=name,
        game="monddaemmerung",
        digital_tables=True,
        table_size=4,
        allowed_sizes=[4],
        rounds=3,
    )
    for k in range(4):
        PlayerFactory(tournament=t, name=f"Spielerin {k}", birth_year=1980 + k)
    r1 = seated_round(t, seed=seed, start=True)
    with override_settings(DIGITAL_BOT_DELAY=0):
        for table in r1.tables.all():
            for seat in table.seats.filter(player__isnull=False):
                bots.seat_to_bot(table=table, position=seat.position)
            for _ in range(100):  # the bots play it out, a task's moves at a time
                if not bots.bot_move(table_id=table.pk):
                    break
    r1.refresh_from_db()
    assert not r1.tables.exclude(status=Table.DONE).exists(), "the bots did not finish"
    round_life.round_end(round=r1, by=owner)  # every table has its result: round 1 ends
    seated_round(t, seed=seed + 1, start=True)
    return t


def club(owner) -> Series:
    """Two paper tournaments of ``owner``, every player linked to a roster
    person (one person merged into another), in a public series."""
    first = paper_tournament(owner, name="Januar", seed=1)
    second = paper_tournament(owner, name="Februar", seed=2)
    people = {}
    for player in first.players.order_by("name"):
        people[player.name] = roster.person_from_player(player=player, by=owner)
    for player in second.players.order_by("name"):
        person = people.get(player.name)
        if person is None:
            person = roster.person_from_player(player=player, by=owner)
        else:
            roster.player_attach_person(player=player, person=person, by=owner)
    twin = roster.person_create(owner=owner, name="Spieler 1 Ø (alt)")
    roster.person_merge(kept=people["Spieler 1 Ø"], merged=twin, by=owner)
    series = series_services.series_save(
        series=Series(
            owner=owner, name="Jahreswertung", game="quartett", scheme="placement", public=True
        )
    )
    for t in (first, second):
        series_services.series_add_tournament(series=series, tournament=t, by=owner)
    return series


# -- every page -------------------------------------------------------------------

#: a round's pages (with its prints, tables and seat links): of every round
#: for a whole sweep, of the rounds a change touched (``rounds``) for the
#: property tests
ROUND_PAGES = ("round_seating", "round_detail", "round_results", "round_public")
MORE_ROUND_PAGES = (
    "round_status",
    "round_digital",
    "result_find",
    "round_public_status",
    "round_projector",
    "round_projector_tables",
)


def tournament_urls(t: Tournament, rounds=None) -> list[str]:
    """The pages of ``t`` an organizer or the public can open (GET): all of
    them, or with ``rounds`` (round numbers) every kind of page, the rounds'
    only of those rounds (the first when none of them is there) and the
    players' of three."""
    tid = t.pk
    urls = [
        reverse(name, args=[tid])
        for name in (
            "tournament_detail",
            "tournament_edit",
            "scorekeepers",
            "player_list",
            "roster_people",
            "round_list",
            "standings",
            "export_center",
            "tournament_export",
            "print_center",
            "print_standings",
            "print_final",
            "print_certificates",
            "tournament_public",
            "standings_public",
        )
    ]
    urls += [
        reverse("export", args=[tid, what, fmt]) for what in listings.EXPORTS for fmt in FORMATS
    ]
    player_ids = list(t.players.order_by("name").values_list("pk", flat=True))
    if rounds is not None:  # the first, the middle and the last one
        player_ids = sorted(
            set(player_ids[:1] + player_ids[len(player_ids) // 2 :][:1] + player_ids[-1:])
        )
    for k, player_id in enumerate(player_ids):
        urls.append(reverse("player_history", args=[tid, player_id]))
        if k == 0 or rounds is None:
            urls.append(reverse("player_edit", args=[tid, player_id]))
    all_rounds = Round.objects.filter(tournament=t).order_by("number")
    if rounds is not None and not all_rounds.filter(number__in=rounds).exists():
        rounds = [all_rounds.values_list("number", flat=True).first()]
    for rnd in all_rounds:
        n = rnd.number
        if rounds is not None and n not in rounds:
            continue
        urls += [reverse(name, args=[tid, n]) for name in ROUND_PAGES]
        urls += [reverse(name, args=[tid, n]) for name in MORE_ROUND_PAGES]
        urls += [reverse("print_round", args=[tid, n, kind]) for kind in documents.ROUND_KINDS]
        for x, table in enumerate(rnd.tables.order_by("number")):
            args = [tid, n, table.number]
            urls.append(reverse("result_entry", args=args))
            if rounds is not None and x > 0:
                continue  # the table's other pages: the first table's do
            urls.append(reverse("sheet_link", args=[table_token(table.pk)]))
            if table.digital:
                urls += [
                    reverse(name, args=args)
                    for name in (
                        "table_review",
                        "table_watch",
                        "table_watch_board",
                        "table_review_public",
                    )
                ]
            seated = table.seats.filter(player__isnull=False, player__dropped=False)
            for seat in seated.order_by("position")[:1]:
                token = seat_token(seat)
                urls += [
                    reverse("seat_link", args=[token]),
                    reverse("seat_play", args=[token]),
                    reverse("seat_clock", args=[token]),
                ]
        for bye in rnd.byes.all()[:1]:
            key = seat_keys(rnd.pk, [bye.player_id])[bye.player_id]
            urls.append(reverse("seat_link", args=[key]))
    return urls


def owner_urls(owner, people: int | None = None) -> list[str]:
    """The organizer's roster, every roster person (or the first ``people``)
    and every series' pages."""
    urls = [reverse("roster"), reverse("series_list"), reverse("club_export")]
    people = list(Person.objects.filter(owner=owner).values_list("pk", flat=True)[:people])
    urls += [reverse("person_detail", args=[pk]) for pk in people]
    for series in Series.objects.filter(owner=owner):
        urls += [
            reverse(name, args=[series.pk])
            for name in ("series_detail", "series_csv", "series_pdf", "season_public")
        ]
        urls += [reverse("series_person", args=[series.pk, pk]) for pk in people[:2]]
    return urls


def pages(owner, tournaments=(), *, rounds=None) -> list[tuple[str, int]]:
    """``(url, status)`` of the pages of these tournaments and of the
    owner's roster and series, as the owner and, for the public pages, as
    anybody. ``rounds``: a lighter round of every kind of page (see
    :func:`tournament_urls`; three players' and three people's pages)."""
    client = Client(raise_request_exception=False)
    client.force_login(owner)
    urls = [u for t in tournaments for u in tournament_urls(t, rounds)]
    urls += owner_urls(owner, None if rounds is None else 3)
    out = [(url, client.get(url, follow=True).status_code) for url in urls]
    anonymous = Client(raise_request_exception=False)
    for url in urls:
        if url.startswith(("/t/", "/season/", "/p/")):
            out.append((url, anonymous.get(url).status_code))
    return out


def server_errors(owner, tournaments=(), *, rounds=None) -> list[tuple[str, int]]:
    return [(u, status) for u, status in pages(owner, tournaments, rounds=rounds) if status >= 500]
