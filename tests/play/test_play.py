"""Digital tables in the browser: a player's seat page shows his own view of
the game (never another seat's hidden cards) with exactly his legal moves as
buttons; moves go through ``table_move`` (refusals change nothing); the
clock's end, the bot's finish and the result show; seat links reach the
players on the table cards and the seating page."""

from __future__ import annotations

import re
from datetime import timedelta
from html import unescape

import pytest
from django.urls import resolve, reverse

from games import get_engine
from games.base import RandomBot
from scoring.printing import documents
from tests.factories import deal_secret, digital_table, one_table
from tournaments.models import Round, Seat, TableAction
from tournaments.play import tables as digital
from tournaments.play.links import resolve_seat, seat_token
from tournaments.services import deadlines, round_life

pytestmark = pytest.mark.django_db

GAMES = [
    ("quartett", 2),
    ("terra_trumpf", 2),
    ("trumpet", 3),
    ("monddaemmerung", 3),
    ("altruismus", 3),
]
NAMES = ["Ayşe Şahin", "Łukasz Wróbel", "Jürgen Weiß", "Zoë Berg"]


@pytest.fixture(autouse=True)
def no_broker(monkeypatch):
    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)


def make_table(organizer, game="quartett", players=2, *, start=True, grace=60, **fields):
    """Round 1 of a digital tournament seated through the services (names
    from ``NAMES`` in seat order), started unless ``start=False``."""
    table = digital_table(
        organizer,
        game,
        players,
        start=start,
        names=NAMES[:players],
        grace_seconds=grace,
        round_minutes=30,
        **fields,
    )
    return table.round, table


def page_url(table, position):
    return reverse("seat_link", args=[seat_token(Seat.objects.get(table=table, position=position))])


def move_url(table, position):
    return reverse("seat_move", args=[seat_token(Seat.objects.get(table=table, position=position))])


def play_url(table, position):
    return reverse("seat_play", args=[seat_token(Seat.objects.get(table=table, position=position))])


def state_of(table):
    table.refresh_from_db()
    return table.round.tournament.engine.load(table.state)


def buttons(html: str) -> list[str]:
    """The moves offered as buttons."""
    return [unescape(v) for v in re.findall(r'<button[^>]*name="action"[^>]*value="([^"]*)"', html)]


def shown_cards(html: str) -> set[str]:
    return set(re.findall(r'data-card="([^"]*)"', html)) | {
        part for b in buttons(html) for part in b.split(":")
    }


def strings_in(obj) -> set[str]:
    if isinstance(obj, str):
        return {obj}
    if isinstance(obj, dict):
        return set().union(*(strings_in(k) | strings_in(v) for k, v in obj.items()), set())
    if isinstance(obj, list):
        return set().union(*(strings_in(v) for v in obj), set())
    return set()


def hand_ids(view) -> set[str]:
    hand = view.get("hand") or []
    return set(hand.keys() if isinstance(hand, dict) else hand)


