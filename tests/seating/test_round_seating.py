"""Seating a round from the tournament, the service's side: who is loaded
into the request (checked in, drops, late entries, scores from confirmed
results, who met whom, seat history, byes, teams and clubs), what is saved
(tables, seats, byes, reasons, stats, the change log), refusals translated,
the organizer's swaps and moves, and the pages. What the algorithm decides
with a request is tested without a database in test_seating*.py."""

import itertools

import pytest
from django.urls import reverse

from scoring.models import Submission
from tournaments import services
from tournaments.models import Bye, Player, Round, Seat, SeatingChange, Table, Team
from tournaments.services import seating as seating_services
from tournaments.views.seating import why_text

pytestmark = pytest.mark.django_db


def add_players(tournament, n, *, prefix="P", checked_in=True, **fields):
    return [
        Player.objects.create(
            tournament=tournament, name=f"{prefix}{k:03d}", checked_in=checked_in, **fields
        )
        for k in range(n)
    ]


def seating_of(rnd) -> dict[int, list[int]]:
    """Table number → player ids in seat order."""
    out: dict[int, list[int]] = {}
    for number, pid in (
        Seat.objects.filter(table__round=rnd)
        .order_by("table__number", "position")
        .values_list("table__number", "player_id")
    ):
        out.setdefault(number, []).append(pid)
    return out


def confirm_results(rnd, skill=None, tables=None):
    """A confirmed result for each table (or the given numbers): the player
    with the higher skill (default: lower id) ranks better."""
    skill = skill or (lambda pid: -pid)
    for table in Table.objects.filter(round=rnd).order_by("number"):
        if tables is not None and table.number not in tables:
            continue
        pids = list(table.seats.order_by("position").values_list("player_id", flat=True))
        order = sorted(pids, key=lambda p: -skill(p))
        ranks = [order.index(p) + 1 for p in pids]
        Submission.objects.create(
            table=table, version=1, status=Submission.CONFIRMED, ranks=ranks, figures=ranks
        )


def pairs(seating: dict) -> set:
    return {frozenset(p) for t in seating.values() for p in itertools.combinations(t, 2)}


def seat(tournament, organizer, **kw):
    return seating_services.round_seat(tournament=tournament, by=organizer, **kw)


@pytest.fixture
def requests_sent(monkeypatch):
    """Every request the service hands to the pure package's ``seat``."""
    from tournaments import seating as algo

    sent = []
    real = algo.seat

    def recording(request):
        sent.append(request)
        return real(request)

    monkeypatch.setattr(algo, "seat", recording)
    return sent


# --------------------------------------------------------------------------
# who is seated


def test_round_one_seats_the_checked_in_players(tournament, organizer):
    players = add_players(tournament, 24)
    absent = Player.objects.create(tournament=tournament, name="Absent")
    dropped = Player.objects.create(
        tournament=tournament, name="Dropped", checked_in=True, dropped=True
    )
    late = Player.objects.create(tournament=tournament, name="Late", checked_in=True, first_round=2)
    rnd = seat(tournament, organizer)
    assert rnd.number == 1 and rnd.status == Round.SEATED and not rnd.published
    assert rnd.minutes == tournament.round_minutes
    assert rnd.seating_mode == "random"
    seating = seating_of(rnd)
    seated = [p for t in seating.values() for p in t]
    assert sorted(seated) == sorted(p.pk for p in players)
    assert {absent.pk, dropped.pk, late.pk}.isdisjoint(seated)
    assert list(seating) == [1, 2, 3, 4, 5, 6]
    # the seed seats; no table's cards follow from it (each draws its own
    # secret when it is dealt: tests/play/test_deal_secret.py)
    assert set(rnd.tables.values_list("seed", "secret")) == {(0, "")}
    change = SeatingChange.objects.get(round=rnd)
    assert change.kind == "seat" and change.by == organizer
    assert change.detail["repeat_pairs"] == 0 and "seconds" in change.detail

    # the late entry plays from round 2 on
    confirm_results(rnd)
    rnd2 = seat(tournament, organizer)
    seated2 = [p for t in seating_of(rnd2).values() for p in t]
    assert late.pk in seated2 and len(seated2) == 25


