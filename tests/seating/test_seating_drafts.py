"""A draft seating on the tournament day: a late arrival
joins it, it is discarded and seated again, a published one is taken back;
counts stay true; the rounds can't be set below the rounds seated. These are
service and page tests: loading and saving. The algorithm's choices are tested
without a database in tests/seating/test_seating_changes.py."""

import pytest
from django.urls import reverse

from tournaments import seating_selectors, selectors, services
from tournaments.forms import TournamentForm
from tournaments.models import Bye, Player, Round, Seat, SeatingChange, Table
from tournaments.services import seating as seating_services

pytestmark = pytest.mark.django_db


def add_players(tournament, n, checked_in=True):
    return [
        Player.objects.create(tournament=tournament, name=f"P{k:03d}", checked_in=checked_in)
        for k in range(n)
    ]


def seated_ids(rnd):
    return set(Seat.objects.filter(table__round=rnd).values_list("player_id", flat=True)) | set(
        Bye.objects.filter(round=rnd).values_list("player_id", flat=True)
    )


def seat(tournament, organizer):
    return seating_services.round_seat(tournament=tournament, by=organizer)


def test_a_late_arrival_takes_a_free_seat_in_the_draft(tournament, organizer):
    tournament.allowed_sizes = [3, 4, 5]
    tournament.save()
    add_players(tournament, 8)
    rnd = seat(tournament, organizer)
    late = Player.objects.create(tournament=tournament, name="Zoe Spät", checked_in=True)
    assert selectors.late_candidates(rnd) == [late]
    before = {t.number: t.seats.count() for t in rnd.tables.all()}
    detail = seating_services.seating_add_player(round=rnd, player=late, by=organizer)
    assert late.pk in seated_ids(rnd)
    after = {t.number: t.seats.count() for t in rnd.tables.all()}
    # one table grew by one, the others are as they were
    assert sum(after.values()) == sum(before.values()) + 1
    assert [n for n in after if after[n] != before.get(n)] == [detail["table"]]
    rnd.refresh_from_db()
    assert rnd.seating_stats["players"] == 9
    assert SeatingChange.objects.filter(round=rnd, kind="late").count() == 1
    # not twice, and not a player who is not checked in
    with pytest.raises(services.ServiceError):
        seating_services.seating_add_player(round=rnd, player=late, by=organizer)
    away = Player.objects.create(tournament=tournament, name="Abwesend", checked_in=False)
    with pytest.raises(services.ServiceError):
        seating_services.seating_add_player(round=rnd, player=away, by=organizer)


def test_a_late_arrival_reseats_only_the_tables_needed(tournament, organizer):
    tournament.allowed_sizes = [3, 4]
    tournament.save()
    add_players(tournament, 12)
    rnd = seat(tournament, organizer)
    before = {t.number: set(t.seats.values_list("player_id", flat=True)) for t in rnd.tables.all()}
    late = Player.objects.create(tournament=tournament, name="Spät", checked_in=True)
    # no table of 4 may grow to 5: tables are re-seated (which ones:
    # test_seating_changes.py); the new table is saved and the log names
    # exactly the tables that changed
    detail = seating_services.seating_add_player(round=rnd, player=late, by=organizer)
    after = {t.number: set(t.seats.values_list("player_id", flat=True)) for t in rnd.tables.all()}
    assert len(after) == 4
    assert sorted(n for n in after if after[n] != before.get(n)) == sorted(detail["tables"])
    assert set().union(*after.values()) == set().union(*before.values()) | {late.pk}
    rnd.refresh_from_db()
    assert rnd.seating_stats["players"] == 13 and rnd.seating_stats["tables"] == 4


def test_a_late_arrival_who_fits_nowhere_is_refused_clearly(tournament, organizer):
    tournament.allowed_sizes = [4]
    tournament.save()
    add_players(tournament, 8)
    rnd = seat(tournament, organizer)
    late = Player.objects.create(tournament=tournament, name="Spät", checked_in=True)
    with pytest.raises(services.ServiceError, match="No table can take another player"):
        seating_services.seating_add_player(round=rnd, player=late, by=organizer)
    assert late.pk not in seated_ids(rnd) and len(seated_ids(rnd)) == 8


