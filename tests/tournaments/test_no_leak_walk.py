"""No page, partial, poll answer or export that
a player or the public can reach shows another seat's hidden cards or any
table's deal secret.

For each of the five games a public digital tournament (two tables) is
played move by move through the seat pages; at several points every public
and player URL of the tournament is fetched — each seat's page, its play and
clock polls (and the answer to its move), the spectator view and its poll,
the public tournament, round (with "find your table"), status, projector
(every slide), standings and season pages, and the staff's CSV/JSON exports
— and each answer is searched for

- every card the page's viewer must not see: for a seat page the cards the
  engine hides from that seat (other hands, the draw pile), for a public
  page the cards it hides from everyone, by whole card id ("TP-green-1" is
  not found inside "TP-green-10") and by the card's printed title;
- every table's deal secret in each form the server holds or derives from
  it: the secret's hex digits, the engine seed and the generator's state,
  in decimal and hex.

The public review/replay is walked at every step like the other pages; the
push streams by what they send (the test client is no ASGI server).
``NOT_CHECKED_YET`` names a public URL deliberately left out of the walk
(none today).
"""

from __future__ import annotations

import functools
import re

import pytest
from django.urls import reverse

from games import rng
from games.base import RandomBot
from scoring.season.models import Series
from scoring.standings import listings
from tests.factories import DIGITAL_GAMES, PlayerFactory, TournamentFactory, seated_round
from tests.seat_tokens import token_for
from tournaments import urls as site_urls
from tournaments.play import tables as digital
from tournaments.play.base import Ctx, card_index
from tournaments.play.screen import presentation
from tournaments.registrations.services import announcement_save
from tournaments.services import deadlines

pytestmark = pytest.mark.django_db


#: Public URLs (by name) this walk leaves out for now. The public review
#: labels moves with what only the mover knew (fixed on
#: another branch): after merging that fix the lead deletes the name here,
#: and the walk checks the review at every step of the record as well
#: (against every card the public has never seen and can't see now).
NOT_CHECKED_YET: set[str] = set()

#: the moves played between two walks (the first walk is at the deal)
WALK_AFTER = (0, 8)


@pytest.fixture(autouse=True)
def no_broker(monkeypatch):
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)


def _public_round(organizer, game, size):
    """Round 1 of a public digital tournament: two full tables, published
    and started, in a public season."""
    t = TournamentFactory(
        owner=organizer,
        game=game,
        digital_tables=True,
        public=True,
        allowed_sizes=[size],
        table_size=size,
        round_minutes=60,
    )
    for k in range(2 * size):
        PlayerFactory(tournament=t, name=f"Spielerin {k:02d}")
    rnd = seated_round(t, start=True)
    # announced for registration: the announcement's pages are walked too
    announcement_save(tournament=t, by=organizer, cap=2 * size, public_names=True)
    series = Series.objects.create(owner=organizer, name="Saison", game=game, public=True)
    series.tournaments.add(t)
    return rnd, series


# -- what a viewer must not see -------------------------------------------------


def _strings(obj) -> set[str]:
    if isinstance(obj, str):
        return {obj}
    if isinstance(obj, dict):
        return set().union(set(), *(_strings(k) | _strings(v) for k, v in obj.items()))
    if isinstance(obj, list | tuple):
        return set().union(set(), *(_strings(v) for v in obj))
    return set()


def hidden_from(engine, state, seat) -> set[str]:
    """The card ids ``seat`` (None: the public) must not see: what the engine
    hides from it, less what its own view shows."""
    return set(engine.hidden(state, seat)) - _strings(engine.view(state, seat))


def titles(engine, state) -> dict[str, str]:
    """Each card's printed title (every deck's titles are unique)."""
    cards = card_index(engine, state["players"], state.get("options") or {})
    n = state["players"]
    ctx = Ctx(engine=engine, view={}, legal=[], seat=0, names=[""] * n, cards=cards)
    shown = presentation(engine.id)
    return {cid: shown.card_title(ctx, cid) for cid in cards}


@functools.cache
def _whole(text: str) -> re.Pattern:
    """``text`` as a whole token: not inside a longer id, word or number."""
    return re.compile(rf"(?<![\w-]){re.escape(text)}(?![\w-])")


def leaked_cards(body: str, cards: set[str], title_of: dict[str, str]) -> set[str]:
    """The ``cards`` whose id or printed title is in ``body`` (as a whole
    word: the plain substring test only spares the pattern where the text is
    not there at all)."""

    def shown(text: str | None) -> bool:
        return bool(text) and text in body and _whole(text).search(body) is not None

    return {cid for cid in cards if shown(cid) or shown(title_of.get(cid))}