def test_round_two_is_loaded_from_the_confirmed_results(tournament, organizer, requests_sent):
    add_players(tournament, 24)
    rnd1 = seat(tournament, organizer)
    confirm_results(rnd1)
    rnd2 = seat(tournament, organizer)
    assert rnd2.seating_mode == "swiss"
    request = requests_sent[-1]
    assert request["mode"] == "swiss" and request["round"] == 2
    # scores from the confirmed results: at each table of 4, 3-2-1-0 points,
    # the players in standings order
    scores = [e["score"] for e in request["players"]]
    assert scores == sorted(scores, reverse=True)
    assert sorted(scores) == sorted([3.0, 2.0, 1.0, 0.0] * 6)
    assert rnd2.seating_scores == {str(e["id"]): e["score"] for e in request["players"]}
    # who met whom in round 1, and the seats held
    assert {frozenset(m[:2]) for m in request["met"]} == pairs(seating_of(rnd1))
    assert all(m[2] == 1 for m in request["met"])
    s1 = seating_of(rnd1)
    seat_of = {p: k for t in s1.values() for k, p in enumerate(t)}
    assert all(e["seat_history"] == [seat_of[e["id"]]] for e in request["players"])


def test_seating_refuses_while_results_are_missing(tournament, organizer):
    add_players(tournament, 28)
    rnd1 = seat(tournament, organizer)
    confirm_results(rnd1, tables={1, 2, 4, 5, 6})
    with pytest.raises(services.ServiceError, match="Results missing for tables 3, 7 of round 1"):
        seat(tournament, organizer)
    assert Round.objects.filter(tournament=tournament).count() == 1
    number, blocker = seating_services.seat_blocker(tournament)
    assert number == 2 and "tables 3, 7" in blocker


def test_seating_refuses_too_few_players_and_impossible_sizes(tournament, organizer):
    add_players(tournament, 2)
    with pytest.raises(services.ServiceError, match="Too few players"):
        seat(tournament, organizer)
    add_players(tournament, 3, prefix="Q")
    tournament.allowed_sizes = [4]
    tournament.save()
    with pytest.raises(services.ServiceError, match="5 players cannot be seated at tables of 4"):
        seat(tournament, organizer)
    assert not Round.objects.filter(tournament=tournament).exists()


def test_no_round_after_the_last(tournament, organizer):
    add_players(tournament, 8)
    tournament.rounds = 1
    tournament.save()
    confirm_results(seat(tournament, organizer))
    with pytest.raises(services.ServiceError, match="1 round has been seated"):
        seat(tournament, organizer)


# --------------------------------------------------------------------------
# the organizer's changes


def test_swap_and_move_are_logged_and_refused_after_publishing(tournament, organizer):
    add_players(tournament, 24)
    rnd = seat(tournament, organizer)
    before = seating_of(rnd)
    a, b = before[1][0], before[2][1]
    pa, pb = Player.objects.get(pk=a), Player.objects.get(pk=b)
    seating_services.seating_swap(round=rnd, player_a=pa, player_b=pb, by=organizer)
    after = seating_of(rnd)
    assert after[1][0] == b and after[2][1] == a
    assert {k: v for k, v in after.items() if k not in (1, 2)} == {
        k: v for k, v in before.items() if k not in (1, 2)
    }

    # a move keeps sizes allowed (3, 4, 5): 1 → 2 gives 3 and 5
    mover = Player.objects.get(pk=after[1][1])
    seating_services.seating_move(round=rnd, player=mover, table_number=2, by=organizer)
    moved = seating_of(rnd)
    assert len(moved[1]) == 3 and moved[2][-1] == mover.pk
    # another one would leave 2 and 6 players
    other = Player.objects.get(pk=moved[1][0])
    with pytest.raises(services.ServiceError, match="Table 2 would have 6 players"):
        seating_services.seating_move(round=rnd, player=other, table_number=2, by=organizer)
    assert seating_of(rnd) == moved

    kinds = list(SeatingChange.objects.filter(round=rnd).values_list("kind", flat=True))
    assert kinds == ["seat", "swap", "move"]
    swap = SeatingChange.objects.get(round=rnd, kind="swap")
    assert swap.by == organizer and swap.detail["names"] == [pa.name, pb.name]
    assert Table.objects.get(round=rnd, number=1).why[0]["code"].startswith("small_table")

    seating_services.seating_publish(round=rnd, by=organizer)
    with pytest.raises(services.ServiceError, match="published"):
        seating_services.seating_swap(round=rnd, player_a=pa, player_b=pb, by=organizer)
    with pytest.raises(services.ServiceError, match="published"):
        seating_services.seating_move(round=rnd, player=other, table_number=3, by=organizer)
    assert seating_of(rnd) == moved
    assert SeatingChange.objects.filter(round=rnd, kind="publish").count() == 1


