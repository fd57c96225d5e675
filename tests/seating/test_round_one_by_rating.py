"""Round 1 seated by rating, the service's and the form's side: the
tournament's setting picks the mode, each player's rating is loaded from
``round1_ratings``, players without a rating are handed over as such, and the
setting shows and saves in the tournament form. Which tables the ratings give
is tested without a database in test_seating_rating.py."""

import pytest
from django.urls import reverse

from tests.factories import PlayerFactory, TournamentFactory, seated_round
from tournaments import seating_selectors, services
from tournaments.models import Player, Seat, Tournament
from tournaments.services import seating as seating_services
from tournaments.views.seating import why_text

pytestmark = pytest.mark.django_db


@pytest.fixture
def requests_sent(monkeypatch):
    from tournaments import seating as algo

    sent = []
    real = algo.seat

    def recording(request):
        sent.append(request)
        return real(request)

    monkeypatch.setattr(algo, "seat", recording)
    return sent


def add_rated(tournament, ratings):
    return [
        Player.objects.create(
            tournament=tournament, name=f"P{k:02d}", checked_in=True, rating=rating
        )
        for k, rating in enumerate(ratings)
    ]


def tables_of(rnd):
    out = {}
    for number, pid in (
        Seat.objects.filter(table__round=rnd)
        .order_by("table__number", "position")
        .values_list("table__number", "player_id")
    ):
        out.setdefault(number, set()).add(pid)
    return out


def test_round_one_follows_the_setting_and_loads_the_ratings(tournament, organizer, requests_sent):
    tournament.round1_seating = "rating_swiss"
    tournament.allowed_sizes = [4]
    tournament.save()
    players = add_rated(tournament, [1200, 2100, None, 1800, 1500, None, 1900, 1600])
    rnd = seating_services.round_seat(tournament=tournament, by=organizer)
    assert rnd.seating_mode == "rating_swiss"
    request = requests_sent[-1]
    assert request["mode"] == "rating_swiss"
    ratings = {e["id"]: e["rating"] for e in request["players"]}
    assert ratings == {p.pk: (None if p.rating is None else float(p.rating)) for p in players}
    assert seating_selectors.round1_ratings(tournament) == ratings
    # table 1: the four strongest; the two without a rating at the last table
    by_rating = sorted((p for p in players if p.rating), key=lambda p: -p.rating)
    assert tables_of(rnd)[1] == {p.pk for p in by_rating[:4]}
    assert {players[2].pk, players[5].pk} <= tables_of(rnd)[2]
    # the saved reasons read on the page
    names = dict(Player.objects.values_list("pk", "name"))
    table2 = rnd.tables.get(number=2)
    text = " ".join(why_text(table2.why, names))
    assert "places 5–8 of the rating order" in text
    assert "No rating: " in text and "P02" in text and "P05" in text


def test_the_random_draw_stays_the_default_and_later_rounds_go_by_standings(
    tournament, organizer, requests_sent
):
    assert Tournament._meta.get_field("round1_seating").default == "random"
    add_rated(tournament, [1500 + k for k in range(8)])
    rnd = seating_services.round_seat(tournament=tournament, by=organizer)
    assert rnd.seating_mode == "random"
    assert "rating" not in requests_sent[-1]["players"][0]
    # by rating is for round 1 only: it ignores standings and who met whom
    from scoring.models import Submission

    for table in rnd.tables.all():
        Submission.objects.create(
            table=table,
            version=1,
            status=Submission.CONFIRMED,
            ranks=[1, 2, 3, 4],
            figures=[1, 2, 3, 4],
        )
    with pytest.raises(services.ServiceError, match="Only round 1 can be seated by rating"):
        seating_services.round_seat(tournament=tournament, by=organizer, mode="rating_swiss")
    assert seating_services.round_seat(tournament=tournament, by=organizer).seating_mode == "swiss"


def test_spread_by_rating_from_the_rounds_page(client, tournament, organizer):
    tournament.round1_seating = "rating_spread"
    tournament.allowed_sizes = [4]
    tournament.save()
    players = add_rated(tournament, [3000 - 100 * k for k in range(12)])
    client.force_login(organizer)
    page = client.get(reverse("round_list", args=[tournament.pk])).content.decode()
    assert 'value="rating_spread" selected' in page
    client.post(reverse("round_seat", args=[tournament.pk]), {"mode": "rating_spread"})
    rnd = tournament.round_set.get(number=1)
    top3 = {p.pk for p in players[:3]}
    # each of the three tables has one of the three strongest
    assert all(len(t & top3) == 1 for t in tables_of(rnd).values())


def test_team_mode_is_not_seated_by_rating(organizer):
    t = services.tournament_create(
        owner=organizer,
        name="Teams",
        game="terra_trumpf",
        table_size=4,
        allowed_sizes=[4],
        team_mode=True,
    )
    add_rated(t, [1000 + k for k in range(8)])
    with pytest.raises(services.ServiceError, match="cannot be seated by rating"):
        seating_services.round_seat(tournament=t, by=organizer, mode="rating_spread")
    assert not t.round_set.exists()