def check_seat_page(client, table, engine, state, position):
    html = client.get(page_url(table, position)).content.decode()
    mine = engine.view(state, position)
    legal = engine.legal_actions(state, position)
    # exactly his legal moves as buttons
    assert sorted(buttons(html)) == sorted(legal)
    # his hand as cards
    shown = shown_cards(html)
    assert hand_ids(mine) <= shown
    # nothing another seat alone may see
    visible = strings_in(mine)
    n = state["players"]
    secret = set().union(*(hand_ids(engine.view(state, j)) for j in range(n) if j != position))
    secret -= visible
    assert not (secret & shown), secret & shown
    for cid in secret:  # whole ids only: "TP-green-1" is not in "play:TP-green-10"
        assert f'"{cid}"' not in html
        assert not re.search(rf":{re.escape(cid)}(?![\w-])", html), cid
    if engine.id in ("quartett", "terra_trumpf"):  # card names are unique there
        names = {c["id"]: c["name"] for c in engine.deck(n, state["options"])}
        visible_names = {names[c] for c in visible if c in names}
        for cid in secret:
            if names[cid] not in visible_names:
                assert names[cid] not in unescape(html), names[cid]
    return html


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_each_game_shows_the_hand_legal_moves_and_no_secret_cards(client, organizer, game, players):
    rnd, table = make_table(organizer, game, players)
    engine = get_engine(game)
    bot = RandomBot(11)
    for _step in range(8):
        state = state_of(table)
        if engine.is_over(state):
            break
        for position in range(players):
            html = check_seat_page(client, table, engine, state, position)
            assert NAMES[position] in html
        # the seat to act plays a legal move through his page
        seat = engine.to_act(state)[0]
        action = bot.choose(engine.view(state, seat), engine.legal_actions(state, seat))
        before = TableAction.objects.filter(table=table).count()
        response = client.post(move_url(table, seat), {"action": action}, HTTP_HX_REQUEST="true")
        assert response.status_code == 200
        assert 'id="play"' in response.content.decode()
        assert 'role="alert"' not in response.content.decode()
        logged = TableAction.objects.filter(table=table).order_by("number")
        assert logged.count() == before + 1
        assert (logged.last().seat, logged.last().action) == (seat, action)
        assert state_of(table) == engine.apply(state, seat, action)


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_action_labels_are_human(client, organizer, game, players):
    rnd, table = make_table(organizer, game, players)
    engine = get_engine(game)
    state = state_of(table)
    seat = engine.to_act(state)[0]
    html = unescape(client.get(page_url(table, seat)).content.decode())
    labels = re.findall(r'<button[^>]*name="action"[^>]*>(.*?)</button>', html, re.S)
    # a card's button is named by what it shows; the move is its title
    aria = re.findall(r'(?:aria-label|title)="([^"]*)"', html)
    assert labels
    text = " ".join(labels + aria)
    first = engine.legal_actions(state, seat)[0]
    assert f">{first}<" not in html  # not the raw action string
    expected = {
        "quartett": "Announce ",
        "terra_trumpf": "as Alpha",
        "trumpet": "Play ",
        "monddaemmerung": "Play ",
        "altruismus": "Pick ",
    }[game]
    assert expected in text


def test_quartett_announce_buttons_name_the_attribute_and_his_value(client, organizer):
    # a fixed deal whose top card has a number of planets (a card whose value
    # is "nicht definierbar" is labelled in words)
    rnd, table = make_table(organizer, secret=deal_secret(1))
    engine = get_engine("quartett")
    state = state_of(table)
    top = engine.view(state, 0)["top"]
    html = unescape(client.get(page_url(table, 0)).content.decode())
    assert top["name"] in html
    assert "Announce Distance to Earth (" in html
    assert f"Number of planets ({top['values']['planets']}" in html


def test_unknown_action_kinds_fall_back_to_the_raw_string():
    from tournaments.play.base import Ctx
    from tournaments.play.screen import presentation

    engine = get_engine("trumpet")
    ctx = Ctx(engine=engine, view={}, legal=[], seat=0, names=["A", "B"], cards={})
    assert presentation("trumpet").action_label(ctx, "dance:wildly") is None
    assert presentation("trumpet").action_label(ctx, "advance") == "Move your figure forward"


def test_a_move_by_the_wrong_seat_or_an_invented_move_is_refused(client, organizer):
    rnd, table = make_table(organizer)
    before = state_of(table)
    response = client.post(
        move_url(table, 1), {"action": "announce:distance"}, HTTP_HX_REQUEST="true"
    )
    html = unescape(response.content.decode())
    assert "It is not your turn: waiting for Ayşe Şahin." in html
    response = client.post(
        move_url(table, 0), {"action": "announce:colour"}, HTTP_HX_REQUEST="true"
    )
    html = unescape(response.content.decode())
    assert "This move is not allowed" in html
    assert state_of(table) == before
    assert not TableAction.objects.filter(table=table).exists()
    # without htmx: back to the seat page with the message
    response = client.post(move_url(table, 1), {"action": "announce:distance"}, follow=True)
    assert "It is not your turn" in unescape(response.content.decode())
    assert state_of(table) == before