def secret_forms(table) -> set[str]:
    """Every form of the table's secret the server holds or derives: the
    secret (hex, either case), the engine seed, the generator's state at the
    deal and now — numbers in decimal and hex."""
    seed = digital.deal_seed(table)
    numbers = {seed, rng.seed_state(seed), table.state["rng"]}
    out = {table.secret, table.secret.upper()}
    for n in numbers:
        if isinstance(n, str):  # the keyed stream's state: "<count>:<key hex>"
            key = n.partition(":")[2]
            out |= {n, key, key.upper()}
            continue
        out |= {str(n), f"{n:x}", f"{n:X}"}
    # a number short enough to occur by chance says nothing (2**-40 odds)
    return {s for s in out if len(s) >= 12}


# -- the walk --------------------------------------------------------------------


def _urls(rnd, series) -> list[tuple[str, str, object]]:
    """Every public and player GET of the round: (URL name, URL, whose view
    it is: a (table, seat) pair, a table for its spectator view, or None for
    the public)."""
    t, n = rnd.tournament.pk, rnd.number
    out = [
        ("home", reverse("home"), None),
        ("tournament_public", reverse("tournament_public", args=[t]), None),
        ("round_public", reverse("round_public", args=[t, n]), None),
        ("round_public_status", reverse("round_public_status", args=[t, n]), None),
        ("standings_public", reverse("standings_public", args=[t]), None),
        ("announcement_public", reverse("announcement_public", args=[t]), None),
        ("registration_door", reverse("registration_door", args=[t]), None),
        ("season_public", reverse("season_public", args=[series.pk]), None),
        ("tournament_season", reverse("tournament_season", args=[t]), None),
        (
            "round_projector",
            reverse("round_projector", args=[t, n]) + "?show=clock,seating,standings,tables",
            None,
        ),
        (
            "round_projector_tables",
            reverse("round_projector_tables", args=[t, n]) + "?compact=1",
            None,
        ),
    ]
    for table in rnd.tables.order_by("number"):
        out += [
            ("table_watch", reverse("table_watch", args=[t, n, table.number]), table),
            (
                "table_watch_board",
                reverse("table_watch_board", args=[t, n, table.number]) + "?v=old",
                table,
            ),
            (
                "table_review_public",
                reverse("table_review_public", args=[t, n, table.number]),
                ("review", table),
            ),
        ]
        review = reverse("table_review_public", args=[t, n, table.number])
        out += [
            ("table_review_public", f"{review}?step={k}", ("review", table))
            for k in range(table.actions.count() + 1)
        ]
        for seat in range(table.seats.count()):
            token = token_for(table, seat)
            out += [
                ("seat_link", reverse("seat_link", args=[token]), (table, seat)),
                ("seat_play", reverse("seat_play", args=[token]) + "?v=old", (table, seat)),
                ("seat_clock", reverse("seat_clock", args=[token]), (table, seat)),
                ("seat_leave", reverse("seat_leave", args=[token]), (table, seat)),
                ("seat_stream", reverse("seat_stream", args=[token]), (table, seat)),
            ]
        out.append(
            (
                "table_watch_stream",
                reverse("table_watch_stream", args=[t, n, table.number]),
                table,
            )
        )
    return [u for u in out if u[0] not in NOT_CHECKED_YET]


def pushed(view, rnd) -> str:
    """What a push stream sends now to a browser that shows nothing yet:
    a seat's own screen and the clock, or the spectator's board (the test
    client is no ASGI server: the stream's URL itself answers 204)."""
    from tournaments.push import redraw

    if isinstance(view, tuple):
        table, seat = view
        conn = redraw.Conn(
            kind=redraw.SEAT,
            table_id=table.pk,
            round_id=rnd.pk,
            language="en",
            position=seat,
            token=token_for(table, seat),
            csrf_token="x" * 64,
        )
    else:
        conn = redraw.Conn(kind=redraw.WATCH, table_id=view.pk, round_id=rnd.pk, language="en")
    events = redraw.redraw({conn.table_id}, {rnd.pk}, [conn])
    assert events, "a new stream gets its screen"
    return "\n".join(text for _conn, _event, text, _shows in events)


def _never_public(engine, table) -> set[str]:
    """The cards of ``table`` hidden from the public now that it never saw
    at any step of the record (a card played face up and taken back into a
    hand is history: the review may name it)."""
    rows = list(table.actions.order_by("number"))
    seen = set().union(
        *(_strings(engine.view(s, None)) for s in digital.replay_states(table, rows))
    )
    return set(engine.hidden(table.state, None)) - seen


