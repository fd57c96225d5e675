"""Empty seats the bot plays (``Tournament.bot_fill``): a field that doesn't
divide into the allowed table sizes still plays. The players left over sit
together at the last table, the bot plays its empty seats from the first
move, the table is ranked over all its seats, and the bot earns nothing
(README, "Empty seats")."""

import io
import json

import pytest
from django.urls import reverse
from pypdf import PdfReader

from scoring import selectors as scoring_selectors
from scoring.exchange.export import export_tournament
from scoring.exchange.importer import import_tournament
from scoring.models import Submission
from scoring.standings import listings
from scoring.standings import selectors as standings_selectors
from tests.factories import PlayerFactory, TournamentFactory, seated_round
from tournaments.forms import TournamentForm
from tournaments.models import Seat, Table
from tournaments.play import bots
from tournaments.points import get_scheme
from tournaments.services import ServiceError, seating

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("inline_bots")]


def mond(organizer, players=10, **fields):
    """A digital Monddämmerung tournament at tables of 4 only, bots filling."""
    fields.setdefault("bot_fill", True)
    t = TournamentFactory(
        owner=organizer,
        game="monddaemmerung",
        digital_tables=True,
        table_size=4,
        allowed_sizes=[4],
        **fields,
    )
    for _ in range(players):
        PlayerFactory(tournament=t)
    return t


def layout(rnd):
    """Per table number: (players, empty seats)."""
    out = {}
    for table in rnd.tables.order_by("number"):
        seats = list(table.seats.order_by("position"))
        out[table.number] = (
            sum(s.player_id is not None for s in seats),
            sum(s.player_id is None for s in seats),
        )
    return out


def play_to_the_end(rnd):
    """Every seat to the bot, and each table played out by it."""
    for table in rnd.tables.all():
        for seat in table.seats.filter(player__isnull=False):
            bots.seat_to_bot(table=table, position=seat.position)
    for table in rnd.tables.all():
        table.refresh_from_db()
        assert table.status == Table.DONE, f"table {table.number} did not finish"


def test_ten_players_at_tables_of_four_leave_two_for_a_bot_table(organizer):
    t = mond(organizer, players=10)
    rnd = seating.round_seat(tournament=t, by=organizer)
    assert layout(rnd) == {1: (4, 0), 2: (4, 0), 3: (2, 2)}
    empty = list(Seat.objects.filter(table__round=rnd, player__isnull=True))
    assert [s.position for s in empty] == [2, 3]  # after the players
    assert all(s.bot for s in empty)
    assert not rnd.byes.exists()
    why = rnd.tables.get(number=3).why
    assert any(w["code"].startswith("bot_table") for w in why)
    # the seating page names the empty seats and counts them
    page = seating_page(organizer, rnd)
    assert "2 empty seats played by the bot" in page


def seating_page(client_user, rnd):
    from django.test import Client

    c = Client()
    c.force_login(client_user)
    response = c.get(reverse("round_seating", args=[rnd.tournament_id, rnd.number]))
    assert response.status_code == 200
    return response.content.decode()


def test_without_bot_fill_the_same_field_is_refused_with_a_message(organizer):
    t = mond(organizer, players=10, bot_fill=False)
    with pytest.raises(ServiceError, match="10 players cannot be seated"):
        seating.round_seat(tournament=t, by=organizer)
    assert not t.round_set.exists()


def test_bot_fill_needs_digital_tables(organizer):
    form = TournamentForm(
        data={
            "name": "Papier",
            "game": "monddaemmerung",
            "rounds": 3,
            "round_minutes": 30,
            "table_size": 4,
            "allowed_sizes": [4],
            "points_scheme": "placement",
            "bot_fill": "on",
            "grace_seconds": 60,
        }
    )
    form.instance.owner = organizer
    assert not form.is_valid()
    assert "bot_fill" in form.errors