def test_a_tampered_token_is_refused(client, organizer):
    rnd, table = make_table(organizer)
    token = seat_token(Seat.objects.get(table=table, position=0))
    tampered = token[:-1] + ("A" if token[-1] != "A" else "B")
    assert not resolve_seat(tampered).ok and resolve_seat(tampered).seat is None
    for name in ("seat_link", "seat_play", "seat_clock"):
        assert client.get(reverse(name, args=[tampered])).status_code == 404
    response = client.post(reverse("seat_move", args=[tampered]), {"action": "announce:distance"})
    assert response.status_code == 404
    assert not TableAction.objects.filter(table=table).exists()


def travel(rnd, seconds):
    """Move the round's stored times back by ``seconds``."""
    d = timedelta(seconds=seconds)
    for a in rnd.activations.all():
        a.at -= d
        a.save(update_fields=["at"])
    rnd.refresh_from_db()
    if rnd.deadline:
        Round.objects.filter(pk=rnd.pk).update(deadline=rnd.deadline - d)
    for t in rnd.tables.all():
        if t.time_called_at:
            t.time_called_at -= d
            t.save(update_fields=["time_called_at"])


def test_after_the_deadline_without_a_worker_moves_are_refused(client, organizer):
    rnd, table = make_table(organizer)
    before = state_of(table)
    travel(rnd, 31 * 60)  # the deadline passed; no worker closed the round
    html = unescape(client.get(page_url(table, 0)).content.decode())
    assert "Time is up" in html
    assert buttons(html) == []
    response = client.post(
        move_url(table, 0), {"action": "announce:distance"}, HTTP_HX_REQUEST="true"
    )
    assert "Time is up" in unescape(response.content.decode())
    assert state_of(table) == before
    assert not TableAction.objects.filter(table=table).exists()


def test_time_called_then_the_bot_finishes_and_the_result_shows(client, organizer):
    rnd, table = make_table(organizer, "terra_trumpf", 2, grace=30)
    engine = get_engine("terra_trumpf")
    state = state_of(table)
    # Alpha and one card: a trick is open when time is called
    digital.table_move(table=table, seat=0, action=engine.legal_actions(state, 0)[0])
    state = state_of(table)
    seat = engine.to_act(state)[0]
    digital.table_move(table=table, seat=seat, action=engine.legal_actions(state, seat)[0])
    travel(rnd, 31 * 60)
    assert round_life.round_time_up(rnd.pk)
    state = state_of(table)
    assert not engine.is_over(state)
    seat = engine.to_act(state)[0]
    html = unescape(client.get(page_url(table, seat)).content.decode())
    assert "Time called — finish the open trick." in html
    assert sorted(buttons(html)) == sorted(engine.legal_actions(state, seat))
    # the grace period passes: the bot plays out the rest
    travel(rnd, 31)
    assert digital.table_finish(table_id=table.pk)
    state = state_of(table)
    assert engine.is_over(state)
    result = engine.result(state)
    html = unescape(client.get(page_url(table, 0)).content.decode())
    assert "The bot played out what was left open." in html
    assert "Result" in html and buttons(html) == []
    rows = re.findall(r"<tr[^>]*><td>(\d+)</td><td>([^<]+)</td><td>([^<]*)</td></tr>", html)
    assert rows[:2] == sorted(
        [(str(result.ranks[i]), NAMES[i], str(result.figures[i])) for i in range(2)],
        key=lambda r: (int(r[0]), r[1]),
    )
    # a finished game stops polling
    assert 'hx-trigger="every 800ms"' not in html


def test_before_the_round_starts_the_page_waits_and_polls(client, organizer):
    rnd, table = make_table(organizer, start=False)
    response = client.get(page_url(table, 1))
    html = unescape(response.content.decode())
    assert response.status_code == 200
    assert "The game starts when the organizer starts the round." in html
    assert 'hx-trigger="every 800ms"' in html
    assert "Report your table" not in html
    round_life.round_start(round=rnd, by=organizer)
    html = unescape(client.get(play_url(table, 1)).content.decode())
    assert "Ayşe Şahin names an attribute." in html