def _forbidden(engine, view, tables) -> set[str]:
    if isinstance(view, tuple) and view[0] == "review":  # the public replay
        return _never_public(engine, tables[view[1].pk])
    if isinstance(view, tuple):  # a seat's own pages: its table only
        table, seat = view
        return hidden_from(engine, tables[table.pk].state, seat)
    if view is not None:  # a table's spectator view
        return hidden_from(engine, tables[view.pk].state, None)
    # a public page of the whole round: what any table hides from everyone,
    # unless another table shows that card (decks repeat between tables)
    hidden = set().union(*(set(engine.hidden(t.state, None)) for t in tables.values()))
    shown = set().union(*(_strings(engine.view(t.state, None)) for t in tables.values()))
    return hidden - shown


def check(body: str, where: str, forbidden: set[str], title_of, secrets: set[str]) -> None:
    leaked = leaked_cards(body, forbidden, title_of)
    assert not leaked, f"{where} shows hidden cards {sorted(leaked)[:5]}"
    found = [s for s in secrets if s in body]
    assert not found, f"{where} shows a table's deal secret ({found[0][:8]}…)"


def walk(client, rnd, series, engine) -> set[str]:
    """Fetch every URL of ``_urls`` and check each answer; the URL names seen."""
    tables = {t.pk: t for t in rnd.tables.all()}
    first = next(iter(tables.values()))
    title_of = titles(engine, first.state)
    secrets = set().union(*(secret_forms(t) for t in tables.values()))
    seen = set()
    for name, url, view in _urls(rnd, series):
        response = client.get(url)
        assert response.status_code in (200, 204, 286), (url, response.status_code)
        body = pushed(view, rnd) if name.endswith("_stream") else response.content.decode()
        check(body, url, _forbidden(engine, view, tables), title_of, secrets)
        seen.add(name)
    return seen


def _exports(client, rnd, engine) -> None:
    """The staff's CSV and JSON exports (players, seatings, results,
    standings) hold no card and no secret either."""
    t = rnd.tournament
    tables = {x.pk: x for x in rnd.tables.all()}
    secrets = set().union(*(secret_forms(x) for x in tables.values()))
    every_card = set().union(*(set(engine.hidden(x.state, None)) for x in tables.values()))
    title_of = titles(engine, next(iter(tables.values())).state)
    client.force_login(t.owner)
    for what in listings.EXPORTS:
        for fmt in ("csv", "json"):
            response = client.get(reverse("export", args=[t.pk, what, fmt]))
            assert response.status_code == 200
            body = response.content.decode("utf-8-sig")
            check(body, f"{what}.{fmt}", every_card, title_of, secrets)
    client.logout()


@pytest.mark.parametrize(("game", "size"), DIGITAL_GAMES)
def test_no_public_or_player_answer_shows_hidden_cards_or_a_deal_secret(
    client, organizer, game, size
):
    rnd, series = _public_round(organizer, game, size)
    engine = rnd.tournament.engine
    chooser = RandomBot(len(game))
    seen: set[str] = set()
    moves = 0
    for target in WALK_AFTER:
        while moves < target:
            table = rnd.tables.order_by("number").first()
            table.refresh_from_db()
            state = engine.load(table.state)
            if engine.is_over(state):
                break
            seat = engine.to_act(state)[0]
            action = chooser.choose(engine.view(state, seat), engine.legal_actions(state, seat))
            # the answer to a move is a player's page too
            response = client.post(
                reverse("seat_move", args=[token_for(table, seat)]),
                {"action": action, "seen": table.actions.count()},
                HTTP_HX_REQUEST="true",
            )
            assert response.status_code == 200
            table.refresh_from_db()
            assert table.actions.count() == moves + 1, "the move was not played"
            check(
                response.content.decode(),
                f"move {moves} of seat {seat}",
                hidden_from(engine, table.state, seat),
                titles(engine, table.state),
                secret_forms(table),
            )
            moves += 1
        seen |= walk(client, rnd, series, engine)
    _exports(client, rnd, engine)
    # every public and player page of a tournament was walked (or is listed
    # as not checked yet): a new public URL must join this walk
    names = {
        p.name
        for p in [*site_urls.public_patterns, *site_urls.player_patterns]
        if getattr(p, "name", None)
    }
    assert names - {"seat_move"} <= seen | NOT_CHECKED_YET, names - seen - NOT_CHECKED_YET


def test_the_check_finds_whole_card_ids_and_titles_only():
    """The leak check itself: a whole id or title is found, an id inside a
    longer one is not ("TP-green-1" in "play:TP-green-10")."""
    title_of = {"TP-green-1": "Green 1", "AL-red-01": "Red 1"}
    cards = set(title_of)
    assert leaked_cards('data-card="TP-green-1"', cards, title_of) == {"TP-green-1"}
    assert leaked_cards("play:TP-green-1<", cards, title_of) == {"TP-green-1"}
    assert leaked_cards("play:TP-green-10 Green 10 Red 12", cards, title_of) == set()
    assert leaked_cards("Pick Red 1.", cards, title_of) == {"AL-red-01"}