def test_the_bot_table_plays_from_the_first_move_and_the_bot_earns_nothing(organizer):
    t = mond(organizer, players=6)
    rnd = seated_round(t, start=True)
    assert layout(rnd) == {1: (4, 0), 2: (2, 2)}
    bot_table = rnd.tables.get(number=2)
    bot_table.refresh_from_db()
    assert bot_table.state is not None and bot_table.state["players"] == 4
    play_to_the_end(rnd)
    sub = Submission.objects.get(table=bot_table, status=Submission.CONFIRMED)
    assert len(sub.ranks) == 4
    humans = list(bot_table.seats.filter(player__isnull=False).order_by("position"))
    rows = {r.player_id: r for r in standings_selectors.standings(t)}
    assert len(rows) == 6  # no row for a bot
    scheme = get_scheme(t.points_scheme)
    points = scheme.table(tuple(sub.ranks), tuple(sub.figures))
    for seat in humans:  # a table of four: the humans' places as the ranks say
        assert rows[seat.player_id].points == pytest.approx(float(points[seat.position]))
    # the round's results page and a bot-table player's history
    from django.test import Client

    c = Client()
    c.force_login(organizer)
    page = c.get(reverse("round_results", args=[t.pk, rnd.number]))
    assert page.status_code == 200
    history = listings.player_history(t, humans[0].player)
    assert history[0]["rank"] == sub.ranks[humans[0].position]
    assert {m["id"] for m in history[0]["mates"]} == {humans[1].player_id}
    # the result page names the empty seats "Bot"
    names = scoring_selectors.seat_names(bot_table.pk)
    assert (names[2], names[3]) == ("Bot (seat 3)", "Bot (seat 4)")


def test_an_empty_seat_is_never_handed_to_a_player(organizer):
    t = mond(organizer, players=6)
    rnd = seated_round(t, start=True)
    bot_table = rnd.tables.get(number=2)
    with pytest.raises(ServiceError, match="has no player"):
        bots.seat_to_player(table=bot_table, position=3)
    assert Seat.objects.get(table=bot_table, position=3).bot


def test_who_had_the_bot_table_does_not_get_it_again(organizer):
    t = mond(organizer, players=6, rounds=3)
    first = seated_round(t, start=True)
    had = set(
        first.tables.get(number=2)
        .seats.filter(player__isnull=False)
        .values_list("player_id", flat=True)
    )
    play_to_the_end(first)
    second = seated_round(t, publish=False)
    again = set(
        second.tables.get(number=2)
        .seats.filter(player__isnull=False)
        .values_list("player_id", flat=True)
    )
    assert layout(second) == {1: (4, 0), 2: (2, 2)}
    assert not had & again


def test_a_late_arrival_takes_an_empty_seat(organizer):
    t = mond(organizer, players=6)
    rnd = seating.round_seat(tournament=t, by=organizer)
    late = PlayerFactory(tournament=t)
    seating.seating_add_player(round=rnd, player=late, by=organizer)
    assert layout(rnd) == {1: (4, 0), 2: (3, 1)}
    assert Seat.objects.get(table__round=rnd, player=late).table.number == 2


def test_a_drop_before_the_start_leaves_an_empty_seat_not_a_reseating(organizer):
    from tournaments import services

    t = mond(organizer, players=8)
    rnd = seating.round_seat(tournament=t, by=organizer)
    assert layout(rnd) == {1: (4, 0), 2: (4, 0)}
    other = list(rnd.tables.get(number=1).seats.values_list("player_id", flat=True))
    leaver = Seat.objects.get(table__round=rnd, table__number=2, position=1).player
    services.player_drop(player=leaver, by=organizer)
    assert layout(rnd) == {1: (4, 0), 2: (3, 1)}
    assert list(rnd.tables.get(number=1).seats.values_list("player_id", flat=True)) == other


def test_export_and_import_keep_the_empty_seats(organizer):
    t = mond(organizer, players=6)
    rnd = seated_round(t, start=True)
    play_to_the_end(rnd)
    data = json.loads(json.dumps(export_tournament(t), default=str))
    seats = data["rounds"][0]["tables"][1]["seats"]
    assert [s["player"] for s in seats][2:] == [None, None]
    copy = import_tournament(data=data, owner=organizer)
    table = copy.round_set.get(number=1).tables.get(number=2)
    assert list(table.seats.order_by("position").values_list("player_id", flat=True))[2:] == [
        None,
        None,
    ]
    assert {r.player_id for r in standings_selectors.standings(copy)} == set(
        copy.players.values_list("pk", flat=True)
    )


def test_seat_links_and_table_cards_leave_the_empty_seats_out(organizer, client):
    t = mond(organizer, players=6)
    rnd = seated_round(t)
    client.force_login(organizer)
    page = client.get(reverse("round_seating", args=[t.pk, rnd.number])).content.decode()
    assert page.count("data-seat-link") == 6
    tables = listings.seated_tables(t, rnd.number)
    assert tables[1]["bot_seats"] == [3, 4] and len(tables[1]["players"]) == 2
    pdf = client.get(reverse("print_round", args=[t.pk, rnd.number, "tables"]))
    assert pdf.status_code == 200
    # the printed seating list names the empty seats at their seat numbers
    pdf = client.get(reverse("print_round", args=[t.pk, rnd.number, "seating"]))
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf.content)).pages)
    assert "3\nBot\n4\nBot" in text
