"""The club season through the database: roster links, merges and their
undo, series standings that follow corrections, ratings recomputed from the
results, the pages and who may see them."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from scoring.models import Submission
from scoring.season import selectors
from scoring.season import services as series_services
from scoring.season.models import Series
from scoring.season.ratings import compute_ratings
from tournaments import services
from tournaments.models import Player, Round, Seat, Table
from tournaments.roster_models import Person
from tournaments.services import ServiceError, roster

pytestmark = pytest.mark.django_db


def play(tournament, organizer, names, rounds):
    """A tournament with these players and confirmed results: ``rounds`` is a
    list of rounds, each a list of tables as player-name lists in finishing
    order (1st first)."""
    players = {n: services.player_add(tournament=tournament, by=organizer, name=n) for n in names}
    tables = {}
    for number, tables_of_round in enumerate(rounds, start=1):
        rnd = Round.objects.create(tournament=tournament, number=number, status=Round.COMPLETE)
        for t, order in enumerate(tables_of_round, start=1):
            table = Table.objects.create(round=rnd, number=t, status=Table.DONE)
            for pos, name in enumerate(order):
                Seat.objects.create(table=table, player=players[name], position=pos)
            Submission.objects.create(
                table=table,
                version=1,
                status=Submission.CONFIRMED,
                by=organizer,
                **finishing(tournament, len(order)),
            )
            tables[number, t] = table
    return players, tables


def finishing(tournament, n: int) -> dict:
    """A result of ``n`` players in seat order (1st, 2nd, …): for Quartett
    the sheet that says so and what the engine makes of it (so that the
    club export imports), for other games the ranks alone."""
    if tournament.game != "quartett":
        return {"ranks": list(range(1, n + 1)), "figures": [0] * n}
    in_play = len(tournament.engine.deck(n, tournament.game_options)) // n * n
    cards = [in_play // n - i for i in range(1, n)]
    sheet = {f"s{i}_cards": c for i, c in enumerate([in_play - sum(cards), *cards])}
    result = tournament.engine.check_sheet(n, sheet, tournament.game_options)
    assert result.ranks == list(range(1, n + 1))
    return {"sheet": sheet, **result.as_dict()}


def correct(table, ranks, organizer):
    old = Submission.objects.get(table=table, status=Submission.CONFIRMED)
    old.status = Submission.SUPERSEDED
    old.save()
    Submission.objects.create(
        table=table,
        version=old.version + 1,
        status=Submission.CONFIRMED,
        ranks=ranks,
        figures=old.figures,
        by=organizer,
        replaces=old,
        reason="sheet misread",
    )


@pytest.fixture
def season(organizer):
    """Two Quartett tournaments of four, everybody linked to the roster."""
    t1 = services.tournament_create(owner=organizer, name="Januar", game="quartett")
    t2 = services.tournament_create(owner=organizer, name="Februar", game="quartett")
    names = ["Anna", "Bernd", "Clara", "Dora"]
    p1, tab1 = play(t1, organizer, names, [[["Anna", "Bernd", "Clara", "Dora"]]])
    p2, tab2 = play(t2, organizer, names, [[["Dora", "Clara", "Bernd", "Anna"]]] * 1)
    people = {}
    for n in names:
        people[n] = roster.person_from_player(player=p1[n], by=organizer)
        roster.player_attach_person(player=p2[n], person=people[n], by=organizer)
    series = series_services.series_save(
        series=Series(
            owner=organizer,
            name="Jahreswertung",
            game="quartett",
            scheme="table",
            table=[10, 6, 3, 1],
        )
    )
    for t in (t1, t2):
        series_services.series_add_tournament(series=series, tournament=t, by=organizer)
    return {"series": series, "people": people, "t1": t1, "t2": t2, "tab2": tab2, "p2": p2}


def totals(series):
    rows, _ = selectors.series_standings(series)
    return {r.person.name: (r.place, r.total) for r in rows}


def test_season_standings_add_up_both_tournaments(season):
    assert totals(season["series"]) == {
        "Anna": (1, 11),
        "Dora": (1, 11),
        "Bernd": (3, 9),
        "Clara": (3, 9),
    }


def test_a_correction_in_tournament_2_changes_the_season_at_once(season, organizer):
    correct(season["tab2"][1, 1], [4, 3, 2, 1], organizer)  # Anna won after all
    assert totals(season["series"])["Anna"] == (1, 20)
    assert totals(season["series"])["Dora"][1] == 2


def test_best_one_of_two_and_minimum(season, organizer):
    series = season["series"]
    series.best, series.minimum = 1, 2
    series_services.series_save(series=series)
    assert totals(series) == {"Anna": (1, 10), "Dora": (1, 10), "Bernd": (3, 6), "Clara": (3, 6)}
    series.minimum = 3
    series_services.series_save(series=series)
    assert all(place is None for place, _ in totals(series).values())


def test_a_tournament_of_another_game_is_refused(season, organizer):
    other = services.tournament_create(owner=organizer, name="Trumpf", game="trumpet")
    with pytest.raises(ServiceError):
        series_services.series_add_tournament(
            series=season["series"], tournament=other, by=organizer
        )


def test_unlinked_entries_are_shown_apart_until_linked(season, organizer):
    t3 = services.tournament_create(owner=organizer, name="März", game="quartett")
    p3, _ = play(t3, organizer, ["Anna", "Emil"], [[["Emil", "Anna"]]])
    series_services.series_add_tournament(series=season["series"], tournament=t3, by=organizer)
    rows, _ = selectors.series_standings(season["series"])
    annas = [r for r in rows if r.person.name == "Anna"]
    assert len(annas) == 2 and sum(r.person.linked for r in annas) == 1
    roster.player_attach_person(player=p3["Anna"], person=season["people"]["Anna"], by=organizer)
    rows, _ = selectors.series_standings(season["series"])
    assert [r.played for r in rows if r.person.name == "Anna"] == [3]


def test_merge_moves_entries_and_undo_takes_them_back(organizer):
    t = services.tournament_create(owner=organizer, name="April", game="quartett")
    players, _ = play(t, organizer, ["Jürgen Groß", "Juergen Gross"], [])
    a = roster.person_from_player(player=players["Jürgen Groß"], by=organizer)
    t2 = services.tournament_create(owner=organizer, name="Mai", game="quartett")
    p2, _ = play(t2, organizer, ["Juergen Gross"], [])
    b = roster.person_from_player(player=p2["Juergen Gross"], by=organizer)
    merge = roster.person_merge(kept=a, merged=b, by=organizer)
    assert set(a.entries.values_list("tournament__name", flat=True)) == {"April", "Mai"}
    assert Person.objects.get(pk=b.pk).merged_into_id == a.pk
    roster.person_merge_undo(merge=merge, by=organizer)
    assert list(b.entries.values_list("tournament__name", flat=True)) == ["Mai"]
    assert Person.objects.get(pk=b.pk).merged_into_id is None
    merge.refresh_from_db()
    assert merge.undone_at is not None and merge.undone_by == organizer
    with pytest.raises(ServiceError):
        roster.person_merge_undo(merge=merge, by=organizer)


def test_two_people_of_one_tournament_cant_be_merged(organizer):
    t = services.tournament_create(owner=organizer, name="Juni", game="quartett")
    players, _ = play(t, organizer, ["Anna Berg", "Anna Berk"], [])
    a = roster.person_from_player(player=players["Anna Berg"], by=organizer)
    b = roster.person_from_player(player=players["Anna Berk"], by=organizer)
    with pytest.raises(ServiceError):
        roster.person_merge(kept=a, merged=b, by=organizer)
    assert Player.objects.filter(person=a).count() == 1


def test_ratings_after_a_correction_equal_a_fresh_computation(season, organizer):
    series = season["series"]
    before = selectors.ratings(organizer, "quartett")
    correct(season["tab2"][1, 1], [4, 3, 2, 1], organizer)
    after = selectors.ratings(organizer, "quartett")
    fresh = compute_ratings(selectors._games(organizer, "quartett"))
    anna = season["people"]["Anna"].pk
    assert after[anna].mu == pytest.approx(fresh[anna].mu)
    assert after[anna].mu > before[anna].mu  # Anna won the corrected table
    assert series.pk  # the series is unaffected by reading ratings


def test_team_results_are_rated_as_teams(organizer):
    t = services.tournament_create(
        owner=organizer, name="Terra", game="terra_trumpf", allowed_sizes=[4], table_size=4
    )
    players, tables = play(t, organizer, ["A", "B", "C", "D"], [[["A", "B", "C", "D"]]])
    sub = Submission.objects.get(table=tables[1, 1])
    sub.ranks = [1, 2, 1, 2]  # seats 0 and 2 won as a team
    sub.save()
    people = {n: roster.person_from_player(player=p, by=organizer) for n, p in players.items()}
    ratings = selectors.ratings(organizer, "terra_trumpf")
    assert ratings[people["A"].pk].mu == pytest.approx(ratings[people["C"].pk].mu)
    assert ratings[people["B"].pk].mu == pytest.approx(ratings[people["D"].pk].mu)
    assert ratings[people["A"].pk].mu > ratings[people["B"].pk].mu


# -- pages ---------------------------------------------------------------------


def test_roster_links_page_suggests_and_links_only_on_a_press(client, organizer):
    client.force_login(organizer)
    roster.person_create(owner=organizer, name="Jürgen Groß", club="")
    t = services.tournament_create(owner=organizer, name="Juli", game="quartett")
    players, _ = play(t, organizer, ["Juergen Gross", "Neu Ling"], [])
    page = client.get(reverse("roster_people", args=[t.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Jürgen Groß" in text and "similar name" in text
    assert Player.objects.filter(tournament=t, person__isnull=False).count() == 0
    person = Person.objects.get(name="Jürgen Groß")
    client.post(
        reverse("roster_people", args=[t.pk]),
        {"action": "attach", "player": players["Juergen Gross"].pk, "person": person.pk},
    )
    assert Player.objects.get(pk=players["Juergen Gross"].pk).person == person
    client.post(
        reverse("roster_people", args=[t.pk]),
        {"action": "create", "player": players["Neu Ling"].pk},
    )
    assert Person.objects.filter(owner=organizer, name="Neu Ling").exists()


@pytest.mark.parametrize("value", ["", "x", "²", "-1", "99999999999999", "1e3"])
def test_roster_links_bad_ids_change_nothing(client, organizer, value):
    client.force_login(organizer)
    t = services.tournament_create(owner=organizer, name="Aug", game="quartett")
    play(t, organizer, ["A"], [])
    response = client.post(
        reverse("roster_people", args=[t.pk]),
        {"action": "attach", "player": value, "person": value},
    )
    assert response.status_code == 404
    assert not Player.objects.filter(person__isnull=False).exists()


def test_season_pages_and_downloads(client, organizer, season):
    client.force_login(organizer)
    series = season["series"]
    page = client.get(reverse("series_detail", args=[series.pk]))
    assert page.status_code == 200 and "Anna" in page.content.decode()
    person = season["people"]["Anna"]
    assert client.get(reverse("series_person", args=[series.pk, person.pk])).status_code == 200
    person_page = client.get(reverse("person_detail", args=[person.pk]))
    assert person_page.status_code == 200 and "<svg" in person_page.content.decode()
    csv = client.get(reverse("series_csv", args=[series.pk]))
    assert csv.status_code == 200 and "Anna" in csv.content.decode("utf-8-sig")
    pdf = client.get(reverse("series_pdf", args=[series.pk]))
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")


def test_another_organizer_sees_nothing_of_my_season(client, other_user, season):
    client.force_login(other_user)
    series, person = season["series"], season["people"]["Anna"]
    for url in (
        reverse("series_detail", args=[series.pk]),
        reverse("series_csv", args=[series.pk]),
        reverse("series_pdf", args=[series.pk]),
        reverse("series_person", args=[series.pk, person.pk]),
        reverse("person_detail", args=[person.pk]),
    ):
        assert client.get(url).status_code == 404
    assert client.get(reverse("roster")).content.decode().count("Anna") == 0


def test_public_season_page_only_when_public(client, season):
    series = season["series"]
    url = reverse("season_public", args=[series.pk])
    assert client.get(url).status_code == 404
    series.public = True
    series.save()
    page = client.get(url)
    assert page.status_code == 200 and "Dora" in page.content.decode()
    assert reverse("series_person", args=[series.pk, season["people"]["Dora"].pk]) not in (
        page.content.decode()
    )


def test_series_form_refuses_a_rising_table(client, organizer):
    client.force_login(organizer)
    response = client.post(
        reverse("series_list"),
        {"name": "S", "game": "quartett", "scheme": "table", "table_text": "10-20", "minimum": 0},
    )
    assert response.status_code == 200
    assert not Series.objects.exists()


# -- the import preview matches the roster ------------------------------------


def test_import_preview_offers_exact_near_and_new_and_links_only_what_was_chosen(client, organizer):
    client.force_login(organizer)
    groß = roster.person_create(owner=organizer, name="Jürgen Groß", club="SK Nord")
    anna = roster.person_create(owner=organizer, name="Anna Şahin", club="")
    t = services.tournament_create(owner=organizer, name="Sept", game="quartett")
    url = reverse("player_import", args=[t.pk])
    text = "Anna Şahin,,1500\nJuergen Gross,SK Nord,\nBernd Neu,,\n"
    preview = client.post(url, {"text": text}).content.decode()
    assert "exact match" in preview and "similar name" in preview
    assert f'value="p{anna.pk}" selected' in preview  # exact: offered ready to link
    assert f'value="p{groß.pk}" selected' not in preview  # near: only a choice
    assert t.players.count() == 0
    client.post(
        url,
        {
            "text": text,
            "confirm": "1",
            "roster-1": f"p{anna.pk}",
            "roster-2": "",
            "roster-3": "new",
        },
    )
    players = {p.name: p for p in t.players.select_related("person")}
    assert players["Anna Şahin"].person == anna
    assert players["Juergen Gross"].person is None  # not linked silently
    assert players["Bernd Neu"].person.name == "Bernd Neu"


@pytest.mark.parametrize("value", ["p999999", "x", "p²", "p-1", "pp"])
def test_import_with_a_bad_roster_choice_saves_nothing(client, organizer, other_user, value):
    client.force_login(organizer)
    foreign = roster.person_create(owner=other_user, name="Anna Şahin")
    t = services.tournament_create(owner=organizer, name="Okt", game="quartett")
    for choice in (value, f"p{foreign.pk}"):
        response = client.post(
            reverse("player_import", args=[t.pk]),
            {"text": "Anna Şahin,,\n", "confirm": "1", "roster-1": choice},
        )
        assert response.status_code == 200
        assert "roster again" in response.content.decode()
        assert t.players.count() == 0
        assert not Person.objects.filter(owner=organizer).exists()


# -- the club export and import ------------------------------------------------


def test_club_export_and_import_keep_roster_links_and_series(season, organizer, other_user):
    from scoring.season.exchange import export_club, import_club

    doc = export_club(organizer)
    assert [p["name"] for p in doc["roster"]] == ["Anna", "Bernd", "Clara", "Dora"]
    assert all(p["person"] for t in doc["tournaments"] for p in t["players"])
    counts = import_club(data=json.dumps(doc), owner=other_user)
    assert counts == {"people": 4, "known": 0, "tournaments": 2, "series": 1}
    theirs = Series.objects.get(owner=other_user)
    mine = totals(season["series"])
    assert totals(theirs) == mine
    rows, _ = selectors.series_standings(theirs)
    assert all(r.person.linked for r in rows)
    assert Person.objects.filter(owner=other_user).count() == 4
    # importing again finds the same people by name and club instead of doubling them
    again = import_club(data=json.dumps(doc), owner=other_user)
    assert again["known"] == 4 and again["people"] == 0
    assert Person.objects.filter(owner=other_user).count() == 4


@pytest.mark.parametrize(
    "breakage",
    [
        lambda d: d["roster"][0].update(name=None),
        lambda d: d["roster"][0].update(name="A\x00"),
        lambda d: d["roster"][1].update(key=d["roster"][0]["key"]),
        lambda d: d["roster"][0].update(merged_into=999),
        lambda d: d["tournaments"][0]["players"][0].update(person=999),
        lambda d: d["tournaments"][1].update(players=[[[[]]]]),
        lambda d: d["series"][0].update(tournaments=[5]),
        lambda d: d["series"][0].update(scheme="table", table=[1, 5]),
        lambda d: d["series"][0].update(game="chess"),
        lambda d: d.update(roster={"a": 1}),
    ],
)
def test_a_broken_club_file_imports_nothing(season, organizer, other_user, breakage):
    from scoring.exchange.format import ImportRefused
    from scoring.season.exchange import export_club, import_club

    doc = export_club(organizer)
    breakage(doc)
    with pytest.raises(ImportRefused) as info:
        import_club(data=json.dumps(doc), owner=other_user)
    assert info.value.errors
    assert not Person.objects.filter(owner=other_user).exists()
    assert not Series.objects.filter(owner=other_user).exists()
    assert not other_user.owned_tournaments.exists()


def test_club_import_page_reports_problems_in_the_users_language(client, other_user):
    client.force_login(other_user)
    from django.core.files.uploadedfile import SimpleUploadedFile

    response = client.post(
        reverse("club_import"),
        {"file": SimpleUploadedFile("club.json", b'{"format": "nope"}')},
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert response.status_code == 200
    assert "Turnierleiter" in response.content.decode()
    assert not Person.objects.exists()
