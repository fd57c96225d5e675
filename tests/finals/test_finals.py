"""The final stage through the services and every consumer of the standings:
its settings (bad input refused, nothing changed), seating the final after
the qualifying rounds (the leader at table 1 seat 1), semi-finals and the
final, the final order on the standings pages, exports, the final standings
PDF, certificates and the season, a tie at the final table, and a
correction of a qualifying round once the final is seated."""

from __future__ import annotations

import io
import json

import pdfplumber
import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring import services as results
from scoring.exchange.export import export_json
from scoring.exchange.format import ImportRefused
from scoring.exchange.importer import import_tournament
from scoring.printing import documents
from scoring.season import selectors as season_selectors
from scoring.season import services as series_services
from scoring.season.models import Series
from scoring.selectors import event_overview
from scoring.standings import listings
from scoring.standings.selectors import standings
from tests.factories import PlayerFactory, TournamentFactory, seated_round
from tests.seat_tokens import token_for
from tournaments.finals import selectors as finals
from tournaments.finals import services
from tournaments.finals.models import FinalStage
from tournaments.models import Round, Seat, Table
from tournaments.services import ServiceError, event, roster, round_life
from tournaments.services import players as player_services

pytestmark = pytest.mark.django_db


def sheet(tournament, order_of_seats: list[int], n: int) -> dict:
    """A Quartett sheet on which the seats finish in ``order_of_seats``
    (best first): distinct card counts adding up to the cards in play."""
    in_play = len(tournament.engine.deck(n, tournament.game_options or {})) // n * n
    counts = [in_play // n + n - 1 - 2 * k for k in range(n)]
    counts[0] += in_play - sum(counts)
    out = {}
    for count, seat in zip(counts, order_of_seats, strict=True):
        out[f"s{seat}_cards"] = count
    tournament.engine.check_sheet(n, out, tournament.game_options or {})
    return out


def enter(table, order_by_player: list | None = None, by=None):
    """Enter ``table``'s sheet: players in ``order_by_player`` best first
    (default: seat order)."""
    seats = list(table.seats.order_by("position").values_list("player_id", flat=True))
    order = (
        list(range(len(seats)))
        if order_by_player is None
        else [seats.index(p.pk) for p in order_by_player]
    )
    t = table.round.tournament
    return results.result_submit(
        table=table, sheet=sheet(t, order, len(seats)), by=by or t.owner, expected_version=None
    )


def end(rnd: Round) -> Round:
    """Every table has its result: the organizer's press ends the round."""
    round_life.round_end(round=rnd, by=rnd.tournament.owner)
    rnd.refresh_from_db()
    return rnd


def play_round(tournament, seed: int = 1) -> Round:
    rnd = seated_round(tournament, seed=seed, time_called=True)
    for table in rnd.tables.order_by("number"):
        enter(table)
    rnd.refresh_from_db()
    assert rnd.status == Round.COMPLETE
    return rnd


def quartett(organizer, players=8, rounds=2, **fields):
    t = TournamentFactory(
        owner=organizer, game="quartett", rounds=rounds, table_size=4, allowed_sizes=[4], **fields
    )
    for k in range(players):
        PlayerFactory(tournament=t, name=f"Spieler {k:02d}", club="SC" if k % 2 else "")
    return t


def final_of(t, **values):
    values.setdefault("format", FinalStage.TABLE)
    values.setdefault("final_size", 4)
    return services.final_stage_save(tournament=t, by=t.owner, **values)


def qualifying_top(t, n):
    rows = standings(t, up_to_round=t.rounds, played_only=True)
    return [r.player_id for r in rows[:n]]


# -- settings and bad input --------------------------------------------------------


def test_settings_the_game_or_the_field_cannot_play_are_refused_and_nothing_is_saved(organizer):
    t = quartett(organizer, players=6)
    with pytest.raises(ServiceError, match=r"not one of the allowed table sizes \(2, 3, 4, 5, 6\)"):
        final_of(t, final_size=7)
    with pytest.raises(ServiceError, match="not one of the allowed table sizes"):
        final_of(t, format=FinalStage.SEMIS, semi_tables=2, semi_size=1, advance=1, final_size=2)
    with pytest.raises(ServiceError, match="for the best 8, but only 6"):
        final_of(t, format=FinalStage.SEMIS, semi_tables=2, semi_size=4, advance=2)
    with pytest.raises(ServiceError, match="send 2 to the final"):
        final_of(t, format=FinalStage.SEMIS, semi_tables=2, semi_size=4, advance=1)
    with pytest.raises(ServiceError, match="from 1 to 600"):
        final_of(t, minutes=0)
    assert not FinalStage.objects.filter(tournament=t).exists()


def test_seating_the_final_before_the_qualifying_rounds_are_complete_is_refused(organizer):
    t = quartett(organizer)
    final_of(t)
    play_round(t)
    seated_round(t, seed=2, start=True)  # round 2 of 2 is still played
    with pytest.raises(ServiceError, match="1 of 2 rounds are complete"):
        services.final_seat(tournament=t, by=organizer)
    assert not Round.objects.filter(tournament=t).exclude(stage="").exists()


def test_a_finished_tournament_seats_no_final_and_its_settings_stay(organizer):
    t = quartett(organizer, rounds=1)
    final_of(t)
    play_round(t)
    event.tournament_finish(tournament=t)
    with pytest.raises(ServiceError, match="finished"):
        services.final_seat(tournament=t, by=organizer)
    with pytest.raises(ServiceError, match="finished"):
        final_of(t, final_size=4, mode=FinalStage.ADD)
    assert FinalStage.objects.get(tournament=t).mode == FinalStage.REPLACE
    assert Round.objects.filter(tournament=t).count() == 1


def test_without_a_final_stage_nothing_is_seated(organizer):
    t = quartett(organizer, rounds=1)
    play_round(t)
    with pytest.raises(ServiceError, match="no final stage"):
        services.final_seat(tournament=t, by=organizer)


def test_after_the_last_round_the_overview_offers_a_possible_final_beside_finishing(
    client, organizer
):
    t = quartett(organizer, rounds=1)
    play_round(t)
    step = event_overview(t)["next"]
    assert (step.code, step.url) == ("final_possible", reverse("final_stage", args=[t.pk]))
    client.force_login(organizer)
    page = client.get(reverse("tournament_detail", args=[t.pk]), HTTP_ACCEPT_LANGUAGE="en")
    text = page.content.decode()
    assert "choose a final stage and seat the final" in text
    assert reverse("final_stage", args=[t.pk]) in text
    assert "Finish tournament" in text  # the alternative
    # the organizer chose no final: finishing is the next step
    final_of(t, format=FinalStage.NONE)
    assert event_overview(t)["next"].code == "finish"


def test_no_final_is_offered_when_the_field_is_too_small_for_one(organizer):
    t = quartett(organizer, players=4, rounds=1)
    play_round(t)
    assert event_overview(t)["next"].code == "finish"


# -- one final table -----------------------------------------------------------------


def test_the_final_seats_the_top_four_with_the_leader_at_table_1_seat_1(organizer):
    t = quartett(organizer, rounds=2)
    final_of(t, minutes=30)
    play_round(t, 1)
    play_round(t, 2)
    top = qualifying_top(t, 4)
    assert finals.next_stage(t, finals.config_of(finals.stage_settings(t))) == ("final", None)
    step = event_overview(t)["next"]
    assert (step.code, step.text, step.url) == (
        "seat_final",
        "Seat the final.",
        reverse("final_stage", args=[t.pk]),
    )
    rnd = services.final_seat(tournament=t, by=organizer)
    assert (rnd.number, rnd.stage, rnd.minutes, rnd.published) == (3, "final", 30, True)
    seats = list(
        Seat.objects.filter(table__round=rnd)
        .order_by("table__number", "position")
        .values_list("table__number", "player_id")
    )
    assert seats == [(1, p) for p in top]
    # the settings are frozen now; a second final is refused
    with pytest.raises(ServiceError, match="seated"):
        final_of(t, mode=FinalStage.ADD)
    with pytest.raises(ServiceError, match="seated"):
        services.final_seat(tournament=t, by=organizer)


def test_a_final_of_five_after_tables_of_four_is_seated_printed_and_counted(organizer):
    t = quartett(organizer, rounds=1)
    final_of(t, final_size=5)
    play_round(t)
    rnd = services.final_seat(tournament=t, by=organizer)
    table = rnd.tables.get()
    assert table.seats.count() == 5
    text = _pdf_text(documents.render("sheets", t, rnd.number))
    assert f"{t.name} · Final" in text
    assert all(p.name in text for p in t.players.filter(seats__table=table))
    enter(table)
    end(rnd)
    assert [r.stage for r in standings(t)] == ["final"] * 5 + [""] * 3


def _played_final(organizer, mode=FinalStage.REPLACE):
    t = quartett(organizer, rounds=2)
    final_of(t, mode=mode)
    play_round(t, 1)
    play_round(t, 2)
    rnd = services.final_seat(tournament=t, by=organizer)
    return t, rnd


def test_replace_finalists_first_by_the_final_then_the_rest_everywhere(organizer):
    t, rnd = _played_final(organizer)
    qualifying = qualifying_top(t, 8)
    top = qualifying[:4]
    table = rnd.tables.get()
    players = {p.pk: p for p in t.players.all()}
    # the fourth seed wins the final, the leader comes last
    final_order = [top[3], top[2], top[1], top[0]]
    # while the final is played the standings are the qualifying ones
    assert [r.player_id for r in standings(t)] == qualifying
    enter(table, [players[p] for p in final_order])
    end(rnd)
    assert event_overview(t)["next"].code == "finish"
    expected = final_order + qualifying[4:]
    assert [r.player_id for r in standings(t)] == expected
    rows = listings.standings_rows(t)
    assert [r["player_id"] for r in rows] == expected
    assert [r["place"] for r in rows] == list(range(1, 9))
    assert [r["stage"] for r in rows] == ["final"] * 4 + [""] * 4
    exported = listings.export_standings(t)
    assert [(r["player_id"], r["stage"], r["stage_rank"]) for r in exported[:2]] == [
        (top[3], "final", 1),
        (top[2], "final", 2),
    ]
    # the standings page, the prints
    names = [players[p].name for p in expected]
    page = Client()
    page.force_login(organizer)
    html = page.get(reverse("standings", args=[t.pk])).content.decode()
    assert [html.index(n) for n in names] == sorted(html.index(n) for n in names)
    event.tournament_finish(tournament=t)
    final_text = _pdf_text(documents.render("final", t))
    assert [final_text.index(n) for n in names] == sorted(final_text.index(n) for n in names)
    assert "after 2 rounds and the final" in final_text  # not "round 3 of 3"
    certificates = _pdf_text(documents.render("certificates", t, places=3))
    assert [certificates.index(players[p].name) for p in final_order[:3]] == sorted(
        certificates.index(players[p].name) for p in final_order[:3]
    )
    assert players[top[0]].name not in certificates


def test_add_orders_the_finalists_by_their_points_with_the_final_added(organizer):
    t, rnd = _played_final(organizer, FinalStage.ADD)
    qualifying = qualifying_top(t, 8)
    players = {p.pk: p for p in t.players.all()}
    before = {r.player_id: r.points for r in standings(t)}
    enter(rnd.tables.get(), [players[p] for p in reversed(qualifying[:4])])
    rows = standings(t)
    finalists = rows[:4]
    assert {r.player_id for r in finalists} == set(qualifying[:4])
    # the final's placement points added to each (the last of the table earns none)
    assert all(r.points >= before[r.player_id] for r in finalists)
    assert sum(r.points for r in finalists) > sum(before[r.player_id] for r in finalists)
    assert [r.points for r in finalists] == sorted((r.points for r in finalists), reverse=True)
    assert [r.player_id for r in rows[4:]] == qualifying[4:]
    assert {r.settled for r in finalists} == {"points"}


def test_a_tie_at_the_final_table_settled_by_the_decision_round_says_so(organizer):
    t, rnd = _played_final(organizer)
    table = rnd.tables.get()
    # seats 0 and 1 hold 10 cards each, seat 1 won the decision round
    results.result_submit(
        table=table,
        sheet={"s0_cards": 10, "s1_cards": 10, "s1_decision": True, "s2_cards": 8, "s3_cards": 4},
        by=organizer,
        expected_version=None,
    )
    seats = list(table.seats.order_by("position").values_list("player_id", flat=True))
    rows = standings(t)
    assert [r.player_id for r in rows[:4]] == [seats[1], seats[0], seats[2], seats[3]]
    assert [r.settled for r in rows[:2]] == ["game", "game"]
    lines = finals.final_result_lines(t)
    assert "settled by the rules of Quartett" in lines[0]["settled"]


def test_the_season_placement_points_follow_the_final_order(organizer):
    t, rnd = _played_final(organizer)
    qualifying = qualifying_top(t, 8)
    players = {p.pk: p for p in t.players.all()}
    winner = players[qualifying[3]]
    enter(rnd.tables.get(), [winner] + [players[p] for p in qualifying[:3]])
    for player in t.players.all():
        roster.person_from_player(player=player, by=organizer)
    series = series_services.series_save(
        series=Series(owner=organizer, name="Saison", game="quartett", scheme="placement")
    )
    series_services.series_add_tournament(series=series, tournament=t, by=organizer)
    rows, _tournaments = season_selectors.series_standings(series)
    assert rows[0].person.name == winner.name
    assert rows[0].total == 8  # the winner of 8 players' tournament
    # the ratings count the final's table like any table: 3 games for a finalist
    rated = season_selectors.ratings(organizer, "quartett")
    games = {t.players.get(person_id=pk).pk: r.games for pk, r in rated.items()}
    assert {games[p] for p in qualifying[:4]} == {3}
    assert {games[p] for p in qualifying[4:]} == {2}


# -- semi-finals -----------------------------------------------------------------------


def test_semi_finals_then_the_final_of_their_best(organizer):
    t = quartett(organizer, players=12, rounds=1)
    final_of(t, format=FinalStage.SEMIS, semi_tables=2, semi_size=4, advance=2, final_size=4)
    play_round(t)
    # the qualifiers by seed (a tie on every tiebreak at the cut is drawn by lot)
    seeded = finals.seeds(t, 8)
    seeds = sorted(seeded, key=seeded.get)
    assert set(seeds[:6]) == set(qualifying_top(t, 6))
    semi = services.final_seat(tournament=t, by=organizer)
    assert semi.stage == "semi"
    tables = {
        tb.number: list(tb.seats.order_by("position").values_list("player_id", flat=True))
        for tb in semi.tables.all()
    }
    snake = [[seeds[0], seeds[3], seeds[4], seeds[7]], [seeds[1], seeds[2], seeds[5], seeds[6]]]
    assert [tables[1], tables[2]] == snake
    with pytest.raises(ServiceError, match="semi-finals are not complete"):
        services.final_seat(tournament=t, by=organizer)
    players = {p.pk: p for p in t.players.all()}
    # table 1: the seats' order reversed; table 2 as seated
    enter(semi.tables.get(number=1), [players[p] for p in reversed(tables[1])])
    enter(semi.tables.get(number=2))
    assert end(semi).status == Round.COMPLETE
    lines = {line.player_id: line for line in finals.advancement_lines(t, _config(t))}
    assert lines[seeds[7]].qualified and lines[seeds[0]].qualified is False
    final = services.final_seat(tournament=t, by=organizer)
    at_final = list(
        final.tables.get().seats.order_by("position").values_list("player_id", flat=True)
    )
    # the finalists by their qualifying seed: seeds 2, 3 (table 2), 5, 8 (table 1)
    assert at_final == [seeds[1], seeds[2], seeds[4], seeds[7]]
    enter(final.tables.get())
    rows = standings(t)
    assert [r.player_id for r in rows[:4]] == at_final
    assert [r.stage for r in rows[:8]] == ["final"] * 4 + ["semi"] * 4
    assert {r.player_id for r in rows[8:]} == set(qualifying_top(t, 12)) - set(seeds)


def test_a_finalist_who_drops_after_the_semi_finals_gives_the_seat_to_the_best_left_out(
    organizer,
):
    t = quartett(organizer, players=8, rounds=1)
    final_of(t, format=FinalStage.SEMIS, semi_tables=2, semi_size=4, advance=2, final_size=4)
    play_round(t)
    semi = services.final_seat(tournament=t, by=organizer)
    for table in semi.tables.all():
        enter(table)  # seat order: seats 1 and 2 go on, seat 3 is the best left out
    end(semi)
    final = services.final_seat(tournament=t, by=organizer)
    third = {tb.number: tb.seats.get(position=2).player_id for tb in semi.tables.order_by("number")}
    seeded = finals.seeds(t, 8)
    best_left_out = min(third.values(), key=seeded.get)
    leaver = final.tables.get().seats.get(position=0).player
    player_services.player_drop(player=leaver, by=organizer)
    at_final = set(final.tables.get().seats.values_list("player_id", flat=True))
    assert best_left_out in at_final and leaver.pk not in at_final


def _config(t):
    return finals.config_of(finals.stage_settings(t))


def test_a_finalist_who_drops_before_the_final_starts_gives_the_seat_to_the_next_qualifier(
    client, organizer
):
    t = quartett(organizer, rounds=1)
    final_of(t)
    play_round(t)
    rnd = services.final_seat(tournament=t, by=organizer)
    seeded = finals.seeds(t, 8)
    order = sorted(seeded, key=seeded.get)
    leaver = t.players.get(pk=order[1])
    player_services.player_drop(player=leaver, by=organizer)
    seats = list(rnd.tables.get().seats.order_by("position").values_list("player_id", flat=True))
    assert seats == [order[0], order[4], order[2], order[3]]
    client.force_login(organizer)
    page = client.get(reverse("round_seating", args=[t.pk, rnd.number])).content.decode()
    assert f"{leaver.name} dropped; {t.players.get(pk=order[4]).name} takes the seat." in page
    assert "Seated by the qualifying standings (final stage)." in page


# -- a correction after the final is seated ------------------------------------------


def test_a_correction_that_changes_who_qualifies_shows_it_and_changes_nothing_else(organizer):
    t = quartett(organizer, rounds=1)
    final_of(t)
    rnd = play_round(t)
    final = services.final_seat(tournament=t, by=organizer)
    seated = set(final.tables.get().seats.values_list("player_id", flat=True))
    # round 1's table 1 reversed: its last two now beat its first two
    table = rnd.tables.get(number=1)
    seats = list(table.seats.order_by("position"))
    reversed_sheet = sheet(t, [3, 2, 1, 0], 4)
    preview = results.result_preview_correction(table=table, sheet=reversed_sheet)
    assert preview.final_impact is not None
    assert preview.final_impact["out"] and preview.final_impact["in"]
    assert set(preview.final_impact["in"]) <= {s.player.name for s in seats}
    results.result_submit(
        table=table,
        sheet=reversed_sheet,
        by=organizer,
        expected_version=1,
        reason="Sitze vertauscht",
    )
    # the seated final is untouched; its page says who would qualify now
    assert set(final.tables.get().seats.values_list("player_id", flat=True)) == seated
    impact = finals.impact(t, _config(t))
    assert impact["in"] == preview.final_impact["in"]
    assert impact["out"] == preview.final_impact["out"]


def test_the_correction_page_shows_who_would_qualify_before_anything_is_saved(client, organizer):
    t = quartett(organizer, rounds=1)
    final_of(t)
    rnd = play_round(t)
    services.final_seat(tournament=t, by=organizer)
    table = rnd.tables.get(number=1)
    client.force_login(organizer)
    data = {"action": "save", "expected_version": 1}
    data.update({f"sheet-{k}": str(v) for k, v in sheet(t, [3, 2, 1, 0], 4).items()})
    url = reverse("result_entry", args=[t.pk, 1, 1])
    page = client.post(url, data).content.decode()
    assert 'id="final-impact"' in page
    assert "Round 2, the final stage, is seated." in page
    assert table.submissions.count() == 1  # asked first: nothing saved


# -- the pages -----------------------------------------------------------------------


def test_the_final_page_saves_settings_refuses_bad_ones_and_seats_the_final(client, organizer):
    t = quartett(organizer, rounds=1)
    client.force_login(organizer)
    url = reverse("final_stage", args=[t.pk])
    assert client.get(url).status_code == 200
    settings_url = reverse("final_stage_settings", args=[t.pk])
    form = {
        "format": "table",
        "final_size": 7,
        "semi_tables": 2,
        "semi_size": 4,
        "advance": 2,
        "minutes": 40,
        "mode": "replace",
    }
    bad = client.post(settings_url, form)
    assert bad.status_code == 400
    assert "less than or equal to 6" in bad.content.decode()
    assert not FinalStage.objects.filter(tournament=t).exists()
    form["final_size"] = 4
    assert client.post(settings_url, form).status_code == 302
    early = client.post(reverse("final_stage_seat", args=[t.pk]), follow=True)
    assert "0 of 1 rounds are complete" in early.content.decode()
    play_round(t)
    page = client.get(url).content.decode()
    assert "Qualified: place 1 on points." in page
    german = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Qualifiziert: Platz 1 nach Punkten." in german
    assert "Finale einteilen" in german and "Wer sich qualifiziert" in german
    response = client.post(reverse("final_stage_seat", args=[t.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("round_detail", args=[t.pk, 2])
    assert Table.objects.filter(round__tournament=t, round__stage="final").count() == 1
    detail = client.get(reverse("round_detail", args=[t.pk, 2])).content.decode()
    assert "Final" in detail


def test_a_scorekeeper_sees_the_final_page_but_cannot_seat(client, organizer, other_user):
    t = quartett(organizer, rounds=1)
    t.scorekeepers.add(other_user)
    final_of(t)
    play_round(t)
    client.force_login(other_user)
    assert client.get(reverse("final_stage", args=[t.pk])).status_code == 200
    assert client.post(reverse("final_stage_seat", args=[t.pk])).status_code == 403
    assert not Round.objects.filter(tournament=t).exclude(stage="").exists()


def _pdf_text(data: bytes) -> str:
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        return "\n".join(page.extract_text() or "" for page in pdf.pages)


# -- what the players read ------------------------------------------------------------


@pytest.mark.parametrize(
    ("stage", "names"),
    [
        ("final", {"en": "Final", "de": "Finale"}),
        ("semi", {"en": "Semi-final", "de": "Halbfinale"}),
    ],
)
def test_a_final_stage_round_is_named_by_its_stage_wherever_its_players_read_it(
    client, organizer, stage, names
):
    """The seat link's page, the table's review, the player's slip, the
    table card's slips and the score sheet say "Final" or "Semi-final"
    (German "Finale", "Halbfinale"), not "Round 2"."""
    if stage == "final":
        t = quartett(organizer, rounds=1, self_report=True)
        final_of(t)
    else:
        t = quartett(organizer, players=12, rounds=1, self_report=True)
        final_of(t, format=FinalStage.SEMIS, semi_tables=2, semi_size=4, advance=2)
    play_round(t)
    rnd = services.final_seat(tournament=t, by=organizer)
    assert (rnd.number, rnd.stage) == (2, stage)
    table = rnd.tables.get(number=1)
    first = table.seats.get(position=0).player
    link = f"/p/{token_for(table, 0)}/"
    client.force_login(organizer)
    words = {
        # the round, table and seat within a sentence and in print
        "en": ("round", "table", "seat", "Round", "Table", "Seat"),
        "de": ("Runde", "Tisch", "Sitz", "Runde", "Tisch", "Sitz"),
    }
    for lang, (round_, table_, seat_, round_word, table_word, seat_word) in words.items():
        name = names[lang]
        player = Client(HTTP_ACCEPT_LANGUAGE=lang).get(link)
        assert player.status_code == 200
        page = player.content.decode()
        assert f"{first.name}: {name}, {table_} 1, {seat_} 1" in page
        assert f"<title>{name}, {table_} 1 · {t.name}" in page
        assert f"{round_} 2" not in page and f"{round_word} 2" not in page
        review = client.get(
            reverse("table_review", args=[t.pk, rnd.number, 1]), HTTP_ACCEPT_LANGUAGE=lang
        ).content.decode()
        assert f"<h1>{name}, {table_} 1:" in review
        slip = client.get(
            reverse("seat_slip", args=[t.pk, rnd.number, first.pk]), HTTP_ACCEPT_LANGUAGE=lang
        )
        assert slip.status_code == 200
        assert f"{name} · {table_word} 1 · {seat_word} 1" in _pdf_text(slip.content)
        with translation.override(lang):
            sheets = _pdf_text(documents.render("sheets", t, rnd.number))
            cards = _pdf_text(documents.render("tables", t, rnd.number))
        assert f"{name} · {table_word} 1" in sheets
        assert f"{round_word} 2 · {table_word}" not in sheets
        assert f"{name} · {table_word} 1 · {seat_word} 1" in cards
        assert f"{round_word} 2 · {table_word}" not in cards
    # a player who has left opens the link: its refusal names the round the same way
    player_services.player_drop(player=first, by=organizer)
    for lang in ("en", "de"):
        refused = Client(HTTP_ACCEPT_LANGUAGE=lang).get(link)
        assert refused.status_code == 403
        assert f"{t.name} · {names[lang]}</p>" in refused.content.decode()


# -- the full export ------------------------------------------------------------------


def test_the_full_export_carries_the_final_stage_and_imports_with_the_same_order(
    organizer, other_user
):
    t, rnd = _played_final(organizer, FinalStage.ADD)
    enter(rnd.tables.get(), None)
    end(rnd)
    data = export_json(t)
    copy = import_tournament(data=data, owner=other_user)
    assert FinalStage.objects.get(tournament=copy).mode == FinalStage.ADD
    assert list(copy.round_set.order_by("number").values_list("stage", flat=True)) == [
        "",
        "",
        "final",
    ]
    names = [r.name for r in standings(t)]
    assert [r.name for r in standings(copy)] == names
    # a file whose final stage round sits among the qualifying rounds is refused
    doc = json.loads(data)
    doc["rounds"][0]["stage"] = "final"
    with pytest.raises(ImportRefused, match="come after the 2 qualifying rounds"):
        import_tournament(data=doc, owner=other_user)
    doc = json.loads(data)
    doc["final_stage"]["final_size"] = 9
    with pytest.raises(ImportRefused, match="not one of the allowed table sizes"):
        import_tournament(data=doc, owner=other_user)