def test_a_draft_is_discarded_and_seated_again(tournament, organizer):
    add_players(tournament, 12)
    rnd = seat(tournament, organizer)
    Player.objects.create(tournament=tournament, name="Spät", checked_in=True)
    seating_services.seating_discard(round=rnd, by=organizer)
    assert not Round.objects.filter(pk=rnd.pk).exists()
    assert not Table.objects.filter(round_id=rnd.pk).exists()
    again = seat(tournament, organizer)
    assert again.number == 1 and len(seated_ids(again)) == 13
    # the discard stays in the log (who, when, how many tables), first in the
    # log of the round seated again
    discard = SeatingChange.objects.get(kind="discard")
    assert discard.round is None and discard.tournament == tournament
    assert discard.by == organizer and discard.at is not None
    assert discard.detail == {"round": 1, "tables": 3, "players": 12, "changes": 1}
    log = selectors.seating_log(again)
    assert [c.kind for c in log] == ["discard", "seat"]
    # every discard of round 1 stays, oldest first
    seating_services.seating_discard(round=again, by=organizer)
    assert [c.kind for c in selectors.seating_log(seat(tournament, organizer))] == [
        "discard",
        "discard",
        "seat",
    ]


def test_a_published_seating_is_taken_back_before_the_start(tournament, organizer):
    add_players(tournament, 8)
    rnd = seat(tournament, organizer)
    with pytest.raises(services.ServiceError):
        seating_services.seating_unpublish(round=rnd, by=organizer)
    seating_services.seating_publish(round=rnd, by=organizer)
    with pytest.raises(services.ServiceError, match="unpublish it first"):
        seating_services.seating_discard(round=rnd, by=organizer)
    seating_services.seating_unpublish(round=rnd, by=organizer)
    rnd.refresh_from_db()
    assert not rnd.published
    seating_services.seating_discard(round=rnd, by=organizer)
    assert not Round.objects.filter(tournament=tournament).exists()


def test_a_started_round_is_neither_unpublished_nor_discarded(tournament, organizer):
    from tournaments.services.round_life import round_start

    add_players(tournament, 8)
    rnd = seat(tournament, organizer)
    round_start(round=rnd, by=organizer)
    for action in (seating_services.seating_unpublish, seating_services.seating_discard):
        with pytest.raises(services.ServiceError, match="has started"):
            action(round=rnd, by=organizer)
    assert Round.objects.filter(pk=rnd.pk, published=True).exists()