def test_a_swap_that_creates_a_repeat_says_so(tournament, organizer):
    add_players(tournament, 8)
    rnd1 = seat(tournament, organizer)
    confirm_results(rnd1)
    rnd2 = seat(tournament, organizer)
    s1, s2 = seating_of(rnd1), seating_of(rnd2)
    # bring two round-1 table-mates together again
    a = s2[1][0]
    t1 = next(t for t in s1.values() if a in t)
    b = next(p for p in t1 if p != a and p not in s2[1])
    victim = next(p for p in s2[1] if p != a)
    detail = seating_services.seating_swap(
        round=rnd2,
        player_a=Player.objects.get(pk=victim),
        player_b=Player.objects.get(pk=b),
        by=organizer,
    )
    assert detail["repeats"]
    why = Table.objects.get(round=rnd2, number=1).why
    assert "repeat_manual" in [w["code"] for w in why]
    assert any("changed by hand" in t for t in why_text(why))


# --------------------------------------------------------------------------
# why


def test_why_names_an_unavoidable_repeat(tournament, organizer):
    tournament.allowed_sizes = [4]
    tournament.save()
    add_players(tournament, 4)
    rnd1 = seat(tournament, organizer)
    assert Table.objects.get(round=rnd1).why == []
    confirm_results(rnd1)
    rnd2 = seat(tournament, organizer)
    why = Table.objects.get(round=rnd2).why
    # saved as answered, with the round loaded from the history
    repeats = [w for w in why if w["code"] == "repeat"]
    assert repeats and all(w["params"]["rounds"] == [1] for w in repeats)
    text = why_text(why)
    assert any("meet again" in t and "round 1" in t for t in text)


def test_small_tables_had_are_loaded_and_the_reason_is_saved(tournament, organizer, requests_sent):
    add_players(tournament, 7)
    tournament.allowed_sizes = [3, 4]
    tournament.save()
    rnd1 = seat(tournament, organizer)
    confirm_results(rnd1)
    small1 = {p for t in seating_of(rnd1).values() if len(t) == 3 for p in t}
    rnd2 = seat(tournament, organizer)
    request = requests_sent[-1]
    assert {e["id"] for e in request["players"] if e["small_tables"] == 1} == small1
    assert all(e["small_tables"] == 0 for e in request["players"] if e["id"] not in small1)
    small = [t for t in rnd2.tables.all() if t.seats.count() == 3]
    assert len(small) == 1
    # with 7 players every pick of three repeats a pair; the saved reason
    # reads as the page shows it
    names = dict(Player.objects.values_list("pk", "name"))
    text = " ".join(why_text(small[0].why, names))
    assert "otherwise players would meet again" in text and "small tables before" in text


@pytest.fixture
def duel(organizer):
    """A 2-player game (Trumpet at tables of 2): byes for an odd count."""
    return services.tournament_create(
        owner=organizer,
        name="Duell",
        game="trumpet",
        table_size=2,
        allowed_sizes=[2],
        rounds=5,
    )


def test_byes_are_loaded_saved_and_explained(duel, organizer, requests_sent):
    add_players(duel, 5)
    rnd = seat(duel, organizer)
    assert requests_sent[-1]["byes"] is True
    byes = list(Bye.objects.filter(round=rnd).values_list("player_id", flat=True))
    assert len(byes) == 1 and all(len(t) == 2 for t in seating_of(rnd).values())
    names = dict(Player.objects.values_list("pk", "name"))
    assert why_text(rnd.seating_stats["bye_why"], names)[0].startswith(names[byes[0]])
    confirm_results(rnd)
    rnd2 = seat(duel, organizer)
    # the bye of round 1 is in the request of round 2; the rule then gives
    # the bye to someone else (tested in test_seating.py)
    had = {e["id"]: e["byes"] for e in requests_sent[-1]["players"]}
    assert had == {p: int(p == byes[0]) for p in names}
    assert Bye.objects.get(round=rnd2).player_id != byes[0]


# --------------------------------------------------------------------------
# teams, mixing


def test_team_mode_seats_partners_together_and_opposite(organizer):
    t = services.tournament_create(
        owner=organizer,
        name="Teams",
        game="terra_trumpf",
        table_size=4,
        allowed_sizes=[4],
        team_mode=True,
    )
    players = add_players(t, 16)
    for k in range(8):
        team = Team.objects.create(tournament=t, name=f"Team {k}")
        Player.objects.filter(pk__in=[players[2 * k].pk, players[2 * k + 1].pk]).update(team=team)
    for _round in range(2):
        rnd = seat(t, organizer)
        assert rnd.seating_teams == "together"
        for pids in seating_of(rnd).values():
            teams = [Player.objects.get(pk=p).team_id for p in pids]
            assert teams[0] == teams[2] and teams[1] == teams[3] and teams[0] != teams[1]
        confirm_results(rnd)