def _form_data(tournament, **extra):
    return {
        "name": tournament.name,
        "game": tournament.game,
        "rounds": tournament.rounds,
        "round_minutes": tournament.round_minutes,
        "table_size": tournament.table_size,
        "allowed_sizes": tournament.allowed_sizes,
        "points_scheme": tournament.points_scheme,
        "grace_seconds": 60,
        **extra,
    }


def test_the_form_shows_and_saves_the_round_one_setting(client, tournament, organizer):
    client.force_login(organizer)
    url = reverse("tournament_edit", args=[tournament.pk])
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'name="round1_seating"' in page and "strong players spread" in page
    response = client.post(url, _form_data(tournament, round1_seating="rating_swiss"))
    assert response.status_code == 302
    tournament.refresh_from_db()
    assert tournament.round1_seating == "rating_swiss"
    # German
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Einteilung der 1. Runde" in page


def test_the_form_refuses_rating_in_team_mode_and_unknown_values(client, tournament, organizer):
    client.force_login(organizer)
    url = reverse("tournament_edit", args=[tournament.pk])
    data = _form_data(tournament, round1_seating="rating_spread", team_mode="on")
    response = client.post(url, data, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    assert "round 1 is drawn at random, not seated by rating" in response.content.decode()
    response = client.post(url, _form_data(tournament, round1_seating="x"))
    assert response.status_code == 200
    tournament.refresh_from_db()
    assert tournament.round1_seating == "random" and not tournament.team_mode


def test_a_draft_seated_by_rating_takes_a_drop_and_a_late_arrival(tournament, organizer):
    tournament.round1_seating = "rating_spread"
    tournament.allowed_sizes = [3, 4, 5]
    tournament.save()
    players = add_rated(tournament, [2000 - 50 * k for k in range(12)])
    rnd = seating_services.round_seat(tournament=tournament, by=organizer)
    services.player_drop(player=players[0], by=organizer)
    late = Player.objects.create(tournament=tournament, name="Spät", checked_in=True, rating=1999)
    seating_services.seating_add_player(round=rnd, player=late, by=organizer)
    seated = set().union(*tables_of(rnd).values())
    assert late.pk in seated and players[0].pk not in seated and len(seated) == 12
    rnd.refresh_from_db()
    assert rnd.seating_stats["players"] == 12
    kinds = list(rnd.seating_changes.values_list("kind", flat=True))
    assert kinds == ["seat", "reseat", "late"]


def test_club_ratings_seat_round_one_when_players_are_linked_to_the_roster(organizer):
    """Two earlier tournaments rate four club members; the next tournament
    seats its round 1 Swiss-style by those ratings (the entered ratings are
    on another scale and are not mixed in)."""
    from scoring import services as scoring_services
    from tournaments.models import Round
    from tournaments.services import roster

    names = ["Anna", "Bernd", "Clara", "Dora"]
    people = {}
    for month in ("Januar", "Februar"):
        t = TournamentFactory(owner=organizer, name=month, allowed_sizes=[4], table_size=4)
        seated = [PlayerFactory(tournament=t, name=name) for name in names]
        for p in seated:
            if p.name in people:
                roster.player_attach_person(player=p, person=people[p.name], by=organizer)
            else:
                people[p.name] = roster.person_from_player(player=p, by=organizer)
        rnd = seated_round(t, order=[seated], time_called=True)
        # Anna always first, Dora always last
        scoring_services.result_submit(
            table=rnd.tables.get(number=1),
            sheet={"s0_cards": 12, "s1_cards": 9, "s2_cards": 7, "s3_cards": 4},
            by=organizer,
            expected_version=None,
        )
        rnd.refresh_from_db()
        assert rnd.status == Round.COMPLETE
    t = TournamentFactory(
        owner=organizer, name="März", round1_seating="rating_swiss", allowed_sizes=[4]
    )
    # entered ratings say the opposite: they must not count
    entered = {"Anna": 1000, "Bernd": 1100, "Clara": 1200, "Dora": 1300}
    players = {}
    for name in [*names, "Emil", "Fritz", "Gerd", "Hanna"]:
        players[name] = PlayerFactory(tournament=t, name=name, rating=entered.get(name, 2000))
        if name in people:
            roster.player_attach_person(player=players[name], person=people[name], by=organizer)
    ratings = seating_selectors.round1_ratings(t)
    assert ratings[players["Anna"].pk] > ratings[players["Dora"].pk]
    assert ratings[players["Emil"].pk] is None  # not in the roster: unrated, seated last
    rnd = seating_services.round_seat(tournament=t, by=organizer)
    assert tables_of(rnd)[1] == {players[n].pk for n in names}
