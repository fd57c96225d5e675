"""Registering players: import with line-numbered errors, check-in, drop, teams."""

import pytest
from django.urls import reverse

from tournaments import services
from tournaments.models import PlayerEvent, Round
from tournaments.player_import import parse_players

GOOD = "Name;Verein;Wertung;Geburtsjahr\nAnna Şahin;SK Nord;1500;2001\nŁukasz Nowak;;;1999\n"


def test_import_reads_a_german_header_and_semicolons():
    rows, errors = parse_players(GOOD)
    assert errors == []
    assert [(r.name, r.club, r.rating, r.birth_year) for r in rows] == [
        ("Anna Şahin", "SK Nord", 1500, 2001),
        ("Łukasz Nowak", "", None, 1999),
    ]


def test_import_without_header_uses_name_club_rating_birth_year():
    rows, errors = parse_players("Anna, SK Nord, 1500, 2001\n\nBen\n")
    assert errors == []
    assert rows[1].name == "Ben" and rows[1].line == 3


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("Anna,Club,abc\n", 1, "Rating"),
        ("Anna\n,Club\n", 2, "name is missing"),
        ("Anna,,,1850\n", 1, "Birth year"),
        ("Anna,X\nBen\nAnna,x\n", 3, "listed twice (also on line 1)"),
        ("Anna,a,1,2000,extra\n", 1, "Too many columns"),
    ],
)
def test_import_errors_name_their_line(text, line, fragment):
    rows, errors = parse_players(text)
    assert any(e.line == line and fragment in e.message for e in errors), errors


def test_import_refuses_players_already_registered():
    _, errors = parse_players("Anna,SK Nord\n", existing={("anna", "sk nord")})
    assert "already registered" in errors[0].message


def test_import_of_an_empty_list_is_an_error():
    assert parse_players("  \n")[1]


@pytest.mark.django_db
def test_import_view_saves_nothing_until_every_line_is_valid(client, organizer, tournament):
    client.force_login(organizer)
    url = reverse("player_import", args=[tournament.pk])
    bad = "Anna,SK Nord,1500\nBen,SK Nord,zwölf\n"
    response = client.post(url, {"text": bad, "confirm": "1"})
    assert response.status_code == 200
    assert "Line 2" in response.content.decode()
    assert tournament.players.count() == 0
    # a valid list is previewed first, saved only on confirm
    good = "Anna,SK Nord,1500\nBen,SK Nord,1200\n"
    response = client.post(url, {"text": good})
    assert "Preview: 2 players" in response.content.decode()
    assert tournament.players.count() == 0
    response = client.post(url, {"text": good, "confirm": "1"})
    assert response.status_code == 302
    assert sorted(tournament.players.values_list("name", flat=True)) == ["Anna", "Ben"]


@pytest.mark.django_db
def test_check_in_drop_and_readd_are_logged(tournament, organizer):
    p = services.player_add(tournament=tournament, by=organizer, name="Anna")
    services.player_set_checked_in(player=p, checked_in=True, by=organizer)
    services.player_drop(player=p, by=organizer)
    p.refresh_from_db()
    assert p.dropped and not p.checked_in
    with pytest.raises(services.ServiceError, match="re-add"):
        services.player_set_checked_in(player=p, checked_in=True, by=organizer)
    services.player_readd(player=p, by=organizer)
    kinds = list(PlayerEvent.objects.filter(player=p).values_list("kind", flat=True))
    assert kinds == ["check_in", "drop", "readd"]


@pytest.mark.django_db
def test_players_are_removed_only_before_the_first_round(tournament, organizer):
    p = services.player_add(tournament=tournament, by=organizer, name="Anna")
    q = services.player_add(tournament=tournament, by=organizer, name="Ben")
    services.player_remove(player=p, by=organizer)
    Round.objects.create(tournament=tournament, number=1)
    with pytest.raises(services.ServiceError, match="drop"):
        services.player_remove(player=q, by=organizer)
    late = services.player_add(tournament=tournament, by=organizer, name="Clara")
    assert late.late_entry and late.first_round == 2