def test_clubs_apart_are_loaded_and_kept_apart(tournament, organizer, requests_sent):
    for club in ("Nord", "Süd", "Ost", "West"):
        add_players(tournament, 4, prefix=club, club=f" {club} " if club == "Ost" else club)
    rnd = seat(tournament, organizer, clubs_apart=True)
    request = requests_sent[-1]
    assert request["teams"] == "apart"
    clubs = {e["id"]: e["club"] for e in request["players"]}
    names = dict(Player.objects.values_list("pk", "name"))
    # clubs compared without case and surrounding blanks
    assert clubs == {p: n[:-3].casefold() for p, n in names.items()}
    assert rnd.seating_teams == "apart" and rnd.seating_stats["apart_violations"] == 0


def test_mixing_keeps_its_plan_seed_round_by_round(tournament, organizer, requests_sent):
    add_players(tournament, 16)
    tournament.allowed_sizes = [4]
    tournament.rounds = 5
    tournament.save()
    plan_seeds = set()
    for number in range(1, 4):
        rnd = seat(tournament, organizer, mode="mixing" if number == 1 else None)
        # the mode stays mixing; the loaded history matches the plan, so the
        # round follows it (what the plan is: test_seating.py)
        assert rnd.seating_mode == "mixing" and rnd.seating_stats["planned"]
        request = requests_sent[-1]
        assert (request["mode"], request["rounds"], request["round"]) == ("mixing", 5, number)
        assert request["seed"] == rnd.plan_seed
        plan_seeds.add(rnd.plan_seed)
        confirm_results(rnd)
    assert len(plan_seeds) == 1


# --------------------------------------------------------------------------
# a drop after seating


def test_a_drop_before_the_start_saves_the_reseating_and_logs_it(tournament, organizer):
    tournament.allowed_sizes = [3, 4]
    tournament.save()
    add_players(tournament, 24)
    rnd1 = seat(tournament, organizer)
    confirm_results(rnd1)
    rnd = seat(tournament, organizer)
    before = seating_of(rnd)

    for k in range(2):
        p = Player.objects.get(pk=seating_of(rnd)[3][0])
        services.player_drop(player=p, by=organizer)
        after = seating_of(rnd)
        assert p.pk not in [x for t in after.values() for x in t]
        change = SeatingChange.objects.filter(round=rnd, kind="reseat").last()
        assert change.by == organizer and change.detail["name"] == p.name
        # the tables the change names are the ones that differ
        differ = sorted(n for n in before if after.get(n) != before[n])
        assert differ == change.detail["tables"]
        rnd.refresh_from_db()
        assert rnd.seating_stats["players"] == 24 - (k + 1)
        before = after
    # the second drop left 2 at table 3: a neighbour gave a player, as logged
    assert change.detail["moved"]["from"] in (2, 4) and len(after[3]) == 3
    assert SeatingChange.objects.filter(round=rnd, kind="reseat").count() == 2


def test_a_drop_after_the_start_changes_no_seating(tournament, organizer):
    add_players(tournament, 8)
    rnd = seat(tournament, organizer)
    Round.objects.filter(pk=rnd.pk).update(status=Round.RUNNING)
    before = seating_of(rnd)
    services.player_drop(player=Player.objects.get(pk=before[1][0]), by=organizer)
    assert seating_of(rnd) == before


# --------------------------------------------------------------------------
# determinism


def test_the_same_seed_gives_the_same_seating(tournament, organizer):
    add_players(tournament, 30)
    results = []
    for seed in (11, 11, None, None, 12):
        rnd = seat(tournament, organizer, seed=seed)
        results.append(seating_of(rnd))
        rnd.delete()
    assert results[0] == results[1]
    assert results[2] == results[3]
    assert results[0] != results[4]


# --------------------------------------------------------------------------
# pages