def test_counts_stay_true_after_a_drop(client, tournament, organizer):
    tournament.allowed_sizes = [3, 4, 5]
    tournament.save()
    players = add_players(tournament, 24)
    rnd = seat(tournament, organizer)
    services.player_drop(player=players[0], by=organizer)
    rnd.refresh_from_db()
    n_tables = rnd.tables.count()
    assert rnd.seating_stats["players"] == 23 and rnd.seating_stats["tables"] == n_tables
    client.force_login(organizer)
    page = client.get(
        reverse("round_seating", args=[tournament.pk, 1]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "23 players" in page and f"{n_tables} tables" in page
    assert "24 players" not in page


def test_rounds_cannot_be_set_below_the_rounds_seated(tournament, organizer):
    add_players(tournament, 8)
    seat(tournament, organizer)
    data = {
        "name": tournament.name,
        "game": tournament.game,
        "rounds": 0,
        "round_minutes": tournament.round_minutes,
        "table_size": tournament.table_size,
        "allowed_sizes": tournament.allowed_sizes,
        "points_scheme": tournament.points_scheme,
    }
    form = TournamentForm(data={**data, "rounds": 1}, instance=tournament)
    form.is_valid()
    assert "rounds" not in form.errors
    tournament.rounds = 5
    tournament.save()
    rnd2 = Round.objects.create(tournament=tournament, number=2)
    form = TournamentForm(data={**data, "rounds": 1}, instance=tournament)
    assert not form.is_valid()
    assert "2 rounds are seated already" in " ".join(form.errors["rounds"])
    rnd2.delete()


def test_the_draft_page_offers_late_arrivals_discard_and_unpublish(client, tournament, organizer):
    add_players(tournament, 8)
    rnd = seat(tournament, organizer)
    late = Player.objects.create(tournament=tournament, name="Zoe Spät", checked_in=True)
    client.force_login(organizer)
    url = reverse("round_seating", args=[tournament.pk, 1])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Add a late arrival" in page and "Zoe Spät" in page and "Discard draft" in page
    response = client.post(
        reverse("seating_add_player", args=[tournament.pk, 1]), {"player": late.pk}
    )
    assert response.status_code == 302 and late.pk in seated_ids(rnd)
    # bad input: a player who is not a candidate changes nothing
    response = client.post(reverse("seating_add_player", args=[tournament.pk, 1]), {"player": "x"})
    assert response.status_code == 302
    client.post(reverse("seating_publish", args=[tournament.pk, 1]))
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Unpublish seating" in page and "Add a late arrival" not in page
    client.post(reverse("seating_unpublish", args=[tournament.pk, 1]))
    response = client.post(reverse("seating_discard", args=[tournament.pk, 1]))
    assert response.url == reverse("round_list", args=[tournament.pk])
    assert not Round.objects.filter(tournament=tournament).exists()
    # seated again: the page's log starts with the discarded draft
    client.post(reverse("round_seat", args=[tournament.pk]), {"mode": "random"})
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "An earlier draft of round 1 (" in page and "was discarded." in page


def test_the_service_saves_what_the_algorithm_answers(tournament, organizer):
    # loading and saving only: the request built from the database, seated by
    # the pure package, is what the round's tables, seats, reasons and byes hold
    from scoring.models import Submission
    from tournaments import seating as algo

    tournament.allowed_sizes = [3, 4]
    tournament.save()
    add_players(tournament, 11)
    rnd1 = seat(tournament, organizer)
    for table in rnd1.tables.all():
        pids = list(table.seats.order_by("position").values_list("player_id", flat=True))
        ranks = [sorted(pids).index(p) + 1 for p in pids]
        Submission.objects.create(
            table=table, version=1, status=Submission.CONFIRMED, ranks=ranks, figures=ranks
        )
    rnd2 = seat(tournament, organizer)
    history = seating_selectors.History(tournament, 2)
    scores, position = seating_selectors.standings_scores(tournament)
    request = seating_selectors.build_request(
        tournament,
        list(tournament.players.all()),
        2,
        mode="swiss",
        seed=rnd2.seating_seed,
        teams=None,
        history=history,
        scores=scores,
        position=position,
    )
    # the history came from round 1: every pair that sat together, with its round
    met = {frozenset(m[:2]) for m in request["met"]}
    for table in rnd1.tables.all():
        ids = list(table.seats.values_list("player_id", flat=True))
        assert all(frozenset((a, b)) in met for a in ids for b in ids if a != b)
    assert all(m[2] == 1 for m in request["met"])
    small = {
        p
        for t in rnd1.tables.all()
        if t.seats.count() == 3
        for p in t.seats.values_list("player_id", flat=True)
    }
    assert {e["id"] for e in request["players"] if e["small_tables"]} == small
    answer = algo.seat(request)
    saved = [
        (t.number, set(t.seats.values_list("player_id", flat=True)), t.why)
        for t in rnd2.tables.order_by("number")
    ]
    assert saved == [
        (k + 1, set(ids), why)
        for k, (ids, why) in enumerate(zip(answer["tables"], answer["reasons"], strict=True))
    ]
    assert rnd2.seating_stats["bye_why"] == answer["bye_reasons"]