def test_polling_answers_204_until_something_changes(client, organizer):
    rnd, table = make_table(organizer)
    first = client.get(play_url(table, 1))
    version = re.search(r'data-version="([^"]+)"', first.content.decode()).group(1)
    assert client.get(play_url(table, 1), {"v": version}).status_code == 204
    engine = get_engine("quartett")
    digital.table_move(table=table, seat=0, action=engine.legal_actions(state_of(table), 0)[0])
    again = client.get(play_url(table, 1), {"v": version})
    assert again.status_code == 200 and 'id="play"' in again.content.decode()


def test_a_move_made_while_a_screen_is_built_is_not_hidden_behind_its_version(
    client, organizer, monkeypatch
):
    """A phone polls while another seat's move commits: the screen it gets
    may show the table before that move, but then its version must be the
    one before the move too, so the next poll draws the move — a screen of
    the old state under the new version would wait (204) until something
    else happened, and the player might not see that it is her turn."""
    import tournaments.play.screen as play

    rnd, table = make_table(organizer)
    engine = get_engine("quartett")
    to_act = engine.to_act(state_of(table))[0]
    other = 1 - to_act
    original = play.seats_in_order
    moved = []

    def seats_then_the_other_seat_moves(t):
        if not moved:
            action = engine.legal_actions(state_of(table), to_act)[0]
            digital.table_move(table=table, seat=to_act, action=action)
            moved.append(action)
        return original(t)

    monkeypatch.setattr(play, "seats_in_order", seats_then_the_other_seat_moves)
    screen = play.seat_screen(Seat.objects.get(table=table, position=other))
    monkeypatch.setattr(play, "seats_in_order", original)
    assert moved
    assert screen["seen"] == 0  # the screen shows the table before the move
    assert screen["version"] != play.seat_version(Seat.objects.get(table=table, position=other))
    again = client.get(play_url(table, other), {"v": screen["version"]})
    assert again.status_code == 200
    current = play.seat_version(Seat.objects.get(table=table, position=other))
    assert f'data-version="{current}"' in again.content.decode()


def test_the_clock_partial_of_the_seat(client, organizer):
    rnd, table = make_table(organizer)
    html = client.get(page_url(table, 0)).content.decode()
    assert (
        reverse("seat_clock", args=[seat_token(Seat.objects.get(table=table, position=0))]) in html
    )
    assert "js/clock.js" in html
    response = client.get(
        reverse("seat_clock", args=[seat_token(Seat.objects.get(table=table, position=0))])
    )
    assert response.status_code == 200 and "data-clock" in response.content.decode()


def test_paper_tables_keep_the_result_form(client, organizer):
    table = one_table(organizer, "quartett", 2, names=NAMES[:2], self_report=True)
    html = client.get(page_url(table, 0)).content.decode()
    assert 'id="play"' not in html and "Report your table" in html


# -- seat links reach the players --------------------------------------------