def test_owner_seats_through_the_pages_and_scorekeeper_only_looks(
    client, tournament, organizer, django_user_model
):
    add_players(tournament, 12)
    keeper = django_user_model.objects.create_user("keeper", password="pw-keeper-12345")
    tournament.scorekeepers.add(keeper)

    client.force_login(organizer)
    page = client.get(reverse("round_list", args=[tournament.pk])).content.decode()
    assert "Seat round 1" in page
    response = client.post(reverse("round_seat", args=[tournament.pk]), {"mode": "random"})
    assert response.status_code == 302
    assert response.url == reverse("round_seating", args=[tournament.pk, 1])
    page = client.get(response.url).content.decode()
    assert "Table 3" in page and "P000" in page and "Publish seating" in page
    # the next round waits for results
    page = client.get(reverse("round_list", args=[tournament.pk])).content.decode()
    assert "Results missing for tables 1, 2, 3 of round 1" in page

    # swap over the page
    rnd = Round.objects.get(tournament=tournament, number=1)
    s = seating_of(rnd)
    client.post(
        reverse("seating_swap", args=[tournament.pk, 1]),
        {"player_a": s[1][0], "player_b": s[2][0]},
    )
    assert seating_of(rnd)[1][0] == s[2][0]
    client.post(reverse("seating_publish", args=[tournament.pk, 1]))
    rnd.refresh_from_db()
    assert rnd.published
    page = client.get(reverse("round_seating", args=[tournament.pk, 1])).content.decode()
    assert "Publish seating" not in page and "swapped" in page

    client.force_login(keeper)
    assert client.get(reverse("round_list", args=[tournament.pk])).status_code == 200
    assert client.get(reverse("round_seating", args=[tournament.pk, 1])).status_code == 200
    confirm_results(rnd)
    assert client.post(reverse("round_seat", args=[tournament.pk])).status_code == 403
    assert client.post(reverse("seating_publish", args=[tournament.pk, 1])).status_code == 403
    assert Round.objects.filter(tournament=tournament).count() == 1


def test_the_page_shows_the_why_translated(client, tournament, organizer):
    tournament.allowed_sizes = [4]
    tournament.save()
    add_players(tournament, 4)
    confirm_results(seat(tournament, organizer))
    seat(tournament, organizer)
    client.force_login(organizer)
    page = client.get(
        reverse("round_seating", args=[tournament.pk, 2]), HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "meet again" in page


def test_the_page_text_of_players_moved_out_of_their_score_group():
    # what the seating page says of a saved reason (which players move: test_seating.py)
    why = [
        {"code": "moved_up", "params": {"player": 1, "score": 2.0, "low": 3.0, "high": 3.0}},
    ]
    text = " ".join(why_text(why, {1: "Anna"}))
    assert "Anna" in text and "plays above their score group" in text


def test_a_bye_can_be_swapped_and_takes_a_seat_freed_by_a_drop(duel, organizer):
    add_players(duel, 5)
    rnd = seat(duel, organizer)
    bye = Bye.objects.get(round=rnd).player
    seated = Player.objects.get(pk=seating_of(rnd)[1][0])
    seating_services.seating_swap(round=rnd, player_a=bye, player_b=seated, by=organizer)
    assert Bye.objects.get(round=rnd).player == seated
    assert bye.pk in seating_of(rnd)[1]

    # a drop at a table of 2: the player with the bye takes the free seat
    before = seating_of(rnd)
    leaving = Player.objects.get(pk=before[2][0])
    services.player_drop(player=leaving, by=organizer)
    after = seating_of(rnd)
    assert not Bye.objects.filter(round=rnd).exists()
    assert sorted(after[2]) == sorted([before[2][1], seated.pk])


def test_a_drop_merges_tables_or_flags_a_short_one(tournament, organizer):
    tournament.table_size, tournament.allowed_sizes = 3, [3, 5]
    tournament.save()
    add_players(tournament, 9)
    rnd = seat(tournament, organizer)
    before = seating_of(rnd)
    assert sorted(len(t) for t in before.values()) == [3, 3, 3]
    services.player_drop(player=Player.objects.get(pk=before[3][0]), by=organizer)
    after = seating_of(rnd)
    # two tables merged into one of 5 (which: test_seating_changes.py): the
    # emptied table is deleted, the counts follow
    assert len(after) == 2 and Table.objects.filter(round=rnd).count() == 2
    assert sorted(len(t) for t in after.values()) == [3, 5]
    rnd.refresh_from_db()
    assert rnd.seating_stats["tables"] == 2 and rnd.seating_stats["players"] == 8

    tournament.allowed_sizes = [3]
    tournament.save()
    services.player_drop(player=Player.objects.get(pk=after[1][0]), by=organizer)
    final = seating_of(rnd)
    assert len(final[1]) == 2
    why = Table.objects.get(round=rnd, number=1).why
    assert [w["code"] for w in why] == ["short_table"]
    assert "Move players by hand" in why_text(why)[0]