@pytest.mark.django_db
def test_check_in_over_htmx_answers_with_the_row(client, organizer, tournament):
    p = services.player_add(tournament=tournament, by=organizer, name="Anna")
    client.force_login(organizer)
    url = reverse("player_check_in", args=[tournament.pk, p.pk])
    response = client.post(url, HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert html.strip().startswith("<tr") and "checked in" in html
    p.refresh_from_db()
    assert p.checked_in


@pytest.mark.django_db
def test_teams_need_team_mode_and_two_free_players(organizer):
    t = services.tournament_create(
        owner=organizer, name="Team", game="quartett", table_size=4, allowed_sizes=[4]
    )
    a = services.player_add(tournament=t, by=organizer, name="A")
    b = services.player_add(tournament=t, by=organizer, name="B")
    with pytest.raises(services.ServiceError, match="not played in teams"):
        services.team_register(tournament=t, name="AB", members=[a, b])


@pytest.mark.django_db
def test_tournament_form_rejects_sizes_the_game_does_not_allow(client, organizer):
    client.force_login(organizer)
    response = client.post(
        reverse("tournament_create"),
        {
            "name": "X",
            "game": "quartett",
            "rounds": 5,
            "round_minutes": 40,
            "allowed_sizes": [2, 3],
            "table_size": 4,
            "points_scheme": "placement",
        },
    )
    assert response.status_code == 200
    assert "preferred size must be one of the allowed sizes" in response.content.decode()


@pytest.mark.django_db
def test_tournament_form_gives_game_defaults(client, organizer):
    client.force_login(organizer)
    response = client.post(
        reverse("tournament_create"),
        {
            "name": "Herbst",
            "game": "quartett",
            "rounds": 5,
            "round_minutes": 40,
            "points_scheme": "placement",
            "public": "on",
        },
    )
    assert response.status_code == 302
    t = organizer.owned_tournaments.get()
    assert t.table_size == 4 and t.allowed_sizes == [3, 4, 5]
    assert t.tiebreaks[0] == "points"


@pytest.mark.django_db
def test_demo_command_builds_a_tournament_and_prints_the_login(
    capsys, settings, tmp_path, monkeypatch
):
    from django.core.management import call_command

    from tournaments.services import deadlines

    monkeypatch.setattr(deadlines, "schedule", lambda *a, **k: None)
    settings.VAR_DIR = tmp_path
    call_command("demo", "--first-start", "--players", "12")
    out = capsys.readouterr().out
    assert "Login: user organizer" in out
    assert (tmp_path / "demo-login.txt").exists()
    call_command("demo", "--first-start")  # second start: nothing new
    from tournaments.models import Tournament

    assert Tournament.objects.count() == 1
    demo = Tournament.objects.get()
    assert demo.players.count() == 12
    # two rounds played by the bots through the real services: complete, with
    # a confirmed result at every table, and the grace period restored
    from scoring.models import Submission

    assert list(demo.round_set.values_list("status", flat=True)) == ["complete", "complete"]
    tables = [t for r in demo.round_set.all() for t in r.tables.all()]
    assert all(t.submissions.filter(status=Submission.CONFIRMED).count() == 1 for t in tables)
    assert demo.grace_seconds == 60


@pytest.mark.django_db
def test_game_options_come_from_the_engine(client, organizer):
    client.force_login(organizer)
    response = client.get(reverse("tournament_create") + "?game=terra_trumpf")
    html = response.content.decode()
    assert 'name="opt_deck"' in html and 'name="opt_sheet"' in html
    response = client.post(
        reverse("tournament_create"),
        {
            "name": "TT",
            "game": "terra_trumpf",
            "rounds": 4,
            "round_minutes": 60,
            "points_scheme": "placement",
            "opt_deck": "tiere",
            "opt_sheet": "points",
        },
    )
    assert response.status_code == 302
    t = organizer.owned_tournaments.get()
    assert t.game_options["sheet"] == "points"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b'{"name": "x", "cards": [', "not valid JSON"),
        (b'{"name": "x", "cards": []}', "can&#x27;t be used"),
    ],
)
def test_a_bad_deck_file_is_refused_with_its_reason(client, organizer, content, reason):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(organizer)
    response = client.post(
        reverse("tournament_create"),
        {
            "name": "Q",
            "game": "quartett",
            "rounds": 4,
            "round_minutes": 60,
            "points_scheme": "placement",
            "deck_file": SimpleUploadedFile("deck.json", content),
        },
    )
    assert response.status_code == 200
    assert reason in response.content.decode()
    assert not organizer.owned_tournaments.exists()


@pytest.mark.django_db
def test_the_public_page_links_published_rounds_only(client, tournament):
    from tournaments.models import Round

    Round.objects.create(tournament=tournament, number=1, published=True)
    Round.objects.create(tournament=tournament, number=2)  # a draft
    html = client.get(reverse("tournament_public", args=[tournament.pk])).content.decode()
    assert reverse("round_public", args=[tournament.pk, 1]) in html
    assert reverse("round_projector", args=[tournament.pk, 1]) in html
    assert reverse("round_public", args=[tournament.pk, 2]) not in html


@pytest.mark.django_db
def test_a_round_longer_than_ten_hours_is_refused(client, organizer):
    """The broker's visibility timeout must stay above the longest round."""
    client.force_login(organizer)
    data = {"name": "Marathon", "game": "quartett", "rounds": 5, "points_scheme": "placement"}
    response = client.post(reverse("tournament_create"), data | {"round_minutes": 601})
    assert response.status_code == 200
    assert "Between 1 and 600 minutes." in response.content.decode()
    assert not organizer.owned_tournaments.exists()
    response = client.post(reverse("tournament_create"), data | {"round_minutes": 600})
    assert response.status_code == 302