def decode_qr_codes(pdf: bytes) -> list[str]:
    import pypdfium2 as pdfium
    import zxingcpp

    doc = pdfium.PdfDocument(pdf)
    found = []
    for k in range(len(doc)):
        image = doc[k].render(scale=150 / 72).to_pil().convert("L")
        codes = sorted(
            zxingcpp.read_barcodes(image),
            key=lambda c: (c.position.top_left.y // 100, c.position.top_left.x),
        )
        found += [c.text for c in codes]
    return found


def test_table_cards_carry_a_seat_qr_code_per_player(client, organizer):
    import io

    import pdfplumber

    rnd, table = make_table(organizer, "trumpet", 3, start=False)
    client.force_login(organizer)
    response = client.get(reverse("print_round", args=[rnd.tournament.pk, 1, "tables"]))
    assert response.status_code == 200
    pdf = response.content
    with pdfplumber.open(io.BytesIO(pdf)) as doc:
        pages = [page.extract_text() or "" for page in doc.pages]
    assert len(pages) == 2  # the tent card, then the seat slips
    for pos, name in enumerate(NAMES[:3]):
        assert name in pages[1]
        assert f"Table 1 · Seat {pos + 1}" in pages[1]
    codes = decode_qr_codes(pdf)
    assert len(codes) == 3
    for pos, code in enumerate(codes):
        assert code.startswith("http://testserver/")
        match = resolve(code.removeprefix("http://testserver"))
        assert match.url_name == "seat_link"
        seat = resolve_seat(match.kwargs["token"]).seat
        assert (seat.table_id, seat.position) == (table.pk, pos)
        # the link opens that player's seat page
        client.logout()
        html = unescape(client.get(code).content.decode())
        assert NAMES[pos] in html and "The game starts when the organizer starts the round." in html


def test_paper_table_cards_without_self_report_have_no_seat_codes(organizer):
    table = one_table(organizer, "quartett", 2, names=NAMES[:2])
    t = table.round.tournament
    assert decode_qr_codes(documents.render("tables", t, 1)) == []
    t.self_report = True
    t.save()
    codes = decode_qr_codes(documents.render("tables", t, 1))
    seats = [resolve_seat(c.rsplit("/p/", 1)[1].strip("/")).seat for c in codes]
    assert [(s.table_id, s.position) for s in seats] == [
        (table.pk, 0),
        (table.pk, 1),
    ]


def test_the_seating_page_lists_the_seat_links(client, organizer):
    rnd, table = make_table(organizer, "quartett", 2, start=False)
    client.force_login(organizer)
    html = client.get(reverse("round_seating", args=[rnd.tournament.pk, 1])).content.decode()
    assert "Seat links" in html
    for pos in range(2):
        assert f"http://testserver{page_url(table, pos)}" in html


# -- the tournament form -------------------------------------------------------


def test_the_tournament_form_sets_digital_tables_and_reporting(client, organizer, tournament):
    client.force_login(organizer)
    url = reverse("tournament_edit", args=[tournament.pk])
    html = client.get(url).content.decode()
    for field in ("digital_tables", "grace_seconds", "confirmation_required", "self_report"):
        assert f'name="{field}"' in html
    data = {
        "name": tournament.name,
        "game": tournament.game,
        "rounds": 4,
        "round_minutes": 40,
        "points_scheme": tournament.points_scheme,
        "public": "on",
        "digital_tables": "on",
        "grace_seconds": 90,
        "self_report": "on",
    }
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    tournament.refresh_from_db()
    assert tournament.digital_tables and tournament.self_report
    assert not tournament.confirmation_required
    assert tournament.grace_seconds == 90
    data.pop("grace_seconds")
    client.post(url, data)
    tournament.refresh_from_db()
    assert tournament.grace_seconds == 90  # left empty: unchanged


def test_a_move_on_a_table_removed_under_it_reloads_the_page_not_a_500(
    client, organizer, monkeypatch
):
    """A re-seat may remove the table between the link's check and the move:
    nothing is played, and the page is loaded anew (never a server error)."""
    from tournaments.models import Table
    from tournaments.play import links as seat_links
    from tournaments.play.screen import seat_key

    _rnd, table = make_table(organizer, "quartett", 2)
    token = seat_token(Seat.objects.get(table=table, position=0))
    access = seat_links.resolve_seat(token)
    stale = access.seat
    monkeypatch.setattr(seat_links, "resolve_seat", lambda t: access)
    Table.objects.filter(pk=table.pk).delete()
    assert stale.table_id == table.pk
    url = reverse("seat_move", args=[token])
    response = client.post(
        url, {"action": "ask:x", "s": seat_key(table.pk, 0)}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200 and response["HX-Refresh"] == "true"
    response = client.post(url, {"action": "ask:x", "s": seat_key(table.pk, 0)})
    assert response.status_code in (200, 302)
    assert not TableAction.objects.filter(table_id=table.pk).exists()
